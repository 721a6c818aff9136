# --files-from takes the runs from a list (newline- or NUL-separated, - for stdin), in any order.
. ./batch_setup.inc
printf 'shelf/team-b/serve-1\nshelf/team-a/job-007\n\nshelf/team-b/serve-1\n' > list.txt
"$GOTCHA_BIN" batch --files-from list.txt | sed 's/.*"run":"\([^"]*\)".*/\1/'
printf 'shelf/team-a/job-007\0shelf/bundles/job-200.tar.zst\0' |
    "$GOTCHA_BIN" batch -0 --files-from - | sed 's/.*"run":"\([^"]*\)".*/\1/'
echo "missing run:"
printf 'shelf/no-such-run\n' | "$GOTCHA_BIN" batch -q --files-from - > missing.ndjson
echo "exit $?"
sed 's/.*"run":"\([^"]*\)".*"error":\(.*\)}$/\1 \2/' missing.ndjson

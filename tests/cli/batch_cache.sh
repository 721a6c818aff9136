# --cache: a re-scan reuses unchanged runs byte for byte, re-analyses a changed run, and a corrupt
# cache is reported and rebuilt.
. ./batch_setup.inc
"$GOTCHA_BIN" batch -q --cache c.db shelf > first
"$GOTCHA_BIN" batch -q --cache c.db shelf > second
cmp first second && echo "re-scan with the cache: identical bytes"
# change one run: only that run is analysed again; its verdict follows the new content
printf 'Traceback (most recent call last):\n  File "serve.py", line 12, in <module>\nRuntimeError: CUDA error: an illegal memory access was encountered\n' >> shelf/team-b/serve-1/extra.log
"$GOTCHA_BIN" batch -q --cache c.db shelf > third
diff first third | grep -c '^[<>]' | sed 's/^/changed lines: /'
grep -c 'serve-1' third | sed 's/^/serve-1 rows: /'
grep 'serve-1' third | grep -q 'C.cuda-error' && echo "changed run re-analysed: C.cuda-error"
# a cache of this very configuration whose second row was damaged: reported, rebuilt, not trusted
{ head -1 c.db; echo '0123456789abcdef {"schema":"gotcha.batch/1","run":'; } > bad.db
"$GOTCHA_BIN" batch --cache bad.db shelf 2>&1 >/dev/null | grep 'cache'
printf 'garbage\n' > bad2.db
"$GOTCHA_BIN" batch --cache bad2.db shelf 2>&1 >/dev/null | grep 'cache'
"$GOTCHA_BIN" batch -q --cache bad2.db shelf > rebuilt
cmp third rebuilt && echo "rebuilt cache gives the same rows"
head -c 20 bad2.db; echo
# a cache of the previous format (rows without the dashboard facts) is stale: rebuilt silently
{ echo "gotcha-batch-cache/1 0123456789abcdef"; tail -n +2 c.db | cut -f1; } > old.db
"$GOTCHA_BIN" batch --cache old.db shelf 2>&1 >/dev/null | grep -c 'cache' | sed 's/^/warnings about an old cache: /'
head -c 20 old.db; echo

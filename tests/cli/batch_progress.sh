# Progress (runs done/total, runs/s, ETA) is drawn on stderr only when stderr is a terminal
# (script(1) gives the command a pseudo-terminal); the rows on stdout are the same either way.
mkdir -p "$TEST_TMP/shelf/r1" "$TEST_TMP/shelf/r2"
echo "KeyError: 'labels'" > "$TEST_TMP/shelf/r1/train.log"
echo "2026-05-12 10:00:00,000 INFO done" > "$TEST_TMP/shelf/r2/train.log"
cd "$TEST_TMP"
if ! command -v script >/dev/null 2>&1; then echo "script(1) missing"; exit 1; fi
script -qec "\"$GOTCHA_BIN\" batch -j 1 shelf > tty.rows" /dev/null > tty.err
"$GOTCHA_BIN" batch -j 1 shelf > plain.rows 2> plain.err
tr '\r' '\n' < tty.err | grep -c '^gotcha batch: [0-9]/2 runs, [0-9.]* runs/s, ETA' | sed 's/^/progress lines on a terminal: /'
tr '\r' '\n' < tty.err | grep -q '^gotcha batch: 2/2 runs' && echo "final progress line: 2/2 runs"
wc -c < plain.err | sed 's/^ */bytes on stderr without a terminal: /'
cmp -s tty.rows plain.rows && echo "rows identical with and without a terminal ($(wc -l < plain.rows) rows)"

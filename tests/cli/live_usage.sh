# Usage errors of the live commands: one line and the --help hint on stderr, exit 2; --help of
# each on stdout, exit 0; record runs a command given without "--" as well.
code() {
    "$@" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
    echo "exit $?: $(head -1 "$TEST_TMP/err" | sed "s|$TEST_TMP|<tmp>|g") (stdout: $(wc -l < "$TEST_TMP/out") lines)"
}
code "$GOTCHA_BIN" record
code "$GOTCHA_BIN" record --interval 0 -- true
code "$GOTCHA_BIN" record --bogus -- true
code "$GOTCHA_BIN" preflight --format xml
code "$GOTCHA_BIN" preflight --timeout 1x
code "$GOTCHA_BIN" preflight "$TEST_TMP/no-such-config.yaml"
code "$GOTCHA_BIN" collect
code "$GOTCHA_BIN" collect -
mkdir -p "$TEST_TMP/full" && touch "$TEST_TMP/full/x"
code "$GOTCHA_BIN" record -o "$TEST_TMP/full" -- true
for c in preflight record collect; do
    "$GOTCHA_BIN" $c --help | head -1
    echo "help exit $?"
done
# options end at the command: its own -o and -q are its, not gotcha's
"$GOTCHA_BIN" record -q -o "$TEST_TMP/r" sh -c 'echo "args: $*"' sh -o x -q
echo "exit $?"
cat "$TEST_TMP/r/stdout.log"

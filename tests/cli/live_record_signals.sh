# Signals sent to gotcha record reach the command: SIGINT (what Ctrl-C sends) lets a command that
# traps it clean up and exit 130; SIGTERM ends an untrapping one, and gotcha exits 128 + 15 as a
# shell would, with the shell's "Terminated" line in run.txt. gotcha itself keeps running until
# the command has ended (its note comes after the command's last words).
. ./live_setup.inc
mkdir -p "$TEST_TMP/bin"
# the python3 stand-in (the real interpreter with -S, no PYTHONPATH): never this machine's
# site-packages, so a machine with torch installed gives the same output as one without
unset PYTHONPATH
ln -s "$live/bin/python3" "$TEST_TMP/bin/python3"
PATH=$TEST_TMP/bin:$base_path # no nvidia-smi: the host path of a machine without a driver
wait_line() { # FILE TEXT: at most 10 s
    i=0
    while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
for sig in INT TERM; do
    d=$TEST_TMP/$sig
    "$GOTCHA_BIN" record -o "$d" -- sh -c \
        'trap "echo child got INT; exit 130" INT; echo ready; while :; do sleep 0.1; done' \
        > "$TEST_TMP/$sig.out" 2> "$TEST_TMP/$sig.err" &
    pid=$!
    wait_line "$TEST_TMP/$sig.out" ready
    kill -s "$sig" "$pid"
    wait "$pid"
    echo "SIG$sig: gotcha exit $?"
    cat "$TEST_TMP/$sig.out"
    grep -v '^gotcha: recording' "$TEST_TMP/$sig.err" | mask_times
    sed -n '/^exit/,$p' "$d/run.txt" | grep -v '^kernel log'
done

# gotcha preflight on this machine's real host path with no nvidia-smi (as on a machine without
# an NVIDIA driver), and with an nvidia-smi that hangs like a wedged driver: SKIP lines with the
# reason, ten lines in order, nothing left running, no hang (each tool has a deadline).
. ./live_setup.inc
# left MARK: processes still running with GOTCHA_TEST_MARK=MARK in their environment, that is
# gotcha's own children (the mark is given to gotcha alone, not to this shell): only this test's
# processes are counted, never another job's sleep on a shared machine
left() {
    n=0
    for e in /proc/[0-9]*/environ; do
        { tr "\\0" "\\n" <"$e"; } 2>/dev/null | grep -qx "GOTCHA_TEST_MARK=$1" && n=$((n + 1))
    done
    echo "hung children left: $n"
}
mkdir -p "$TEST_TMP/bin"
# the python3 stand-in (the real interpreter with -S, no PYTHONPATH): never this machine's
# site-packages, so a machine with torch installed gives the same output as one without
unset PYTHONPATH
ln -s "$live/bin/python3" "$TEST_TMP/bin/python3"
for t in ldconfig sleep; do # the real tools, but no nvidia-smi
    p=$(command -v "$t") && ln -s "$p" "$TEST_TMP/bin/$t"
done
PATH=$TEST_TMP/bin "$GOTCHA_BIN" preflight > "$TEST_TMP/out"
echo "exit $?"
# G9 reads this machine's container markers: its status is this machine's, not the test's
sed -e 's/^G9 [A-Z]*:/G9 <marker>:/' -e 's/^\(G[0-9]*\) \([A-Z<>a-z]*\):.*/\1 \2/' "$TEST_TMP/out" |
    tr '\n' ' '
echo
grep -E '^G(4|6|8) ' "$TEST_TMP/out"
# a hung driver: the stand-in sleeps; --timeout 1 gives each nvidia-smi call one second
hang=$((700 + $$ % 97))
start=$(date +%s)
PATH=$live/bin:$base_path NVSMI_REPLAY=hang NVSMI_HANG=$hang GOTCHA_TEST_MARK=$TEST_TMP/smi \
    "$GOTCHA_BIN" preflight --timeout 1 > "$TEST_TMP/hang"
echo "exit $?"
grep '^G4' "$TEST_TMP/hang"
[ $(($(date +%s) - start)) -lt 10 ] && echo "answered within 10 s"
sleep 0.2
left "$TEST_TMP/smi"
# a python3 that never answers (an import stuck on a dead NFS mount, say): killed at its
# deadline (six times --timeout), G1/G2 say so, G7 falls back to nothing
mkdir -p "$TEST_TMP/hungpy"
printf '#!/bin/sh\nexec sleep %s\n' "$((hang + 1))" > "$TEST_TMP/hungpy/python3"
chmod +x "$TEST_TMP/hungpy/python3"
start=$(date +%s)
PATH=$TEST_TMP/hungpy:$TEST_TMP/bin GOTCHA_TEST_MARK=$TEST_TMP/py "$GOTCHA_BIN" preflight --timeout 1 \
    > "$TEST_TMP/hang"
echo "exit $?"
grep -E '^G(1|2|7) ' "$TEST_TMP/hang"
[ $(($(date +%s) - start)) -lt 15 ] && echo "answered within 15 s"
sleep 0.2
left "$TEST_TMP/py"

# gotcha preflight on this machine's real host path with no nvidia-smi (as on a machine without
# an NVIDIA driver), and with an nvidia-smi that hangs like a wedged driver: SKIP lines with the
# reason, ten lines in order, nothing left running, no hang (each tool has a deadline).
. ./live_setup.inc
mkdir -p "$TEST_TMP/bin"
ln -s "$GOTCHA_REAL_PYTHON" "$TEST_TMP/bin/python3"
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
PATH=$live/bin:$base_path NVSMI_REPLAY=hang NVSMI_HANG=$hang "$GOTCHA_BIN" preflight --timeout 1 \
    > "$TEST_TMP/hang"
echo "exit $?"
grep '^G4' "$TEST_TMP/hang"
[ $(($(date +%s) - start)) -lt 10 ] && echo "answered within 10 s"
sleep 0.2
ps -eo args | grep -c "^sleep $hang\$" | sed 's/^/hung children left: /'
# a python3 that never answers (an import stuck on a dead NFS mount, say): killed at its
# deadline (six times --timeout), G1/G2 say so, G7 falls back to nothing
mkdir -p "$TEST_TMP/hungpy"
printf '#!/bin/sh\nexec sleep %s\n' "$((hang + 1))" > "$TEST_TMP/hungpy/python3"
chmod +x "$TEST_TMP/hungpy/python3"
start=$(date +%s)
PATH=$TEST_TMP/hungpy:$TEST_TMP/bin "$GOTCHA_BIN" preflight --timeout 1 > "$TEST_TMP/hang"
echo "exit $?"
grep -E '^G(1|2|7) ' "$TEST_TMP/hang"
[ $(($(date +%s) - start)) -lt 15 ] && echo "answered within 15 s"
sleep 0.2
ps -eo args | grep -c "^sleep $((hang + 1))\$" | sed 's/^/hung children left: /'

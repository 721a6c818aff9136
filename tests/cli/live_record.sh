# gotcha record of a GB10 run (stand-ins) that prints a CUDA OOM and exits 1: the command's own
# output passes through, its exit code is gotcha's, the report is printed, and the record holds
# the host facts; `gotcha scan DIR` then knows GB10, CUDA 13.0 and the torch build although the
# run's logs never name them. Then a healthy run (exit 0, no report) and a command that cannot
# be started (127).
. ./live_setup.inc
use_gpu gb10
# relative record directories: the report names them as given, so its lines do not depend on
# where the test's temporary directory is
cd "$TEST_TMP" || exit 1
run=run
"$GOTCHA_BIN" record -o "$run" --interval 1 -- "$live/after-samples.sh" "$run" 4 \
    "$live/oom-run.sh" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
echo "exit $?"
echo "-- stdout"; cat "$TEST_TMP/out"
echo "-- stderr"; mask_times < "$TEST_TMP/err" | mask_conf
echo "-- files"; (cd "$run" && ls)
echo "-- run.txt"; mask_times < "$run/run.txt"
echo "-- kernel.log"; cat "$run/kernel.log"
echo "-- host-facts.txt"; grep -E '^(PyTorch|CUDA|GPU|Nvidia|Container)' "$run/host-facts.txt"
# the logs the command wrote never name the GPU, the driver or torch's CUDA...
grep -c 'GB10\|CUDA Version\|cu130' "$run/stdout.log" "$run/stderr.log" | mask_times
# ...and the scan of the directory knows them from the host facts
"$GOTCHA_BIN" scan -f json "$run" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("verdict", d["verdict"]["id"], "context", json.dumps(d["context"], sort_keys=True))'
"$GOTCHA_BIN" scan "$run/stdout.log" "$run/stderr.log" -f json | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("logs alone: context", json.dumps(d["context"], sort_keys=True))'

# a run that succeeds: exit 0, no report
"$GOTCHA_BIN" record -o ok -- sh -c 'echo "step 10 loss 1.23"' 2> "$TEST_TMP/err"
echo "healthy exit $?"
mask_times < "$TEST_TMP/err"
# the record's own host-fact files name no failure: no verdict for a healthy run (the weak G9
# is the bare-host UNKNOWN line, the G3 hint the stand-in ring's NV_ERR_NO_MEMORY line)
"$GOTCHA_BIN" scan -f json ok | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("healthy scan:", d["verdict"]["id"], [f["id"] for f in d["findings"]], d["first_error"])'
echo "scan exit $?"
# a command that does not exist: 127, as a shell says
"$GOTCHA_BIN" record -q -o none -- no-such-command-xyz
echo "missing exit $?"
grep '^exit' none/run.txt

# A GB10 with the PyPI CUDA 12.8 torch, and a command that dies of SIGSEGV without a word (as
# a cu12 wheel does at the first .cuda() call): gotcha writes the shell's "Segmentation fault"
# line into run.txt and the report names G1 from the host facts alone.
use_gpu gb10 gb10-cu128
"$GOTCHA_BIN" record -o seg -- "$live/after-samples.sh" seg 4 \
    sh -c 'echo "Epoch 1/3"; kill -SEGV $$' 2> "$TEST_TMP/err"
echo "segfault exit $?"
sed -n '/^exit/,/^kernel/p' seg/run.txt
mask_times < "$TEST_TMP/err" | mask_conf | sed -n '1,12p'

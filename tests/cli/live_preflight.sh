# gotcha preflight with stand-ins that replay a real GB10 (CUDA 13 torch), a GB10 with the PyPI
# CUDA 12.8 torch (G1 FAIL) and an H100 (another GPU: INFO and WARN, no FAIL); the exit codes
# with and without --strict; the JSON against docs/preflight.schema.json.
. ./live_setup.inc
for gpu in gb10 gb10:gb10-cu128 h100; do
    use_gpu "${gpu%%:*}" "${gpu#*:}"
    echo "== $gpu"
    "$GOTCHA_BIN" preflight > "$TEST_TMP/out"
    rc=$?
    cat "$TEST_TMP/out"
    echo "exit $rc"
done
use_gpu h100
"$GOTCHA_BIN" preflight >/dev/null; echo "h100 exit $?"
"$GOTCHA_BIN" preflight --strict >/dev/null; echo "h100 --strict exit $?"
use_gpu gb10
"$GOTCHA_BIN" preflight --strict >/dev/null; echo "gb10 --strict exit $?"
"$GOTCHA_BIN" preflight --format json > "$TEST_TMP/gb10.json"
python3 ../tools/validate_schema.py ../../docs/preflight.schema.json "$TEST_TMP/gb10.json" &&
    echo "gb10 json: valid"
grep -c '"id": "G' "$TEST_TMP/gb10.json"
grep '"is_gb10"\|"torch_cuda"\|"compute_cap"' "$TEST_TMP/gb10.json"
# a launch config with tensor parallelism, on a two-node world
printf 'model: meta-llama/Llama-3.1-70B\ntensor_parallel_size: 2\n' > "$TEST_TMP/serve.yaml"
WORLD_SIZE=2 "$GOTCHA_BIN" preflight "$TEST_TMP/serve.yaml" > "$TEST_TMP/out"
rc=$?
grep '^G10' "$TEST_TMP/out" | mask_times
echo "exit $rc"
# a vLLM server in the process table (argv[0] "vllm", as the vllm CLI runs it), uncapped at
# 0.9: found from /proc even where nvidia-smi lists no process (a copy of the GB10 fixture's
# root with that process's cmdline, NUL-separated as the kernel writes it)
use_gpu gb10
cp -R "$GOTCHA_HOST_ROOT" "$TEST_TMP/root"
mkdir -p "$TEST_TMP/root/proc/4242"
printf 'vllm\000serve\000Qwen/Qwen3-32B\000--gpu-memory-utilization\0000.9\000' \
    > "$TEST_TMP/root/proc/4242/cmdline"
GOTCHA_HOST_ROOT=$TEST_TMP/root "$GOTCHA_BIN" preflight --strict > "$TEST_TMP/out"
echo "exit $?"
grep '^G6' "$TEST_TMP/out"
# the lines name GB10 facts only on a GB10: scanned as a run's input (as a record's preflight.txt
# is), the H100's and this machine's (no GPU) lines claim no GB10, the GB10's do
for gpu in gb10 h100 host; do
    if [ "$gpu" = host ]; then
        # (this machine's note on stderr, if any, is this machine's)
        PATH=$base_path NVSMI_REPLAY= PYTHONPATH= GOTCHA_HOST_ROOT= "$GOTCHA_BIN" preflight \
            > "$TEST_TMP/preflight.txt" 2> /dev/null
    else
        use_gpu "$gpu"
        "$GOTCHA_BIN" preflight > "$TEST_TMP/preflight.txt"
    fi
    "$GOTCHA_BIN" scan -f json "$TEST_TMP/preflight.txt" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(sys.argv[1], "scanned: gb10", d["context"]["gb10"], "verdict", d["verdict"]["id"])' "$gpu"
done

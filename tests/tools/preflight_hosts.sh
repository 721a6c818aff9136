#!/bin/sh
# tests/tools/preflight_hosts.sh - the preflight lines of $GOTCHA_BIN on every fake host of the
# live tests (tests/cli/data/live/, the stand-ins tests/cli/live_preflight*.sh use), in one text:
# a "== host" header, the lines, "exit N" and "strict exit N" per host.
#
# Usage: GOTCHA_BIN=... [GOTCHA_PATTERNS=...] sh tests/tools/preflight_hosts.sh > lines.txt
#
# tests/cli/preflight_legacy.sh diffs this against tests/cli/data/preflight-legacy.txt, the lines
# the hand-written C checks printed (issue #23: the pack's checks must print the same lines).
# Every host is one of the stand-ins, never this machine: the host without nvidia-smi and the hung
# tools read their /proc from the GB10 stand-in's root too, so the text is the same on any machine.
set -u
cli=$(cd "$(dirname "$0")/../cli" && pwd)
live=$cli/data/live
: "${GOTCHA_BIN:?set GOTCHA_BIN}"
GOTCHA_REAL_PYTHON=$(python3 -c 'import sys; print(sys.executable)')
NO_COLOR=1
LC_ALL=C
export GOTCHA_REAL_PYTHON NO_COLOR LC_ALL
for v in CUDA_VISIBLE_DEVICES PYTORCH_CUDA_ALLOC_CONF TORCH_CUDA_ARCH_LIST WORLD_SIZE \
    LOCAL_WORLD_SIZE NNODES RANK MASTER_ADDR NCCL_SOCKET_IFNAME NCCL_IB_HCA TRITON_PTXAS_PATH \
    CUDA_HOME NVIDIA_PYTORCH_VERSION PIP_CONSTRAINT HF_HUB_ENABLE_HF_TRANSFER PYTHONUNBUFFERED \
    NVSMI_REPLAY NVSMI_HANG PYTHONPATH; do
    unset "$v"
done
base_path=$PATH
sed=$(command -v sed) # the hosts below have their own PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gotcha-pfh.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# one NAME [ARGS...]: preflight with the environment the caller set, then again with --strict
one() {
    echo "== $1"
    shift
    "$GOTCHA_BIN" preflight "$@" > "$tmp/out" 2> /dev/null
    rc=$?
    "$sed" "s|$tmp|<tmp>|g" "$tmp/out"
    echo "exit $rc"
    "$GOTCHA_BIN" preflight --strict "$@" > /dev/null 2>&1
    echo "strict exit $?"
}
# gpu NAME [PY]: nvidia-smi replays data/live/NAME, python3 sees data/live/PY/py only, /proc is
# data/live/NAME/root (as live_setup.inc's use_gpu)
gpu() {
    NVSMI_REPLAY=$live/$1 PYTHONPATH=$live/${2:-$1}/py PATH=$live/bin:$base_path \
        GOTCHA_HOST_ROOT=$live/$1/root
    export NVSMI_REPLAY PYTHONPATH PATH GOTCHA_HOST_ROOT
}

gpu gb10 && one gb10
gpu gb10 gb10-cu128 && one gb10:gb10-cu128
gpu h100 && one h100
# a two-node world and a launch config with tensor parallelism
printf 'model: meta-llama/Llama-3.1-70B\ntensor_parallel_size: 2\n' > "$tmp/serve.yaml"
gpu gb10
WORLD_SIZE=2 one "gb10 WORLD_SIZE=2 serve.yaml" "$tmp/serve.yaml"
# a vLLM server in the process table, uncapped at 0.9 (live_preflight.sh's copy of the root)
cp -R "$live/gb10/root" "$tmp/root"
mkdir -p "$tmp/root/proc/4242"
printf 'vllm\000serve\000Qwen/Qwen3-32B\000--gpu-memory-utilization\0000.9\000' \
    > "$tmp/root/proc/4242/cmdline"
GOTCHA_HOST_ROOT=$tmp/root one "gb10 vllm 0.9"
# no nvidia-smi, a python3 with nothing installed (live_preflight_host.sh)
mkdir -p "$tmp/bin" "$tmp/hungpy"
ln -s "$live/bin/python3" "$tmp/bin/python3"
for t in ldconfig sleep; do
    p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
unset NVSMI_REPLAY PYTHONPATH
GOTCHA_HOST_ROOT=$live/gb10/root
PATH=$tmp/bin one "no nvidia-smi, bare python3"
# the same in a container (the H100 stand-in's root has a Docker cgroup)
GOTCHA_HOST_ROOT=$live/h100/root PATH=$tmp/bin one "no nvidia-smi, bare python3, container"
# a hung driver: each nvidia-smi call has one second
PATH=$live/bin:$tmp/bin NVSMI_REPLAY=hang NVSMI_HANG=30 one "hung nvidia-smi" --timeout 1
# a python3 that never answers
printf '#!/bin/sh\nexec sleep 30\n' > "$tmp/hungpy/python3"
chmod +x "$tmp/hungpy/python3"
PATH=$tmp/hungpy:$tmp/bin one "hung python3" --timeout 1

#!/bin/sh
# tests/bench/batch.sh - speed of `gotcha batch` (run by `make bench` after bench/run.sh, or alone):
# BATCH_RUNS generated runs (default 2,000) of a few MB each (BATCH_RUN_SIZE bytes of training log,
# default 2,000,000, plus a small failure log and an nvidia-smi dump that differ per run).
# Prints runs/s with -j1 and -j2 and their ratio, peak RSS, and a cached re-scan's time against
# the first scan's. The training logs are hard links to one generated log: every run still reads
# its bytes through gotcha's whole pipeline, from the page cache, as every run of the first scan
# does on a warm machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${GOTCHA_BIN:?set GOTCHA_BIN}
runs=${BATCH_RUNS:-2000}
size=${BATCH_RUN_SIZE:-2000000}
out=$here/out/batch
rm -f "$out/failed" # a stale mark of an earlier run
mkdir -p "$out"
stamp=$out/runs.$runs.$size
if [ ! -f "$stamp" ]; then
    echo "generating $runs runs of ~$size bytes in $out/runs ..."
    rm -rf "$out/runs" "$out"/runs.*
    cc -O2 -o "$out/genlog" "$here/genlog.c"
    "$out/genlog" "$size" > "$out/base.log"
    i=0
    while [ $i -lt "$runs" ]; do
        d=$out/runs/team-$((i % 20))/run-$i
        mkdir -p "$d"
        ln "$out/base.log" "$d/train.log"
        case $((i % 5)) in
        0) printf 'Traceback (most recent call last):\n  File "train.py", line %d, in <module>\nKeyError: %s\n' $((i % 300)) "'labels'" ;;
        1) printf '[%d.%06d] NVRM: Xid (PCI:0000:01:00): 79, pid=%d, name=python3, GPU has fallen off the bus.\n' $((1000 + i)) $i $((2000 + i)) ;;
        2) printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.00 MiB. GPU 0 has a total capacity of 119.70 GiB of which 9.88 MiB is free.\n' $((20 + i % 500)) ;;
        3) printf 'ImportError: /usr/lib/python3/dist-packages/xformers/_C.so: undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12\n' ;;
        4) printf '2026-05-12 10:%02d:00,000 INFO training finished\n' $((i % 60)) ;;
        esac > "$d/stderr.log"
        printf '| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |\n|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |\n| N/A   %dC    P0             %dW /  N/A  | Not Supported          |     %d%%      Default |\n' \
            $((40 + i % 40)) $((10 + i % 90)) $((i % 100)) > "$d/nvidia-smi.txt"
        i=$((i + 1))
    done
    touch "$stamp"
fi
total=$(du -slm "$out/runs" 2>/dev/null | cut -f1) # -l: every hard link counts
cat -- "$out/base.log" > /dev/null # warm the page cache

measure() { # label, then the command: prints wall seconds and peak RSS KiB
    label=$1; shift
    # batch's statuses are 0..2 (a run failed, a run had nothing to read); past 2 is a crash
    st=0
    /usr/bin/time -f '%e %M' -o "$out/time" "$@" > "$out/rows" 2>/dev/null || st=$?
    if [ "$st" -gt 2 ]; then echo "FAIL $label: exit $st" >&2; : > "$out/failed"; fi
    set -- $(cat "$out/time")
    echo "$label $1 $2"
}

set -- $(measure j1 "$bin" batch -q -j 1 "$out/runs"); t1=$2; rss1=$3
cp "$out/rows" "$out/rows.j1"
set -- $(measure j2 "$bin" batch -q -j 2 "$out/runs"); t2=$2; rss2=$3
sed 's/"duration_ms":[0-9]*//' "$out/rows.j1" > "$out/a"; sed 's/"duration_ms":[0-9]*//' "$out/rows" > "$out/b"
same=$(cmp -s "$out/a" "$out/b" && echo "identical" || echo "DIFFERENT")
rm -f "$out/cache"
set -- $(measure first "$bin" batch -q -j 2 --cache "$out/cache" "$out/runs"); tf=$2
set -- $(measure cached "$bin" batch -q -j 2 --cache "$out/cache" "$out/runs"); tc=$2
rows=$(wc -l < "$out/rows")
awk -v n="$runs" -v mb="$total" -v t1="$t1" -v t2="$t2" -v r1="$rss1" -v r2="$rss2" \
    -v tf="$tf" -v tc="$tc" -v same="$same" -v rows="$rows" 'BEGIN {
    printf "gotcha batch bench: %d runs, %d MB of logs, %d rows\n", n, mb, rows
    printf "%-28s %8s %10s %10s\n", "", "wall s", "runs/s", "RSS KiB"
    printf "%-28s %8.2f %10.1f %10d\n", "batch -j1", t1, n / t1, r1
    printf "%-28s %8.2f %10.1f %10d\n", "batch -j2", t2, n / t2, r2
    printf "-j2 / -j1 speed-up           %.2f (2 cores)\n", t1 / t2
    printf "rows -j1 vs -j2 (duration aside): %s\n", same
    printf "%-28s %8.2f\n", "batch -j2 --cache (first)", tf
    printf "%-28s %8.2f   (%.1f%% of the first)\n", "batch -j2 --cache (re-scan)", tc, 100 * tc / tf
}'
[ ! -f "$out/failed" ] || { echo "bench batch: a batch run failed (above)" >&2; exit 1; }

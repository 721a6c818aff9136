#!/bin/sh
# tests/fuzz/run.sh SECONDS BUILD HARNESS... - run each libFuzzer harness (made by `make fuzz`)
# for SECONDS, one after the other, on one core. The corpus each run grows is kept in
# BUILD/work/HARNESS (reused by the next run); seeds are regenerated into BUILD/seeds. A crash,
# leak, timeout or out-of-memory stops that harness and leaves its input in BUILD/crashes/HARNESS/;
# the script then exits 1. Prints one line per harness: runs, coverage, corpus size; appends its
# wall and CPU seconds to BUILD/fuzz-seconds.log.
set -u
secs=$1
build=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
GOTCHA_PATTERNS=$top/patterns
export GOTCHA_PATTERNS
python3 "$here/seeds.py" "$build/seeds" || exit 2
failed=0
for h in "$@"; do
    mkdir -p "$build/work/$h" "$build/crashes/$h"
    log=$build/work/$h.log
    # -max_len: records and heads are small, whole runs and archives need more room.
    case $h in
    time) max_len=4096 ;;
    pack) max_len=16384 ;;
    scan) max_len=32768 ;;
    *) max_len=65536 ;;
    esac
    t0=$(date +%s)
    timer=
    [ -x /usr/bin/time ] && timer="/usr/bin/time -o $build/work/$h.cpu -f %U+%S"
    $timer "$build/fuzz_$h" "$build/work/$h" "$build/seeds/$h" -dict="$here/gotcha.dict" \
        -max_total_time="$secs" -max_len=$max_len -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="$build/crashes/$h/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    cpu=$(tail -n 1 "$build/work/$h.cpu" 2>/dev/null | awk -F+ 'NF == 2 { printf "%.0f", $1 + $2 }')
    # one line per run in BUILD/fuzz-seconds.log (harness, wall s, CPU s): README.md sums them
    echo "$h $(($(date +%s) - t0)) rc=$rc cpu=${cpu:-?}" >>"$build/fuzz-seconds.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    corp=$(ls "$build/work/$h" | wc -l)
    if [ $rc -eq 0 ]; then
        echo "fuzz $h: ok, ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}, corpus $corp"
    else
        echo "fuzz $h: FAILED (exit $rc), input in $build/crashes/$h/, log $log"
        grep -m1 -E 'ERROR: |promise broken|runtime error' "$log" | sed 's/^/    /'
        failed=1
    fi
done
exit $failed

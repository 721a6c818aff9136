#!/bin/sh
# tests/bench/dashboard.sh BIN - the batch dashboard's bounds at 100,000 runs (make bench-dashboard;
# also run by make bench). BIN is the generator tests/bench/dashboard.c: it makes DASH_RUNS
# (default 100,000) synthetic batch rows, not scans, and times report_dash_write() alone. Fails
# (exit 1) when the page is over DASH_MAX_BYTES (10 MB) or took over DASH_MAX_MS (10 s); the
# time is the best of three builds (a loaded machine's noise only ever adds). Then the page is
# loaded in headless chromium (tests/tools/check_html.sh and check_layout.sh): a skip, said so,
# where chromium is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=${1:?usage: dashboard.sh GENERATOR}
runs=${DASH_RUNS:-100000}
max_bytes=${DASH_MAX_BYTES:-10000000}
max_ms=${DASH_MAX_MS:-10000}
out=$here/out/dashboard
mkdir -p "$out"
best=
for i in 1 2 3; do
    line=$("$bin" "${GOTCHA_PATTERNS:-$top/patterns}" "$runs" "$out/dashboard.html") || {
        echo "FAIL bench-dashboard: the generator failed"; exit 1; }
    set -- $line # runs N bytes B ms T
    bytes=$4 ms=$6
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
rows=$(grep -c '<tr id="run-' "$out/dashboard.html")
echo "dashboard of $runs runs: $bytes bytes (limit $max_bytes), built in $best ms (best of 3; limit $max_ms), $rows runs in its table"
status=0
[ "$bytes" -le "$max_bytes" ] || { echo "FAIL bench-dashboard: page over $max_bytes bytes"; status=1; }
[ "$best" -le "$max_ms" ] || { echo "FAIL bench-dashboard: built in over $max_ms ms"; status=1; }
# every run is counted in the page even though the table lists only some of them
grep -q "The newest [0-9,]* of [0-9,]* runs, in run order (a page lists at most" \
    "$out/dashboard.html" || [ "$rows" -eq "$runs" ] ||
    { echo "FAIL bench-dashboard: the table's limit is not stated"; status=1; }
sh "$top/tests/tools/check_html.sh" "$out/dashboard.html" "$out/dashboard.png"
s=$?
[ $s -eq 0 ] || [ $s -eq 77 ] || status=1
sh "$top/tests/tools/check_layout.sh" "$out/dashboard.html"
s=$?
[ $s -eq 0 ] || [ $s -eq 77 ] || status=1
[ $status -eq 0 ] && echo "OK bench-dashboard"
exit $status

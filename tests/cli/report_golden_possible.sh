# A run with no verdict whose one gotcha line (a CUTLASS FP4 GEMM that failed on another SM) is
# G7 only on a GB10, on a platform the log does not show: the text report's "possible:" line
# names G7, the platform's fact and the command that shows it; md and html say the same; on a
# platform set to another GPU the line is still weighed (also weighed) but nothing is possible.
LOG=data/fp4-runner-unknown-gpu.log
"$GOTCHA_BIN" scan "$LOG"
echo "-- md"
"$GOTCHA_BIN" scan -f md "$LOG" | grep 'Possible'
echo "-- html"
"$GOTCHA_BIN" scan -f html "$LOG" | grep -o '<p class="possible">.*</p>' | sed 's,</section>.*,,'
echo "-- json"
"$GOTCHA_BIN" scan -f json "$LOG" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["possible"], indent=1))'
echo "-- --platform other"
"$GOTCHA_BIN" scan --platform other "$LOG" | grep -E 'possible|G7  0\.'
echo "possible lines: $("$GOTCHA_BIN" scan --platform other "$LOG" | grep -c 'possible:')"

# The rows are the same bytes for -j1, -j2 and -j4, and the same as one scan.
. ./batch_setup.inc
"$GOTCHA_BIN" batch -q -j 1 shelf > j1
"$GOTCHA_BIN" batch -q -j 2 shelf > j2
"$GOTCHA_BIN" batch -q -j 4 shelf > j4
cmp j1 j2 && cmp j1 j4 && echo "same rows for -j1, -j2, -j4 ($(wc -l < j1) runs)"
# the batch verdict of a run is the scan verdict
v=$("$GOTCHA_BIN" scan -f json shelf/team-a/2026-11/job-101 | sed -n 's/^    "id": "\(.*\)",$/\1/p' | head -1)
grep -q "\"run\":\"shelf/team-a/2026-11/job-101\",\"outcome\":\"[a-z-]*\",\"verdict\":\"$v\"" j1 && echo "batch verdict = scan verdict ($v)"

# Splitting the run list across processes with GNU parallel and concatenating the outputs equals
# one process's output after sorting (docs/batch.md, "Past one machine").
# exit 77: skipped by run.sh (not a pass); the goldens hold the real output
if ! command -v parallel >/dev/null 2>&1; then echo "SKIP: GNU parallel not installed"; exit 77; fi
. ./batch_setup.inc
find shelf -mindepth 1 -maxdepth 3 -type d | sort > runs.txt
find shelf/bundles -type f | sort >> runs.txt
"$GOTCHA_BIN" batch -q -j 1 --files-from runs.txt | sort > one
parallel --will-cite --pipe -N 2 -j 3 "$GOTCHA_BIN" batch -q -j 1 --files-from - < runs.txt | sort > split
echo "runs: $(wc -l < runs.txt)"
cmp one split && echo "parallel split = single process ($(wc -l < one) rows)"

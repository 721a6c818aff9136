# Two scans of the same runs print the same bytes (rows carry no wall time), in NDJSON and CSV;
# --timing adds duration_ms to every row (and a CSV column), and a cache keeps it for --timing
# while its rows without --timing still equal a fresh scan's.
. ./batch_setup.inc
"$GOTCHA_BIN" batch -q -j 2 shelf > a.ndjson
"$GOTCHA_BIN" batch -q -j 2 shelf > b.ndjson
cmp a.ndjson b.ndjson && echo "two scans: identical rows ($(wc -l < a.ndjson) runs)"
grep -c duration_ms a.ndjson | sed 's/^/rows with duration_ms: /'
"$GOTCHA_BIN" batch -q -f csv shelf > a.csv
"$GOTCHA_BIN" batch -q -f csv shelf > b.csv
cmp a.csv b.csv && echo "two CSV scans: identical ($(head -1 a.csv))"
"$GOTCHA_BIN" batch -q --timing shelf > t.ndjson
grep -c '"skipped":[0-9]*,"duration_ms":[0-9]*,"error"' t.ndjson | sed 's/^/--timing rows with duration_ms: /'
sed 's/,"duration_ms":[0-9]*//' t.ndjson | cmp - a.ndjson && echo "--timing rows = rows + duration_ms"
"$GOTCHA_BIN" batch -q --timing -f csv shelf | head -1
"$GOTCHA_BIN" batch -q --cache c.db shelf > cached1
"$GOTCHA_BIN" batch -q --cache c.db shelf > cached2
cmp cached1 a.ndjson && cmp cached2 a.ndjson && echo "cached rows = fresh rows"
"$GOTCHA_BIN" batch -q --cache c.db --timing shelf | grep -c '"duration_ms":[0-9]*,' |
    sed 's/^/cached --timing rows with duration_ms: /'
"$GOTCHA_BIN" scan --timing shelf

# --format csv prints a header and one row per run; --summary-only prints the table alone.
. ./batch_setup.inc
# columns by name (a first error's text may hold commas): python's csv reads the quoting
"$GOTCHA_BIN" batch -q -f csv shelf | python3 -c 'import csv, sys
for r in csv.reader(sys.stdin):
    print(",".join([r[0], r[1], r[2], r[4], r[9], r[10], r[11]]))'
"$GOTCHA_BIN" batch -q -f csv shelf | python3 -c 'import csv, sys
rows = list(csv.DictReader(sys.stdin))
print("first error texts:", sum(1 for r in rows if r["first_error_text"]), "of", len(rows), "rows")'

"$GOTCHA_BIN" batch -q --summary-only shelf
echo "exit $?"

# --format csv prints a header and one row per run; --summary-only prints the table alone.
. ./batch_setup.inc
"$GOTCHA_BIN" batch -q -f csv shelf | cut -d, -f1,2,4,8,9,10
"$GOTCHA_BIN" batch -q --summary-only shelf
echo "exit $?"

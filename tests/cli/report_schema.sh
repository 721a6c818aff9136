# Every corpus run's JSON report (plain, --verbose, --redact) validates against
# docs/report.schema.json, and the same inputs in reverse order give the same bytes.
# exit 77: skipped by run.sh (not a pass); the goldens hold the real output
if ! command -v python3 >/dev/null 2>&1; then echo "SKIP: python3 not installed"; exit 77; fi
n=0; bad=0; order=0
for d in ../../corpus/*/; do
    files=$(find "$d" -type f ! -name expected.json | sort)
    "$GOTCHA_BIN" scan -q -f json -o "$TEST_TMP/a.json" $files
    "$GOTCHA_BIN" scan -q -v --redact -f json -o "$TEST_TMP/b.json" $files
    "$GOTCHA_BIN" scan -q -f json -o "$TEST_TMP/c.json" $(echo "$files" | sort -r)
    python3 ../tools/validate_schema.py ../../docs/report.schema.json "$TEST_TMP/a.json" "$TEST_TMP/b.json" ||
        bad=$((bad + 1))
    cmp -s "$TEST_TMP/a.json" "$TEST_TMP/c.json" || { order=$((order + 1)); echo "order changes: $d"; }
    n=$((n + 1))
done
echo "$n runs: $bad with schema errors, $order that depend on input order"

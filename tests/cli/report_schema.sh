# Every corpus run's JSON report (plain, --verbose, --redact) validates against
# docs/report.schema.json, and the same inputs in reverse order give the same bytes.
# Each scan must end with a report's exit status (0 or 1: never 2, a crash or a signal), the three
# scans of a run agree on it, and each writes a fresh file (the old one is removed first, so a scan
# that writes nothing cannot pass on the previous run's report). One python3 process validates all
# 124 reports at the end (one per run cost 62 interpreter starts).
# exit 77: skipped by run.sh (not a pass); the goldens hold the real output
if ! command -v python3 >/dev/null 2>&1; then
    if [ "${CI:-}" = 1 ]; then echo "python3 not installed (CI=1: a missing tool fails)"; exit 1; fi
    echo "SKIP: python3 not installed"; exit 77
fi
n=0; order=0; status=0
docs=
for d in ../../corpus/*/; do
    files=$(find "$d" -type f ! -name expected.json | sort)
    k=$n
    rm -f "$TEST_TMP/a$k.json" "$TEST_TMP/b$k.json" "$TEST_TMP/c$k.json"
    "$GOTCHA_BIN" scan -q -f json -o "$TEST_TMP/a$k.json" $files; sa=$?
    "$GOTCHA_BIN" scan -q -v --redact -f json -o "$TEST_TMP/b$k.json" $files; sb=$?
    "$GOTCHA_BIN" scan -q -f json -o "$TEST_TMP/c$k.json" $(echo "$files" | sort -r); sc=$?
    if [ $sa -gt 1 ] || [ $sb -gt 1 ] || [ $sc -gt 1 ] || [ $sa -ne $sb ] || [ $sa -ne $sc ]; then
        echo "exit status $sa/$sb/$sc (plain/verbose/reversed): $d"; status=1
    fi
    for r in a b c; do
        [ -s "$TEST_TMP/$r$k.json" ] || { echo "no report written ($r): $d"; status=1; }
    done
    docs="$docs $TEST_TMP/a$k.json $TEST_TMP/b$k.json"
    cmp -s "$TEST_TMP/a$k.json" "$TEST_TMP/c$k.json" || { order=$((order + 1)); echo "order changes: $d"; }
    n=$((n + 1))
done
# validate_schema.py prints "DOC: /pointer: message" per problem; a run counts once however many
bad=$(python3 ../tools/validate_schema.py ../../docs/report.schema.json $docs)
vs=$?
[ $vs -le 1 ] || { echo "validate_schema.py: exit $vs"; status=1; }
[ -z "$bad" ] || echo "$bad"
nbad=$(printf '%s\n' "$bad" | sed -n 's/^.*\/[abc]\([0-9]*\)\.json: .*$/\1/p' | sort -u | grep -c .)
echo "$n runs: $nbad with schema errors, $order that depend on input order"
[ $n -gt 0 ] && [ "$nbad" -eq 0 ] && [ $order -eq 0 ] && exit $status
exit 1

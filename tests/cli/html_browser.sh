# The HTML report of the demo run (corpus/G4-a-power-plateau-csv) loaded by headless chromium: no
# console error, no blocked request, not blank (tests/tools/check_html.sh). Skipped (exit 77)
# where chromium or python3 is missing; `make deps` installs both.
"$GOTCHA_BIN" scan -q -f html -o "$TEST_TMP/report.html" \
    $(find ../../corpus/G4-a-power-plateau-csv -type f ! -name expected.json | sort)
echo "scan exit $?"
sh ../tools/check_html.sh "$TEST_TMP/report.html" "$TEST_TMP/report.png" > "$TEST_TMP/check.out"
status=$?
cat "$TEST_TMP/check.out"
exit $status

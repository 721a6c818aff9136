# The batch dashboard of the shared shelf (batch_setup.inc) loaded by headless chromium, as scan's
# page is (html_browser.sh): no console error, no blocked request, not blank
# (tests/tools/check_html.sh); the chart is drawn and every text fits (tests/tools/check_layout.sh).
# Skipped (exit 77) where chromium or python3 is missing; `make deps` installs both.
tools=$(cd ../tools && pwd)
. ./batch_setup.inc
find shelf -exec touch -h -d '2026-02-04 10:00:00' {} +
"$GOTCHA_BIN" batch -q -f html -o dash.html --reports reports shelf
echo "batch exit $?"
sh "$tools"/check_html.sh "$TEST_TMP/dash.html" "$TEST_TMP/dash.png" > check.out
status=$?
# the colour count depends on the browser's fonts and version: not part of the golden
sed 's/, [0-9]* distinct colours sampled,/, N distinct colours sampled,/' check.out
[ $status -eq 0 ] || exit $status
sh "$tools"/check_layout.sh "$TEST_TMP/dash.html"
status=$?
[ $status -eq 0 ] || exit $status
# one run's own report, reached from the dashboard, passes the same checks
first=$(grep -o 'href="reports/[^"]*"' dash.html | head -1 | sed 's/href="//; s/"$//')
sh "$tools"/check_html.sh "$TEST_TMP/$first" > check2.out
status=$?
sed 's/, [0-9]* distinct colours sampled,/, N distinct colours sampled,/; s/^OK: /OK (a linked report): /' check2.out
exit $status

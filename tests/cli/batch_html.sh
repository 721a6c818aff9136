# batch --format html: the dashboard of the shared shelf (batch_setup.inc: five corpus runs, a
# bundle and two unreadable bundles), its bytes the golden. The runs' files get one fixed mtime,
# so the runs whose logs carry no date (the bundles) fall in a known week. The same bytes with
# -j1 and -j3, on stdout and with -o, and from a cache; --reports writes one scan HTML per read
# run, named as the links say; --no-redact shows what the default hides.
. ./batch_setup.inc
TZ=UTC
export TZ
find shelf -exec touch -h -d '2026-02-04 10:00:00' {} +
"$GOTCHA_BIN" batch -q -j1 -f html shelf > dash1.html
echo "exit $?"
"$GOTCHA_BIN" batch -q -j3 -f html -o dash3.html shelf
cmp dash1.html dash3.html && echo "-j1 on stdout and -j3 with -o: identical bytes"
"$GOTCHA_BIN" batch -q --cache c.db shelf > /dev/null
"$GOTCHA_BIN" batch -q --cache c.db -f html shelf > cached.html
cmp dash1.html cached.html && echo "from the cache: identical bytes"
mkdir out
"$GOTCHA_BIN" batch -q -f html -o out/dash.html --reports out/reports shelf
echo "with --reports: exit $?"
ls out/reports | wc -l | sed 's/^ */reports written: /'
# every link to a report names a file that exists, and each report is scan's page of that run
grep -o 'href="reports/[^"]*"' out/dash.html | sed 's/href="//; s/"$//' | sort -u > links
wc -l < links | sed 's/^ */distinct report links: /'
missing=0
while read -r l; do [ -f "out/$l" ] || missing=$((missing + 1)); done < links
echo "links to a missing report: $missing"
grep -l 'Thermal throttling' out/reports/*.html | wc -l | sed 's/^ */reports naming G4: /'
# redaction is on by default; --no-redact keeps the runs' paths' names in the report file names
"$GOTCHA_BIN" batch -q -f html --no-redact --reports raw shelf > raw.html
ls raw | sed 's/-[0-9a-f]\{16\}\.html$/-HASH.html/'
"$GOTCHA_BIN" batch -q -f ndjson --redact shelf > /dev/null
echo "--redact with ndjson and no --reports: exit $?"
# strings from the runs are escaped, and redacted by default with the hosts each run's logs show
# (a syslog line names spark-07; the run's directory is named after it, as shelves often are)
mkdir -p "odd/<img src=x onerror=alert(1)>" odd/spark-07/job-1
printf 'RuntimeError: CUDA error: an illegal memory access was encountered\n' \
    > "odd/<img src=x onerror=alert(1)>/train.log"
printf 'Nov 29 10:12:55 spark-07 python3[4242]: RuntimeError: CUDA error: an illegal memory access was encountered\n' \
    > odd/spark-07/job-1/syslog
"$GOTCHA_BIN" batch -q -f html odd > odd.html
grep -c '<img' odd.html | sed 's/^/raw <img in the page: /'
grep -c '&lt;img src=x' odd.html | sed 's/^/escaped <img lines: /'
grep -c 'spark-07' odd.html | sed 's/^/lines naming spark-07 (redacted): /'
"$GOTCHA_BIN" batch -q -f html --no-redact odd | grep -c 'spark-07' | sed 's/^/lines naming spark-07 (--no-redact): /'
cat dash1.html

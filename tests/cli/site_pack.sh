# A site pack (tests/site-pack/): a gotcha past the ten (G11) and a site id (ACME.quota) go through
# every command and format with no change to the engine: patterns --check, list, explain, scan
# (json verdict and first error, text, md, html, preflight), the contrary role, and batch rows.
# ollama-gb10: a decisive signature the site adds to G3 (no tag, no OOM words) gives G3 on a
# GB10 log: no C stands in the way of the pack. fabric-802: a platform of the site's own (acme-hgx)
# and a line decisive only there.
site=../site-pack
x="--extra-patterns $site/pack"
# the site pack checked with the shipped pack it extends (its G3 signature needs G3)
"$GOTCHA_BIN" patterns --check $x > "$TEST_TMP/check.txt"; echo "exit $?"
# the site's own entries and their counts (the site pack's files fix them); the shipped pack's
# counts change with every signature added to it, so G3 is only shown extended and the total is
# reduced to its example failures
grep -E '^(G11|ACME\.quota|CTX\.acme-short) ' "$TEST_TMP/check.txt"
grep -q -E '^G3 +gotcha +[0-9]+ signatures$' "$TEST_TMP/check.txt" && echo "G3 listed, extended by the site"
sed -n 's/^[0-9]* entries, [0-9]* signatures, \([0-9]* example failures\)$/\1/p' "$TEST_TMP/check.txt"
"$GOTCHA_BIN" list $x | grep -E '^(G10|G11|ACME\.quota) '
"$GOTCHA_BIN" explain $x ACME.quota | sed "s#$GOTCHA_PATTERNS#PATTERNS#" | head -4
echo "--- json"
for run in quota-hit job-time-limit ollama-gb10; do
    "$GOTCHA_BIN" scan $x -f json $site/runs/$run | python3 -c '
import json, sys
r = json.load(sys.stdin)
fe = r["first_error"] or {}
print(r["verdict"]["id"] if r["verdict"] else "none", r["records"], fe.get("id"), fe.get("line"),
      [x["id"] for x in r["ruled_out"]][-2:])'
done
echo "--- text, md, html, preflight"
# the title as a user sees it; the confidence is the pack's own figure (a unit test pins the scoring)
"$GOTCHA_BIN" scan $x $site/runs/quota-hit | grep -m1 -E "^G11 " | sed 's/confidence 0\.[0-9]*$/confidence 0.NN/' 
"$GOTCHA_BIN" scan $x -f md $site/runs/job-time-limit | grep -m1 'ACME.quota'
"$GOTCHA_BIN" scan $x -f html $site/runs/job-time-limit | grep -c 'ACME.quota'
"$GOTCHA_BIN" scan $x -f preflight $site/runs/quota-hit | grep -E '^(G10|G11|ACME\.quota) ' | cut -c1-60
echo "--- contrary: a requeue lowers ACME.quota"
mkdir -p "$TEST_TMP/requeued"
cp $site/runs/job-time-limit/* "$TEST_TMP/requeued/"
echo "slurmctld: Requeuing job 48213" >> "$TEST_TMP/requeued/slurm-48213.out"
# lower than the same run without the requeue line: derived from the two scans, not a pinned figure
"$GOTCHA_BIN" scan $x -f json $site/runs/job-time-limit > "$TEST_TMP/plain.json"
"$GOTCHA_BIN" scan $x -f json "$TEST_TMP/requeued" | python3 -c '
import json, sys
r = json.load(sys.stdin)
plain = json.load(open(sys.argv[1]))
conf = lambda rep: [x for x in rep["findings"] if x["id"] == "ACME.quota"][0]["confidence"]
f = [x for x in r["findings"] if x["id"] == "ACME.quota"][0]
print(r["records"], "lower" if conf(r) < conf(plain) else "NOT LOWER",
      f["summary"].split("Less likely because ")[-1])' "$TEST_TMP/plain.json"
echo "--- batch"
"$GOTCHA_BIN" batch -q $x -f csv $site/runs | cut -d, -f1,3 | sed "s#$site/##"
echo "--- a site's own platform (acme-hgx): declared in the site pack, named by --platform"
# fabric-802 names its H100s (nvidia-smi), fabric-802-unplaced does not: ACME.fabric's line is
# decisive only on the site's box, so only the placed run (or --platform acme-hgx) names it
for run in fabric-802 fabric-802-unplaced; do
    "$GOTCHA_BIN" scan $x -f json $site/runs/$run | python3 -c '
import json, sys
r = json.load(sys.stdin)
c = r["context"]
print(r["verdict"]["id"] if r["verdict"] else "none", c["platform"], c["gb10"], c["acme-hgx"])'
done
"$GOTCHA_BIN" scan $x --platform acme-hgx -f json $site/runs/fabric-802-unplaced | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["verdict"]["id"] if r["verdict"] else "none", r["context"]["platform"],
      r["context"]["platform_from"])'
"$GOTCHA_BIN" scan $x $site/runs/fabric-802 | sed -n 1p | sed 's/.*· //'
"$GOTCHA_BIN" scan $x --platform acme-hgx $site/runs/fabric-802-unplaced | sed -n 1p | sed 's/.*· //'
# a GB10 run read with the site pack is still GB10's, and G3-scoped lines stay there
"$GOTCHA_BIN" scan $x -f json $site/runs/ollama-gb10 | python3 -c '
import json, sys
c = json.load(sys.stdin)["context"]
print(c["platform"], c["gb10"], c["acme-hgx"])'
# without the site pack the id is unknown
"$GOTCHA_BIN" scan --platform acme-hgx $site/runs/fabric-802 2>&1; echo "exit $?"
echo "--- the site's preflight check (G11, pack data: df of its scratch) after the ten"
"$GOTCHA_BIN" preflight $x 2>/dev/null | cut -d' ' -f1 | tr '\n' ' '; echo
"$GOTCHA_BIN" preflight $x 2>/dev/null | grep '^G11 ' | sed 's/[0-9]*% full/N% full/'
ACME_SCRATCH=$TEST_TMP/no-such-dir "$GOTCHA_BIN" preflight $x 2>/dev/null | grep '^G11 '

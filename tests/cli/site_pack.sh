# A site pack (tests/site-pack/): a gotcha past the ten (G11) and a site id (ACME.quota) go through
# every command and format with no change to the engine: patterns --check, list, explain, scan
# (json verdict and first error, text, md, html, preflight), the contrary role, and batch rows.
# ollama-gb10: a decisive signature the site adds to G3 (no tag, no OOM words) gives G3 on a
# GB10 log: no C stands in the way of the pack.
site=../site-pack
x="--extra-patterns $site/pack"
# the site pack checked with the shipped pack it extends (its G3 signature needs G3)
"$GOTCHA_BIN" patterns --check $x > "$TEST_TMP/check.txt"; echo "exit $?"
grep -E '^(G3|G11|ACME\.quota|CTX\.acme-short) |entries' "$TEST_TMP/check.txt"
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
"$GOTCHA_BIN" scan $x $site/runs/quota-hit | grep -m1 -E "^G11 "
"$GOTCHA_BIN" scan $x -f md $site/runs/job-time-limit | grep -m1 'ACME.quota'
"$GOTCHA_BIN" scan $x -f html $site/runs/job-time-limit | grep -c 'ACME.quota'
"$GOTCHA_BIN" scan $x -f preflight $site/runs/quota-hit | grep -E '^(G10|G11|ACME\.quota) ' | cut -c1-60
echo "--- contrary: a requeue lowers ACME.quota"
mkdir -p "$TEST_TMP/requeued"
cp $site/runs/job-time-limit/* "$TEST_TMP/requeued/"
echo "slurmctld: Requeuing job 48213" >> "$TEST_TMP/requeued/slurm-48213.out"
"$GOTCHA_BIN" scan $x -f json "$TEST_TMP/requeued" | python3 -c '
import json, sys
r = json.load(sys.stdin)
f = [x for x in r["findings"] if x["id"] == "ACME.quota"][0]
print(r["records"], f["confidence"], f["summary"].split("Less likely because ")[-1])'
echo "--- batch"
"$GOTCHA_BIN" batch -q $x -f csv $site/runs | cut -d, -f1,2 | sed "s#$site/##"

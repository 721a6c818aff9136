# The ten checks as pack data (patterns/preflight.json) print the lines the hand-written C checks
# printed (issue 23), on every stand-in host of the live tests: tests/tools/preflight_hosts.sh
# runs them, tests/tools/preflight_legacy.py diffs against data/preflight-legacy.txt (the C
# checks' lines, captured once; its header says how) and accepts only what issue 21 changed.
sh ../tools/preflight_hosts.sh > "$TEST_TMP/lines.txt"
python3 ../tools/preflight_legacy.py data/preflight-legacy.txt "$TEST_TMP/lines.txt"
echo "exit $?"

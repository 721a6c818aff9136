# The hidden benchmark stage: ingest + tokenize only, one summary line.
"$GOTCHA_BIN" scan --stage=ingest data/healthy.log
# the pack's word lists classify each member as a scan does: the pack is loaded, so a missing
# one is an error here as in scan
GOTCHA_PATTERNS=$TEST_TMP/no-pack "$GOTCHA_BIN" scan --stage=ingest data/healthy.log >"$TEST_TMP/out" 2>&1; echo "exit $?"; sed "s#$TEST_TMP#TMP#" "$TEST_TMP/out"

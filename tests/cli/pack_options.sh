# --extra-patterns adds a team's own signature without recompiling; --patterns replaces the pack;
# a broken pack file is named with the entry and the problem, and the run exits 2 before scanning.
mkdir -p "$TEST_TMP/extra" "$TEST_TMP/broken"
cat > "$TEST_TMP/extra/team.json" <<'JSON'
{"entries": [{"id": "C.team-quota", "family": "common", "title": "Cluster storage quota exceeded",
  "fix": "Ask for more quota or clean old checkpoints.",
  "signatures": [{"id": "C.team-quota.lustre", "kinds": ["any"], "strength": "strong",
    "regex": "Disk quota exceeded", "summary": "quota",
    "examples": {"match": ["OSError: [Errno 122] Disk quota exceeded"], "no_match": ["quota ok"]},
    "sources": ["errno 122 (EDQUOT) strerror text"]}]}]}
JSON
printf 'Traceback (most recent call last):\nOSError: [Errno 122] Disk quota exceeded\n' > "$TEST_TMP/run.log"
"$GOTCHA_BIN" scan -f json --extra-patterns "$TEST_TMP/extra" "$TEST_TMP/run.log" > "$TEST_TMP/out.json"; echo "extra: exit $?"
grep -o '"id": "C.team-quota"' "$TEST_TMP/out.json" | head -1
"$GOTCHA_BIN" list --patterns "$TEST_TMP/extra" | cut -c1-40
cat > "$TEST_TMP/broken/bad.json" <<'JSON'
{"entries": [{"id": "C.bad", "family": "common", "title": "bad", "fix": "x",
  "signatures": [{"id": "C.bad.regex", "kinds": ["any"], "strength": "strong", "regex": "unclosed (group",
    "examples": {"match": ["unclosed (group"], "no_match": ["x"]}, "sources": ["test"]}]}]}
JSON
"$GOTCHA_BIN" scan --extra-patterns "$TEST_TMP/broken" "$TEST_TMP/run.log" 2> "$TEST_TMP/err.txt"; echo "broken: exit $?"
sed -e "s#$TEST_TMP#TMP#g" -e "s#$GOTCHA_PATTERNS#PATTERNS#g" "$TEST_TMP/err.txt"

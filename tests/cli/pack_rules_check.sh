# gotcha patterns --check refuses a pack whose data model names what does not exist, one line
# per problem with the file and the entry: a contrary role without its sentence; an explains link
# to no gotcha; in rules, an unknown primitive, param, outcome or template variable, a missing
# param, a param of the wrong type, an entry or tag that is not in the pack. A scan with such a
# pack is refused too (exit 2).
p=$TEST_TMP/bad
mkdir -p "$p"
sig='{"id": "G12.x", "kinds": ["any"], "strength": "weak", ROLE"regex": "quota x",
      "examples": {"match": ["quota x"], "no_match": ["quota y"]}, "sources": ["t"]}'
entry() { # EXPLAINS-ID ROLE RULES
    printf '{"entries": [{"id": "G12", "family": "gotcha", "title": "t", "symptom": "s", "cause": "c",
     "check": "k", "fix": "f", "explains": [{"id": "%s", "min_cause": 0.2, "why": "w"}],
     "rules": [%s], "signatures": [%s]}]}\n' "$1" "$3" "$(printf '%s' "$sig" | sed "s/ROLE/$2/")"
}
check() {
    out=$("$GOTCHA_BIN" patterns --check --extra-patterns "$p" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed "s#$TEST_TMP/##" | grep -v '^[A-Z]' | grep -v "^gotcha: cannot load"
    echo "exit $rc"
}
entry G1 '"role": "contrary", ' '' > "$p/site.json"; check
entry G99 '' '' > "$p/site.json"; check
entry G1 '' '{"use": "no-such-primitive", "params": {}, "outcomes": {}},
  {"use": "context-present",
   "params": {"context": {"value": "CTX.nowhere", "why": "w"}, "when_tag": {"value": "no-tag", "why": "w"},
              "extra": {"value": 1, "why": "w"}},
   "outcomes": {"present": {"weight": 0.2, "why": "w", "says": "at {nowhere:.1x}"}, "maybe": {"says": "x"}}},
  {"use": "last-line", "params": {"tag": {"value": 2, "why": "w"}}, "outcomes": {}}' > "$p/site.json"
check
"$GOTCHA_BIN" scan --extra-patterns "$p" ../../corpus/G1-a-undefined-symbol-cu12-wheel/train.log >/dev/null 2>&1
echo "scan exit $?"

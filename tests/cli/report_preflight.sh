# The preflight lines of a G1 run: one line per gotcha, G1..G10, in the skill's format.
# The confidence is the scorer's own number: masked, so the golden pins the verdict (G1 FAIL, the
# others PASS), the evidence and the exit.
"$GOTCHA_BIN" scan -f preflight $(find ../../corpus/G1-a-undefined-symbol-cu12-wheel -type f ! -name expected.json | sort) >"$TEST_TMP/pf"
echo "exit $?"
sed -E 's/\(confidence [0-9]\.[0-9]+; /(confidence <c>; /' "$TEST_TMP/pf"

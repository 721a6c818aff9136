# The preflight lines of a G1 run: one line per gotcha, G1..G10, in the skill's format.
"$GOTCHA_BIN" scan -f preflight $(find ../../corpus/G1-a-undefined-symbol-cu12-wheel -type f ! -name expected.json | sort)
echo "exit $?"

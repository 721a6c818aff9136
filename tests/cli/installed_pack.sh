# An installed gotcha (PREFIX/bin/gotcha beside PREFIX/share/gotcha/patterns, as `make install`
# lays it out) finds its pack wherever PREFIX is, with no GOTCHA_PATTERNS.
mkdir -p "$TEST_TMP/prefix/bin" "$TEST_TMP/prefix/share/gotcha"
cp "$GOTCHA_BIN" "$TEST_TMP/prefix/bin/gotcha"
cp -r ../../patterns "$TEST_TMP/prefix/share/gotcha/patterns"
unset GOTCHA_PATTERNS
cd "$TEST_TMP"
prefix/bin/gotcha patterns | sed "s|$TEST_TMP|TMP|"
prefix/bin/gotcha patterns --check > check.out
echo "exit $?"
tail -1 check.out | sed "s/[0-9]* entries, [0-9]* signatures/N entries, M signatures/"

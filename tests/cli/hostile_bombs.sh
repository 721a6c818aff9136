# Bombs of empty records: small compressed files that decode to millions of records holding
# nothing (the shapes of tests/bench/bombs.sh, scaled down): blank lines, lone CRs (a tqdm refresh with
# nothing in it), CRLFs, progress-bar refreshes that are only escape sequences ("ESC[2K" CR, as
# tqdm and rich clear a line), and one line of escape sequences. Each is read to its end and
# counted; one line is cut at --max-line; a decoded size past --max-expand is stopped as a bomb;
# an error after a million blank lines is still found, on its line; -j1 and -j2 agree.
records() { sed -n 's/^  "records": \([0-9]*\),*$/\1/p' "$1"; }
scan() { # NAME OPTIONS... : scan $TEST_TMP/NAME.gz, print its records and warnings
    name=$1
    shift
    "$GOTCHA_BIN" scan -f json -o "$TEST_TMP/$name.json" "$@" "$TEST_TMP/$name.gz" 2>"$TEST_TMP/err"
    echo "$name: exit $?, $(records "$TEST_TMP/$name.json") records"
    sed "s|$TEST_TMP/||g" "$TEST_TMP/err"
}
M=1048576
head -c $((8 * M)) /dev/zero | tr '\0' '\n' | gzip -9 >"$TEST_TMP/newlines.gz"
head -c $((8 * M)) /dev/zero | tr '\0' '\r' | gzip -9 >"$TEST_TMP/lone-cr.gz"
yes '' | head -n $((4 * M)) | sed 's/$/\r/' | gzip -9 >"$TEST_TMP/crlf.gz"
yes "$(printf '\033[2K')" | tr '\n' '\r' | head -c $((5 * M)) | gzip -9 >"$TEST_TMP/erase-cr.gz"
yes "$(printf '\033[0m')" | tr -d '\n' | head -c $((4 * M)) | gzip -9 >"$TEST_TMP/escape-line.gz"
{
    head -c $M /dev/zero | tr '\0' '\n'
    echo "RuntimeError: CUDA error: an illegal memory access was encountered"
    head -c $M /dev/zero | tr '\0' '\r'
} | gzip -9 >"$TEST_TMP/error-after-blanks.gz"
scan newlines
scan lone-cr
scan crlf
scan erase-cr
scan escape-line
scan error-after-blanks
sed -n 's/^    "line": \([0-9]*\),*$/first error on line \1/p' "$TEST_TMP/error-after-blanks.json" | head -n 1
cp "$TEST_TMP/newlines.gz" "$TEST_TMP/capped.gz"
scan capped --max-expand 1M --expand-ratio 1
n=$(records "$TEST_TMP/capped.json")
[ "$n" -gt 0 ] && [ "$n" -le "$M" ] && echo "capped: records read before the cap, none past it"
for f in newlines lone-cr erase-cr; do
    "$GOTCHA_BIN" scan -j1 -f json -o "$TEST_TMP/$f.j1.json" "$TEST_TMP/$f.gz" 2>/dev/null
    "$GOTCHA_BIN" scan -j2 -f json -o "$TEST_TMP/$f.j2.json" "$TEST_TMP/$f.gz" 2>/dev/null
    cmp -s "$TEST_TMP/$f.j1.json" "$TEST_TMP/$f.j2.json" && echo "$f: -j1 and -j2 agree"
done
exit 0

# scan -j N: the matching threads never change the report. Every corpus run, and a run big
# enough for many batches across several members (plain, zstd, and inside a tar.zst), give the
# same bytes in every format for -j1, -j2 and -j5.
top=../..
n=0
for run in "$top"/corpus/*/; do
    name=$(basename "$run")
    "$GOTCHA_BIN" scan -q -j 1 -f json,md,preflight -o "$TEST_TMP/$name.j1" "$run"
    "$GOTCHA_BIN" scan -q -j 5 -f json,md,preflight -o "$TEST_TMP/$name.j5" "$run"
    for ext in json md preflight; do
        cmp -s "$TEST_TMP/$name.j1.$ext" "$TEST_TMP/$name.j5.$ext" || echo "DIFFERS: $name ($ext)"
    done
    n=$((n + 1))
done
echo "corpus: $n runs compared"

big=$TEST_TMP/big
mkdir -p "$big/rank0" "$big/node"
cc -O2 -o "$TEST_TMP/genlog" "$top/tests/bench/genlog.c"
"$TEST_TMP/genlog" 12000000 >"$big/rank0/train.log"
zstd -q -c "$big/rank0/train.log" >"$big/rank0/train-copy.log.zst"
(cd "$big" && tar cf - rank0/train.log | zstd -q -c >bundle.tar.zst)
cp "$top"/corpus/G4-a-power-plateau-csv/*.txt "$top"/corpus/G4-a-power-plateau-csv/*.zst "$big/node/"
[ "$(wc -l <"$big/rank0/train.log")" -gt 50000 ] && echo "big run: members of more than 50000 lines"
for j in 1 2 5; do
    "$GOTCHA_BIN" scan -q -j $j -f json,text -o "$TEST_TMP/big.j$j" "$big"
done
cmp "$TEST_TMP/big.j1.json" "$TEST_TMP/big.j2.json" && cmp "$TEST_TMP/big.j1.json" "$TEST_TMP/big.j5.json" &&
    cmp "$TEST_TMP/big.j1.txt" "$TEST_TMP/big.j5.txt" && echo "big run: same report for -j1, -j2, -j5"
echo "verdict: $(sed -n 's/^    "id": "\(.*\)",$/\1/p' "$TEST_TMP/big.j1.json" | head -1)"

# docs/style.md section 10: no function of analyzer/ over 150 lines (tests/tools/func_length.py).
# Also run on a copy with one function grown past the limit: that must be refused, so the check
# cannot pass by reading nothing.
top=$(cd ../.. && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the function count grows with the code: the golden keeps the verdict
python3 "$top/tests/tools/func_length.py" "$top" >"$tmp/out"
rc=$?
sed -E 's/^[0-9]+ functions,/N functions,/' "$tmp/out"
mkdir -p "$tmp/copy/analyzer/common"
cp "$top/analyzer/common/az.c" "$tmp/copy/analyzer/common/az.c"
{
    printf 'int grown(void);\nint grown(void)\n{\n    int n = 0;\n'
    i=0
    while [ $i -lt 151 ]; do printf '    n++;\n'; i=$((i + 1)); done
    printf '    return n;\n}\n'
} >>"$tmp/copy/analyzer/common/az.c"
python3 "$top/tests/tools/func_length.py" "$tmp/copy" >"$tmp/grown"
echo "grown copy: exit $?"
sed -E 's#.*/analyzer/#analyzer/#; s/:[0-9]+:/:L:/; s/^[0-9]+ functions,/N functions,/' "$tmp/grown"
exit $rc

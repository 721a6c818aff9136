# No function of analyzer/ over 150 lines (docs/style.md, issue 23): tests/tools/func_length.py
# over the tree, cross-checked with universal-ctags' function ends where ctags is installed (the
# same limit, so the script's column-0 reading cannot miss a function ctags sees). Then a copy of
# one source with a planted 152-line function must be refused, so the check cannot pass by
# reading nothing. The function count grows with the code: the golden keeps the verdict.
top=$(cd ../.. && pwd)
python3 "$top/tests/tools/func_length.py" "$top" >"$TEST_TMP/out"
rc=$?
sed -E 's/^[0-9]+ functions/N functions/' "$TEST_TMP/out"
if command -v ctags >/dev/null 2>&1 && ctags --version 2>/dev/null | grep -q Universal; then
    (cd "$top" && ctags --fields=+ne --c-kinds=f -o - -R analyzer) | awk -F'\t' '
        { s = ""; e = ""
          for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) s = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
          if (e != "") { n++; if (e - s + 1 > 150) { print "ctags: " $2 ": " $1 " (" e - s + 1 " lines)"; over++ } } }
        END { if (n < 100) print "ctags: read too few functions (" n ")"; else print "ctags: " (over + 0) " over 150 lines" }'
else
    echo "ctags: 0 over 150 lines"  # not installed: the script's verdict stands alone
fi
mkdir -p "$TEST_TMP/plant/analyzer/common"
{
    printf 'static int planted(void)\n{\n    int x = 0;\n'
    i=0; while [ $i -lt 148 ]; do echo "    x++;"; i=$((i + 1)); done
    printf '    return x;\n}\n'
} >"$TEST_TMP/plant/analyzer/common/planted.c"
python3 "$top/tests/tools/func_length.py" "$TEST_TMP/plant" | sed -n 1p
python3 "$top/tests/tools/func_length.py" "$TEST_TMP/plant" >/dev/null || echo "a 152-line function: refused"
exit $rc

# The rule primitives of analyzer/correlate/rules.c against the pack and docs/patterns.md
# (tests/tools/primitive_usage.py): a primitive no pack rule uses, a parameter no rule passes or
# no detector reads, or a docs row the C does not know fails here. Also run on a copy whose docs
# name a parameter the C lacks: that must be refused, so the check cannot pass by reading nothing.
top=$(cd ../.. && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the pack's rule count grows with every knowledge round: the golden keeps the primitive count
python3 "$top/tests/tools/primitive_usage.py" "$top" >"$tmp/out"
rc=$?
sed -E 's/pack rules: [0-9]+/pack rules: N/' "$tmp/out"
mkdir -p "$tmp/docs" "$tmp/analyzer"
cp -r "$top/patterns" "$tmp/patterns"
cp -r "$top/analyzer/correlate" "$tmp/analyzer/correlate"
sed 's/^| `last-line` | \(.*\) | `tag` |/| `last-line` | \1 | `tag bogus_param` |/' "$top/docs/patterns.md" >"$tmp/docs/patterns.md"
python3 "$top/tests/tools/primitive_usage.py" "$tmp" >/dev/null || echo "an unknown documented parameter: refused"
exit $rc

#!/bin/sh
# tests/gates/run.sh - each gate of `make test` and CI, shown failing on a defect planted for it in a
# temporary copy (the tree itself is never touched): a gate that cannot fail checks nothing.
#
#   GOTCHA_BIN=/abs/gotcha sh tests/gates/run.sh      (make check-gates)
#
# For each planted defect: "caught GATE: defect" when the gate failed as it must, "MISSED ..." when
# it passed. Also checks that the gate passes on the clean input first, where that is cheap, so a
# gate that always fails is not counted as catching anything. Exit 1 when any was missed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${GOTCHA_BIN:?set GOTCHA_BIN to the gotcha binary (make check-gates does)}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gotcha-gates.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
caught=0 missed=0

# expect_fail GATE DEFECT CMD...: the command must exit non-zero
expect_fail() {
    gate=$1 defect=$2
    shift 2
    if "$@" >"$tmp/out" 2>&1; then
        echo "MISSED $gate: $defect (it passed)"
        sed 's/^/    /' "$tmp/out" | tail -n 5
        missed=$((missed + 1))
    else
        echo "caught $gate: $defect"
        caught=$((caught + 1))
    fi
}
# expect_pass GATE CMD...: the clean input passes (else the gate's failures above mean nothing)
expect_pass() {
    gate=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        echo "passes $gate on the clean input"
    else
        echo "BROKEN $gate: fails on the clean input"
        sed 's/^/    /' "$tmp/out" | tail -n 5
        missed=$((missed + 1))
    fi
}

# --- make eval: a copy of a few scenarios, one label changed at a time
ev() { GOTCHA_BIN=$GOTCHA_BIN python3 "$top/tests/tools/eval.py" "$tmp/corpus" --gate --known="$tmp/known"; }
mkdir -p "$tmp/corpus"
for s in G4-a-power-plateau-csv healthy-vllm-serve-clean other-02-dataset-not-found; do
    cp -r "$top/corpus/$s" "$tmp/corpus/"
done
: >"$tmp/known"
expect_pass "make eval" ev
sed -i 's/"expected": *"G4"/"expected": "G5"/' "$tmp/corpus/G4-a-power-plateau-csv/expected.json"
expect_fail "make eval" "one scenario wrong of three (67 %, once under a 95 % bar)" ev
echo "G4-a-power-plateau-csv: planted" >"$tmp/known"
expect_pass "make eval (the wrong one listed with its reason)" ev
echo "G4-a-power-plateau-csv:" >"$tmp/known"
expect_fail "make eval" "a known failure without its reason" ev
echo "healthy-vllm-serve-clean: passes, yet listed" >"$tmp/known"
expect_fail "make eval" "a known failure that passes (the list must shrink)" ev
: >"$tmp/known"
cp -r "$top/corpus/G4-a-power-plateau-csv" "$tmp/corpus/healthy-planted"
sed -i 's/"expected": *"G4"/"expected": "none"/' "$tmp/corpus/healthy-planted/expected.json"
rm -rf "$tmp/corpus/G4-a-power-plateau-csv"
expect_fail "make eval" "a false verdict (G4 on a run labelled none)" ev
rm -rf "$tmp/corpus/healthy-planted"
fe=$(sed -n 's/.*"first_error": *"\([^"]*\)".*/\1/p' "$tmp/corpus/other-02-dataset-not-found/expected.json")
if [ -n "$fe" ]; then
    sed -i "s/\"first_error\": *\"$fe\"/\"first_error\": \"C.planted\"/" \
        "$tmp/corpus/other-02-dataset-not-found/expected.json"
    expect_fail "make eval" "a labelled first error not named ($fe labelled C.planted)" ev
fi

# --- make eval's reserved-sources check: a copy of patterns/ and docs/, a made-up reserved thread
# hashed into a hash file of its own (a real reserved name written here would itself be a citation
# in tests/); the copy passes, then one pack source and one doc line cite the thread
rs() { python3 "$top/tests/tools/reserved_sources.py" check "$tmp/rs" --hashes="$tmp/rs.sha256"; }
mkdir -p "$tmp/rs"
cp -r "$top/patterns" "$top/docs" "$tmp/rs/"
echo "planted-owner/planted-repo#4242" >"$tmp/rs.list"
python3 "$top/tests/tools/reserved_sources.py" regen "$tmp/rs.list" --hashes="$tmp/rs.sha256" >/dev/null
expect_pass "make eval (reserved sources)" rs
sed -i '0,/"sources": \[/s//"sources": [\n            "https:\/\/github.com\/planted-owner\/planted-repo\/issues\/4242",/' \
    "$tmp/rs/patterns/G4.json"
expect_fail "make eval (reserved sources)" "a pack signature citing a reserved thread" rs
cp "$top/patterns/G4.json" "$tmp/rs/patterns/G4.json"
echo "as seen in planted-repo#4242." >>"$tmp/rs/docs/patterns.md"
expect_fail "make eval (reserved sources)" "a doc citing a reserved thread by its short name" rs

# --- gotcha stand-ins for the CLI gates: one that crashes, one that writes no report
cat >"$tmp/crash.sh" <<EOS
#!/bin/sh
case " \$* " in *" scan "*) kill -SEGV \$\$ ;; esac
exec "$GOTCHA_BIN" "\$@"
EOS
cat >"$tmp/silent.sh" <<EOS
#!/bin/sh
exit 0
EOS
chmod +x "$tmp/crash.sh" "$tmp/silent.sh"
cli() { GOTCHA_BIN=$1 sh "$top/tests/cli/run.sh" "$2"; }
expect_fail "report_schema (CLI golden)" "every scan crashes (SIGSEGV)" cli "$tmp/crash.sh" report_schema
expect_fail "report_schema (CLI golden)" "scans exit 0 and write nothing" cli "$tmp/silent.sh" report_schema
expect_fail "report_golden_g4 (CLI golden)" "scan crashes" cli "$tmp/crash.sh" report_golden_g4

# --- run.sh under CI=1: a skip fails; a golden that differs fails
mkdir -p "$tmp/cli"
cp "$top/tests/cli/run.sh" "$tmp/cli/"
printf 'echo "SKIP: planted tool missing"\nexit 77\n' >"$tmp/cli/planted_skip.sh"
printf 'echo hello\n' >"$tmp/cli/planted_diff.sh"
printf 'hullo\n' >"$tmp/cli/planted_diff.stdout"
: >"$tmp/cli/planted_diff.stderr"
echo 0 >"$tmp/cli/planted_diff.exit"
expect_pass "run.sh (a skip outside CI is counted, not failed)" env -u CI GOTCHA_BIN="$GOTCHA_BIN" sh "$tmp/cli/run.sh" planted_skip
expect_fail "run.sh under CI=1" "a test skipped for a missing tool" env CI=1 GOTCHA_BIN="$GOTCHA_BIN" sh "$tmp/cli/run.sh" planted_skip
expect_fail "run.sh" "a golden that differs by one letter" env GOTCHA_BIN="$GOTCHA_BIN" sh "$tmp/cli/run.sh" planted_diff

# --- bench-bombs: the 10 s bound and a crash (small bombs: the gate, not the size, is tested)
bombs() { GOTCHA_BIN=$1 BOMB_SIZE=1M BOMB_MAX_S=$2 sh "$top/tests/bench/bombs.sh"; }
expect_pass "bench-bombs (1 MiB bombs, 10 s)" bombs "$GOTCHA_BIN" 10
expect_fail "bench-bombs" "a bound missed (0.001 s)" bombs "$GOTCHA_BIN" 0.001
expect_fail "bench-bombs" "gotcha crashes on a bomb" bombs "$tmp/crash.sh" 10
rm -f "$top"/tests/bench/out/bomb-*-1M.gz

# --- check_html.sh: a blank page, and one with a single rule (two colours); needs chromium
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    printf '<!doctype html><html><body></body></html>\n' >"$tmp/blank.html"
    printf '<!doctype html><html><body><hr></body></html>\n' >"$tmp/rule.html"
    printf '<!doctype html><html><body><script>undefined_fn()</script><p>x</p></body></html>\n' >"$tmp/err.html"
    expect_fail "check_html.sh" "a blank page" sh "$top/tests/tools/check_html.sh" "$tmp/blank.html"
    expect_fail "check_html.sh" "a blank page with one rule (two colours)" sh "$top/tests/tools/check_html.sh" "$tmp/rule.html"
    expect_fail "check_html.sh" "a console error" sh "$top/tests/tools/check_html.sh" "$tmp/err.html"
elif [ "${CI:-}" = 1 ]; then
    echo "MISSED check_html.sh: chromium not installed (CI=1)"; missed=$((missed + 1))
else
    echo "skip check_html.sh: chromium not installed"
fi

# --- golden-update refuses dirty goldens: a git copy of the Makefile and one golden
mkdir -p "$tmp/repo/tests/cli"
cp "$top/Makefile" "$tmp/repo/"
cp "$top/tests/cli/version.stdout" "$tmp/repo/tests/cli/"
(cd "$tmp/repo" && git init -q && git add -A &&
    git -c user.name=gates -c user.email=gates@localhost commit -qm base) >/dev/null 2>&1
echo planted >>"$tmp/repo/tests/cli/version.stdout"
# -o: the binary counts as built, so only the refusal runs (the update itself would need the tree)
expect_fail "make golden-update" "a golden with an uncommitted change" \
    make -s -C "$tmp/repo" -o gotcha golden-update NEED_LIBS=

echo "check-gates: $caught caught, $missed missed or broken"
[ "$missed" -eq 0 ]

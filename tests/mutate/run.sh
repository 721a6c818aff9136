#!/bin/sh
# tests/mutate/run.sh - the mutation score of the test suites (make mutate).
#
#   sh tests/mutate/run.sh [N...]        every mutant, or those numbered N (1-based) in mutants.tsv
#   SAMPLE=5 sh tests/mutate/run.sh      a rotating sample of 5 (the day of the year picks them: CI)
#
# No C mutation tool is packaged in Debian, so this is a small one: each line of mutants.tsv is one
# textual change at a decision point (a comparison, a bound, a table entry) in one of the seven
# modules. The tree is copied once to a temporary directory (with build/release, so a mutant
# rebuilds one object); each mutant is applied there, rebuilt, and run against the unit tests,
# then `make eval`'s gate, then the CLI goldens, stopping at the first suite that fails. A mutant
# that fails a suite is "caught"; one that passes all three "MISSED" (a test is missing); one that
# does not compile "stillborn" (not counted). Prints one line per mutant and the score; exits 1
# under the target of MUTATE_TARGET percent caught (90), 2 on a stale mutant (its text is gone).
# CLI goldens left out, for time (their code paths are covered by the others): scan_jobs (a
# 12-million-line log), html_browser and batch_html_browser (chromium's time, not gotcha's).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
list=$here/mutants.tsv
target=${MUTATE_TARGET:-90}
SUITE_TIMEOUT=${MUTATE_TIMEOUT:-900}

all=$(grep -v '^#' "$list" | grep -c .)
if [ $# -gt 0 ]; then
    pick="$*"
elif [ -n "${SAMPLE:-}" ]; then
    day=$(date -u +%j | sed 's/^0*//')
    pick=$(awk -v n="$all" -v k="$SAMPLE" -v d="${day:-1}" 'BEGIN {
        for (i = 0; i < k && i < n; i++) printf "%d ", ((d * k + i) % n) + 1 }')
else
    pick=$(seq 1 "$all")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gotcha-mutate.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
copy=$work/tree
mkdir -p "$copy"
(cd "$top" && tar -cf - Makefile analyzer tests/unit tests/fuzz tests/cli tests/tools tests/site-pack \
    corpus patterns docs build/release 2>/dev/null) | (cd "$copy" && tar -xf -)
build() { make -s -C "$copy" -j2 gotcha build/release/tests/unit_tests >"$work/build.log" 2>&1; }
build || { echo "mutate: the unmutated copy does not build"; tail "$work/build.log"; exit 2; }

cli_tests=$(cd "$copy/tests/cli" && for f in *.sh; do
    case ${f%.sh} in run | scan_jobs | html_browser | batch_html_browser) ;; *) echo "${f%.sh}" ;; esac
done)
suite() { # NAME: 0 when the suite passes on the mutated copy
    case $1 in
    unit) (cd "$copy" && GOTCHA_BIN=$copy/gotcha GOTCHA_PATTERNS=$copy/patterns GOTCHA_TOP=$copy \
        timeout "$SUITE_TIMEOUT" build/release/tests/unit_tests --jobs 2 --fail-fast --short-filename) ;;
    eval) (cd "$copy" && GOTCHA_BIN=$copy/gotcha timeout "$SUITE_TIMEOUT" \
        python3 tests/tools/eval.py corpus --gate --known=corpus/KNOWN_FAILURES) ;;
    cli) GOTCHA_BIN=$copy/gotcha timeout "$SUITE_TIMEOUT" sh "$copy/tests/cli/run.sh" $cli_tests ;;
    esac >"$work/suite.log" 2>&1
}

caught=0 missed=0 still=0 n=0 survivors=
for k in $pick; do
    line=$(grep -v '^#' "$list" | grep . | sed -n "${k}p")
    [ -n "$line" ] || { echo "mutate: no mutant $k (there are $all)"; exit 2; }
    file=$(printf '%s' "$line" | cut -f1)
    what=$(printf '%s' "$line" | cut -f4)
    cp "$top/$file" "$copy/$file"
    # exact text, replaced once; anything but one occurrence is a stale mutant
    if ! printf '%s' "$line" | python3 -c '
import sys
f, old, new, _ = sys.stdin.read().split("\t", 3)
p = sys.argv[1] + "/" + f
s = open(p).read()
if s.count(old) != 1:
    sys.exit("stale: %d occurrences in %s" % (s.count(old), f))
open(p, "w").write(s.replace(old, new))' "$copy"; then
        echo "stale  #$k $file: $what"
        exit 2
    fi
    n=$((n + 1))
    if ! build; then
        echo "stillborn #$k $file: $what (does not compile)"
        still=$((still + 1))
    else
        by=
        for s in unit eval cli; do
            if ! suite $s; then by=$s; break; fi
        done
        if [ -n "$by" ]; then
            echo "caught #$k by $by: $file: $what"
            caught=$((caught + 1))
        else
            echo "MISSED #$k $file: $what"
            missed=$((missed + 1))
            survivors="$survivors $k"
        fi
    fi
    cp "$top/$file" "$copy/$file"
    touch "$copy/$file"
done
build >/dev/null 2>&1
valid=$((caught + missed))
score=$(awk -v c="$caught" -v v="$valid" 'BEGIN { printf "%.0f", v ? 100 * c / v : 100 }')
echo "mutate: $caught caught, $missed missed, $still stillborn of $n; score $score % (target $target %)${survivors:+; survivors:$survivors}"
[ "$score" -ge "$target" ]

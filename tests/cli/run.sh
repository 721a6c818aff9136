#!/bin/sh
# tests/cli/run.sh - golden tests for the gotcha command line (STYLE.md section 8).
#
# Usage: run.sh [NAME...]   (no NAME: every tests/cli/<name>.sh)
#
# For each tests/cli/<name>.sh: run it from tests/cli/ with $GOTCHA_BIN set, and compare its
# standard output, standard error and exit code with <name>.stdout, <name>.stderr and <name>.exit.
# A script that cannot run here (a tool it needs is missing) exits with SKIP_STATUS (77, as
# automake's harness does) after printing "SKIP: reason": it counts as skipped, not passed and
# not failed, and its goldens, which hold the real output, are not compared.
# GOLDEN_UPDATE=1 rewrites those three files from the current behaviour instead (never from a
# skipped run).
# GOTCHA_VALGRIND=1 runs every gotcha command under valgrind's memcheck (tests/tools/
# valgrind_gotcha.sh): a memcheck error changes the exit status and stderr, so the test fails;
# without valgrind installed each test is skipped with that reason.
# Prints one line per test and a final "N passed, N failed, N skipped"; exits 1 when any failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ -z "${GOTCHA_BIN:-}" ] || [ ! -x "$GOTCHA_BIN" ]; then
    echo "run.sh: set GOTCHA_BIN to the gotcha binary (make cli-test does)" >&2
    exit 2
fi
# The same environment for every run: the source tree's pack, no colour, C locale.
GOTCHA_PATTERNS=${GOTCHA_PATTERNS:-$top/patterns}
NO_COLOR=1
LC_ALL=C
export GOTCHA_BIN GOTCHA_PATTERNS NO_COLOR LC_ALL
no_valgrind=
if [ "${GOTCHA_VALGRIND:-}" = 1 ]; then
    if command -v valgrind >/dev/null 2>&1; then
        GOTCHA_VALGRIND_BIN=$GOTCHA_BIN
        GOTCHA_BIN=$top/tests/tools/valgrind_gotcha.sh
        export GOTCHA_VALGRIND_BIN
    else
        no_valgrind=1
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gotcha-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

SKIP_STATUS=77
if [ $# -eq 0 ]; then
    set -- $(cd "$here" && for f in *.sh; do [ "$f" = run.sh ] || echo "${f%.sh}"; done)
fi

pass=0
fail=0
skip=0
if [ -n "$no_valgrind" ]; then
    echo "skip all $# tests: valgrind not installed"
    echo "0 passed, 0 failed, $# skipped"
    exit 0
fi
for name in "$@"; do
    if [ ! -f "$here/$name.sh" ]; then
        echo "FAIL $name: no such test ($here/$name.sh)"
        fail=$((fail + 1))
        continue
    fi
    (cd "$here" && TEST_TMP="$tmp/$name.d" && mkdir -p "$TEST_TMP" && export TEST_TMP &&
        sh "./$name.sh") >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    status=$?
    echo $status >"$tmp/exit"
    if [ $status -eq $SKIP_STATUS ]; then
        why=$(sed -n 's/^SKIP: *//p' "$tmp/stdout" | head -n 1)
        if [ -n "$why" ]; then
            echo "skip $name: $why"
            skip=$((skip + 1))
        else
            echo "FAIL $name: exit $SKIP_STATUS (skip) without a \"SKIP: reason\" line"
            fail=$((fail + 1))
        fi
        continue
    fi
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        for part in stdout stderr exit; do cp "$tmp/$part" "$here/$name.$part"; done
        echo "updated $name"
        pass=$((pass + 1))
        continue
    fi
    bad=
    for part in stdout stderr exit; do
        if [ ! -f "$here/$name.$part" ]; then
            bad="$bad $part(missing golden file)"
        elif ! cmp -s "$tmp/$part" "$here/$name.$part"; then
            bad="$bad $part"
        fi
    done
    if [ -z "$bad" ]; then
        echo "ok   $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name:$bad"
        for part in stdout stderr exit; do
            [ -f "$here/$name.$part" ] &&
                diff -u "$here/$name.$part" "$tmp/$part" | sed -n '3,23p' | sed 's/^/    /'
        done
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

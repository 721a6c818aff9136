#!/bin/sh
# tests/cli/run.sh - golden tests for the gotcha command line (docs/style.md section 8).
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
# CI=1 (.ci/run sets it): a skip is a failure, valgrind missing included: CI installed every tool
# (make deps), so a test that cannot run there is a broken test, not a missing tool.
# CLI_JOBS=N runs N tests at a time (default: the CPU count); the report is in the order given.
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
    if [ "${CI:-}" = 1 ]; then
        echo "FAIL all $# tests: valgrind not installed (CI=1: a missing tool fails the run)"
        echo "0 passed, $# failed, 0 skipped"
        exit 1
    fi
    echo "skip all $# tests: valgrind not installed"
    echo "0 passed, 0 failed, $# skipped"
    exit 0
fi
# Run the tests CLI_JOBS at a time (default: one per CPU; each has its own TEST_TMP and result
# files, and many spend their time waiting on a child or a deadline), then judge them in the
# order given, so the output is the same for any CLI_JOBS.
run_one() { # NAME: its stdout, stderr and exit status into $tmp/NAME.r/
    r=$tmp/$1.r
    mkdir -p "$r" "$tmp/$1.d"
    (cd "$here" && TEST_TMP="$tmp/$1.d" && export TEST_TMP && sh "./$1.sh") \
        >"$r/stdout" 2>"$r/stderr" </dev/null
    echo $? >"$r/exit"
}
worker() { # take the next test off the shared counter until none is left
    while :; do
        until mkdir "$tmp/lock" 2>/dev/null; do sleep 0.01; done
        i=$(cat "$tmp/next")
        echo $((i + 1)) >"$tmp/next"
        rmdir "$tmp/lock"
        [ "$i" -le $# ] || return 0
        eval "name=\${$i}"
        [ -f "$here/$name.sh" ] && run_one "$name"
    done
}
jobs=${CLI_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
echo 1 >"$tmp/next"
w=0
while [ $w -lt "$jobs" ]; do
    worker "$@" &
    w=$((w + 1))
done
wait

for name in "$@"; do
    if [ ! -f "$here/$name.sh" ]; then
        echo "FAIL $name: no such test ($here/$name.sh)"
        fail=$((fail + 1))
        continue
    fi
    r=$tmp/$name.r
    if [ ! -f "$r/exit" ]; then
        echo "FAIL $name: it did not run (no exit status recorded)"
        fail=$((fail + 1))
        continue
    fi
    status=$(cat "$r/exit")
    if [ "$status" -eq $SKIP_STATUS ]; then
        why=$(sed -n 's/^SKIP: *//p' "$r/stdout" | head -n 1)
        if [ -n "$why" ] && [ "${CI:-}" = 1 ]; then
            echo "FAIL $name: skipped under CI=1 ($why)"
            fail=$((fail + 1))
        elif [ -n "$why" ]; then
            echo "skip $name: $why"
            skip=$((skip + 1))
        else
            echo "FAIL $name: exit $SKIP_STATUS (skip) without a \"SKIP: reason\" line"
            fail=$((fail + 1))
        fi
        continue
    fi
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        for part in stdout stderr exit; do cp "$r/$part" "$here/$name.$part"; done
        echo "updated $name"
        pass=$((pass + 1))
        continue
    fi
    bad=
    for part in stdout stderr exit; do
        if [ ! -f "$here/$name.$part" ]; then
            bad="$bad $part(missing golden file)"
        elif ! cmp -s "$r/$part" "$here/$name.$part"; then
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
                diff -u "$here/$name.$part" "$r/$part" | sed -n '3,23p' | sed 's/^/    /'
        done
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

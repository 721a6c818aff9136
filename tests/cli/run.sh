#!/bin/sh
# tests/cli/run.sh - golden tests for the gotcha command line (STYLE.md section 8).
#
# For each tests/cli/<name>.sh: run it from tests/cli/ with $GOTCHA_BIN set, and compare its
# standard output, standard error and exit code with <name>.stdout, <name>.stderr and <name>.exit.
# GOLDEN_UPDATE=1 rewrites those three files from the current behaviour instead.
# Prints one line per test and a final "N passed, M failed"; exits 1 when any test failed.
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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gotcha-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0
for script in "$here"/*.sh; do
    name=$(basename "$script" .sh)
    [ "$name" = run ] && continue
    (cd "$here" && TEST_TMP="$tmp/$name.d" && mkdir -p "$TEST_TMP" && export TEST_TMP &&
        sh "./$name.sh") >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    echo $? >"$tmp/exit"
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

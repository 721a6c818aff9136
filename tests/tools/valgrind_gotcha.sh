#!/bin/sh
# valgrind_gotcha.sh ARGS... - run $GOTCHA_VALGRIND_BIN under valgrind's memcheck, for the CLI
# golden tests (make cli-valgrind sets GOTCHA_BIN to this script). Any memcheck error (a read of
# uninitialised memory, an invalid read or write, a definite leak) makes the exit status 99, which
# no gotcha command returns, so the test's .exit golden fails and its .stderr diff shows the report.
# -q keeps a clean run's stderr byte-identical to the binary's own.
: "${GOTCHA_VALGRIND_BIN:?set GOTCHA_VALGRIND_BIN to the gotcha binary}"
exec valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full \
    --suppressions="$(dirname "$0")/valgrind.supp" --errors-for-leak-kinds=definite --show-leak-kinds=definite --num-callers=20 \
    "$GOTCHA_VALGRIND_BIN" "$@"

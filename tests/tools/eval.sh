#!/bin/sh
# eval.sh - accuracy of the gotcha verdict on the labelled corpus.
# Usage: GOTCHA_BIN=/abs/path/gotcha sh tests/tools/eval.sh [corpus-dir]
# The work is done by eval.py (next to this file); this wrapper only checks the inputs.
set -eu
CORPUS="${1:-corpus}"; [ $# -gt 0 ] || set -- corpus
if [ -z "${GOTCHA_BIN:-}" ]; then
    echo "eval: GOTCHA_BIN is not set (path to the gotcha binary)" >&2
    exit 2
fi
if [ ! -x "$GOTCHA_BIN" ]; then
    echo "eval: GOTCHA_BIN=$GOTCHA_BIN is not executable" >&2
    exit 2
fi
if [ ! -d "$CORPUS" ]; then
    echo "eval: corpus directory $CORPUS not found" >&2
    exit 2
fi
HERE=$(dirname "$0")
shift
exec python3 "$HERE/eval.py" "$CORPUS" "$@"

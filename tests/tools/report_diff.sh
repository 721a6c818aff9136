#!/bin/sh
# report_diff.sh - JSON reports of a build byte-identical to a reference binary's, for -j1 and the
# default -j, over every corpus/ scenario and every tests/realworld case.
#
#   REF_BIN=/tmp/gotcha-ref GOTCHA_BIN=$PWD/gotcha sh tests/tools/report_diff.sh [DIR...]
#   (REF_PATTERNS=DIR: the pack the reference reads, when it is not this tree's; see below)
#
# A scenario is a directory holding expected.json (as tests/tools/eval.py finds them: corpus/X/,
# tests/realworld/bNN/X/); its input is every file under it but that top-level expected.json, in
# sorted order, passed to `gotcha scan --format json` as eval.py passes them. Each scan's stdout and
# exit status are compared. The reference's reports are kept in REF_OUT (default
# /tmp/gotcha-report-diff/<ref binary's checksum>/) and reused, so a second run scans only with
# GOTCHA_BIN. Exit 0 when every report is identical, 1 when one differs (the first few diffs are
# printed), 2 on bad usage.
#
# Why: speed work on the scan path (lazy records, chunked parallel scans) must not change one byte
# of a report, whatever -j.
set -eu

TOP=$(cd "$(dirname "$0")/../.." && pwd)
: "${GOTCHA_BIN:=$TOP/gotcha}"
if [ -z "${REF_BIN:-}" ] || [ ! -x "$REF_BIN" ]; then
    echo "report_diff: REF_BIN (the reference binary, e.g. main's build) is not set or not executable" >&2
    exit 2
fi
if [ ! -x "$GOTCHA_BIN" ]; then
    echo "report_diff: GOTCHA_BIN=$GOTCHA_BIN is not executable" >&2
    exit 2
fi
if [ $# -eq 0 ]; then set -- "$TOP/corpus" "$TOP/tests/realworld"; fi
# The pack both binaries read: the reference must not pick up its own tree's patterns/.
# REF_PATTERNS gives the reference a pack of its own: for a change that moves C into the pack
# in a form the reference's loader refuses (a new field), the reference reads its own tree's pack.
: "${GOTCHA_PATTERNS:=$TOP/patterns}"
: "${REF_PATTERNS:=$GOTCHA_PATTERNS}"
export GOTCHA_PATTERNS

sum=$(cksum <"$REF_BIN" | cut -d' ' -f1)
psum=$(cat "$REF_PATTERNS"/*.json | cksum | cut -d' ' -f1)
REF_OUT=${REF_OUT:-/tmp/gotcha-report-diff/$sum-$psum}
NEW_OUT=$(mktemp -d "${TMPDIR:-/tmp}/report-diff.XXXXXX")
trap 'rm -rf "$NEW_OUT"' EXIT INT TERM
mkdir -p "$REF_OUT"

# scenarios DIR...: one scenario directory a line (no names with newlines in the corpus)
scenarios() {
    for root in "$@"; do
        find "$root" -name expected.json -type f | while read -r e; do dirname "$e"; done
    done | LC_ALL=C sort -u
}

# scan BIN OUTFILE JOBS SCENARIO PACK: the report on OUTFILE, the exit status appended as a last
# line
scan_one() {
    bin=$1 out=$2 jobs=$3 d=$4 pack=$5
    # word splitting on newlines only: the corpus has no file name with a space (checked below)
    files=$(find "$d" -type f ! -path "$d/expected.json" | LC_ALL=C sort)
    rc=0
    # shellcheck disable=SC2086
    GOTCHA_PATTERNS=$pack "$bin" scan $jobs --format json $files >"$out" 2>/dev/null || rc=$?
    echo "exit $rc" >>"$out"
}

if find "$@" -name '* *' | grep -q .; then
    echo "report_diff: a file name with a space; this script splits on whitespace" >&2
    exit 2
fi

n=0 nd=0 shown=0
for d in $(scenarios "$@"); do
    key=$(echo "${d#"$TOP"/}" | tr '/' '_')
    for jobs in -j1 ""; do
        tag=${jobs:-jdef}
        ref=$REF_OUT/$key.$tag
        [ -s "$ref" ] || scan_one "$REF_BIN" "$ref" "$jobs" "$d" "$REF_PATTERNS"
        new=$NEW_OUT/$key.$tag
        scan_one "$GOTCHA_BIN" "$new" "$jobs" "$d" "$GOTCHA_PATTERNS"
        n=$((n + 1))
        if ! cmp -s "$ref" "$new"; then
            nd=$((nd + 1))
            if [ "$shown" -lt 5 ]; then
                shown=$((shown + 1))
                echo "DIFF ${d#"$TOP"/} ($tag):"
                diff "$ref" "$new" | head -n 20 || true
            fi
        fi
    done
done
echo "report_diff: $n reports ($((n / 2)) scenarios x {-j1, default -j}), $nd differ from $REF_BIN"
[ "$nd" -eq 0 ]

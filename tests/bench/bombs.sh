#!/bin/sh
# tests/bench/bombs.sh - hostile inputs that are cheap to send and were dear to read: each a small gzip
# that decodes to BOMB_SIZE (default 1G) bytes of records holding nothing.
#
#   GOTCHA_BIN=/path/to/gotcha [BOMB_SIZE=1G] [GOTCHA_PATTERNS=dir] sh tests/bench/bombs.sh
#
#   newlines     1 GiB of LF: 1 Gi blank lines (~1 MB gzipped)
#   lone CRs     1 GiB of CR: 1 Gi empty records (a tqdm refresh with nothing in it), all on line 1
#   erase + CR   "ESC[2K" CR repeated (a progress bar clearing its line): 215 M records, empty
#                once the escape sequences are removed
#   escape line  one line of "ESC[0m" repeated: one record, cut at --max-line, the rest skipped
# Each is made once into tests/bench/out/ (gzip -9), then scanned once with the default -j; printed: wall
# seconds, records read (from the JSON report), peak RSS. Target: each under 10 s (issue 15), and a
# gate: a bomb that crashes gotcha (an exit status past 1, a signal), writes no report, or takes
# BOMB_MAX_S (10) seconds or more fails the script (exit 1, after the whole table).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$(dirname "$HERE")")
OUT=$HERE/out
SIZE=${BOMB_SIZE:-1G}
GOTCHA_BIN=${GOTCHA_BIN:-$TOP/gotcha}
GOTCHA_PATTERNS=${GOTCHA_PATTERNS:-$TOP/patterns}
export GOTCHA_PATTERNS
mkdir -p "$OUT"

bytes_of() { # 400M / 1G / 123456 -> bytes
    case $1 in
    *[kK]) echo $((${1%?} * 1024)) ;;
    *[mM]) echo $((${1%?} * 1024 * 1024)) ;;
    *[gG]) echo $((${1%?} * 1024 * 1024 * 1024)) ;;
    *) echo "$1" ;;
    esac
}
N=$(bytes_of "$SIZE")

make_bomb() { # NAME: tests/bench/out/bomb-NAME-SIZE.gz from the generator of that name
    f=$OUT/bomb-$1-$SIZE.gz
    [ -f "$f" ] && return 0
    echo "making $f..." >&2
    case $1 in
    newlines) head -c "$N" /dev/zero | tr '\0' '\n' ;;
    cr) head -c "$N" /dev/zero | tr '\0' '\r' ;;
    erase-cr) yes "$(printf '\033[2K')" | tr '\n' '\r' | head -c "$N" ;;
    escape-line) yes "$(printf '\033[0m')" | tr -d '\n' | head -c "$N" ;;
    esac | gzip -9 >"$f.tmp"
    mv "$f.tmp" "$f"
}

MAX_S=${BOMB_MAX_S:-10}
failed=0
printf '%-14s %10s %9s %12s %10s\n' bomb "gz bytes" "wall s" records "RSS KiB"
for b in newlines cr erase-cr escape-line; do
    make_bomb "$b"
    f=$OUT/bomb-$b-$SIZE.gz
    rm -f "$OUT/bomb.json"
    t0=$(date +%s%N)
    st=0
    /usr/bin/time -f %M -o "$OUT/bomb.rss" "$GOTCHA_BIN" scan -q -f json -o "$OUT/bomb.json" "$f" ||
        st=$?
    t1=$(date +%s%N)
    recs=$(sed -n 's/^  "records": \([0-9]*\),*$/\1/p' "$OUT/bomb.json" 2>/dev/null)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
    printf '%-14s %10s %9s %12s %10s\n' "$b" "$(wc -c <"$f")" "$secs" "$recs" \
        "$(tail -n 1 "$OUT/bomb.rss")"
    # /usr/bin/time passes the command's status on (a signal: 128+N)
    if [ "$st" -gt 1 ]; then echo "FAIL $b: gotcha exited with $st" >&2; failed=1; fi
    if [ -z "$recs" ]; then echo "FAIL $b: no JSON report written" >&2; failed=1; fi
    if awk -v s="$secs" -v m="$MAX_S" 'BEGIN { exit !(s >= m) }'; then
        echo "FAIL $b: $secs s, the bound is under $MAX_S s" >&2; failed=1
    fi
done
exit $failed

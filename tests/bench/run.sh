#!/bin/sh
# tests/bench/run.sh - speed and memory of gotcha against the tools a user would otherwise reach for.
#
#   GOTCHA_BIN=/path/to/gotcha [BENCH_SIZE=400M] [BENCH_RUNS=3] [GOTCHA_PATTERNS=dir] sh tests/bench/run.sh
#
# Generates a deterministic training-style log (tests/bench/genlog.c) into tests/bench/out/, a zstd copy, and
# prints one table from one run of each command: wall time, throughput over the uncompressed size,
# and gotcha's peak RSS. See tests/bench/README.md for what each line measures and the targets.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$(dirname "$HERE")")
OUT=$HERE/out
SIZE=${BENCH_SIZE:-400M}
PATTERNS=${GOTCHA_PATTERNS:-$TOP/patterns}
GOTCHA_BIN=${GOTCHA_BIN:-$TOP/gotcha}
mkdir -p "$OUT"

bytes_of() { # 400M / 1G / 123456 -> bytes
    case $1 in
    *[kK]) echo $((${1%?} * 1024)) ;;
    *[mM]) echo $((${1%?} * 1024 * 1024)) ;;
    *[gG]) echo $((${1%?} * 1024 * 1024 * 1024)) ;;
    *) echo "$1" ;;
    esac
}
NBYTES=$(bytes_of "$SIZE")

cc -O2 -o "$OUT/genlog" "$HERE/genlog.c"
LOG=$OUT/train-$SIZE.log
if [ ! -f "$LOG" ] || [ "$(wc -c <"$LOG")" -lt "$NBYTES" ]; then
    echo "generating $LOG ($SIZE)..." >&2
    "$OUT/genlog" "$NBYTES" >"$LOG.tmp" && mv "$LOG.tmp" "$LOG"
    rm -f "$LOG.zst"
fi
if [ ! -f "$LOG.zst" ]; then
    zstd -q -T0 -3 -f "$LOG" -o "$LOG.zst"
fi
REAL_BYTES=$(wc -c <"$LOG")

ERE=$OUT/regexes.txt
set -- $(python3 "$HERE/pcre2ere.py" "$PATTERNS" "$ERE" 2>"$OUT/regexes.skipped")
NTRANS=$2 NSKIP=$4 NICASE=$6
GREP_I=
if [ "$NTRANS" -gt 0 ] && [ "$NICASE" -eq "$NTRANS" ]; then GREP_I=-i; fi

TIMEF=$OUT/time.out
RUNS=${BENCH_RUNS:-3}
now_ns() { date +%s%N; }
# measure LABEL N CMD...: the fastest of N runs (shared machines are noisy; the fastest is the
# least disturbed), its wall seconds and the largest peak RSS (KiB) seen; stdout discarded. Exit
# 0 or 1 is a result (gotcha: a failed run found; grep: no line matched); anything past 1 (an
# error, a crash: 128+N) fails the bench, after its table.
bench_failed=0
check_status() { # STATUS LABEL
    if [ "$1" -gt 1 ]; then echo "FAIL $2: exit $1 (see $OUT/stderr.log)" >&2; bench_failed=1; fi
}
measure() {
    label=$1
    n=$2
    shift 2
    best= rss=-
    k=0
    while [ "$k" -lt "$n" ]; do
        t0=$(now_ns)
        if [ -x /usr/bin/time ]; then
            st=0
            /usr/bin/time -f %M -o "$TIMEF" "$@" >/dev/null 2>>"$OUT/stderr.log" || st=$?
            check_status "$st" "$label"
            r=$(tail -n 1 "$TIMEF")
            if [ "$rss" = - ] || [ "$r" -gt "$rss" ]; then rss=$r; fi
        else
            st=0
            "$@" >/dev/null 2>>"$OUT/stderr.log" || st=$?
            check_status "$st" "$label"
        fi
        t1=$(now_ns)
        best=$(awk -v a="$t0" -v b="$t1" -v m="$best" \
            'BEGIN { s = (b - a) / 1e9; if (m != "" && m < s) s = m; printf "%.3f", s }')
        k=$((k + 1))
    done
    secs=$best
    mbs=$(awk -v s="$secs" -v n="$REAL_BYTES" 'BEGIN { printf "%.0f", (s > 0) ? n / s / 1e6 : 0 }')
    printf '%-44s %9s %9s %10s\n' "$label" "$secs" "$mbs" "$rss"
}
row() { # KEY LABEL CMD... (best of $RUNS)
    key=$1
    label=$2
    shift 2
    measure "$label" "$RUNS" "$@"
    eval "T_$key=$secs; R_$key=$rss"
}
row1() { # the same, one run: for a baseline so slow that noise cannot change a verdict
    key=$1
    label=$2
    shift 2
    measure "$label" 1 "$@"
    eval "T_$key=$secs; R_$key=$rss"
}

: >"$OUT/stderr.log"
cat "$LOG" >/dev/null # warm the page cache once so every row reads from memory

echo "gotcha bench: $LOG ($REAL_BYTES bytes; MB/s over the uncompressed size;"
echo "best of $RUNS runs per row (BENCH_RUNS), grep 1)"
printf '%-44s %9s %9s %10s\n' "command" "wall s" "MB/s" "RSS KiB"
row cat "cat file > /dev/null" cat "$LOG"
# GNU grep treats stdout on /dev/null like -q (and drops -c): it stops at the first match. Count
# into a regular file instead so it must read the whole log, as gotcha does.
row1 grep "grep -E${GREP_I:+ $GREP_I} -c -f regexes.txt ($NTRANS regexes)" \
    sh -c 'grep -E $1 -c -f "$2" "$3" >"$4"' sh "$GREP_I" "$ERE" "$LOG" "$OUT/grep.count"
row zstd "zstd -dc file.zst > /dev/null" zstd -dc "$LOG.zst"
HAVE_GOTCHA=0
if [ -x "$GOTCHA_BIN" ]; then
    HAVE_GOTCHA=1
    row ingest "gotcha scan --stage=ingest file" "$GOTCHA_BIN" scan --stage=ingest "$LOG"
    row ingestz "gotcha scan --stage=ingest file.zst" "$GOTCHA_BIN" scan --stage=ingest "$LOG.zst"
    # -j1: one thread matches and correlates (the read-ahead thread still decodes .zst); the
    # default -j is the online cores, at most 8 (NCPU here)
    row scan1 "gotcha scan -j1 -f json -o /dev/null file" \
        "$GOTCHA_BIN" scan -j1 --format json -o /dev/null "$LOG"
    row scanz1 "gotcha scan -j1 -f json -o /dev/null file.zst" \
        "$GOTCHA_BIN" scan -j1 --format json -o /dev/null "$LOG.zst"
    row scan "gotcha scan -f json -o /dev/null file" \
        "$GOTCHA_BIN" scan --format json -o /dev/null "$LOG"
    row scanz "gotcha scan -f json -o /dev/null file.zst" \
        "$GOTCHA_BIN" scan --format json -o /dev/null "$LOG.zst"
else
    echo "(no gotcha binary at $GOTCHA_BIN: gotcha rows skipped)"
fi
echo "cores: $(getconf _NPROCESSORS_ONLN) online; gotcha scan's default -j uses them, at most 8"
echo "regexes: $NTRANS translated to ERE, $NSKIP skipped (see $OUT/regexes.skipped)"
echo "grep counted $(cat "$OUT/grep.count" 2>/dev/null || echo ?) matching lines"

if [ "$HAVE_GOTCHA" = 1 ]; then
    awk -v g="$T_scan" -v gr="$T_grep" -v z="$T_scanz" -v zd="$T_zstd" -v r1="$R_scan" \
        -v r2="$R_scanz" -v z1="$T_scanz1" 'BEGIN {
        rss = (r1 > r2 ? r1 : r2) / 1024
        printf "gotcha / grep -E -f        %5.2f  (target <= 1.0)  %s\n", g / gr, g / gr <= 1.0 ? "ok" : "MISS"
        printf "gotcha .zst / zstd -dc     %5.2f  (target <= 1.3)  %s\n", z / zd, z / zd <= 1.3 ? "ok" : "MISS"
        printf "gotcha -j1 .zst / zstd -dc %5.2f\n", z1 / zd
        printf "gotcha peak RSS            %5.1f MiB (target <= 64)  %s\n", rss, rss <= 64 ? "ok" : "MISS"
    }'
    awk -v i="$T_ingest" -v iz="$T_ingestz" -v c="$T_cat" -v zd="$T_zstd" 'BEGIN {
        printf "ingest+tokenize / cat      %5.2f   ingest+tokenize .zst / zstd -dc  %5.2f\n", i / c, iz / zd
    }'
fi
[ "$bench_failed" -eq 0 ] || { echo "bench: a command failed (above)" >&2; exit 1; }

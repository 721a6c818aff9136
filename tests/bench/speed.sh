#!/bin/sh
# tests/bench/speed.sh - gotcha against grep on 40 regexes and against zstd -dc, side by side.
#
#   GOTCHA_BIN=/path/to/gotcha [BENCH_SIZE=256M] [BENCH_RUNS=3] [GOTCHA_REF_BIN=/path/to/old]
#       sh tests/bench/speed.sh
#
# The bar a user compares gotcha with (issue 22): `grep -c -E -f` with 40 regexes of the kinds a
# failed run's log is searched for (tests/bench/grep40.txt: CUDA errors, OOM, Xid, NCCL, undefined
# symbol, ...), its output into a pipe (GNU grep with stdout on /dev/null stops at the first match),
# and `zstd -dc` of the same log. One generated training-style log (genlog.c; BENCH_SIZE, default
# 256M, K/M/G suffixes) and its zstd -3 copy, both kept in tests/bench/out/ and reused.
#
# Each round runs every command once, in the same order, so the ratios compare runs made minutes
# apart at most on a shared machine; each figure is the fastest of BENCH_RUNS rounds, and the load
# average is printed at the start and the end. Printed: the table, gotcha/grep-40 at the default -j,
# gotcha .zst / zstd -dc, -j1 GB/s, peak RSS, and the prefilter's probe figures (`scan
# --probe-stats`: how many probe hits of the literal search verified no literal). Each bound is
# reported met or not. GOTCHA_REF_BIN, another build, is timed in the same rounds (-j1 and the
# default -j, plain file) and its ratio printed: a before/after on a shared machine. Exit 1 when a gotcha run crashed or failed (exit status >= 2, or a signal);
# a bound not met is reported, not a failure.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$(dirname "$HERE")")
OUT=$HERE/out
SIZE=${BENCH_SIZE:-256M}
RUNS=${BENCH_RUNS:-3}
GOTCHA_BIN=${GOTCHA_BIN:-$TOP/gotcha}
GOTCHA_PATTERNS=${GOTCHA_PATTERNS:-$TOP/patterns}
export GOTCHA_PATTERNS
RE40=$HERE/grep40.txt
mkdir -p "$OUT"

bytes_of() { # 256M / 1G / 123456 -> bytes
    case $1 in
    *[kK]) echo $((${1%?} * 1024)) ;;
    *[mM]) echo $((${1%?} * 1024 * 1024)) ;;
    *[gG]) echo $((${1%?} * 1024 * 1024 * 1024)) ;;
    *) echo "$1" ;;
    esac
}
NBYTES=$(bytes_of "$SIZE")
${CC:-cc} -O2 -o "$OUT/genlog" "$HERE/genlog.c"
LOG=$OUT/train-$SIZE.log
if [ ! -f "$LOG" ] || [ "$(wc -c <"$LOG")" -lt "$NBYTES" ]; then
    echo "generating $LOG ($SIZE)..." >&2
    "$OUT/genlog" "$NBYTES" >"$LOG.tmp" && mv "$LOG.tmp" "$LOG"
    rm -f "$LOG.zst"
fi
[ -f "$LOG.zst" ] || zstd -q -T0 -3 -f "$LOG" -o "$LOG.zst"
REAL_BYTES=$(wc -c <"$LOG")
if [ ! -x "$GOTCHA_BIN" ]; then
    echo "speed: GOTCHA_BIN=$GOTCHA_BIN is not executable" >&2
    exit 2
fi
if [ "$(wc -l <"$RE40")" -ne 40 ]; then
    echo "speed: $RE40 must hold 40 regexes" >&2
    exit 2
fi

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
now_ns() { date +%s%N; }
TIMEF=$OUT/speed-time.out
CRASHED=0

# timed KEY CMD...: one run; keeps the fastest wall time in T_KEY, the fewest CPU seconds (user +
# sys, all threads) in C_KEY and the largest peak RSS (KiB) in R_KEY. For gotcha rows (KEY g*), an
# exit status >= 2 or a signal counts as a crash. CPU seconds are printed beside wall seconds
# because on a loaded shared machine wall time measures the load as much as the program.
timed() {
    key=$1
    shift
    cmd=$*
    t0=$(now_ns)
    rc=0
    /usr/bin/time -f '%M %U %S' -o "$TIMEF" "$@" >/dev/null 2>>"$OUT/speed-stderr.log" || rc=$?
    t1=$(now_ns)
    set -- $(tail -n 1 "$TIMEF")
    r=${1:-0} c=$(awk -v u="${2:-0}" -v s="${3:-0}" 'BEGIN { printf "%.3f", u + s }')
    case $r in *[!0-9]*) r=0 ;; esac # "Command terminated by signal": no figure
    case $key in g*) if [ "$rc" -ge 2 ]; then
        echo "speed: CRASH or failure (exit $rc): $cmd" >&2
        CRASHED=1
    fi ;;
    esac
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    eval "old=\${T_$key:-}; oldc=\${C_$key:-}; oldr=\${R_$key:-0}"
    # shellcheck disable=SC2154
    if [ -z "$old" ] || awk -v a="$s" -v b="$old" 'BEGIN { exit !(a < b) }'; then eval "T_$key=$s"; fi
    # shellcheck disable=SC2154
    if [ -z "$oldc" ] || awk -v a="$c" -v b="$oldc" 'BEGIN { exit !(a < b) }'; then eval "C_$key=$c"; fi
    if [ "$r" -gt "$oldr" ]; then eval "R_$key=$r"; fi
}

: >"$OUT/speed-stderr.log"
cat "$LOG" "$LOG.zst" >/dev/null # page cache
LOAD0=$(load)
k=0
while [ "$k" -lt "$RUNS" ]; do
    # grep's count goes through a pipe, as a user's `| wc`, so it reads the whole log
    timed grep sh -c 'grep -c -E -f "$1" "$2" | cat >"$3"' sh "$RE40" "$LOG" "$OUT/grep40.count"
    timed gscan "$GOTCHA_BIN" scan --format json -o /dev/null "$LOG"
    timed zstd zstd -dc "$LOG.zst"
    timed gscanz "$GOTCHA_BIN" scan --format json -o /dev/null "$LOG.zst"
    timed gscan1 "$GOTCHA_BIN" scan -j1 --format json -o /dev/null "$LOG"
    if [ -n "${GOTCHA_REF_BIN:-}" ]; then
        timed gref1 "$GOTCHA_REF_BIN" scan -j1 --format json -o /dev/null "$LOG"
        timed gref "$GOTCHA_REF_BIN" scan --format json -o /dev/null "$LOG"
    fi
    k=$((k + 1))
done
LOAD1=$(load)
"$GOTCHA_BIN" scan -j1 --probe-stats --format json -o /dev/null "$LOG" 2>"$OUT/probe.txt" || true

row() { # LABEL SECONDS CPU-SECONDS RSS
    awk -v l="$1" -v s="$2" -v c="$3" -v n="$REAL_BYTES" -v r="$4" \
        'BEGIN { printf "%-44s %7.3f %7.0f %7.3f %9s\n", l, s, (s > 0 ? n / s / 1e6 : 0), c, r }'
}
echo "gotcha speed bench: $LOG ($REAL_BYTES bytes), best of $RUNS rounds, $(getconf _NPROCESSORS_ONLN) cores"
echo "load average at start: $LOAD0, at end: $LOAD1"
printf '%-44s %7s %7s %7s %9s\n' command "wall s" "MB/s" "CPU s" "RSS KiB"
row "grep -c -E -f grep40.txt | cat" "$T_grep" "$C_grep" "$R_grep"
row "gotcha scan -f json (default -j)" "$T_gscan" "$C_gscan" "$R_gscan"
row "gotcha scan -j1 -f json" "$T_gscan1" "$C_gscan1" "$R_gscan1"
row "zstd -dc file.zst" "$T_zstd" "$C_zstd" "$R_zstd"
row "gotcha scan -f json file.zst (default -j)" "$T_gscanz" "$C_gscanz" "$R_gscanz"
if [ -n "${GOTCHA_REF_BIN:-}" ]; then
    row "reference: $(basename "$GOTCHA_REF_BIN") scan -j1" "$T_gref1" "$C_gref1" "$R_gref1"
    row "reference: $(basename "$GOTCHA_REF_BIN") scan (default -j)" "$T_gref" "$C_gref" "$R_gref"
    awk -v a="$T_gscan1" -v b="$T_gref1" -v c="$C_gscan1" -v d="$C_gref1" -v e="$T_gscan" \
        -v f="$T_gref" 'BEGIN { printf "this build / reference: -j1 wall %.3f, -j1 CPU %.3f, default -j wall %.3f\n", a / b, c / d, e / f }'
fi
echo "grep-40 counted $(cat "$OUT/grep40.count") matching lines"
sed 's/^/prefilter: /' "$OUT/probe.txt"
awk -v g="$T_gscan" -v gr="$T_grep" -v z="$T_gscanz" -v zd="$T_zstd" -v g1="$T_gscan1" \
    -v n="$REAL_BYTES" -v r1="$R_gscan" -v r2="$R_gscanz" -v r3="$R_gscan1" \
    -v cg1="$C_gscan1" -v cgr="$C_grep" -v cg="$C_gscan" 'BEGIN {
    rss = r1; if (r2 > rss) rss = r2; if (r3 > rss) rss = r3; rss /= 1024
    gbs = n / g1 / 1e9
    met = 0
    printf "gotcha / grep-40 (default -j)  %6.2f   bound <= 1.5   %s\n", g / gr, (g / gr <= 1.5) ? "met" : "NOT MET"
    printf "gotcha .zst / zstd -dc         %6.2f   bound <= 1.5   %s\n", z / zd, (z / zd <= 1.5) ? "met" : "NOT MET"
    printf "gotcha -j1 GB/s                %6.3f   bound >= 0.5   %s\n", gbs, (gbs >= 0.5) ? "met" : "NOT MET"
    printf "gotcha peak RSS MiB            %6.1f   bound <= 64    %s\n", rss, (rss <= 64) ? "met" : "NOT MET"
    # the same in CPU seconds: what the load cannot stretch (a -j run spends more CPU than wall)
    printf "CPU seconds: gotcha -j1 / grep-40 %5.2f, default -j / grep-40 %5.2f, -j1 GB/s of CPU %5.3f\n", cg1 / cgr, cg / cgr, n / cg1 / 1e9
}'
if [ "$CRASHED" = 1 ]; then
    echo "speed: a gotcha run crashed or failed (see $OUT/speed-stderr.log)" >&2
    exit 1
fi

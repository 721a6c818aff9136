# The text report of a two-Spark run whose events carry lanes ([rank1]): the path column and the
# first-error event must be the same bytes on every run (both once depended on chance).
"$GOTCHA_BIN" scan $(find ../../corpus/G10-b-vllm-tp2-nccl-watchdog-enginedead -type f ! -name expected.json | sort)

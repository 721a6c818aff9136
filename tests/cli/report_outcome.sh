# The run's outcome in every format, for corpus runs of each outcome: a vLLM server shut down
# cleanly (completed), a DataLoader worker killed by the OOM killer (failed, no gotcha), a
# training log cut by a reboot (cut-off), a preflight check with no job log (unknown). A failed
# run's HTML never carries the healthy (green) classes.
for run in healthy-vllm-serve-clean other-04-oom-killer-dataloader-worker G4-c-log-cut-new-boot \
    healthy-preflight-all-pass; do
    files=$(find ../../corpus/$run -type f ! -name expected.json | sort)
    "$GOTCHA_BIN" scan -q -f text,md,html,json -o "$TEST_TMP/$run" $files
    echo "== $run"
    sed -n 2p "$TEST_TMP/$run.txt"
    grep '^| \*\*Outcome\*\*' "$TEST_TMP/$run.md"
    grep -o '<span class="outcome [^"]*">[^<]*</span>' "$TEST_TMP/$run.html"
    grep -o '<span class="id none [^"]*">' "$TEST_TMP/$run.html"
    grep '^  "outcome": ' "$TEST_TMP/$run.json"
done
grep -c 'none completed' "$TEST_TMP/other-04-oom-killer-dataloader-worker.html" |
    sed 's/^/healthy classes in the failed run: /'

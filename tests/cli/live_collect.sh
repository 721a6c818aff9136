# gotcha collect of a recorded run (GB10 stand-ins, a CUDA OOM): one .tar.zst with every file of
# the record and the Markdown report; the scan of the bundle gives the same verdict, confidence
# and evidence as the scan of the directory (the bundle's own report is skipped, not read);
# user names in paths are redacted by default and kept with --no-redact.
. ./live_setup.inc
use_gpu gb10
cd "$TEST_TMP" || exit 1
"$GOTCHA_BIN" record -q -o run --interval 1 -- "$live/after-samples.sh" run 4 \
    "$live/oom-run.sh" > /dev/null 2>&1
echo "record exit $?"
"$GOTCHA_BIN" collect -o bundle.tar.zst run 2> collect.err
echo "collect exit $?"
mask_times < collect.err
tar --zstd -tf bundle.tar.zst
summary() { # the verdict, its confidence and the evidence lines, paths relative to the run
    python3 -c 'import json, sys
d = json.load(sys.stdin)
v = d["verdict"]
print(v["id"], v["confidence"], "findings", [f["id"] for f in d["findings"]])
for f in d["findings"]:
    for e in f["evidence"]:
        print("  ", f["id"], e["path"].split("run/", 1)[-1] + ":" + str(e["line"]))'
}
"$GOTCHA_BIN" scan -f json run | summary > dir.txt
"$GOTCHA_BIN" scan -f json bundle.tar.zst 2> scan.err | summary > bundle.txt
cat dir.txt
cmp dir.txt bundle.txt && echo "bundle: same verdict, confidence and evidence as the directory"
mask_times < scan.err
# redaction: the traceback's /home/dev/ paths
tar --zstd -xOf bundle.tar.zst gotcha-bundle/run/stderr.log | grep -c '/home/<user>/'
tar --zstd -xOf bundle.tar.zst gotcha-bundle/run/stderr.log | grep -c '/home/dev/'
"$GOTCHA_BIN" collect -q --no-redact -o raw.tar.zst run
tar --zstd -xOf raw.tar.zst gotcha-bundle/run/stderr.log | cmp - run/stderr.log && echo "--no-redact: stderr.log byte for byte"
tar --zstd -xOf bundle.tar.zst gotcha-bundle/gotcha-report.md | sed -n 1,2p

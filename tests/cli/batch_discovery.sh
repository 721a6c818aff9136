# gotcha batch finds the runs on a shelf: directories holding logs (at any depth), each bundle
# archive, and prints one gotcha.batch/1 row per run in run-path order; a truncated bundle is a
# row with its error and exit 2. --run-depth overrides the discovery.
. ./batch_setup.inc
"$GOTCHA_BIN" batch -j 2 shelf > rows.ndjson; echo "exit $?"
sed 's/.*"run":"\([^"]*\)","outcome":[^,]*,"verdict":"\([^"]*\)".*"error":\(.*\)}$/\1 \2 error=\3/' rows.ndjson |
    sed 's/error=null$/ok/; s/error=".*"$/error/'
echo "--run-depth 1:"
"$GOTCHA_BIN" batch -q --run-depth 1 shelf > depth1.ndjson; echo "exit $?"
sed 's/.*"run":"\([^"]*\)".*/\1/' depth1.ndjson

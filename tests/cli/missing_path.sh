# A path named on the command line that cannot be opened: an error even with -q, exit 2.
"$GOTCHA_BIN" scan -q no/such/run.log >/dev/null

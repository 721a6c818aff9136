# The JSON report of a run that died of none of the ten (Xid 79 on an H100): verdict none, the
# first error named from the common pack.
"$GOTCHA_BIN" scan -f json $(find ../../corpus/other-03-xid79-h100-fell-off-bus -type f ! -name expected.json | sort)

# The hidden benchmark stage: ingest + tokenize only, one summary line.
"$GOTCHA_BIN" scan --stage=ingest data/healthy.log

# An unknown report format in the list.
"$GOTCHA_BIN" scan --format json,xml data/healthy.log

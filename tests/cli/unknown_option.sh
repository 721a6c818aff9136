# An unknown option: one line plus the --help hint, exit 2, nothing scanned.
"$GOTCHA_BIN" --frobnicate data/healthy.log

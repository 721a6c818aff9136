"$GOTCHA_BIN" data/healthy.log -o

"$GOTCHA_BIN" list G3

"$GOTCHA_BIN" batch runs/

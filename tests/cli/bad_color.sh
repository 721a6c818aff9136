"$GOTCHA_BIN" --color=sometimes data/healthy.log

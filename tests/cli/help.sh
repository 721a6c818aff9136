# `gotcha --help`: the full help on stdout, exit 0 (docs/gotcha.1 follows it).
"$GOTCHA_BIN" --help

# `gotcha <command> --help`: that command's help.
"$GOTCHA_BIN" explain --help

# `gotcha` alone: short usage on stderr, exit 2.
"$GOTCHA_BIN"

# `gotcha --version`: program version first; library versions follow (they vary by machine).
out=$("$GOTCHA_BIN" --version)
rc=$?
printf '%s\n' "$out" | sed -n 1p
printf '%s\n' "$out" | sed -n '2,$s/^\([a-z0-9]*\) .*/\1/p'
exit $rc

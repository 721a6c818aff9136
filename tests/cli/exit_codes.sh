# The exit codes (STYLE.md section 7), pinned in one place:
#   0 the scan found nothing, 1 it named a failure, 2 usage error or an unreadable named path.
code() { "$@" >/dev/null 2>&1; echo $?; }
echo "clean:    $(code "$GOTCHA_BIN" scan data/healthy.log)"
echo "findings: $(code "$GOTCHA_BIN" scan data/flash-attn-undefined-symbol.log)"
echo "missing:  $(code "$GOTCHA_BIN" scan data/healthy.log no/such/file.log)"
echo "usage:    $(code "$GOTCHA_BIN" scan --format nope data/healthy.log)"

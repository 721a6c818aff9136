# The exit codes (docs/style.md section 7, README "Exit codes"), pinned in one place:
#   0 no gotcha named and the run did not fail (completed, cut-off, unknown);
#   1 a gotcha named, or the run failed (outcome failed) with no gotcha named;
#   2 usage error, an unreadable named path, or nothing to read (no file, no line of text).
code() { "$@" >/dev/null 2>&1; echo $?; }
# a run that died of a plain Python exception, none of the ten: the traceback's final line as
# CPython prints it ("KeyError: 'labels'"), after python logging lines
mkdir -p "$TEST_TMP/failed" "$TEST_TMP/empty" "$TEST_TMP/binary"
printf '%s\n' "2026-11-29 10:12:01,000 - INFO - train - step 10 loss 1.93" \
    "Traceback (most recent call last):" '  File "train.py", line 88, in <module>' \
    "    batch = collate(rows)" "KeyError: 'labels'" >"$TEST_TMP/failed/train.log"
# an ELF header and zeros (not $GOTCHA_BIN itself: under valgrind that is a shell script)
{ printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000'; head -c 4000 /dev/zero; } >"$TEST_TMP/binary/prog.bin"
echo "clean:          $(code "$GOTCHA_BIN" scan data/healthy.log)"
echo "findings:       $(code "$GOTCHA_BIN" scan data/flash-attn-undefined-symbol.log)"
echo "failed run:     $(code "$GOTCHA_BIN" scan "$TEST_TMP/failed")"
echo "missing:        $(code "$GOTCHA_BIN" scan data/healthy.log no/such/file.log)"
echo "usage:          $(code "$GOTCHA_BIN" scan --format nope data/healthy.log)"
echo "empty dir:      $(code "$GOTCHA_BIN" scan "$TEST_TMP/empty")"
echo "only a binary:  $(code "$GOTCHA_BIN" scan "$TEST_TMP/binary")"

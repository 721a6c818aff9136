# A log written to attack the terminal: clear screen, set the title, hide text, move the cursor,
# a C1 CSI byte, bidi override; and planted secrets. No control byte reaches the text report, and
# md/html (redacted by default) carry none of the secrets.
printf '%s\n' \
  "2026-11-29 10:00:00,000 INFO start host=spark-01 token=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789" \
  "$(printf '2026-11-29 10:00:01,000 ERROR \033[2J\033]0;pwned\007\033[8mhidden\033[0m \233 \342\200\256 RuntimeError: CUDA error: an illegal memory access was encountered')" \
  "2026-11-29 10:00:02,000 INFO ssh alice@10.1.2.3 key AKIAABCDEFGHIJKLMNOP mac 00:1b:21:3c:4d:5e home /home/alice/run" \
  > "$TEST_TMP/hostile.log"
"$GOTCHA_BIN" scan -f text,md,html,json -o "$TEST_TMP/r" "$TEST_TMP/hostile.log" >/dev/null 2>&1
echo "exit $?"
"$GOTCHA_BIN" scan "$TEST_TMP/hostile.log" > "$TEST_TMP/t.txt" 2>&1
LC_ALL=C tr -d '\t\n\040-\176\200-\377' < "$TEST_TMP/t.txt" | wc -c | sed 's/^ */control bytes in the text report: /'
grep -c 'illegal memory access' "$TEST_TMP/t.txt" | sed 's/^/first error shown: /'
for f in r.md r.html; do
    for secret in hf_AbCdEf AKIAABCDEFGHIJKLMNOP 10.1.2.3 00:1b:21:3c:4d:5e /home/alice; do
        grep -q -- "$secret" "$TEST_TMP/$f" && echo "$f leaks $secret"
    done
    echo "$f checked"
done
grep -q 'hf_AbCdEf' "$TEST_TMP/r.json" && echo "json keeps the log as is unless --redact"

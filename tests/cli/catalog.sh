# gotcha list prints the catalogue like the skill's quick reference; explain prints one entry in
# full with its signatures; an unknown id is an error.
"$GOTCHA_BIN" list | head -12
echo "---"
"$GOTCHA_BIN" explain G3 > "$TEST_TMP/g3.txt"; echo "exit $?"
sed "s#$GOTCHA_PATTERNS#PATTERNS#" "$TEST_TMP/g3.txt" | head -12
grep -c 'G3\.' "$TEST_TMP/g3.txt" | sed 's/^/G3 signature lines: /'
echo "---"
"$GOTCHA_BIN" explain G11; echo "exit $?"
echo "---"
# a fault code of a shipped catalogue, by catalogue:code; the table; a code it does not list
"$GOTCHA_BIN" explain xid:79 > "$TEST_TMP/x79.txt"; echo "exit $?"
sed "s#$GOTCHA_PATTERNS#PATTERNS#" "$TEST_TMP/x79.txt"
"$GOTCHA_BIN" explain SXID:24007 | sed "s#$GOTCHA_PATTERNS#PATTERNS#" | head -6
"$GOTCHA_BIN" explain xid | sed "s#$GOTCHA_PATTERNS#PATTERNS#" | head -6
"$GOTCHA_BIN" explain xid:999; echo "exit $?"

# gotcha list prints the catalogue like the skill's quick reference; explain prints one entry in
# full with its signatures; an unknown id is an error.
"$GOTCHA_BIN" list | head -12
echo "---"
"$GOTCHA_BIN" explain G3 > "$TEST_TMP/g3.txt"; echo "exit $?"
# the count changes with every signature added to G3: the heading's shape and that it matches
# the lines listed are what is pinned
sed "s#$GOTCHA_PATTERNS#PATTERNS#" "$TEST_TMP/g3.txt" | head -12 | sed 's/^signatures ([0-9]*):$/signatures (N):/'
n=$(sed -n 's/^signatures (\([0-9]*\)):$/\1/p' "$TEST_TMP/g3.txt")
m=$(grep -c '^  G3\.' "$TEST_TMP/g3.txt")
[ "$n" -gt 0 ] && [ "$n" -eq "$m" ] && echo "G3 signature lines: as many as the heading says"
echo "---"
"$GOTCHA_BIN" explain G11; echo "exit $?"
echo "---"
# a fault code of a shipped catalogue, by catalogue:code; the table; a code it does not list
"$GOTCHA_BIN" explain xid:79 > "$TEST_TMP/x79.txt"; echo "exit $?"
sed "s#$GOTCHA_PATTERNS#PATTERNS#" "$TEST_TMP/x79.txt"
"$GOTCHA_BIN" explain SXID:24007 | sed "s#$GOTCHA_PATTERNS#PATTERNS#" | head -6
"$GOTCHA_BIN" explain xid | sed "s#$GOTCHA_PATTERNS#PATTERNS#" | head -6
"$GOTCHA_BIN" explain xid:999; echo "exit $?"

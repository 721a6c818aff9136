# The engine names no pack id and no platform (issues 12 and 23): no entry id or signature id of
# the shipped pack, no numbered gotcha id ("G3", "G10.x"), no platform the pack declares (its id
# or name, "gb10" / "GB10") and none of GB10's values (its capability 12.1, the sm_121 / 121a
# targets) is spelled in a string literal of analyzer/**/*.c or *.h, whole or split into
# adjacent literals ("G" "3"); nor does the code test a capability by number (major == 12 &&
# minor == 1). The knowledge lives in patterns/*.json; the C evaluates it. Fails with the
# offending lines, and also when it read no id, no platform or no source file (so it cannot pass
# by reading nothing).
top=$(cd ../.. && pwd)
python3 - "$top" <<'PY'
import glob, json, os, re, sys
top = sys.argv[1]
ids, platforms = set(), set()
for f in glob.glob(os.path.join(top, "patterns", "*.json")):
    d = json.load(open(f))
    for e in d["entries"]:
        ids.add(e["id"])
        ids.update(s["id"] for s in e["signatures"])
    for p in d.get("platforms", []):
        platforms.update([p["id"], p["name"]])
srcs = sorted(glob.glob(os.path.join(top, "analyzer", "**", "*.[ch]"), recursive=True))
if len(ids) < 100 or not platforms or len(srcs) < 10:
    print("read too little: %d ids, %d platform names, %d files" % (len(ids), len(platforms), len(srcs)))
    sys.exit(1)
numbered = re.compile(r'G[0-9]+(\.[A-Za-z0-9_.-]+)?')
# a platform's id or name anywhere in a literal (any case), and GB10's values
named = re.compile("|".join(re.escape(p) for p in sorted(platforms)), re.I)
values = re.compile(r'sm_?12[01]a?|\b121a\b|(?<![\d.%])12\.1(?![\d])|compute_121')
by_number = re.compile(r'major\s*==\s*12\s*&&\s*minor\s*==\s*1\b')
token = re.compile(r'//[^\n]*|/\*.*?\*/|\'(?:[^\'\\\n]|\\.)*\'|"(?:[^"\\\n]|\\.)*"', re.S)
bad = []
for path in srcs:
    text = open(path, encoding="utf-8", errors="replace").read()
    rel = os.path.relpath(path, top)
    lits, code, last = [], [], None  # adjacent literals join: "G" "3" is "G3"
    pos = 0
    for m in token.finditer(text):
        between = text[pos:m.start()]
        code.append(between)
        pos = m.end()
        t = m.group(0)
        if t.startswith("//") or t.startswith("/*"):
            code.append(" ")
            continue
        if t.startswith("'"):
            last = None
            continue
        line = text.count("\n", 0, m.start()) + 1
        if last is not None and between.strip() == "":
            lits[last][1] += t[1:-1]
        else:
            lits.append([line, t[1:-1]])
            last = len(lits) - 1
        if between.strip():
            pass
    code.append(text[pos:])
    for line, lit in lits:
        if lit in ids or numbered.fullmatch(lit) or named.search(lit) or values.search(lit):
            bad.append("%s:%d: \"%s\"" % (rel, line, lit[:100]))
    for m in by_number.finditer("".join(code)):
        bad.append("%s: %s" % (rel, m.group(0)))
for b in bad:
    print(b)
print("pack ids and platforms in analyzer/: %s" % ("none" if not bad else len(bad)))
sys.exit(1 if bad else 0)
PY

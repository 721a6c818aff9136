# The engine names no pack id (issue 12): no entry id or signature id of the shipped pack, and no
# numbered gotcha id ("G3", "G10.x"), is spelled in a string literal of analyzer/**/*.c. The
# knowledge lives in patterns/*.json; the C evaluates it. Fails with the offending lines, and
# also when it read no id or no source file (so it cannot pass by reading nothing).
top=$(cd ../.. && pwd)
python3 - "$top" <<'PY'
import glob, json, os, re, sys
top = sys.argv[1]
ids = set()
for f in glob.glob(os.path.join(top, "patterns", "*.json")):
    for e in json.load(open(f))["entries"]:
        ids.add(e["id"])
        ids.update(s["id"] for s in e["signatures"])
srcs = sorted(glob.glob(os.path.join(top, "analyzer", "**", "*.c"), recursive=True))
if len(ids) < 100 or len(srcs) < 10:
    print("read too little: %d ids, %d files" % (len(ids), len(srcs)))
    sys.exit(1)
numbered = re.compile(r'"G[0-9]+(\.[A-Za-z0-9_.-]+)?"')
bad = []
for path in srcs:
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        for lit in re.findall(r'"(?:[^"\\]|\\.)*"', line):
            if lit[1:-1] in ids or numbered.fullmatch(lit):
                bad.append("%s:%d: %s" % (os.path.relpath(path, top), n, line.strip()))
for b in bad:
    print(b)
print("pack ids in analyzer/*.c: %s" % ("none" if not bad else len(bad)))
sys.exit(1 if bad else 0)
PY

#!/usr/bin/env python3
"""primitive_usage.py - the rule primitives of the C against the pack and docs/patterns.md.

Reads the primitive table of analyzer/correlate/rules.c (`prims[]`: use, parameter schema), the
rules of the shipped pack (patterns/*.json), the parameter names the detectors read
(analyzer/correlate/detect_*.c: `N("x")`, `S("x")`, `corr_rule_*(rr, "x")`) and the primitives'
table of docs/patterns.md ("| primitive (`use`) | ...").

Fails (exit 1, one line per problem) when
  - a primitive of the C has no user in the pack (remove it, issue 23 item 3),
  - a parameter the C declares is passed by no pack rule,
  - a parameter the C declares is read by no detector (a name in the schema alone),
  - a primitive or a parameter of docs/patterns.md is unknown to the C, or one of the C's is
    missing from the docs' table.
Exits 2 when it read no primitive, no rule or no docs row (so it cannot pass by reading nothing).
With --table, prints each primitive, its users and the parameters passed (count of rules).
Usage: primitive_usage.py [--table] [ROOT]
"""
import collections, glob, json, os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
table = "--table" in sys.argv[1:]
root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..")


def c_prims(path):
    """{use: [(param, optional)]} from the prims[] initializer (adjacent literals joined)."""
    src = open(path, encoding="utf-8").read()
    m = re.search(r"static const struct prim prims\[\] = \{(.*?)\n\};", src, re.S)
    if not m:
        return {}
    out = {}
    for ent in re.finditer(r"\{(\"[^{}]*?)\},?\s*(?=\{|$)", m.group(1), re.S):
        body = ent.group(1)
        # the fields: "use", fn, "params"..., "outcomes"..., "vars"...
        parts = re.split(r",\s*(?=\"|[A-Za-z_])", body)
        strs = []
        for p in parts:
            lits = re.findall(r'"((?:[^"\\]|\\.)*)"', p)
            strs.append("".join(lits) if lits else None)
        use, params = strs[0], strs[2]
        out[use] = [(w.split(":")[0], w.endswith("?")) for w in params.split()]
    return out


def read_names(paths):
    """parameter names a detector reads by a literal."""
    names = set()
    pat = re.compile(r'\b(?:N|S|corr_rule_(?:num|str|list|has)[a-z_]*|match_rule_value)\(\s*(?:[a-z]+,\s*)?"([a-z_0-9]+)"')
    for p in paths:
        names.update(pat.findall(open(p, encoding="utf-8").read()))
    return names


def pack_rules(pdir):
    users = collections.defaultdict(list)  # use -> [entry id]
    passed = collections.defaultdict(collections.Counter)
    for f in sorted(glob.glob(os.path.join(pdir, "*.json"))):
        d = json.load(open(f, encoding="utf-8"))
        for e in d.get("entries", []) if isinstance(d, dict) else []:
            for r in e.get("rules", []):
                users[r["use"]].append(e["id"])
                for k in r.get("params", {}):
                    passed[r["use"]][k] += 1
    return users, passed


def doc_rows(path):
    """{use: set(params)} from the primitives' table of docs/patterns.md."""
    rows, on = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("| primitive (`use`)"):
            on = True
            continue
        if on and not line.startswith("|"):
            break
        if not on or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        use = cells[0].strip("`")
        first = re.match(r"`([^`]*)`", cells[2])
        words = first.group(1).split() if first else []
        # "pick(longest/largest)", "when?(coresident)", "unit?": the name alone
        rows[use] = {re.match(r"[a-z_0-9]+", w).group(0) for w in words if re.match(r"[a-z_]", w)}
    return rows


prims = c_prims(os.path.join(root, "analyzer", "correlate", "rules.c"))
reads = read_names(glob.glob(os.path.join(root, "analyzer", "correlate", "detect*.c")))
users, passed = pack_rules(os.path.join(root, "patterns"))
docs = doc_rows(os.path.join(root, "docs", "patterns.md"))
if not prims or not users or not docs:
    print("primitive_usage: read %d primitives, %d used, %d docs rows: nothing to check"
          % (len(prims), len(users), len(docs)), file=sys.stderr)
    sys.exit(2)

bad = []
for use, params in prims.items():
    names = [p for p, _ in params]
    if use not in users:
        bad.append("%s: no pack rule uses it" % use)
    for p in names:
        if use in users and not passed[use][p]:
            bad.append("%s: parameter %s is passed by no pack rule" % (use, p))
        if p not in reads:
            bad.append("%s: parameter %s is read by no detector" % (use, p))
    if use not in docs:
        bad.append("%s: not in docs/patterns.md's primitives table" % use)
    else:
        for p in sorted(docs[use] - set(names)):
            bad.append("%s: docs/patterns.md documents %s, unknown to the C" % (use, p))
        for p in names:
            if p not in docs[use]:
                bad.append("%s: parameter %s is missing from docs/patterns.md" % (use, p))
for use in sorted(set(docs) - set(prims)):
    bad.append("%s: in docs/patterns.md, not a primitive of the C" % use)
for use in sorted(set(users) - set(prims)):
    bad.append("%s: used by the pack, not a primitive of the C" % use)

if table:
    for use, params in prims.items():
        ids = users.get(use, [])
        print("%-20s %2d rule(s) %s" % (use, len(ids), " ".join(sorted(set(ids)))))
        print("    " + " ".join("%s%s=%d" % (p, "?" if o else "", passed[use][p]) for p, o in params))
for b in bad:
    print("primitive_usage: " + b)
print("primitives: %d, pack rules: %d, %s"
      % (len(prims), sum(len(v) for v in users.values()), "ok" if not bad else "%d problem(s)" % len(bad)))
sys.exit(1 if bad else 0)

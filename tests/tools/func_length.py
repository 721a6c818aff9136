#!/usr/bin/env python3
"""func_length.py - the functions of analyzer/ longer than the limit (docs/style.md section 10).

A function is a line that opens a body at column 0 ("{" alone, after its signature) up to the
"}" at column 0 that closes it (clang-format puts both there). Prints "path:line: name (N lines)"
for each over the limit and exits 1 when any is; exits 2 when it read no function at all.
Usage: func_length.py [--max N] [ROOT]
"""
import glob, os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith("--max")]
limit = 150
for a in sys.argv[1:]:
    if a.startswith("--max="):
        limit = int(a.split("=", 1)[1])
root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..")
name_re = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
seen, over = 0, []
for path in sorted(glob.glob(os.path.join(root, "analyzer", "**", "*.c"), recursive=True)):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for i, l in enumerate(lines):
        if l != "{" or i == 0:
            continue
        # the signature: the lines above back to the one that starts at column 0
        j = i - 1
        while j > 0 and (lines[j].startswith(" ") or lines[j].startswith("\t")):
            j -= 1
        sig = " ".join(lines[j:i])
        if "=" in sig.split("(")[0] or "(" not in sig:
            continue  # an initializer, a struct
        m = name_re.search(sig)
        k = i + 1
        while k < len(lines) and lines[k] != "}":
            k += 1
        seen += 1
        n = k - i + 1
        if n > limit:
            over.append("%s:%d: %s (%d lines)" % (os.path.relpath(path, root), j + 1,
                                                  m.group(1) if m else "?", n))
if not seen:
    print("read no function")
    sys.exit(2)
for o in over:
    print(o)
print("%d functions, %d over %d lines" % (seen, len(over), limit))
sys.exit(1 if over else 0)

#!/usr/bin/env python3
"""tests/bench/pcre2ere.py - translate the pack's PCRE2 regexes to POSIX ERE for the `grep -E -f` baseline.

    python3 tests/bench/pcre2ere.py PATTERN_DIR OUT_FILE

Translation (enough for the pack's regexes; anything else is skipped and counted):
  \\d -> [0-9]   \\D -> [^0-9]   \\s -> [[:space:]]   \\S -> [^[:space:]]
  \\w -> [[:alnum:]_]   \\W -> [^[:alnum:]_]   (inside [...]: 0-9, [:space:], [:alnum:]_)
  (?<name>...) (?P<name>...) (?'name'...) (?:...) -> (...)
  lazy quantifiers *? +? ?? {n,m}? -> greedy (same lines match: grep only asks whether one does)
  a leading (?i) is dropped; grep gets -i only when every regex has it
  \\t -> a TAB byte; escaped punctuation (\\. \\( \\[ ...) kept; \\b kept (GNU extension)
Skipped: lookaround, backreferences, possessive quantifiers, atomic groups, \\x/\\p/\\Q escapes,
inline flags other than a leading (?i), escapes inside classes other than the above.
Each translation is run through `grep -E` on its signature's match examples; one that misses an
example is a translation defect, reported and skipped rather than timed.
Prints "translated N skipped M icase K" on stdout; the caller adds -i only when K == N.
"""
import json
import os
import subprocess
import sys


class Untranslatable(Exception):
    pass


CLASS_ESC = {"d": "0-9", "s": "[:space:]", "w": "[:alnum:]_"}
ATOM_ESC = {"d": "[0-9]", "D": "[^0-9]", "s": "[[:space:]]", "S": "[^[:space:]]",
            "w": "[[:alnum:]_]", "W": "[^[:alnum:]_]", "b": "\\b", "B": "\\B"}


def translate_class(src, i):
    """src[i] == '['; returns (ere_text, next_index)."""
    out = ["["]
    i += 1
    if i < len(src) and src[i] == "^":
        out.append("^")
        i += 1
    first = True
    literal_dash = False
    body = []
    while i < len(src):
        c = src[i]
        if c == "]" and not first:
            break
        first = False
        if c == "\\":
            e = src[i + 1]
            if e in CLASS_ESC:
                body.append(CLASS_ESC[e])
            elif e == "]":
                body.insert(0, "]")  # a leading ] is literal in POSIX
            elif e == "-":
                literal_dash = True  # POSIX: a literal '-' goes last; added below
            elif e in ".()[{}|*+?/:^$ '\"_=,;#@!%&<>~`\\":
                if e == "\\":
                    body.append("\\\\")
                elif e == "^":
                    body.append("\\^")
                else:
                    body.append(e)
            elif e == "t":
                body.append("\t")
            else:
                raise Untranslatable("class escape \\" + e)
            i += 2
            continue
        if c == "[" and src[i + 1:i + 2] == ":":
            j = src.index(":]", i + 2)
            body.append(src[i:j + 2])
            i = j + 2
            continue
        # an unescaped '-' first or last in the class is literal; between two members it is a
        # range ("A-Z") and stays where it is
        if c == "-" and (not body or src[i + 1:i + 2] == "]"):
            literal_dash = True
        else:
            body.append(c)
        i += 1
    if i >= len(src):
        raise Untranslatable("unterminated class")
    # a literal '-' must come last in a POSIX bracket expression
    out.append("".join(body) + ("-" if literal_dash else ""))
    out.append("]")
    return "".join(out), i + 1


def translate(src):
    icase = False
    if src.startswith("(?i)"):
        icase = True
        src = src[4:]
    out = []
    i = 0
    while i < len(src):
        c = src[i]
        if c == "\\":
            e = src[i + 1]
            if e in ATOM_ESC:
                out.append(ATOM_ESC[e])
            elif e == "t":
                out.append("\t")
            elif e.isalnum():
                raise Untranslatable("escape \\" + e)
            elif e == "/" or e == ":" or e == "'" or e == '"' or e == "-" or e == "_" or e == "=" \
                    or e == "," or e == "<" or e == ">" or e == "@" or e == "%" or e == "#" \
                    or e == "!" or e == "&" or e == "~" or e == " ":
                out.append(e)
            else:
                out.append("\\" + e)
            i += 2
        elif c == "[":
            t, i = translate_class(src, i)
            out.append(t)
        elif c == "(":
            if src.startswith("(?:", i):
                out.append("(")
                i += 3
            elif src.startswith("(?<", i) and src[i + 3:i + 4] not in ("=", "!"):
                j = src.index(">", i)
                out.append("(")
                i = j + 1
            elif src.startswith("(?P<", i):
                j = src.index(">", i)
                out.append("(")
                i = j + 1
            elif src.startswith("(?'", i):
                j = src.index("'", i + 3)
                out.append("(")
                i = j + 1
            elif src.startswith("(?", i):
                raise Untranslatable("group (?" + src[i + 2:i + 3])
            else:
                out.append("(")
                i += 1
        elif c in "*+?}":
            out.append(c)
            i += 1
            if i < len(src) and src[i] == "?":
                i += 1  # lazy -> greedy
            elif i < len(src) and src[i] == "+":
                raise Untranslatable("possessive quantifier")
        else:
            out.append(c)
            i += 1
    return "".join(out), icase


def matches_examples(ere, icase, lines):
    """1 when grep -E finds every example line with the translated regex."""
    if not lines:
        return True
    args = ["grep", "-E", "-c"] + (["-i"] if icase else []) + ["-e", ere]
    res = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    return res.stdout.strip() == str(len(lines))


def main():
    pack_dir, out_path = sys.argv[1], sys.argv[2]
    translated, skipped, icase_n = [], 0, 0
    for name in sorted(os.listdir(pack_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(pack_dir, name)) as f:
            pack = json.load(f)
        for entry in pack.get("entries", []):
            for sig in entry.get("signatures", []):
                try:
                    ere, icase = translate(sig["regex"])
                except (Untranslatable, ValueError, IndexError) as e:
                    skipped += 1
                    print("skip %s: %s" % (sig.get("id"), e), file=sys.stderr)
                    continue
                if not matches_examples(ere, icase, sig.get("examples", {}).get("match", [])):
                    skipped += 1
                    print("skip %s: translation misses an example" % sig.get("id"), file=sys.stderr)
                    continue
                translated.append(ere)
                icase_n += icase
    with open(out_path, "w") as f:
        for r in translated:
            f.write(r + "\n")
    print("translated %d skipped %d icase %d" % (len(translated), skipped, icase_n))


if __name__ == "__main__":
    main()

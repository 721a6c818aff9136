#!/usr/bin/env python3
"""corpus_independent.py PATTERNS CORPUS

No line of a corpus scenario may be byte-identical to an examples.match string of a signature of
the gotcha it is labelled with (expected.json's "expected"): such a scenario tests the signature
against its own example, not against the real tool's output. (Lines every run prints the same,
"Traceback (most recent call last):" or an nvidia-smi table's header, are context and common
signatures' examples; those are not counted.) Reads every input file of every scenario (plain, .gz, .xz, .bz2, .zst, and
the members of tar archives, recursively), strips each line's end, and compares it with the set
of match examples of every pack file.

There are no exceptions (issue 25 emptied the allow-list, and it is gone): a line that is its
emitter's fixed text is made independent on the pack's side, its example taking another real
context (a launcher's or a container's prefix, another value of the format string). Exit 0 clean,
1 a line equals an example, 2 usage.
"""
import bz2
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
import tarfile


def examples(patterns):
    out = {}
    for name in sorted(os.listdir(patterns)):
        if not name.endswith(".json"):
            continue
        pack = json.load(open(os.path.join(patterns, name), encoding="utf-8"))
        for e in pack.get("entries", []):
            for s in e.get("signatures", []):
                for m in (s.get("examples") or {}).get("match", []):
                    if isinstance(m, str) and len(m.strip()) >= 12:
                        out.setdefault(m.strip(), set()).add(e.get("id"))
    return out


def decode(name, data):
    """(inner name, bytes) with one compression layer removed, or None when not compressed."""
    try:
        if name.endswith(".gz"):
            return name[:-3], gzip.decompress(data)
        if name.endswith(".xz"):
            return name[:-3], lzma.decompress(data)
        if name.endswith(".bz2"):
            return name[:-4], bz2.decompress(data)
        if name.endswith(".zst"):
            p = subprocess.run(["zstd", "-dc"], input=data, stdout=subprocess.PIPE, check=True)
            return name[:-4], p.stdout
    except (OSError, EOFError, lzma.LZMAError, subprocess.CalledProcessError):
        return None
    return None


def lines_of(name, data, depth=0):
    if depth > 6:
        return
    d = decode(name, data)
    if d:
        yield from lines_of(d[0], d[1], depth + 1)
        return
    if name.endswith(".tar") or name.endswith(".tgz"):
        try:
            with tarfile.open(fileobj=io.BytesIO(data)) as t:
                for m in t.getmembers():
                    if m.isfile():
                        yield from lines_of(name + ":" + m.name, t.extractfile(m).read(), depth + 1)
        except tarfile.TarError:
            pass
        return
    for n, raw in enumerate(data.split(b"\n"), 1):
        yield name, n, raw.decode("utf-8", "replace").strip()


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    ex = examples(argv[1])
    corpus = argv[2]
    hits_by = {}
    for sc in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, sc)
        if not os.path.isfile(os.path.join(d, "expected.json")):
            continue
        want = json.load(open(os.path.join(d, "expected.json"), encoding="utf-8")).get("expected")
        for root, dirs, names in os.walk(d):
            dirs.sort()
            for f in sorted(names):
                p = os.path.join(root, f)
                if f == "expected.json":
                    continue
                for name, n, text in lines_of(os.path.relpath(p, d), open(p, "rb").read()):
                    if want in ex.get(text, ()):
                        hits_by.setdefault(sc, []).append("%s:%d equals an example of %s" % (name, n, want))
    for sc, hits in sorted(hits_by.items()):
        print("FAIL %s: %s%s" % (sc, hits[0], " (+%d more)" % (len(hits) - 1) if len(hits) > 1 else ""))
    print("%d scenarios with a line equal to a pack example" % len(hits_by))
    return 1 if hits_by else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

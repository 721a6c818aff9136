#!/usr/bin/env python3
"""reserved_sources.py: no file of the tree may cite a source reserved for the independent check.

  reserved_sources.py check [TOP] [--hashes=FILE]   (make eval) exit 0 clean, 1 a citation is
                                                   reserved (each named FILE:LINE), 2 usage
  reserved_sources.py --self-test                  the check shown failing on planted citations
                                                   and passing on clean ones, in a temp dir
  reserved_sources.py regen [LIST] [--hashes=FILE] rewrite the hash file from the reserved list
                                                   (default ../shared/reserved-sources.txt beside
                                                   the repository, else /work/shared/...)

The reserved list itself is kept outside the repository (its sources must not be read, so not
even their names are kept here): the repository holds tests/tools/reserved-sources.sha256, the
SHA-256 of each entry's normalised key, one a line, and this check hashes every key a citation
in the tree yields. A citation is a URL (http, https, or a bare github.com/... one) or a GitHub
thread written owner/repo#N. Keys, all lower-case but a file path:

  thread  gh:owner/repo#N              .../owner/repo/issues/N, /pull/N, /discussions/N; owner/repo#N
  repo    gh:owner/repo                any github.com/owner/repo/... URL (a whole repository reserved)
  file    gh:owner/repo:path           .../owner/repo/blob|tree|raw/REF/path, raw.githubusercontent.com,
                                       and each directory above path (a reserved folder)
  page    url:host/path?query          any URL: scheme dropped, host lower-case
  short   ghshort:repo#N               a thread cited without its owner (the list's threads only)

A URL is normalised before that: trailing punctuation (.,;:)]'"`>), a #anchor, a trailing slash
removed. The list's lines are owner/repo#N, owner/repo, owner/repo:path and URLs (# comments).

Read: patterns/, corpus/ (plain, compressed and tar members, as tests/tools/corpus_independent.py
reads them), docs/, tests/ except tests/realworld/ (its cases may come from reserved sources: they
were labelled before the list and stay) and tests/bench/out/ (generated), analyzer/, debian/, README.md.
"""
import hashlib
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus_independent import lines_of  # noqa: E402  (the corpus reader: compression, tar)

TOP = os.path.dirname(os.path.dirname(HERE))
# the list sits in the workspace's shared/ folder beside the repository (CI gets a copy there too)
LISTS = (os.path.join(os.path.dirname(TOP), "shared", "reserved-sources.txt"),
         "/work/shared/reserved-sources.txt")
DEFAULT_HASHES = os.path.join(HERE, "reserved-sources.sha256")
ROOTS = ("patterns", "corpus", "docs", "tests", "analyzer", "debian", "README.md")
# tests/bench/out/: the bench's generated logs (gitignored, hundreds of MB after make bench)
SKIP = ("tests/realworld", "tests/bench/out")
HEADER = """\
# SHA-256 of each source reserved for gotcha's independent accuracy check, normalised as
# tests/tools/reserved_sources.py describes (gh:owner/repo#N, ghshort:repo#N, gh:owner/repo,
# gh:owner/repo:path, url:host/path), one lower-case hex digest a line. The list itself is kept outside this
# repository (its sources must not be opened, so not even their names are kept here).
# make eval runs `reserved_sources.py check`: a citation of one of them in patterns/, corpus/,
# docs/ or tests/ (but tests/realworld/) fails it. Regenerate with `reserved_sources.py regen`.
"""

URL_RE = re.compile(r"(?:https?://|(?<![\w./-])(?=(?:www\.)?github\.com/))[^\s<>\"'`\\|]+", re.I)
# owner/repo#N, and the threads after it in "owner/repo#14/#15, #19"
THREAD_RE = re.compile(r"(?<![\w./-])([A-Za-z0-9][\w.-]*)/([\w.-]+)#([0-9]+)\b((?:(?:/|, ?| and )#[0-9]+\b)*)")
# a thread by its short name, repo#N (no owner before it)
SHORT_RE = re.compile(r"(?<![\w./-])([A-Za-z0-9][\w.-]*)#([0-9]+)\b")
# a bare owner/repo or owner/repo:path (a whole repository or a file reserved): most such tokens
# are paths or model names, hashed like the rest but not counted as citations
BARE_RE = re.compile(r"(?<![\w./:#@-])([A-Za-z0-9][\w.-]*)/([A-Za-z0-9][\w.-]*)(?::([\w./-]+))?")
TRAIL = ".,;:)]}'\"`>*!?"


def sha(key):
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def clean_url(u):
    """The URL without its scheme, #anchor, trailing punctuation and trailing slash."""
    u = re.sub(r"^https?://", "", u, flags=re.I)
    u = u.split("#", 1)[0]
    while u and (u[-1] in TRAIL or u[-1] == "/"):
        u = u[:-1]
    return u


def gh_keys(owner, repo, rest):
    """Keys of a GitHub URL's owner, repo and the path after them (a list of segments)."""
    o = owner.lower()
    r = repo.lower()
    if r.endswith(".git"):
        r = r[:-4]
    keys = ["gh:%s/%s" % (o, r)]
    if len(rest) >= 2 and rest[0] in ("issues", "pull", "pulls", "discussions") and rest[1].isdigit():
        keys.append("gh:%s/%s#%s" % (o, r, rest[1]))
    path = None
    if len(rest) >= 3 and rest[0] in ("blob", "tree", "raw"):
        path = rest[2:]
    if path:
        for i in range(1, len(path) + 1):
            keys.append("gh:%s/%s:%s" % (o, r, "/".join(path[:i])))
    return keys


def url_keys(u):
    c = clean_url(u)
    if not c:
        return []
    host, _, path = c.partition("/")
    host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    keys = ["url:%s%s" % (host, "/" + path if path else "")]
    seg = [s for s in path.split("?", 1)[0].split("/") if s]
    if host == "github.com" and len(seg) >= 2:
        keys += gh_keys(seg[0], seg[1], seg[2:])
    elif host == "raw.githubusercontent.com" and len(seg) >= 3:
        keys += gh_keys(seg[0], seg[1], ["raw"] + seg[2:])
    return keys


def line_keys(text):
    """(citation as written, its keys) for each citation on one line."""
    out = []
    for m in URL_RE.finditer(text):
        out.append((m.group(0), url_keys(m.group(0))))
    for m in THREAD_RE.finditer(text):
        o, r = m.group(1).lower(), m.group(2).lower()
        nums = [m.group(3)] + re.findall(r"#([0-9]+)", m.group(4))
        out.append((m.group(0), ["gh:%s/%s#%s" % (o, r, n) for n in nums] + ["gh:%s/%s" % (o, r)]))
    return out


def bare_keys(text):
    """(token, keys) of each bare owner/repo[:path] and repo#N on a line."""
    out = [(m.group(0), ["ghshort:%s#%s" % (m.group(1).lower(), m.group(2))])
           for m in SHORT_RE.finditer(text)]
    for m in BARE_RE.finditer(text):
        r = m.group(2)
        r = r[:-4] if r.lower().endswith(".git") else r
        path = m.group(3).rstrip(TRAIL + "/").split("/") if m.group(3) else []
        out.append((m.group(0).rstrip(TRAIL), gh_keys(m.group(1), r.rstrip(TRAIL), ["blob", "-"] + path if path else [])))
    return out


def entry_keys(line):
    """The keys of one line of the reserved list ([] for a comment or blank line): a thread
    also by its short name, repo#N, as prose often cites it."""
    s = line.strip()
    if not s or s.startswith("#"):
        return []
    if re.match(r"^https?://", s, re.I):
        return url_keys(s)[:1]
    m = re.match(r"^([\w.-]+)/([\w.-]+)#([0-9]+)$", s)
    if m:
        o, r, n = m.group(1).lower(), m.group(2).lower(), m.group(3)
        return ["gh:%s/%s#%s" % (o, r, n), "ghshort:%s#%s" % (r, n)]
    m = re.match(r"^([\w.-]+)/([\w.-]+):(.+)$", s)
    if m:
        return ["gh:%s/%s:%s" % (m.group(1).lower(), m.group(2).lower(), m.group(3).rstrip("/"))]
    m = re.match(r"^([\w.-]+)/([\w.-]+)$", s)
    if m:
        return ["gh:%s/%s" % (m.group(1).lower(), m.group(2).lower())]
    raise ValueError("unrecognised line of the reserved list: %r" % s)


def read_hashes(path):
    with open(path, encoding="utf-8") as f:
        hs = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    bad = [h for h in hs if not re.fullmatch(r"[0-9a-f]{64}", h)]
    if bad:
        raise ValueError("%s: not a SHA-256 hex digest: %s" % (path, bad[0]))
    return hs


def files_of(top):
    for root in ROOTS:
        p = os.path.join(top, root)
        if os.path.isfile(p):
            yield root
            continue
        for d, dirs, names in os.walk(p):
            rel = os.path.relpath(d, top).replace(os.sep, "/")
            dirs[:] = sorted(x for x in dirs if (rel + "/" + x) not in SKIP)
            for n in sorted(names):
                yield rel + "/" + n


def check(top, hashes):
    """(hits as 'file:line: citation', files read, citations read)."""
    hits = []
    nfiles = ncite = 0
    for rel in files_of(top):
        try:
            with open(os.path.join(top, rel), "rb") as f:
                data = f.read()
        except OSError as e:
            hits.append("%s: unreadable (%s)" % (rel, e.strerror))
            continue
        nfiles += 1
        for name, n, text in lines_of(rel, data):
            cites = line_keys(text)
            ncite += len(cites)
            for cited, keys in cites + bare_keys(text):
                if any(sha(k) in hashes for k in keys):
                    hits.append("%s:%d: reserved source cited: %s" % (name, n, cited))
                    break
    return hits, nfiles, ncite


def list_hashes(listfile):
    keys = set()
    with open(listfile, encoding="utf-8") as f:
        for line in f:
            keys.update(entry_keys(line))
    return keys


def default_list():
    return next((p for p in LISTS if os.path.isfile(p)), None)


def regen(listfile, out):
    keys = list_hashes(listfile)
    with open(out, "w", encoding="utf-8") as f:
        f.write(HEADER)
        for h in sorted(sha(k) for k in keys):
            f.write(h + "\n")
    print("reserved_sources: %d entries of %s hashed into %s" % (len(keys), listfile, out))


def self_test():
    """Plants citations of made-up reserved entries in a temp tree; each must be caught at its
    line, the clean variants and tests/realworld/ must not be."""
    reserved = ["example-owner/Example-Repo#41", "whole-owner/whole-repo",
                "file-owner/file-repo:logs/run1/", "https://forum.example.org/t/some-thread/77"]
    planted = [  # (file, line text): each must be reported
        ("patterns/X.json", '  "sources": ["https://github.com/example-owner/example-repo/issues/41"]'),
        ("docs/notes.md", "see (https://github.com/Example-Owner/Example-Repo/pull/41#issuecomment-9)."),
        ("corpus/s1/README.md", "from example-owner/example-repo#41, rewritten"),
        ("tests/unit/test_x.c", "/* http://www.github.com/whole-owner/whole-repo/blob/v1/a.py#L3 */"),
        ("tests/cli/y.sh", "# https://github.com/file-owner/file-repo/blob/main/logs/run1/server.log"),
        ("README.md", "<https://forum.example.org/t/some-thread/77/>"),
        ("corpus/s2/expected.json", '"Whole-Owner/whole-repo#89 (a thread of a reserved repository)",'),
        ("docs/bare.md", "as whole-owner/whole-repo. shows"),
        ("tests/cli/z.sh", "# file-owner/file-repo:logs/run1/server.log line 4"),
        ("docs/short.md", "(tracked upstream as example-repo#41)"),
        ("docs/list.md", "as quoted in example-owner/example-repo#14/#15/#41 (steps)"),
    ]
    clean = [  # never reported: other thread numbers, repos, files, pages
        ("patterns/Y.json", '"https://github.com/example-owner/example-repo/issues/410"'),
        ("docs/ok.md", "https://github.com/whole-owner/whole-repo-fork/issues/1"),
        ("docs/ok2.md", "https://github.com/file-owner/file-repo/blob/main/logs/run2/server.log"),
        ("docs/ok3.md", "https://forum.example.org/t/some-thread/78"),
        ("docs/ok4.md", "whole-owner/whole-repo-fork and file-owner/file-repo:logs/run2/x.log, patterns/G1.json"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        lst = os.path.join(tmp, "list.txt")
        hfile = os.path.join(tmp, "hashes")
        with open(lst, "w") as f:
            f.write("# reserved\n" + "\n".join(reserved) + "\n")
        regen(lst, hfile)
        hashes = read_hashes(hfile)
        assert len(hashes) == len(reserved) + 1, hashes  # the thread twice: full and short
        top = os.path.join(tmp, "tree")

        def put(rel, text):
            p = os.path.join(top, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "a") as f:
                f.write("first line\n" + text + "\n")

        for rel, text in clean:
            put(rel, text)
        # a reserved case in tests/realworld/ stays: not read
        put("tests/realworld/b01/case/source.txt", "https://github.com/example-owner/example-repo/issues/41")
        hits, nfiles, ncite = check(top, hashes)
        assert not hits, hits
        # each clean file read, each URL in it counted (the bare tokens of ok4 are not citations)
        assert nfiles == len(clean) and ncite == len(clean) - 1, (nfiles, ncite)
        for rel, text in planted:
            put(rel, text)
        hits, nfiles, ncite = check(top, hashes)
        want = sorted("%s:2:" % rel for rel, _ in planted)
        got = sorted(h.split(" ", 1)[0] for h in hits)
        assert got == want, (got, want)
        # a compressed corpus file is read too
        import gzip
        with open(os.path.join(top, "corpus/s1/log.txt.gz"), "wb") as f:
            f.write(gzip.compress(b"ok\nok\nhttps://github.com/example-owner/example-repo/issues/41\n"))
        hits, _, _ = check(top, hashes)
        assert any(h.startswith("corpus/s1/log.txt:3:") for h in hits), hits
    print("reserved_sources: self-test passed (%d planted citations caught, %d clean ones and "
          "tests/realworld/ left alone)" % (len(planted) + 1, len(clean)))


def main(argv):
    hashes_path = DEFAULT_HASHES
    args = []
    for a in argv:
        if a.startswith("--hashes="):
            hashes_path = a.split("=", 1)[1]
        else:
            args.append(a)
    if args == ["--self-test"]:
        self_test()
        return 0
    if args and args[0] == "regen" and len(args) <= 2:
        listfile = args[1] if len(args) == 2 else default_list()
        if not listfile or not os.path.isfile(listfile):
            print("reserved_sources: no list at %s" % (listfile or " or ".join(LISTS)), file=sys.stderr)
            return 2
        regen(listfile, hashes_path)
        return 0
    if args and args[0] == "check" and len(args) <= 2:
        top = args[1] if len(args) == 2 else TOP
        hashes = read_hashes(hashes_path)
        if not hashes:
            print("reserved_sources: %s holds no hash" % hashes_path, file=sys.stderr)
            return 2
        # where the list itself is at hand (a developer's machine, CI's copy of shared/), a hash
        # file that lacks some of its entries is said, not failed: a new reserved entry is the
        # steering side's change, and the fix is `regen` in a commit of its own
        listfile = default_list()
        if listfile and hashes_path == DEFAULT_HASHES:
            missing = {sha(k) for k in list_hashes(listfile)} - hashes
            if missing:
                print("reserved_sources: warning: %d entries of %s are not in %s: run "
                      "`python3 tests/tools/reserved_sources.py regen`"
                      % (len(missing), listfile, hashes_path), file=sys.stderr)
        hits, nfiles, ncite = check(top, hashes)
        for h in hits:
            print(h)
        if hits:
            print("reserved_sources: %d citation(s) of reserved sources (cite the emitter instead; "
                  "tests/realworld/ excepted)" % len(hits), file=sys.stderr)
            return 1
        print("reserved_sources: %d files, %d citations, none reserved (%d hashes)"
              % (nfiles, ncite, len(hashes)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

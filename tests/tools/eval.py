#!/usr/bin/env python3
"""eval.py - run `gotcha scan --format json` on every labelled scenario and score the verdicts.

A scenario is a directory directly under the corpus that holds expected.json:
  {"expected": "G4" | "none", "also": [...], "why": "...", "sources": [...], "first_error": "C.x" (optional)}
Every other regular file under the scenario directory (recursively, sorted by relative path) is passed to
"$GOTCHA_BIN" scan --format json FILE...

Scores: top-1 (verdict id == expected; "none" verdict for expected "none"), top-3 (expected among the first three
findings, or verdict "none" for "none"), false verdicts (a G-verdict where "none" was expected).
Gate (--gate, what `make eval` runs): every scenario right, no false verdict, and every labelled first
error named, except the scenarios listed in the known-failures file (--known=FILE: one "NAME: reason"
a line, # comments), each with its reason. A listed scenario that now passes fails the gate too (the
list must shrink with the fix). Without --gate (eval-real: a measurement) the exit status is 0 unless
the run itself broke (2: usage, 3: a scenario could not be scanned: a crash, a timeout, no report).
Exit status under --gate: 0 the gate holds, 1 it does not, 2 usage error.
"""
import json
import os
import subprocess
import sys

LABELS = ["G%d" % i for i in range(1, 11)] + ["none"]
TIMEOUT_S = 120


def scenario_dirs(corpus):
    """Scenarios directly under CORPUS, or one level down when CORPUS holds batches
    (tests/realworld/b01/NN-case/): a batch is a directory without expected.json of its own."""
    out = []
    for name in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, name)
        if not os.path.isdir(d):
            continue
        if os.path.isfile(os.path.join(d, "expected.json")):
            out.append(d)
            continue
        for sub in sorted(os.listdir(d)):
            sd = os.path.join(d, sub)
            if os.path.isdir(sd) and os.path.isfile(os.path.join(sd, "expected.json")):
                out.append(sd)
    return out


def input_files(d):
    files = []
    for root, dirs, names in os.walk(d):
        dirs.sort()
        for n in names:
            p = os.path.join(root, n)
            if os.path.relpath(p, d) == "expected.json" or not os.path.isfile(p):
                continue
            files.append(p)
    return sorted(files, key=lambda p: os.path.relpath(p, d))


def run_gotcha(binary, files):
    """Return (report dict or None, error string or None)."""
    try:
        p = subprocess.run([binary, "scan", "--format", "json"] + files, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "timeout after %ds" % TIMEOUT_S
    except OSError as e:
        return None, "cannot run: %s" % e
    if p.returncode < 0:
        return None, "killed by signal %d" % -p.returncode
    try:
        rep = json.loads(p.stdout.decode("utf-8", "replace"))
    except ValueError:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, "exit %d, no JSON report%s" % (p.returncode, (": " + err[-1][:160]) if err else "")
    if not isinstance(rep, dict):
        return None, "report is not a JSON object"
    return rep, None


def verdict_of(rep):
    v = rep.get("verdict")
    vid = v.get("id") if isinstance(v, dict) else v
    if vid in (None, "", "none", "NONE", "None"):
        return "none"
    return str(vid)


def findings_of(rep):
    f = rep.get("findings")
    if not isinstance(f, list):
        return []
    ids = []
    for x in f:
        if isinstance(x, dict) and x.get("id"):
            ids.append(str(x["id"]))
    return ids


def possible_of(rep):
    """The ids of the report's possible list (only without a verdict), in its order."""
    p = rep.get("possible") if rep else None
    if not isinstance(p, list):
        return []
    return [str(x["id"]) for x in p if isinstance(x, dict) and x.get("id")]


def possible_rows(rows):
    """Runs of a gotcha failure the verdict left at none: (with partial evidence, of them the ones
    whose possible list holds the label, all of them, of those the ones it holds the label).
    Partial evidence: the scoring saw the label (among the findings) or the possible list names it."""
    pos = [r for r in rows if r["expected"] not in ("none", "?") and r["got"] == "none"]
    partial = [r for r in pos if r["expected"] in r.get("findings", []) or r["expected"] in r.get("possible", [])]
    return (partial, [r for r in partial if r["expected"] in r.get("possible", [])],
            pos, [r for r in pos if r["expected"] in r.get("possible", [])])


def possible_noise(rows):
    """'none' runs the verdict got right whose report still names a possible gotcha."""
    neg = [r for r in rows if r["expected"] == "none" and r["got"] == "none"]
    return neg, [r for r in neg if r.get("possible")]


def root_of(exp):
    """The labelled root line "file:line" as (file, line), or None."""
    r = exp.get("root")
    if not isinstance(r, str) or ":" not in r:
        return None
    f, _, n = r.rpartition(":")
    return (f, int(n)) if n.isdigit() else None


def got_root(rep, d):
    fe = rep.get("first_error") if rep else None
    if not isinstance(fe, dict) or not fe.get("path"):
        return None
    path = fe["path"]
    # an archive member is "file.tar:member"; the scenario-relative file is what a label names
    rel = os.path.relpath(path, d) if os.path.isabs(path) or path.startswith(d) else path
    return (rel, fe.get("line"))


def evidence_of(exp):
    """evidence_in_text: can the label be named from the log files alone? yes / partly / no, or None
    when the case does not say (miners write true/false; an audit writes yes/partly/no)."""
    v = exp.get("evidence_in_text")
    if v is True or v == "true":
        return "yes"
    if v is False or v == "false":
        return "no"
    return v if v in ("yes", "partly", "no") else None


def batch_of(name):
    return name.split("/")[0] if "/" in name else ""


def pct(a, b):
    return "%d/%d (%.0f%%)" % (a, b, 100.0 * a / b) if b else "0/0"


def fe_labelled(rows):
    """Runs whose first error's common id is labelled: the 'none' runs (a gotcha's own evidence is
    its first error, so a G run is judged by its verdict and its root line)."""
    return [r for r in rows if r.get("first_error") and r["expected"] == "none"]


def summary(rows):
    pos = [r for r in rows if r["expected"] not in ("none", "?")]
    neg = [r for r in rows if r["expected"] == "none"]
    fe = fe_labelled(rows)
    root = [r for r in rows if r.get("root")]
    yes = [r for r in pos if r.get("evident") == "yes"]
    partial, held, _, _ = possible_rows(rows)
    return dict(cases=len(rows), pos=pct(sum(r["ok"] for r in pos), len(pos)),
                possible=pct(len(held), len(partial)),
                evident=pct(sum(r["ok"] for r in yes), len(yes)) if yes else None,
                top1=pct(sum(r["ok"] for r in rows), len(rows)),
                false=sum(r["false_verdict"] for r in neg), neg=len(neg),
                fe=pct(sum(r.get("got_first_error") == r["first_error"] for r in fe), len(fe)),
                root=pct(sum(r["root_ok"] for r in root), len(root)))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "") for a in sys.argv[1:] if a.startswith("--"))
    if len(args) != 1:
        print("usage: GOTCHA_BIN=/abs/gotcha eval.py CORPUS [--save=DIR] [--history=BLIND.md]",
              file=sys.stderr)
        return 2
    corpus = args[0]
    binary = os.environ.get("GOTCHA_BIN")
    if not binary:
        print("eval: GOTCHA_BIN is not set", file=sys.stderr)
        return 2
    dirs = scenario_dirs(corpus)
    if not dirs:
        print("eval: no scenarios (directories with expected.json) under %s" % corpus, file=sys.stderr)
        return 2
    save = opts.get("save")
    if save:
        os.makedirs(save, exist_ok=True)

    rows = []
    for d in dirs:
        name = os.path.relpath(d, corpus)
        try:
            exp = json.load(open(os.path.join(d, "expected.json"), encoding="utf-8"))
            expected = str(exp["expected"])
        except (OSError, ValueError, KeyError) as e:
            rows.append(dict(name=name, expected="?", got="?", top3=[], ok=False, ok3=False,
                             error="bad expected.json: %s" % e, false_verdict=False, first_error=None,
                             root=None, root_ok=False, platform="?"))
            continue
        rep, err = run_gotcha(binary, input_files(d))
        if save and rep is not None:
            with open(os.path.join(save, name.replace("/", "__") + ".json"), "w") as f:
                json.dump(dict(verdict=rep.get("verdict"), findings=rep.get("findings"),
                               first_error=rep.get("first_error"), outcome=rep.get("outcome"),
                               possible=rep.get("possible")),
                          f, indent=1, sort_keys=True)
        if rep is None:
            got, fids, got_fe = "error", [], None
        else:
            got, fids = verdict_of(rep), findings_of(rep)
            fe = rep.get("first_error")
            got_fe = fe.get("id") if isinstance(fe, dict) else None
        top3 = fids[:3]
        if expected == "none":
            # a "none" of a run that read nothing proves nothing: it must have read records
            ok = got == "none" and rep is not None and (rep.get("records") or 0) > 0
            if got == "none" and ok is False and not err:
                err = "no record was read"
            ok3 = ok
        else:
            ok = got == expected
            ok3 = ok or expected in top3
        false_verdict = expected == "none" and got not in ("none", "error")
        want_root = root_of(exp)
        have_root = got_root(rep, d)
        rows.append(dict(name=name, expected=expected, got=got, top3=top3, ok=ok, ok3=ok3, error=err,
                         false_verdict=false_verdict, first_error=exp.get("first_error"),
                         got_first_error=got_fe, root=want_root, got_root=have_root,
                         root_ok=want_root is not None and have_root == want_root,
                         platform=str(exp.get("platform", "unknown")),
                         findings=fids, possible=possible_of(rep),
                         evident=evidence_of(exp)))

    # per scenario
    w = max(len(r["name"]) for r in rows)
    for r in rows:
        line = "%-4s %-*s expected %-5s got %-5s top-3 [%s]" % (
            "ok" if r["ok"] else "FAIL", w, r["name"], r["expected"], r["got"], ", ".join(r["top3"]))
        if r["error"]:
            line += "  (%s)" % r["error"]
        print(line)

    # confusion matrix: rows expected, columns verdict
    cols = LABELS + ["other"]
    def col(g):
        return g if g in LABELS else "other"
    m = {e: {c: 0 for c in cols} for e in LABELS + ["?"]}
    for r in rows:
        e = r["expected"] if r["expected"] in LABELS else "?"
        m[e][col(r["got"])] += 1
    print()
    print("confusion (rows: expected, columns: verdict)")
    print("%-6s" % "" + "".join("%6s" % c for c in cols))
    for e in LABELS + ["?"]:
        if e == "?" and not any(m["?"].values()):
            continue
        print("%-6s" % e + "".join("%6s" % (m[e][c] if m[e][c] else ".") for c in cols))

    n = len(rows)
    n1 = sum(r["ok"] for r in rows)
    n3 = sum(r["ok3"] for r in rows)
    top1 = 100.0 * n1 / n
    top3 = 100.0 * n3 / n
    print()
    print("top-1 accuracy: %d/%d = %.1f%%" % (n1, n, top1))
    print("top-3 accuracy: %d/%d = %.1f%%" % (n3, n, top3))
    pos = [r for r in rows if r["expected"] not in ("none", "?")]
    print("gotcha named on failures caused by one of the ten: %s" % pct(sum(r["ok"] for r in pos), len(pos)))

    ev = [r for r in pos if r.get("evident")]
    if ev:
        for k in ("yes", "partly", "no"):
            sub = [r for r in ev if r["evident"] == k]
            print("  where the log text alone shows the label (evidence_in_text %s): %s" %
                  (k, pct(sum(r["ok"] for r in sub), len(sub))))

    partial, held, pos_none, held_all = possible_rows(rows)
    print("possible holds the label where the verdict is none on a gotcha failure: %s with partial "
          "evidence (the label among the findings), %s of all" %
          (pct(len(held), len(partial)), pct(len(held_all), len(pos_none))))
    neg_none, noisy = possible_noise(rows)
    print("possible names a gotcha on 'none' runs (noise): %s" % pct(len(noisy), len(neg_none)))

    falses = [r for r in rows if r["false_verdict"]]
    print("false verdicts (G-verdict on a 'none' run): %d" % len(falses))
    for r in falses:
        print("  %s: %s" % (r["name"], r["got"]))
    fails = [r for r in rows if not r["ok"]]
    print("failures: %d" % len(fails))
    for r in fails:
        print("  %s: expected %s, got %s%s" % (r["name"], r["expected"], r["got"],
                                               (" (%s)" % r["error"]) if r["error"] else ""))
    # runs that are none of the ten must still name their first error from the common pack
    fe_rows = fe_labelled(rows)
    fe_ok = [r for r in fe_rows if r.get("got_first_error") == r["first_error"]]
    print("first error named (runs labelled with one): %d/%d" % (len(fe_ok), len(fe_rows)))
    for r in fe_rows:
        if r not in fe_ok:
            print("  %s: expected %s, got %s" % (r["name"], r["first_error"], r.get("got_first_error")))
    root_rows = [r for r in rows if r.get("root")]
    if root_rows:
        print("first error is the root line (runs labelled with one): %s" %
              pct(sum(r["root_ok"] for r in root_rows), len(root_rows)))
        for r in root_rows:
            if not r["root_ok"]:
                print("  %s: root %s:%d, got %s" % (r["name"], r["root"][0], r["root"][1],
                                                    "%s:%s" % r["got_root"] if r["got_root"] else None))

    batches = sorted({batch_of(r["name"]) for r in rows} - {""})
    if batches:
        print()
        print("per batch: cases, gotcha named on its failures, top-1, false verdicts, first error, root line, "
              "possible holds the label (verdict none, partial evidence)")
        for b in batches:
            s = summary([r for r in rows if batch_of(r["name"]) == b])
            print("  %-6s %3d  named %-14s top-1 %-14s false %d/%d  first error %-12s root %-12s possible %s%s" % (
                b, s["cases"], s["pos"], s["top1"], s["false"], s["neg"], s["fe"], s["root"], s["possible"],
                "  named where the text shows it %s" % s["evident"] if s["evident"] else ""))
        plats = sorted({r["platform"] for r in rows})
        print("per platform: " + ", ".join("%s %d" % (p, sum(r["platform"] == p for r in rows)) for p in plats))
    print("eval: %d passed, %d failed" % (n1, n - n1))
    hist = opts.get("history")
    if hist and os.path.isfile(hist):
        print()
        print("blind history (%s):" % hist)
        for line in open(hist, encoding="utf-8"):
            if line.startswith("|"):
                print("  " + line.rstrip())

    broken = [r for r in rows if r["error"] and r["got"] in ("error", "?")]
    if "gate" not in opts:
        print("measurement, not a gate (top-1 and false verdicts are reported above)")
        for r in broken:
            print("  could not scan %s: %s" % (r["name"], r["error"]))
        return 3 if broken else 0
    return gate(rows, opts.get("known"))


def read_known(path):
    """NAME: reason lines of the known-failures file; a line without its reason is an error."""
    known, bad = {}, []
    if not path:
        return known, bad
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, why = line.partition(":")
        if not why.strip():
            bad.append("%s:%d: %r has no reason" % (path, n, line))
        known[name.strip()] = why.strip()
    return known, bad


def gate(rows, known_path):
    """Each scenario's own problems: a wrong verdict, a false verdict, a first error not named."""
    known, bad = read_known(known_path)
    problems = {}
    for r in rows:
        p = []
        if not r["ok"]:
            p.append("expected %s, got %s" % (r["expected"], r["got"]))
        if r["false_verdict"]:
            p.append("false verdict %s" % r["got"])
        if r.get("first_error") and r.get("got_first_error") != r["first_error"]:
            p.append("first error %s, labelled %s" % (r.get("got_first_error"), r["first_error"]))
        if p:
            problems[r["name"]] = p
    names = {r["name"] for r in rows}
    status = 0
    for b in bad:
        print("gate: " + b)
        status = 1
    for name in sorted(set(known) - names):
        print("gate: known failure %s is no scenario" % name)
        status = 1
    for name, p in sorted(problems.items()):
        if name in known:
            print("gate: known failure %s (%s): %s" % (name, known[name], "; ".join(p)))
        else:
            print("gate: FAIL %s: %s" % (name, "; ".join(p)))
            status = 1
    for name in sorted(set(known) & names - set(problems)):
        print("gate: FAIL %s passes but is listed as a known failure: remove it from %s" %
              (name, known_path))
        status = 1
    print("gate: %s (%d scenarios, %d with a problem, %d known)" %
          ("held" if status == 0 else "FAILED", len(rows), len(problems), len(known)))
    return status


if __name__ == "__main__":
    sys.exit(main())

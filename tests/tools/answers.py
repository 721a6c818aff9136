#!/usr/bin/env python3
"""answers.py - the answers gotcha gives on every labelled scenario, for before/after diffs.

Usage: answers.py GOTCHA_BIN OUTDIR CORPUS_DIR...
For each scenario (a directory with expected.json, inputs as eval.py passes them) it writes
OUTDIR/<corpus>/<scenario>.json (the full JSON report, tool version removed) and prints one line:
  corpus/scenario  verdict  first_error-entry  findings(id:confidence,...)
so that `diff` of two runs shows every changed answer. A refactor that must not change answers
diffs both the lines and the reports.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval import input_files, scenario_dirs  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    binary, out = sys.argv[1], sys.argv[2]
    for corpus in sys.argv[3:]:
        name = corpus.rstrip("/").replace("/", "_")
        os.makedirs(os.path.join(out, name), exist_ok=True)
        for d in scenario_dirs(corpus):
            p = subprocess.run([binary, "scan", "--format", "json"] + input_files(d),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            try:
                rep = json.loads(p.stdout.decode("utf-8", "replace"))
            except ValueError:
                print("%s/%s  NO-REPORT exit %d" % (corpus, os.path.basename(d), p.returncode))
                continue
            rep.pop("tool", None)
            with open(os.path.join(out, name, os.path.basename(d) + ".json"), "w") as f:
                json.dump(rep, f, indent=1, sort_keys=True, ensure_ascii=False)
            fe = rep.get("first_error") or {}
            verdict = rep.get("verdict")
            if isinstance(verdict, dict):
                verdict = "%s:%.2f" % (verdict.get("id"), verdict.get("confidence", 0))
            finds = ",".join("%s:%.2f" % (x["id"], x["confidence"]) for x in rep.get("findings", []))
            print("%s/%s  %s  %s  %s" % (corpus, os.path.basename(d), verdict,
                                         "%s@%s:%s" % (fe.get("id"), os.path.basename(fe.get("path") or ""),
                                                       fe.get("line")) if fe else "-", finds))
    return 0


if __name__ == "__main__":
    sys.exit(main())

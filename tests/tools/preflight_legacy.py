#!/usr/bin/env python3
"""Compare preflight lines with the hand-written C checks' (issue 23: the pack's checks print
the same lines on the fake hosts of the live tests).

Usage: preflight_legacy.py LEGACY CURRENT
  LEGACY   tests/cli/data/preflight-legacy.txt (the C checks' lines; '#' lines are its header)
  CURRENT  tests/tools/preflight_hosts.sh's output for the binary under test

Both hold "== host" blocks of the same lines in the same order. A line that differs is accepted
only when one of CHANGES, applied to the legacy line on a host it names, gives the current line
exactly: the changes issue 21 (item 10, "the first hour") asked for after the C checks were
written, each pinned by tests/cli/first_hour.sh. Anything else is printed as a difference.
Prints "N of M lines identical; K as issue 21 changed them; D other differences"; exits 1 when
D > 0 or the blocks do not line up.
"""
import re
import sys

# (what, host regex, legacy-line regex, replacement): issue 21 item 10
CHANGES = [
    ("temperatures carry their unit", r".", r"^(G4 INFO: [0-9]+)(, )", "\\1 \u00b0C\\2"),
    ("G7 'partial ... stay on FP8' is a WARN", r".",
     r"^G7 PASS: (SM[0-9]+ hardware capability confirmed \(partial .*stay on FP8.*)$",
     "G7 WARN: \\1"),
    ("--strict counts G7's WARN", r"^gb10", r"^strict exit 0$", "strict exit 1"),
    ("G1 points at 'gotcha explain G1'", r".", r"see gotcha (G[0-9]+)", "gotcha explain \\1"),
    ("no GPU: a check that would pass is a SKIP", r"^no nvidia-smi|^hung python3",
     r"^(G[0-9]+) PASS: ", "\\1 SKIP: no NVIDIA GPU on this host; "),
]


def blocks(path):
    out, host = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#") and host is None:
                continue
            if line.startswith("== "):
                host = line[3:]
            out.append((host, line))
    return out


def main():
    legacy, current = blocks(sys.argv[1]), blocks(sys.argv[2])
    if [h for h, _ in legacy] != [h for h, _ in current]:
        print("the hosts or their line counts differ:")
        print("  legacy: ", sorted(set(h for h, _ in legacy)))
        print("  current:", sorted(set(h for h, _ in current)))
        return 1
    same = changed = 0
    counts = {}
    other = []
    for (host, old), (_, new) in zip(legacy, current):
        if old.startswith("== "):
            continue
        if old == new:
            same += 1
            continue
        why = [w for w, h, rx, rep in CHANGES
               if re.search(h, host) and re.sub(rx, rep, old) == new]
        if why:
            changed += 1
            counts[why[0]] = counts.get(why[0], 0) + 1
        else:
            other.append((host, old, new))
    for host, old, new in other:
        print(f"== {host}\n- {old}\n+ {new}")
    total = same + changed + len(other)
    print(f"{same} of {total} lines identical; {changed} as issue 21 changed them; "
          f"{len(other)} other differences")
    for what, _, _, _ in CHANGES:
        if what in counts:
            print(f"  {counts[what]:3d}  {what}")
    return 1 if other else 0


if __name__ == "__main__":
    sys.exit(main())

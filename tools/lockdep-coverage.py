#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which of ampsoc's lock classes each debug-kernel scenario exercised.

tests/qemu/init prints '# lockdep-class NAME' for every lock class whose
key is in module memory once a scenario ends on the lockdep kernel (and
lib.sh's rmmod() notes them before an unload). This reads those lines
from a run's verdict logs and reports, for a subset of scenarios (the one
CI runs), the classes that the subset misses; with --cover it proposes a
small subset that covers every class the full run saw.

Usage: lockdep-coverage.py [--dir build/debug/scenarios] [--subset 'a b']
                            [--cover]
Exit status: 1 when the subset misses a class, 0 otherwise.
"""
import argparse
import os
import re
import sys


def classes_by_scenario(top):
    seen = {}
    for name in sorted(os.listdir(top)):
        path = os.path.join(top, name, "verdict.log")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            # lockdep numbers classes that share a name ("kn->active#3")
            # in the order a boot met them: the number is not comparable
            # across boots, so classes are compared by name alone.
            seen[name] = {re.sub(r"#\d+", "", line[len("# lockdep-class "):].strip())
                          for line in f if line.startswith("# lockdep-class ")}
    return seen


def greedy_cover(seen, want):
    chosen, left = [], set(want)
    while left:
        best = max(sorted(seen), key=lambda s: len(seen[s] & left))
        if not seen[best] & left:
            break
        chosen.append(best)
        left -= seen[best]
    return chosen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="build/debug/scenarios")
    ap.add_argument("--subset", default="")
    ap.add_argument("--cover", action="store_true")
    a = ap.parse_args()
    seen = classes_by_scenario(a.dir)
    if not seen:
        print("lockdep-coverage: no verdict logs under %s" % a.dir)
        return 1
    every = set().union(*seen.values())
    print("%d scenarios, %d module lock classes in all" % (len(seen), len(every)))
    for name in sorted(seen, key=lambda s: -len(seen[s])):
        print("  %-28s %4d" % (name, len(seen[name])))
    if a.cover:
        print("a covering subset: %s" % " ".join(greedy_cover(seen, every)))
    if not a.subset:
        return 0
    subset = a.subset.split()
    missing = [s for s in subset if s not in seen]
    if missing:
        print("not in this run: %s" % " ".join(missing))
        return 1
    got = set().union(*(seen[s] for s in subset))
    left = sorted(every - got)
    print("subset covers %d of %d classes" % (len(got & every), len(every)))
    for c in left:
        print("  missed: %s" % c)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())

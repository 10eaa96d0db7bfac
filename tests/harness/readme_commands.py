#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test: every `make TARGET` that README.md names is a target of the
Makefile (or of a build.mk it includes), so a renamed or dropped command
cannot leave README behind. What the commands do is tested elsewhere: the
shell by harness_shell in make check, the rest by .ci/run. KTAP on stdout."""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    named = sorted(set(re.findall(r"\bmake ([a-z][a-z0-9-]*)\b", readme)))
    targets = set()
    for mk in [os.path.join(ROOT, "Makefile")] + glob.glob(os.path.join(ROOT, "*", "build.mk")) \
            + glob.glob(os.path.join(ROOT, "tests", "*", "build.mk")):
        with open(mk, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^([A-Za-z0-9_.%$() -]+?)\s*::?(?!=)", line)
                if m:
                    targets.update(m.group(1).split())
    print("KTAP version 1")
    print("1..%d" % len(named))
    bad = 0
    for i, t in enumerate(named, 1):
        if t in targets:
            print("ok %d readme_make_%s" % (i, t))
        else:
            print("not ok %d readme_make_%s # README names it, no Makefile has it" % (i, t))
            bad += 1
    return 1 if bad or not named else 0


if __name__ == "__main__":
    sys.exit(main())

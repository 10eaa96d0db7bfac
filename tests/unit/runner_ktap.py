#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host unit test of the runner's KTAP counting (tests/qemu/run.py), its
initramfs overlay, and that every folder the Makefile runs scenarios from
is packed into the guest."""
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "run", os.path.join(here, "..", "qemu", "run.py"))
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

CASES = [
    ("flat", "KTAP version 1\nok 1 a\nnot ok 2 b\nok 3 c # SKIP why\n", (1, 1, 1)),
    ("nested_counts_leaves",
     "KTAP version 1\n    KTAP version 1\n    ok 1 x\n    ok 2 y\nok 1 mod\nok 2 z\n", (3, 0, 0)),
    ("nested_child_failure",
     "KTAP version 1\n    not ok 1 x\n    ok 2 y\nnot ok 1 mod\n", (1, 1, 0)),
    ("parent_fails_alone",
     "KTAP version 1\n    ok 1 x\nnot ok 1 mod\n", (1, 1, 0)),
    ("bail_out", "KTAP version 1\nok 1 a\nBail out! broken\n", (1, 1, 0)),
    ("console_prefix_and_noise",
     "KTAP version 1\nrandom kernel line\nok 1 a\n# diag\n", (1, 0, 0)),
    ("carriage_returns", "KTAP version 1\r\nok 1 a\r\nnot ok 2 b\r\n", (1, 1, 0)),
    ("two_levels",
     "KTAP version 1\n        ok 1 leaf\n    ok 1 mid\nok 1 top\n", (1, 0, 0)),
    ("dash_is_tolerated", "KTAP version 1\nok 1 - a\n", (1, 0, 0)),
    ("empty", "", (0, 0, 0)),
]

print("KTAP version 1")
print("1..%d" % (len(CASES) + 7))
failed = 0
for i, (name, text, want) in enumerate(CASES, 1):
    c, _ = run.parse_ktap(text)
    got = (c.passed, c.failed, c.skipped)
    ok = got == want
    if not ok:
        print("# %s: got %s, want %s" % (name, got, want))
        failed += 1
    print("%s %d %s" % ("ok" if ok else "not ok", i, name))

blob = run.cpio_newc({"ampsoc/run.conf": b"MODE=run\n"})
ok = blob.startswith(b"070701") and b"TRAILER!!!" in blob and len(blob) % 4 == 0
failed += not ok
print("%s %d cpio_overlay_is_newc" % ("ok" if ok else "not ok", len(CASES) + 1))

# make soak once ran tests/soak, which the initramfs did not contain: the
# guest could only say "no scenario".
top = os.path.join(here, "..", "..")
with open(os.path.join(top, "Makefile")) as f:
    # each runner command ends: $(if $(T),--filter '$(T)') tests/<folder>
    ran = set(re.findall(r"--filter '\$\(T\)'\) (tests/\w+)$", f.read(), re.M))
with open(os.path.join(top, "tests", "qemu", "mkinitramfs.sh")) as f:
    m = re.search(r"^for d in (tests/.*); do$", f.read(), re.M)
packed = set(m.group(1).split()) if m else set()
missing = sorted(ran - packed)
ok = len(ran) >= 3 and not missing
failed += not ok
print("# scenario folders: %s; not packed: %s" % (" ".join(sorted(ran)),
                                                  " ".join(missing) or "none"))
print("%s %d scenario_folders_packed" % ("ok" if ok else "not ok", len(CASES) + 2))

# "# stack:": ampsoc unless the header or the run says otherwise; the
# Makefile builds the peer stack only for runs that --list-stacks names.
import subprocess
import tempfile
with tempfile.TemporaryDirectory() as d:
    plain, peer = os.path.join(d, "a_plain.sh"), os.path.join(d, "b_peer.sh")
    with open(plain, "w") as f:
        f.write("#!/bin/sh\n# timeout: 5\n")
    with open(peer, "w") as f:
        f.write("#!/bin/sh\n# stack: mainline\n")
    got = (run.header(plain)["stack"], run.header(peer)["stack"],
           run.header(plain, "mainline")["stack"], run.header(peer, "ampsoc")["stack"])
    ok = got == ("ampsoc", "mainline", "mainline", "mainline")
    failed += not ok
    print("# stacks: %s" % (got,))
    print("%s %d stack_header" % ("ok" if ok else "not ok", len(CASES) + 3))

    def stacks(*args):
        return subprocess.run([sys.executable, os.path.join(here, "..", "qemu", "run.py"),
                               "--list-stacks"] + list(args), capture_output=True,
                              text=True).stdout.split()
    got = (stacks("--filter", "a_*", d), stacks(d), stacks("--stack", "mainline", "--shell"),
           stacks("--shell"))
    ok = got == (["ampsoc"], ["ampsoc", "mainline"], ["mainline"], ["ampsoc"])
    failed += not ok
    print("# listed: %s" % (got,))
    print("%s %d list_stacks" % ("ok" if ok else "not ok", len(CASES) + 4))

    # "# stacks:": one guest per stack, each listed.
    both = os.path.join(d, "c_both.sh")
    with open(both, "w") as f:
        f.write("#!/bin/sh\n# stacks: ampsoc mainline\n# golden: x.golden\n")
    got = (stacks("--filter", "c_*", d), run.stacks_of(run.header(both)),
           run.stacks_of(run.header(plain)), run.header(both)["golden"])
    ok = got == (["ampsoc", "mainline"], ["ampsoc", "mainline"], ["ampsoc"], "x.golden")
    failed += not ok
    print("# stacks: %s" % (got,))
    print("%s %d stacks_header" % ("ok" if ok else "not ok", len(CASES) + 5))

    # Differential transcripts: mainline's run must be the golden file;
    # another stack may differ only as the allow file says, and every
    # allowed difference must still be one.
    golden, allow = os.path.join(d, "t.golden"), os.path.join(d, "t.allow")
    with open(golden, "w") as f:
        f.write("# comment\na = 1\nb = x y\nc = 3\n")
    with open(allow, "w") as f:
        f.write("# docs/mainline-differences.md\nb = z\n")

    def cmp(text, stack, record=False):
        c, fails, _ = run.compare_transcript(text, golden, stack, record)
        return (c.passed, c.failed)
    t_same = "# T a = 1\n    # T b = x y\n# T c = 3\n"
    t_allowed = "# T a = 1\n# T b = z\n# T c = 3\n"
    diff_cases = [
        ("mainline_same", cmp(t_same, "mainline"), (1, 0)),
        ("mainline_allow_not_applied", cmp(t_allowed, "mainline"), (0, 1)),
        ("ampsoc_documented_difference", cmp(t_allowed, "ampsoc"), (1, 0)),
        ("ampsoc_stale_allow_fails", cmp(t_same, "ampsoc"), (0, 1)),
        ("ampsoc_undocumented", cmp("# T a = 2\n# T b = z\n# T c = 3\n", "ampsoc"), (0, 1)),
        ("missing_and_extra", cmp("# T a = 1\n# T b = z\n# T d = 3\n", "ampsoc"), (0, 2)),
        ("no_transcript", cmp("ok 1 x\n", "ampsoc")[0], 0),
        ("duplicate_key", cmp(t_allowed + "# T a = 1\n", "ampsoc")[1] > 0, True),
    ]
    rec = os.path.join(d, "r.golden")
    run.compare_transcript("# T k = v\n", rec, "mainline", True)
    diff_cases.append(("record", run.read_kv(rec), {"k": "v"}))
    bad = [(n, g, w) for n, g, w in diff_cases if g != w]
    ok = not bad
    failed += not ok
    for n, g, w in bad:
        print("# %s: got %s, want %s" % (n, g, w))
    print("%s %d golden_transcripts" % ("ok" if ok else "not ok", len(CASES) + 6))

# The guest's plan line comes last and counts the top-level test points
# only; a verdict without one, or with a wrong or second one, is a failure.
plan_cases = [
    ("counts_top_level", "KTAP version 1\nok 1 a\n    ok 1 x\n    1..1\nok 2 b\n1..2\n", False),
    ("with_kmemleak", "KTAP version 1\nok 1 a\nnot ok 2 kmemleak_clean\n1..2\n", False),
    ("missing", "KTAP version 1\nok 1 a\n", True),
    ("nested_plan_is_not_the_guests", "KTAP version 1\n    1..1\nok 1 a\n", True),
    ("short", "KTAP version 1\nok 1 a\nok 2 b\n1..1\n", True),
    ("long", "KTAP version 1\nok 1 a\n1..2\n", True),
    ("twice", "KTAP version 1\nok 1 a\n1..1\nok 2 b\n1..2\n", True),
]
bad = [(n, run.check_plan(t)) for n, t, want in plan_cases
       if (run.check_plan(t) is not None) != want]
failed += bool(bad)
for n, g in bad:
    print("# plan %s: check_plan said %r" % (n, g))
print("%s %d plan_line" % ("not ok" if bad else "ok", len(CASES) + 7))
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make fuzz-remote: the host side of the coverage-guided remote.

Boots guests (the KCOV debug kernel) through the harness's runner, one
after the other, each running tests/fuzz-remote/fuzz_remote.sh with the
corpus so far added to its initramfs; the guest's agent mutates the
corpus's programs, runs them on ampsoc-fuzz-remote and prints the programs
that reached new edges and the new program counters. The driver keeps the
corpus (build/fuzz-remote/corpus.txt), saves the reproducer of any report
the console shows (build/fuzz-remote/crashes/), boots again after a crash,
and at the end maps the program counters to lines of
virtio_rpmsg_bus.c, rpmsg_ns.c, rpmsg_resmgr.c and rpmsg_char.c (addr2line
on the debug build's modules) against the kcov call sites those files
have. docs/fuzz-remote.md.
"""
import argparse
import collections
import glob
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "tests", "fuzz-remote")
SCEN = os.path.join(HERE, "fuzz_remote.sh")
SAVED = os.path.join(HERE, "ampsoc-fuzz-remote.corpus")
FILES = ("virtio_rpmsg_bus.c", "rpmsg_ns.c", "rpmsg_resmgr.c", "rpmsg_char.c")
MODULES = ("ampsoc_rpmsg", "ampsoc_rpmsg_virtio", "ampsoc_rpmsg_resmgr")
OP = 12


def load_runner():
    spec = importlib.util.spec_from_file_location(
        "ampsoc_run", os.path.join(ROOT, "tests", "qemu", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_corpus(path):
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and len(line) % (2 * OP) == 0:
                    out.append(line)
    return out


def text_size(ko):
    """Size of a module's .text (readelf -S)."""
    out = subprocess.run(["readelf", "-SW", ko], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.search(r"\]\s+\.text\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", line)
        if m:
            return int(m.group(1), 16)
    return 0


def kcov_sites(ko):
    """Offsets in .text of the kcov calls' return addresses (what kcov
    records) of one module, with the relocations objdump prints."""
    out = subprocess.run(["objdump", "-dr", "-j", ".text", ko],
                         capture_output=True, text=True).stdout
    sites = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+R_X86_64_PLT32\s+__sanitizer_cov_trace_pc-0x4", line)
        if m:
            sites.append(int(m.group(1), 16) + 4)
    return sites


def addr2line(ko, offsets):
    """{offset: (file basename, line)} for the call before each return
    address."""
    res = {}
    offs = sorted(offsets)
    for k in range(0, len(offs), 2000):
        chunk = offs[k:k + 2000]
        out = subprocess.run(["addr2line", "-e", ko, "-j", ".text"] +
                             ["%x" % (o - 1) for o in chunk],
                             capture_output=True, text=True).stdout.splitlines()
        for o, line in zip(chunk, out):
            f, _, n = line.rpartition(":")
            n = n.split()[0] if n else "0"
            res[o] = (os.path.basename(f), n)
    return res


class Campaign:
    def __init__(self, a):
        self.a = a
        self.out = os.path.join(a.build, "fuzz-remote")
        os.makedirs(os.path.join(self.out, "crashes"), exist_ok=True)
        self.corpus = read_corpus(SAVED)
        self.seen = set(self.corpus)
        self.pcs = {}      # (module, offset) -> 1
        self.edges = set()  # ((module, off) | None, (module, off))
        self.execs = 0
        self.fuzz_s = 0.0
        self.lost = 0
        self.reports = []
        self.kos = {m: os.path.join(a.kodir, "drivers", "rpmsg", m + ".ko") for m in MODULES}
        self.sizes = {m: text_size(ko) for m, ko in self.kos.items() if os.path.exists(ko)}

    def where(self, pc, bases):
        for m, base in bases.items():
            if base <= pc < base + self.sizes.get(m, 0):
                return (m, pc - base)
        return None

    def boot(self, run, runner, n, seconds):
        conf = "FZ_SECONDS=%d\nFZ_SEED=%d\nFZ_BLIND=%s\n" % (
            seconds, random.getrandbits(63) | 1, "blind" if self.a.blind else "")
        corpus = "\n".join(self.corpus) + "\n"
        orig = run.Runner.overlay

        def overlay(self_, rundir, c):
            initrd = orig(self_, rundir, c)
            with open(initrd, "ab") as f:
                f.write(run.cpio_newc({"ampsoc/fz.conf": conf.encode(),
                                       "ampsoc/fz-corpus.txt": corpus.encode(),
                                       "ampsoc/fz_remote.sh": open(SCEN, "rb").read()}))
            return initrd
        runner.overlay = overlay.__get__(runner)
        t0 = time.monotonic()
        res = runner.run_guest("fz_remote.sh", path=SCEN)
        wall = time.monotonic() - t0
        bases, new = {}, 0
        for line in res["verdict"].splitlines():
            w = line.split()
            if len(w) < 2 or w[0] != "#":
                continue
            if w[1] == "fz-mod" and len(w) == 4:
                bases[w[2]] = int(w[3], 16)
            elif w[1] == "fz-new" and len(w) == 4 and w[3] not in self.seen:
                self.seen.add(w[3])
                self.corpus.append(w[3])
                new += 1
            elif w[1] == "fz-pc":
                for x in w[2:]:
                    p = self.where(int(x, 16), bases)
                    if p:
                        self.pcs[p] = 1
            elif w[1] == "fz-edge":
                for x in w[2:]:
                    s, _, d = x.partition(":")
                    dp = self.where(int(d, 16), bases)
                    if dp:
                        self.edges.add((self.where(int(s, 16), bases), dp))
            elif w[1] == "fz-stats":
                kv = dict(zip(w[2::2], w[3::2]))
                self.execs += int(kv["execs"])
                self.fuzz_s += float(kv["seconds"])
                self.lost += int(kv["lost"])
            elif w[1] == "fz-nokcov":
                sys.exit("fuzz-remote: the guest kernel has no kcov remote coverage; "
                         "boot the debug kernel (make debug-kernel) or pass --blind")
        stats = [l for l in res["verdict"].splitlines() if "fz-stats" in l]
        trouble = [r for r in res["reasons"] if r.startswith("console:")]
        if trouble or not stats:
            self.save_crash(res, n, trouble or res["reasons"] + res["failures"])
            if not stats:
                # the guest died mid-way: count what it did as wall time
                self.fuzz_s += max(0.0, wall - 120)
        print("fuzz-remote: boot %d: %.0f s, %d new programs (corpus %d), %d PCs, %d edges%s" %
              (n, wall, new, len(self.corpus), len(self.pcs), len(self.edges),
               "; " + "; ".join(trouble or res["reasons"]) if trouble or not stats else ""),
              flush=True)
        with open(os.path.join(self.out, "corpus.txt"), "w") as f:
            f.write("\n".join(self.corpus) + "\n")
        return bool(stats)

    def save_crash(self, res, n, why):
        console = res.get("console", "")
        execs = list(re.finditer(r"fuzz-remote: exec (\d+) ([0-9.]+) ([0-9a-f]*)", console))
        d = os.path.join(self.out, "crashes", "boot%d" % n)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "console.log"), "w") as f:
            f.write(console)
        with open(os.path.join(d, "verdict.log"), "w") as f:
            f.write(res.get("verdict", ""))
        with open(os.path.join(d, "why"), "w") as f:
            f.write("\n".join(why) + "\n")
        if execs:
            with open(os.path.join(d, "repro.txt"), "w") as f:
                # the program running when it broke, then the ones before
                for m in reversed(execs[-8:]):
                    f.write(m.group(3) + "\n")
        real = any(r.startswith("console:") for r in why)
        if real:
            self.reports.append((d, why))
        print("fuzz-remote: boot %d: %s saved in %s" %
              (n, "REPORT" if real else "guest ended early", d), flush=True)

    def coverage(self):
        by_file = collections.defaultdict(lambda: [set(), set(), set(), set(), 0])
        # [sites, lines, reached sites, reached lines, edges]
        where = {}
        for m, ko in self.kos.items():
            if not os.path.exists(ko):
                continue
            sites = kcov_sites(ko)
            lines = addr2line(ko, sites)
            for off, (f, ln) in lines.items():
                where[(m, off)] = f
                e = by_file[f]
                e[0].add((m, off))
                e[1].add(ln)
                if (m, off) in self.pcs:
                    e[2].add((m, off))
                    e[3].add(ln)
        for s, d in self.edges:
            f = where.get(d)
            if f:
                by_file[f][4] += 1
        return {f: {"points": len(v[0]), "points_reached": len(v[2]),
                    "lines": len(v[1]), "lines_reached": len(v[3]),
                    "edges_seen": v[4]}
                for f, v in by_file.items() if f in FILES}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        # make fuzz-remote refuses before building anything without the kernel
        if not glob.glob(os.path.join(sys.argv[2], "debug-kernel", "*", ".built")):
            sys.exit("fuzz-remote: needs the KCOV debug kernel, and %s/debug-kernel "
                     "has none built: make debug-kernel first (or FUZZ_BLIND=1 for "
                     "random programs on the stock kernel, without coverage)" % sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=600,
                    help="fuzzing time inside guests, boots not counted")
    ap.add_argument("--build", required=True, help="the build of the guest (build/debug)")
    ap.add_argument("--kernel-dir", help="the debug kernel tree (bzImage, .built)")
    ap.add_argument("--kver", default="")
    ap.add_argument("--kodir", help="where drivers/rpmsg/*.ko are (default BUILD/src)")
    ap.add_argument("--blind", action="store_true",
                    help="no kernel coverage (stock kernel): random programs only")
    ap.add_argument("--per-boot", type=int, default=300,
                    help="fuzzing seconds per guest boot")
    ap.add_argument("--save", action="store_true",
                    help="write the corpus back to tests/fuzz-remote/ampsoc-fuzz-remote.corpus")
    a = ap.parse_args()
    a.kodir = a.kodir or os.path.join(a.build, "src")
    if not a.blind:
        if not a.kernel_dir or not os.path.exists(os.path.join(a.kernel_dir, ".built")):
            sys.exit("fuzz-remote: needs the KCOV debug kernel (%s has no .built): "
                     "make debug-kernel first, or --blind on the stock kernel" % a.kernel_dir)
    run = load_runner()
    # the runner's own defaults (a hand-made list missed --gdb once)
    ns = run.arg_parser().parse_args(["--build", a.build, "--kver", a.kver,
                                      "--jobs", "1"])
    if a.kernel_dir:
        ns.kernel = os.path.join(a.kernel_dir, "arch", "x86", "boot", "bzImage")
        ns.cpu = "max,-la57"
        ns.boot_timeout = 240
    c = Campaign(a)
    left, n, t0 = a.seconds, 0, time.monotonic()
    while left > 10:
        n += 1
        sec = min(left, a.per_boot)
        # the header's 120 s are the boot and the firmware; the rest fuzzing
        ns.timeout_scale = (sec + 60 + (360 if a.kernel_dir else 120)) / 120.0
        runner = run.Runner(ns)
        before = c.fuzz_s
        c.boot(run, runner, n, sec)
        left -= max(c.fuzz_s - before, 10)
    cov = c.coverage()
    summary = {"seconds_fuzzing": round(c.fuzz_s, 1), "wall_seconds": round(time.monotonic() - t0),
               "boots": n, "execs": c.execs,
               "execs_per_second": round(c.execs / c.fuzz_s, 2) if c.fuzz_s else 0,
               "cores_lost_and_recovered": c.lost, "corpus": len(c.corpus),
               "pcs": len(c.pcs), "edges": len(c.edges),
               "reports": [d for d, _ in c.reports], "files": cov}
    with open(os.path.join(c.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("fuzz-remote: %d execs in %.0f s of fuzzing (%.2f/s), %d boots, %d cores recovered" %
          (c.execs, c.fuzz_s, summary["execs_per_second"], n, c.lost))
    print("%-18s %14s %14s %10s" % ("file", "kcov points", "lines", "edges seen"))
    for f in FILES:
        v = cov.get(f)
        if v:
            print("%-18s %6d / %-6d %6d / %-6d %10d" % (
                f, v["points_reached"], v["points"], v["lines_reached"], v["lines"],
                v["edges_seen"]))
    print("fuzz-remote: corpus %d programs (build/fuzz-remote/corpus.txt), %d reports%s" %
          (len(c.corpus), len(c.reports),
           "".join("\n  " + d for d, _ in c.reports)))
    if a.save:
        with open(SAVED, "w") as f:
            f.write("\n".join(c.corpus) + "\n")
    return 1 if c.reports else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ampsoc test runner: host unit tests, then scenarios in fresh QEMU guests.

Each scenario boots Debian's kernel under TCG with the ampsoc initramfs and
a per-boot overlay saying what to run. Its verdict comes over ttyS1 as KTAP
followed by a success token; the console (ttyS0) is kept and scanned for
kernel trouble. Host services a scenario names (the SoC model) are started
before QEMU and their own verdict joins the scenario's. The last line is
"N passed, N failed[, N skipped]", counted over every KTAP test point.
"""

import argparse
import atexit
import concurrent.futures
import fnmatch
import io
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "AMPSOC-SUCCESS"

# Console lines that fail a scenario whatever its tests printed.
TROUBLE = [
    (re.compile(r"Kernel panic"), "kernel panic"),
    (re.compile(r"\bOops\b|general protection fault|Unable to handle"), "oops"),
    (re.compile(r"WARNING: (CPU|at)|------------\[ cut here \]"), "WARNING"),
    (re.compile(r"\bBUG: |kernel BUG"), "BUG"),
    (re.compile(r"Call Trace:"), "call trace"),
    (re.compile(r"possible (circular|recursive) locking|inconsistent lock state|"
                r"DEBUG_LOCKS_WARN_ON|suspicious RCU usage|lock held when returning"), "lockdep"),
    (re.compile(r"KASAN|UBSAN|kmemleak: \d+ new suspected|"
                r"Kernel memory leak detector disabled"), "sanitizer"),
    (re.compile(r"ODEBUG:|list_(add|del) corruption|refcount_t:"), "debug check"),
    (re.compile(r"blocked for more than \d+ seconds|soft lockup|hard LOCKUP|rcu_sched detected stall|rcu: INFO"), "hang"),
]

# The plan line ("1..N"); a guest's comes last (lib.sh's ktap_plan).
PLAN = re.compile(r"^1\.\.(\d+)$", re.M)
RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: ([^#]*?))?\s*(?:#\s*(.*))?$")
BENCH = re.compile(r"^\s*# BENCH (.*)$")


class Counts:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped


def parse_ktap(text):
    """Count leaf test points of a KTAP document; parents count only when
    they failed without a failing child (e.g. a module that would not
    unload). Returns (Counts, list of failed names)."""
    c = Counts()
    failures = []
    results = []  # (indent, ok, name, directive)
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if line.strip().startswith("Bail out!"):
            c.failed += 1
            failures.append(line.strip())
            continue
        m = RESULT.match(line)
        if not m:
            continue
        results.append((len(m.group(1)), m.group(2) == "ok",
                        (m.group(4) or "").strip(), (m.group(5) or "").strip()))
    for i, (ind, ok, name, directive) in enumerate(results):
        # children of a result are the deeper results right before it
        j = i - 1
        children = []
        while j >= 0 and results[j][0] > ind:
            children.append(results[j])
            j -= 1
        if children:
            if not ok and all(ch[1] for ch in children):
                c.failed += 1
                failures.append(name)
            continue
        if directive.upper().startswith("SKIP"):
            c.skipped += 1
        elif ok:
            c.passed += 1
        else:
            c.failed += 1
            failures.append(name)
    return c, failures


def check_plan(verdict):
    """A guest's verdict ends with one plan line that counts its top-level
    test points, PID 1's kmemleak point included. Returns what is wrong,
    or None."""
    plans = PLAN.findall(verdict)
    if not plans:
        return "no plan line (the guest's init did not finish the scenario)"
    top = sum(1 for line in verdict.splitlines()
              if (lambda m: m and not m.group(1))(RESULT.match(line)))
    if len(plans) > 1 or int(plans[0]) != top:
        return "plan %s but %d test points" % (
            ", ".join("1..%s" % n for n in plans), top)
    return None


# Module stacks a guest can boot ("# stack:", docs/peer-stack.md): ampsoc's
# own, or Linux's remoteproc and rpmsg built from linux-source-6.1.
STACKS = ("ampsoc", "mainline")

# The instruction sets a remote core can have ("# isa:", docs/cores.md), and
# the board whose cores cover each: the default board (omap4.ini) has native
# cores and an ARMv7-M one, omap4-rv.ini the same SoC with a RISC-V core.
# A scenario whose header lists several is run once per ISA, as NAME@ISA
# (NAME alone for x86_64, the native path), with ISA=... in run.conf.
ISAS = ("x86_64", "armv7m", "rv32imac")
ISA_BOARD = {"rv32imac": "soc-model/boards/omap4-rv.ini"}


def header_defaults(stack=None):
    """Every header key with its value when a scenario does not set it;
    the shell's guest starts from these too."""
    return {"services": [], "timeout": "120", "smp": "1", "memory": "512",
            "expect": "", "load-all": "0", "boots": "1", "disk": "",
            "cpu-flags": "", "stack": stack or "ampsoc", "stacks": "",
            "golden": "", "isa": ""}


def stacks_of(h):
    """The stacks a scenario runs on: every stack of its "# stacks:" line
    (one guest each, differential scenarios), or its one "# stack:"."""
    return h["stacks"].split() or [h["stack"]]


# Differential scenarios ("# golden: FILE", docs/mainline-differences.md):
# the guest prints its transcript on the verdict channel as "# T KEY = VALUE"
# lines; FILE holds mainline's, recorded on the mainline stack, and
# FILE-with-.allow-for-.golden the differences ampsoc documents, as "KEY =
# AMPSOC_VALUE" lines under a comment saying where the reason is.
TRANSCRIPT = re.compile(r"^\s*# T (\S+) = (.*)$")


def read_kv(path):
    """KEY = VALUE lines of a golden or allow file, in order; '#' comments
    and blank lines skipped. A KEY twice is an error."""
    kv = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, sep, val = line.partition(" = ")
            if not sep or key in kv:
                raise ValueError("%s:%d: %s" % (path, n, "duplicate key" if sep
                                                  else "not KEY = VALUE"))
            kv[key] = val
    return kv


def compare_transcript(verdict, golden, stack, record=False):
    """Hold a guest's transcript against the golden one. On the mainline
    stack it must be the golden file itself (which proves the file is
    mainline's); on another stack every line must be the same or a
    documented difference, and every documented difference must still be
    one. With `record`, a mainline run writes the file instead. Returns
    (Counts, failures, notes)."""
    c = Counts()
    failures, notes = [], []
    got = {}
    for line in verdict.splitlines():
        m = TRANSCRIPT.match(line)
        if not m:
            continue
        if m.group(1) in got:
            failures.append("transcript: %s twice" % m.group(1))
        got[m.group(1)] = m.group(2)
    if not got:
        failures.append("transcript: no '# T KEY = VALUE' line")
    if record and stack == "mainline" and not failures:
        with open(golden, "w", encoding="utf-8") as f:
            f.write("# Recorded on the mainline stack (Linux's own remoteproc and\n"
                    "# rpmsg from linux-source-6.1) by tests/qemu/run.py with\n"
                    "# AMPSOC_RECORD_GOLDEN=1. Do not edit: record it again.\n")
            for k, v in got.items():
                f.write("%s = %s\n" % (k, v))
        notes.append("recorded %d lines into %s" % (len(got), os.path.relpath(golden, ROOT)))
    allowf = re.sub(r"\.golden$", "", golden) + ".allow"
    try:
        want = read_kv(golden)
        allow = read_kv(allowf) if stack != "mainline" and os.path.exists(allowf) else {}
    except (OSError, ValueError) as e:
        failures.append("golden: %s" % e)
        c.failed += len(failures)
        return c, failures, notes
    differ = 0
    for k, v in want.items():
        if k not in got:
            failures.append("transcript: %s missing (mainline: %s)" % (k, v))
        elif got[k] == v:
            if k in allow:
                failures.append("transcript: %s is mainline's now (%s): drop it from %s"
                                % (k, v, os.path.relpath(allowf, ROOT)))
        elif allow.get(k) == got[k]:
            differ += 1
        else:
            failures.append("transcript: %s = %s, mainline: %s" % (k, got[k], v))
    for k in got:
        if k not in want:
            failures.append("transcript: %s = %s, not in the golden file" % (k, got[k]))
    for k in allow:
        if k not in want:
            failures.append("allow: %s is not in the golden file" % k)
    if failures:
        c.failed += len(failures)
    else:
        c.passed += 1
        notes.append("%d transcript lines as mainline's, %d documented differences"
                     % (len(want) - differ, differ))
    return c, failures, notes


def header(path, stack=None):
    """A scenario's '# key: value' header lines. `stack` is the module
    stack of a scenario that names none (ampsoc unless said)."""
    h = header_defaults(stack)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^#\s*(services|timeout|smp|memory|expect|load-all|boots|disk|"
                         r"cpu-flags|stack|stacks|golden|isa):\s*(.*)$", line)
            if not m:
                continue
            if m.group(1) == "services":
                h["services"].append(m.group(2).split())
            else:
                h[m.group(1)] = m.group(2).strip()
    return h


def cpio_newc(files):
    """A tiny newc archive of {path: bytes}, appended to the initramfs."""
    out = io.BytesIO()
    ino = 0x70000

    def entry(name, data, mode):
        nonlocal ino
        ino += 1
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join("%08x" % v for v in (
            ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
        out.write(hdr.encode() + name_b)
        out.write(b"\0" * ((4 - (110 + len(name_b)) % 4) % 4))
        out.write(data)
        out.write(b"\0" * ((4 - len(data) % 4) % 4))

    dirs = set()
    for path in files:
        parts = path.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:k]))
    for d in sorted(dirs):
        entry(d, b"", 0o040755)
    for path, data in files.items():
        entry(path, data, 0o100644)
    entry("TRAILER!!!", b"", 0)
    return out.getvalue()


class Runner:
    def __init__(self, args):
        self.a = args
        self.build = args.build
        self.initramfs = os.path.join(self.build, "initramfs.cpio")
        self.kernel = args.kernel or "/boot/vmlinuz-%s" % args.kver
        self.lock = threading.Lock()
        self.symbols = None
        # Short paths: a unix socket's path has a length limit.
        self.qmp_dir = None
        if args.boot_timeout:
            self.qmp_dir = tempfile.mkdtemp(prefix="ampsoc-qmp.")
            atexit.register(shutil.rmtree, self.qmp_dir, True)

    # ---- one guest -------------------------------------------------------
    def qemu_cmd(self, h, rundir, initrd, interactive=False):
        accel = self.a.accel or "tcg"
        append = ["console=ttyS0,115200", "panic=-1", "printk.time=0",
                  "panic_on_warn=1", "oops=panic", "softlockup_panic=1",
                  "no_hash_pointers", "rtc_cmos.use_acpi_alarm=0"]
        if self.a.boot_timeout:
            # vcpu_state() names a hung vCPU's symbol from System.map.
            append.append("nokaslr")
        if self.a.bench:
            # A benchmark guest's idle loop polls: a wake-up (a doorbell's
            # interrupt, a completion) is then not bound to the next timer
            # tick of an idle vCPU, so a floor approaches the transport's
            # limit (docs/benchmarks.md, "Method").
            append.append("idle=poll")
        machine = "pc,accel=%s" % accel
        ram = []
        if h.get("guest-ram"):
            # The guest's RAM in a shared file that the SoC model maps into
            # the remote cores (a board's ddr key, docs/board-file.md):
            # guest physical address N is byte N of it below 4 GiB.
            ram = ["-object", "memory-backend-file,id=ampsoc-ram,size=%sM,"
                   "mem-path=%s,share=on" % (h["memory"], h["guest-ram"])]
            machine += ",memory-backend=ampsoc-ram"
        smp = h["smp"]
        if accel == "tcg" and smp.strip() == "1":
            # QEMU before 8.1 leaves out a guest's memory barriers when
            # TCG's vCPUs cannot run in parallel, which it decides from
            # maxcpus; the SoC model and the cores share memory with the
            # guest all the same, so smp_mb() must order Linux's store
            # before its load as they see it (docs/shm-abi.md, "Memory
            # ordering"). One more possible CPU makes TCG emit them.
            smp += ",maxcpus=2"
        cmd = ["qemu-system-x86_64", "-nodefaults", "-no-reboot",
               "-machine", machine, "-smp", smp,
               "-m", h["memory"], "-kernel", self.kernel, "-initrd", initrd,
               "-append", " ".join(append), "-display", "none"] + ram
        if accel == "tcg":
            cmd += ["-cpu", ",".join(filter(None, [self.a.cpu, h["cpu-flags"]]))]
        if h.get("disk") and not interactive:
            # A scratch disk (virtio-blk, /dev/vda) kept across the boots.
            cmd += ["-drive", "file=%s,if=virtio,format=raw" %
                    os.path.join(rundir, "disk.img")]
        if interactive:
            cmd += ["-serial", "mon:stdio", "-serial", "null"]
        elif int(h.get("boots", "1")) > 1:
            # Later boots append to the first one's console and verdict.
            cmd += ["-monitor", "none"]
            for i, f in enumerate(("console.log", "verdict.log")):
                cmd += ["-chardev", "file,id=ser%d,path=%s,append=on" % (
                    i, os.path.join(rundir, f)), "-serial", "chardev:ser%d" % i]
        else:
            cmd += ["-monitor", "none",
                    "-serial", "file:%s" % os.path.join(rundir, "console.log"),
                    "-serial", "file:%s" % os.path.join(rundir, "verdict.log")]
        return cmd

    @staticmethod
    def guest_ram(h):
        """With the SoC model, the guest's RAM is a file in /dev/shm that
        QEMU shares (share=on) and the model maps into the remote cores
        ($AMPSOC_GUEST_RAM for the services): a remote core sees Linux's
        DRAM, where mainline allocates vrings and rpmsg buffers."""
        if h.get("guest-ram") or not any(s[0] == "socmodel" for s in h["services"]):
            return
        fd, path = tempfile.mkstemp(prefix="ampsoc-ram.",
                                    dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        try:
            os.ftruncate(fd, int(h["memory"]) << 20)
        finally:
            os.close(fd)
        h["guest-ram"] = path
        atexit.register(Runner.release_guest_ram, {"guest-ram": path})

    @staticmethod
    def release_guest_ram(h):
        if h.get("guest-ram"):
            try:
                os.unlink(h["guest-ram"])
            except OSError:
                pass

    def start_services(self, h, rundir, log):
        qargs = []
        started = []
        self.guest_ram(h)
        for svc in h["services"]:
            name, sargs = svc[0], svc[1:]
            exe = os.path.join(ROOT, "tests", "qemu", "services", name)
            if not os.access(exe, os.X_OK):
                raise RuntimeError("unknown host service '%s'" % name)
            svcdir = os.path.join(rundir, name)
            os.makedirs(svcdir, exist_ok=True)
            rc, out, err = self.call_service(exe, "start", svcdir, sargs,
                                             h.get("guest-ram"))
            log.write("service %s start: rc=%s\n%s%s" % (name, rc, out, err))
            if rc != 0:
                self.stop_services(started, log)
                raise RuntimeError("service %s did not start: %s" %
                                   (name, (err or out).strip()[-300:]))
            started.append((exe, svcdir, sargs, name))
            qargs += [l for l in out.splitlines() if l.strip()]
            ports = os.path.join(svcdir, "gdb-ports")
            if getattr(self.a, "gdb", False) and os.path.exists(ports):
                with open(ports) as f, self.lock:
                    for l in f.read().split("\n"):
                        if l.strip():
                            core, isa, port = l.split()
                            print("gdb: %s: core %s (%s): target remote "
                                  "127.0.0.1:%s" % (os.path.basename(rundir),
                                                    core, isa, port),
                                  flush=True)
        return qargs, started

    @staticmethod
    def call_service(exe, verb, svcdir, sargs, guest_ram=None):
        """Run a service verb with its output in files, not pipes: a daemon
        the service starts may keep inherited descriptors open, and a pipe
        would then never reach EOF. Returns (rc or None on timeout, out, err)."""
        outp = os.path.join(svcdir, verb + ".out")
        errp = os.path.join(svcdir, verb + ".err")
        env = dict(os.environ)
        env.pop("AMPSOC_GUEST_RAM", None)
        if guest_ram:
            env["AMPSOC_GUEST_RAM"] = guest_ram
        with open(outp, "w") as o, open(errp, "w") as e:
            try:
                rc = subprocess.run([exe, verb, svcdir] + sargs, stdout=o, stderr=e,
                                    stdin=subprocess.DEVNULL, timeout=60,
                                    env=env).returncode
            except subprocess.TimeoutExpired:
                rc = None
        with open(outp, errors="replace") as o, open(errp, errors="replace") as e:
            return rc, o.read(), e.read()

    def stop_services(self, started, log):
        text = ""
        ok = True
        for exe, svcdir, sargs, name in reversed(started):
            rc, out, err = self.call_service(exe, "stop", svcdir, sargs)
            if rc is None:
                rc, out = 1, "not ok %s_stop # timed out\n" % name
            log.write("service %s stop: rc=%s\n%s%s" % (name, rc, out, err))
            text += out
            if rc != 0:
                ok = False
        return text, ok

    @staticmethod
    def reached_init(rundir, boot):
        """Has boot number `boot` of this guest started /init yet?"""
        try:
            with open(os.path.join(rundir, "console.log"), errors="replace") as f:
                return f.read().count("Run /init as init process") >= boot
        except OSError:
            return False

    def vcpu_state(self, qmp, log):
        """Ask a hung guest's QEMU where each vCPU is; log all registers and
        return each RIP with its kernel symbol (System.map beside the
        kernel), or "unknown"."""
        if not qmp:
            return "unknown"
        import socket
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as so:
                so.settimeout(10)
                so.connect(qmp)
                f = so.makefile("rw")
                f.readline()
                for c in ({"execute": "qmp_capabilities"},
                          {"execute": "human-monitor-command",
                           "arguments": {"command-line": "info registers -a"}}):
                    f.write(json.dumps(c) + "\n")
                    f.flush()
                    while True:
                        r = json.loads(f.readline())
                        if "return" in r or "error" in r:
                            break
                regs = r.get("return", "")
        except (OSError, ValueError) as e:
            log.write("qmp: %s\n" % e)
            return "unknown"
        log.write("vCPU registers at the hang:\n%s\n" % regs)
        log.flush()
        rips = re.findall(r"\bRIP=([0-9a-f]{16})", regs)
        try:
            return ", ".join(self.symbolize(int(r, 16)) for r in rips) or "unknown"
        except (OSError, ValueError) as e:
            log.write("symbols: %s\n" % e)
            return ", ".join("%#x" % int(r, 16) for r in rips) or "unknown"

    def load_symbols(self):
        kdir, kname = os.path.split(self.kernel)
        # Debian's /boot (a stub there), or a kernel tree's arch/x86/boot.
        cands = [os.path.join(kdir.rsplit("/arch/", 1)[0], "System.map")]
        if kname.startswith("vmlinuz"):
            cands.append(os.path.join(kdir, kname.replace("vmlinuz", "System.map", 1)))
        for cand in cands:
            if not os.path.isfile(cand):
                continue
            syms = []
            with open(cand, errors="replace") as f:
                for line in f:
                    w = line.split()
                    if len(w) >= 3 and w[1] in ("t", "T", "w", "W"):
                        syms.append((int(w[0], 16), w[2]))
            return sorted(syms)
        return []

    def symbolize(self, addr):
        if self.symbols is None:
            self.symbols = self.load_symbols()
        import bisect
        i = bisect.bisect_right(self.symbols, (addr, "\xff")) - 1
        if i < 0:
            return "%#x" % addr
        return "%s+%#x" % (self.symbols[i][1], addr - self.symbols[i][0])

    @staticmethod
    def last_console_line(rundir):
        try:
            with open(os.path.join(rundir, "console.log"), errors="replace") as f:
                lines = [l.strip() for l in f if l.strip()]
            return lines[-1][:120] if lines else "nothing"
        except OSError:
            return "nothing"

    def overlay(self, rundir, conf):
        initrd = os.path.join(rundir, "initrd")
        with open(self.initramfs, "rb") as src, open(initrd, "wb") as dst:
            shutil.copyfileobj(src, dst)
            dst.write(cpio_newc({"ampsoc/run.conf": conf.encode()}))
        return initrd

    def run_guest(self, rel, live=False, path=None, service_args=None, stack=None,
                  hook=None):
        """Boot one guest for scenario `rel` (its path under /ampsoc in the
        guest, which is its path relative to ROOT unless `path` says), as
        'rel@ISA' for one run of the ISA matrix, and on `stack` for one of a
        "# stacks:" scenario's runs (NAME@STACK). A live run calls
        hook(rundir, line) when QEMU starts (line None) and for each line
        of the guest's output; a line it returns True for is not shown."""
        rel, _, isa = rel.partition("@")
        path = path or os.path.join(ROOT, rel)
        name = os.path.splitext(os.path.basename(rel))[0]
        h = header(path, self.a.stack)
        if isa:
            name = variant_name(name, isa)
        if stack:
            h["stack"] = stack
            name += "@" + stack
        for svc in h["services"]:
            svc += (service_args or {}).get(svc[0], [])
            if svc[0] == "socmodel":
                # the board with a core of this ISA, unless the scenario
                # names its own
                if isa in ISA_BOARD and not any(a.startswith("board=")
                                                for a in svc[1:]):
                    svc.append("board=" + ISA_BOARD[isa])
                if self.a.gdb and "gdb" not in svc[1:]:
                    svc.append("gdb")
        rundir = os.path.join(self.build, "scenarios", name)
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        res = {"name": name, "rel": rel, "counts": Counts(), "reasons": [], "notes": [],
               "failures": [], "rundir": rundir, "bench": [], "expect": h["expect"],
               "stack": h["stack"]}
        conf = "MODE=run\nSCENARIO=%s\nLOAD_ALL=%s\nSTACK=%s\nISA=%s\n" % (
            shlex.quote(rel), h["load-all"], shlex.quote(h["stack"]),
            isa or "x86_64")
        if self.a.cmd:
            conf += "CMD=%s\n" % shlex.quote(self.a.cmd)
        if self.a.bench_smoke:
            conf += "BENCH_SMOKE=1\n"
        if self.a.bench:
            conf += "BENCH_ROUNDS=%d\n" % bench_rounds(self.a)
        t0 = time.monotonic()
        if h["stack"] not in STACKS:
            res["reasons"].append("unknown module stack '%s' (one of: %s)" %
                                  (h["stack"], ", ".join(STACKS)))
            res["counts"].failed += 1
            res["time"] = 0
            return res
        with open(os.path.join(rundir, "runner.log"), "w") as log:
            try:
                qargs, started = self.start_services(h, rundir, log)
            except RuntimeError as e:
                res["reasons"].append(str(e))
                res["counts"].failed += 1
                res["time"] = time.monotonic() - t0
                return res
            if h["disk"]:
                with open(os.path.join(rundir, "disk.img"), "wb") as d:
                    d.truncate(int(h["disk"]) << 20)
            timeout = int(float(h["timeout"]) * self.a.timeout_scale)
            timed_out = False
            verdict_path = os.path.join(rundir, "verdict.log")
            shown = 0
            deadline = time.monotonic() + timeout
            # "# boots: N": a guest that powers off before its scenario
            # ended (hibernation) is booted again, same disk, up to N times.
            boot, retried = 1, False
            while boot <= int(h["boots"]):
                initrd = self.overlay(rundir, conf + "BOOT=%d\n" % boot)
                cmd = self.qemu_cmd(h, rundir, initrd) + qargs
                qmp = None
                if self.a.boot_timeout and not retried:
                    # A control socket, to read the vCPUs if boot hangs.
                    qmp = os.path.join(self.qmp_dir, "%s.%d" % (name, boot))
                    cmd += ["-qmp", "unix:%s,server=on,wait=off" % qmp]
                log.write("qemu: %s\n" % " ".join(shlex.quote(c) for c in cmd))
                log.flush()
                p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
                t_boot = time.monotonic()
                if hook:
                    hook(rundir, None)
                hung = False
                while p.poll() is None:
                    if time.monotonic() > deadline:
                        timed_out = True
                        os.killpg(p.pid, signal.SIGKILL)
                        p.wait()
                        break
                    if (self.a.boot_timeout and not retried and
                            time.monotonic() - t_boot > self.a.boot_timeout and
                            not self.reached_init(rundir, boot)):
                        hung = True
                        where = self.vcpu_state(qmp, log)
                        os.killpg(p.pid, signal.SIGKILL)
                        p.wait()
                        break
                    if live and os.path.exists(verdict_path):
                        shown = self.show_live(verdict_path, shown, hook, rundir)
                    time.sleep(0.05)
                if hung:
                    # The kernel never ran init: no ampsoc code was involved
                    # yet (modules load from init). Say so, and boot once more.
                    retried = True
                    res["notes"].append("boot %d hung before init after %d s "
                                        "(console ends: %s; vCPUs at %s); "
                                        "booted again" %
                                        (boot, self.a.boot_timeout,
                                         self.last_console_line(rundir), where))
                    log.write("boot hung before init; booting again\n")
                    # The host services saw a guest go: give the new boot
                    # fresh ones, as a first boot gets.
                    svc_text, svc_ok = self.stop_services(started, log)
                    try:
                        qargs, started = self.start_services(h, rundir, log)
                    except RuntimeError as e:
                        res["reasons"].append(str(e))
                        started = []
                        break
                    continue
                if timed_out or p.returncode != 0 or not os.path.exists(verdict_path):
                    break
                with open(verdict_path, errors="replace") as f:
                    if re.search(r"^%s\b" % TOKEN, f.read(), re.M):
                        break
                boot += 1
            if live and os.path.exists(verdict_path):
                self.show_live(verdict_path, shown, hook, rundir)
            svc_text, svc_ok = self.stop_services(started, log)
            self.release_guest_ram(h)
        res["time"] = time.monotonic() - t0

        verdict = ""
        if os.path.exists(verdict_path):
            with open(verdict_path, errors="replace") as f:
                verdict = f.read().replace("\r", "")
        console = ""
        cpath = os.path.join(rundir, "console.log")
        if os.path.exists(cpath):
            with open(cpath, errors="replace") as f:
                console = f.read().replace("\r", "")

        c, failures = parse_ktap(verdict)
        # service verdicts: unnumbered "ok NAME" lines
        for line in svc_text.splitlines():
            m = re.match(r"^(ok|not ok) (.*?)(\s*#\s*(.*))?$", line.strip())
            if not m:
                continue
            if m.group(4) and m.group(4).upper().startswith("SKIP"):
                c.skipped += 1
            elif m.group(1) == "ok":
                c.passed += 1
            else:
                c.failed += 1
                failures.append("service: " + m.group(2))
        reasons = []
        if p.returncode not in (0, None) and not timed_out:
            with open(os.path.join(rundir, "runner.log"), errors="replace") as f:
                last = [l for l in f.read().splitlines() if l.startswith("qemu-system")]
            reasons.append("qemu exited %d: %s" % (p.returncode, (last[-1] if last else "")[:200]))
        if timed_out:
            reasons.append("timeout after %d s" % timeout)
        if not re.search(r"^%s\b" % TOKEN, verdict, re.M):
            reasons.append("no success token")
        plan_problem = check_plan(verdict)
        if plan_problem:
            reasons.append(plan_problem)
        for rx, what in TROUBLE:
            m = rx.search(console)
            if m:
                line = console[console.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0]
                reasons.append("console: %s: %s" % (what, line.strip()[:160]))
        if not svc_ok:
            reasons.append("a host service reported failure")
        if c.passed + c.failed + c.skipped == 0 and not reasons:
            reasons.append("no test points")
        if h["golden"]:
            # A transcript is recorded only from a run that was clean.
            gc, gf, gn = compare_transcript(
                verdict, os.path.join(ROOT, h["golden"]), h["stack"],
                os.environ.get("AMPSOC_RECORD_GOLDEN") == "1" and not reasons
                and c.failed == 0)
            c.add(gc)
            failures += gf
            res["notes"] += gn
        if reasons and c.failed == 0:
            c.failed = 1
        for line in verdict.splitlines():
            b = parse_bench_line(line)
            if b is not None:
                res["bench"].append(b)
        res.update(counts=c, reasons=reasons, failures=failures,
                   verdict=verdict, console=console)
        return res

    def show_live(self, path, shown, hook=None, rundir=None):
        with open(path, "rb") as f:
            f.seek(shown)
            raw = f.read()
        # print complete lines only; offsets are in bytes
        cut = raw.rfind(b"\n") + 1
        data = raw[:cut].decode(errors="replace")
        for line in data.replace("\r", "").splitlines():
            if line.startswith(TOKEN) or line.startswith("KTAP version") or \
                    PLAN.match(line) or (hook and hook(rundir, line)):
                continue
            m = RESULT.match(line)
            if m and not m.group(1):
                line = "  [%s] %s" % ("ok" if m.group(2) == "ok" else "FAILED",
                                      (m.group(4) or "").strip())
            print(line, flush=True)
        return shown + cut

    # ---- reporting --------------------------------------------------------
    def report(self, res, expect_fail=False):
        c = res["counts"]
        bad = c.failed > 0
        status = "ok" if not bad else "not ok"
        with self.lock:
            print("%-6s %-40s %3d passed, %d failed, %d skipped  (%.1f s)" % (
                status, res["name"], c.passed, c.failed, c.skipped, res.get("time", 0)),
                flush=True)
            for n in res.get("notes", []):
                print("       note: %s" % n)
            if bad and not expect_fail:
                for r in res["reasons"]:
                    print("       reason: %s" % r)
                for f in res["failures"][:20]:
                    print("       failed: %s" % f)
                print("       logs: %s" % os.path.relpath(res["rundir"], ROOT))
                tail = [l for l in res.get("verdict", "").splitlines()
                        if l.strip().startswith(("not ok", "#", "Bail"))][-15:]
                for l in tail:
                    print("       | %s" % l)
                ctail = res.get("console", "").splitlines()[-12:]
                for l in ctail:
                    print("       console| %s" % l)
                sys.stdout.flush()


def variant_name(name, isa):
    """The name of a scenario's run on one ISA: x86_64 keeps the plain name."""
    return name if isa == "x86_64" else "%s@%s" % (name, isa)


def isa_variants(rel, path=None):
    """A scenario's runs: [rel] for one without '# isa:', else one
    'rel@ISA' per ISA it lists (the ISA matrix)."""
    isas = header(path or os.path.join(ROOT, rel))["isa"].split()
    bad = [i for i in isas if i not in ISAS]
    if bad:
        raise SystemExit("ampsoc: %s: unknown isa %s (one of: %s)" %
                         (rel, " ".join(bad), " ".join(ISAS)))
    return ["%s@%s" % (rel, i) for i in isas] or [rel]


def discover(dirs, pattern):
    found = []
    globs = (pattern or "*").split()
    for d in dirs:
        full = os.path.join(ROOT, d)
        if os.path.isfile(full):
            found.append(d)
            continue
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            if not f.endswith(".sh"):
                continue
            rel = os.path.join(d, f)
            # PATTERN: one glob or several separated by spaces, matching
            # the scenario's name or the name of one of its ISA runs
            for v in isa_variants(rel):
                base, _, isa = v.partition("@")
                names = {f[:-3]}
                if isa:
                    names = {variant_name(f[:-3], isa), f[:-3] + "@" + isa}
                if any(fnmatch.fnmatch(n, p) for n in names for p in globs):
                    found.append(v)
    return found


# A host unit test's time limit. The longest, dkms_build.sh, builds every
# module twice through dkms: about 3 minutes on 2 idle cores, and it went
# past 5 minutes on a loaded machine, so the limit leaves room for load.
UNIT_TIMEOUT = 900


def run_unit(binaries):
    total = Counts()
    for b in binaries:
        if not b:
            continue
        name = os.path.basename(b)
        t0 = time.monotonic()
        try:
            p = subprocess.run([b], capture_output=True, text=True,
                               timeout=UNIT_TIMEOUT)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired:
            out, rc = "not ok 1 %s # timed out after %d s" % (name, UNIT_TIMEOUT), -1
        c, failures = parse_ktap(out)
        if rc != 0 and c.failed == 0:
            c.failed = 1
            failures.append("%s exited %d" % (name, rc))
        if c.passed + c.failed + c.skipped == 0:
            c.failed = 1
            failures.append("%s printed no test points" % name)
        total.add(c)
        print("%-6s %-40s %3d passed, %d failed, %d skipped  (%.1f s)" % (
            "ok" if c.failed == 0 else "not ok", "unit/" + name, c.passed, c.failed,
            c.skipped, time.monotonic() - t0), flush=True)
        for f in failures[:20]:
            print("       failed: %s" % f)
        if c.failed:
            for l in out.splitlines():
                if l.strip().startswith(("not ok", "#")):
                    print("       | %s" % l)
    return total


def check_initramfs(runner):
    if not os.path.exists(runner.initramfs):
        sys.exit("ampsoc: %s is missing: run 'make initramfs'" % runner.initramfs)
    if not os.path.exists(runner.kernel):
        sys.exit("ampsoc: %s is missing: apt-get install linux-image-%s (or set KVER=)"
                 % (runner.kernel, runner.a.kver))
    if not shutil.which("qemu-system-x86_64"):
        sys.exit("ampsoc: qemu-system-x86_64 not found: apt-get install qemu-system-x86")
    if runner.a.accel == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        sys.exit("ampsoc: ACCEL=kvm but /dev/kvm is not usable; leave ACCEL unset for TCG")


def arg_parser():
    """The runner's options; tools that drive the Runner themselves
    (tests/fuzz-remote/driver.py) take their defaults from here, so a new
    option cannot leave them behind."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--kver", default=os.environ.get("KVER", ""))
    ap.add_argument("--accel")
    ap.add_argument("--kernel", help="boot this image instead of /boot/vmlinuz-KVER")
    ap.add_argument("--timeout-scale", type=float, default=1.0,
                    help="multiply every scenario's timeout (slow debug kernels)")
    ap.add_argument("--boot-timeout", type=int, default=0,
                    help="boot again, once, a guest that has not run init "
                         "after this many seconds (0: never)")
    ap.add_argument("--cpu", default="max",
                    help="QEMU -cpu model under TCG (the debug kernel needs another)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--extra", default="")
    ap.add_argument("--cmd", default="")
    ap.add_argument("--filter")
    ap.add_argument("--unit", nargs="*", help="only run these host unit tests")
    ap.add_argument("--unit-tests", default="")
    ap.add_argument("--harness-selftest", action="store_true")
    ap.add_argument("--shell", action="store_true")
    ap.add_argument("--shell-dir", help="the shell's logs and services "
                    "(default BUILD/shell)")
    ap.add_argument("--services", default=None)
    ap.add_argument("--demo", action="store_true")
    ap.add_argument("--board")
    ap.add_argument("--gdb", action="store_true",
                    help="a gdb server per emulated core (ports printed)")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--bench-smoke", action="store_true",
                    help="benchmarks with tiny counts (bench_count in lib.sh): "
                         "they must run and report, their figures mean nothing")
    ap.add_argument("--bench-rounds", type=int, default=0,
                    help="rounds of every benchmark figure and its floor, "
                         "interleaved (default %d, %d on a smoke run)" %
                         (BENCH_ROUNDS, BENCH_SMOKE_ROUNDS))
    ap.add_argument("--stack", choices=STACKS,
                    help="module stack of the shell, of CMD and of every "
                         "scenario whose header names none")
    ap.add_argument("--list-stacks", action="store_true",
                    help="print the module stacks the selected scenarios "
                         "boot, one a line, and exit (no guest runs)")
    ap.add_argument("dirs", nargs="*")
    return ap


def main():
    a = arg_parser().parse_args()

    if a.list_stacks:
        return list_stacks(a)

    if a.unit is not None:
        c = run_unit(a.unit)
        print("%d passed, %d failed%s" % (c.passed, c.failed,
                                          ", %d skipped" % c.skipped if c.skipped else ""))
        return 1 if c.failed else 0

    if a.bench:
        # A benchmark guest never shares the host's CPUs with another one:
        # two TCG guests at once would each measure the other.
        a.jobs = 1
    r = Runner(a)
    check_initramfs(r)
    if a.shell:
        return shell(r)

    total = Counts()
    t_start = time.monotonic()
    if a.unit_tests.strip():
        total.add(run_unit(a.unit_tests.split()))

    jobs = []  # (rel, expected_failure_reason or None, path or None)
    if a.demo:
        return demo(r, a)
    for rel, path in selected(a):
        exp = None
        h = header(path or os.path.join(ROOT, rel.partition("@")[0]))
        if rel.startswith("tests/harness/"):
            exp = h["expect"] or "fail"
        for st in (h["stacks"].split() or [None]):
            jobs.append((rel, exp, path, st))
    if not jobs and not a.unit_tests.strip() and not a.bench:
        print("ampsoc: no scenario matches '%s'" % (a.filter or "*"))
        print("0 passed, 1 failed")
        return 1

    bench_rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(r.run_guest, rel, False, path, None, st): (rel, exp)
                for rel, exp, path, st in jobs}
        if a.harness_selftest and not a.filter:
            futs[ex.submit(shell_selftest, r)] = ("tests/harness/shell_pty.py", None)
        for fut in concurrent.futures.as_completed(futs):
            rel, exp = futs[fut]
            try:
                res = fut.result()
            except Exception as e:  # a runner bug fails this guest, not the run
                c = Counts()
                c.failed = 1
                name = os.path.splitext(os.path.basename(rel))[0]
                res = {"name": name, "counts": c,
                       "reasons": ["runner error: %r" % e],
                       "failures": [], "notes": [], "bench": [],
                       "rundir": os.path.join(r.build, "scenarios", name),
                       "verdict": "", "console": ""}
            if exp:
                # harness self-test: the run must fail, for the stated reason
                why = " | ".join(res["reasons"] + res["failures"])
                detected = res["counts"].failed > 0 and re.search(exp, why, re.I)
                c = Counts()
                if detected:
                    c.passed = 1
                else:
                    c.failed = 1
                print("%-6s %-40s harness must fail (/%s/): %s" % (
                    "ok" if detected else "not ok", "harness/" + res["name"], exp,
                    why[:120] or "it passed"), flush=True)
                total.add(c)
                continue
            r.report(res)
            total.add(res["counts"])
            for b in res["bench"]:
                b["scenario"] = res["name"]
                b["stack"] = res.get("stack", "ampsoc")
                bench_rows.append(b)

    if a.bench:
        errors = bench_table(r, bench_rows)
        if not bench_rows:
            print("ampsoc: the benchmarks reported no figure")
            total.failed += 1
        elif errors and not a.bench_smoke:
            # A floor slower than its figure is no floor: the run fails.
            # A smoke run's figures mean nothing, so it only prints them.
            total.failed += 1
    print("# total time %.0f s" % (time.monotonic() - t_start))
    print("%d passed, %d failed%s" % (total.passed, total.failed,
                                      ", %d skipped" % total.skipped if total.skipped else ""))
    return 1 if total.failed else 0


def selected(a):
    """The scenarios a run with these arguments boots: (rel, path) pairs,
    the harness self-tests, EXTRA scripts and the CMD scenario included."""
    jobs = []
    if a.harness_selftest and not a.filter:
        jobs += [(rel, None) for rel in discover(["tests/harness"], None)]
    jobs += [(rel, None) for rel in discover(a.dirs, a.filter)]
    if a.cmd and not a.bench:
        jobs.append(("tests/qemu/user_cmd.sh", None))
    jobs += [("extra/" + os.path.basename(f), os.path.abspath(f))
             for f in a.extra.split() if f.endswith(".sh")]
    return jobs


def list_stacks(a):
    """make check builds the peer stack only for a run that boots it."""
    stacks = set()
    if a.shell or a.demo:
        stacks.add(a.stack or "ampsoc")
    for rel, path in selected(a):
        path = path or os.path.join(ROOT, rel.partition("@")[0])
        if os.path.isfile(path):
            stacks.update(stacks_of(header(path, a.stack)))
    for s in sorted(stacks):
        print(s)
    return 0


DEMO_MARK = re.compile(r"^# demo-mark: (.+)$")


def model_command(svcdir, cmd):
    """Send one control command to the SoC model whose service directory
    is svcdir (tests/qemu/services/socmodel: its socket is there, or in
    the directory its "sockdir" file names); its reply, or None."""
    sockdir = svcdir
    try:
        with open(os.path.join(svcdir, "sockdir")) as f:
            sockdir = f.read().strip()
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as so:
            so.settimeout(5)
            so.connect(os.path.join(sockdir, "vsoc.sock.ctl"))
            so.sendall((cmd + "\n").encode())
            out = b""
            while True:
                chunk = so.recv(4096)
                if not chunk:
                    return out.decode(errors="replace")
                out += chunk
    except OSError:
        return None


def demo(r, a):
    """make demo: the story live, then the energy report and the timeline."""
    board = os.path.abspath(a.board) if a.board else os.path.join(
        ROOT, "soc-model", "boards", "omap4.ini")
    if a.board and not os.path.exists(board) and os.sep not in a.board:
        # a board of the tree by its name: BOARD=omap4-bigipu.ini
        board = os.path.join(ROOT, "soc-model", "boards", a.board)
    if not os.path.exists(board):
        sys.exit("ampsoc: no board file %s" % board)
    print("ampsoc demo on board %s (the guest boots under TCG; about a minute)" %
          os.path.relpath(board, ROOT), flush=True)
    marks = []

    def mark(rundir, line):
        # The model timestamps each step on its own clock: "boot" when QEMU
        # starts, then every "# demo-mark: LABEL" the guest prints (the
        # runner polls its output every 50 ms).
        if line is None:
            label = "boot"
        else:
            m = DEMO_MARK.match(line)
            if not m:
                return False
            label = m.group(1).strip()
        marks.append(model_command(os.path.join(rundir, "socmodel"),
                                   "mark " + label) or "no reply")
        return True

    res = r.run_guest("tests/demo/demo.sh", live=True,
                      service_args={"socmodel": ["board=" + board]}, hook=mark)
    print("\n== 8. Energy (from the SoC model) ==", flush=True)
    outdir = os.path.join(r.build, "demo")
    rc = subprocess.call([os.path.join(ROOT, "tools", "demo-report.py"),
                          os.path.join(res["rundir"], "socmodel"), outdir])
    c = res["counts"]
    print("\n== Summary ==")
    print("%d checks passed, %d failed, %d skipped" % (c.passed, c.failed, c.skipped))
    for reason in res["reasons"]:
        print("problem: %s" % reason)
    for f in res["failures"]:
        print("failed: %s" % f)
    if rc != 0:
        print("problem: the energy report or the timeline could not be made")
    bad = [m for m in marks if m.strip() != "ok"]
    if bad:
        rc = rc or 1
        print("problem: the model refused a step mark: %s" % bad[0].strip()[:200])
    print("logs: %s" % os.path.relpath(res["rundir"], ROOT))
    ok = c.failed == 0 and rc == 0
    print("demo: %s" % ("every step did what it claims" if ok else "FAILED (see above)"))
    return 0 if ok else 1


# ---- benchmarks (docs/benchmarks.md) ----------------------------------
# Rounds of every figure and of its floor, interleaved by the scenario
# (ABAB): BENCH_ROUNDS in the guest's run.conf.
BENCH_ROUNDS = 7
BENCH_SMOKE_ROUNDS = 2


def bench_rounds(a):
    if a.bench_rounds > 0:
        return a.bench_rounds
    return BENCH_SMOKE_ROUNDS if a.bench_smoke else BENCH_ROUNDS


def parse_bench_line(line):
    """A "# BENCH key=value ..." line as a dict, or None. "na=" takes the
    rest of the line (why a figure cannot exist on this stack)."""
    m = BENCH.match(line)
    if not m:
        return None
    body, _, na = m.group(1).partition(" na=")
    b = dict(kv.split("=", 1) for kv in body.split() if "=" in kv)
    if na:
        b["na"] = na.strip()
    return b


def bench_values(text):
    """The rounds of one figure: "1.5,2,1.7" -> [1.5, 2.0, 1.7]; nothing
    that is not a number counts."""
    out = []
    for v in (text or "").split(","):
        try:
            f = float(v)
        except ValueError:
            continue
        if f == f:
            out.append(f)
    return out


def bench_stats(values):
    """min, median and p90 (nearest rank) of a figure's rounds."""
    if not values:
        return None
    v = sorted(values)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    p90 = v[min(n - 1, max(0, -(-9 * n // 10) - 1))]
    return {"rounds": n, "min": v[0], "max": v[-1], "median": med, "p90": p90,
            "spread": (p90 - v[0]) / med if med else float("nan")}


def bench_merge(rows):
    """One entry per figure: its value on each stack, its floor (the
    baseline measured in the same boot, interleaved with it), the ratios of
    medians and what is wrong with it."""
    figs = {}
    order = []
    for b in rows:
        name = b.get("name", "?")
        if name not in figs:
            figs[name] = {"name": name, "unit": b.get("unit", ""),
                          "better": b.get("better", "lower"),
                          "kind": b.get("kind", "ref"), "stacks": {},
                          "ratios": {}, "errors": []}
            order.append(name)
        f = figs[name]
        st = b.get("stack", "ampsoc")
        cell = {"scenario": b.get("scenario", "")}
        if "na" in b:
            cell["na"] = b["na"]
        else:
            vals = bench_values(b.get("value"))
            cell["values"] = vals
            cell["stats"] = bench_stats(vals)
            if b.get("baseline"):
                bvals = bench_values(b.get("baseline_value"))
                cell["floor"] = b["baseline"]
                cell["floor_values"] = bvals
                cell["floor_stats"] = bench_stats(bvals)
            if not vals:
                f["errors"].append("%s: no value" % st)
        if b.get("kind"):
            f["kind"] = b["kind"]
        f["stacks"][st] = cell
    for name in order:
        f = figs[name]
        med = {}
        for st, cell in f["stacks"].items():
            if cell.get("stats"):
                med[st] = cell["stats"]["median"]
            fs = cell.get("floor_stats")
            if cell.get("stats") and fs and fs["median"]:
                q = cell["stats"]["median"] / fs["median"]
                f["ratios"]["%s/floor" % st] = q
                # No floor: the figure's median beats every round of its
                # floor (a median a little past the floor's median is
                # noise of the floor's own rounds, not a false floor).
                lower = f["better"] == "lower"
                best = fs["min"] if lower else fs["max"]
                m = cell["stats"]["median"]
                beyond = m < best if lower else m > best
                if f["kind"] == "floor" and beyond:
                    f["errors"].append(
                        "%s: floor %s (best round %.4g) is %s than the figure "
                        "(median %.4g): no floor" % (
                            st, cell["floor"], best,
                            "slower" if lower else "lower", m))
        if med.get("ampsoc") and "mainline" in med:
            q = med["mainline"] / med["ampsoc"]
            f["ratios"]["mainline/ampsoc"] = q
            # issue #17's goal: ampsoc ahead of mainline on every figure
            f["ampsoc_ahead"] = q > 1 if f["better"] == "lower" else q < 1
    return [figs[n] for n in order]


def bench_num(v):
    return "%.0f" % v if abs(v) >= 100 else "%.3g" % v


def bench_cell(cell):
    if cell is None:
        return "-"
    if "na" in cell:
        return "n/a"
    st = cell.get("stats")
    if not st:
        return "none"
    return "%s [%s..%s]" % (bench_num(st["median"]), bench_num(st["min"]),
                            bench_num(st["p90"]))


def bench_table(r, rows):
    """Print the table and write build/bench/results.json; return the
    number of figures with an error."""
    out = os.path.join(r.build, "bench")
    os.makedirs(out, exist_ok=True)
    figs = bench_merge(rows)
    print("\nmedian [min..p90] over %d rounds; floor: the baseline interleaved "
          "with the figure in the same boot" % bench_rounds(r.a))
    print("%-34s %-6s %-28s %-28s %-40s %8s %8s %8s %7s %s" % (
        "figure", "unit", "ampsoc", "mainline", "floor (ampsoc boot)",
        "a/floor", "m/floor", "m/a", "spread", "ampsoc ahead"))
    nerr = 0
    nan = float("nan")
    for f in figs:
        a, m = f["stacks"].get("ampsoc"), f["stacks"].get("mainline")
        fl = a if a and a.get("floor_stats") else m
        floor = "-"
        if fl and fl.get("floor_stats"):
            floor = "%s %s" % (fl["floor"], bench_cell(
                {"stats": fl["floor_stats"]}))
        spreads = [c["stats"]["spread"] for c in f["stacks"].values()
                   if c.get("stats")]
        q = f["ratios"]
        ahead = {True: "yes", False: "no"}.get(f.get("ampsoc_ahead"), "-")
        print("%-34s %-6s %-28s %-28s %-40s %8.3f %8.3f %8.3f %6.0f%% %s" % (
            f["name"][:34], f["unit"][:6], bench_cell(a), bench_cell(m),
            floor[:40], q.get("ampsoc/floor", nan), q.get("mainline/floor", nan),
            q.get("mainline/ampsoc", nan),
            100 * max(spreads) if spreads else nan, ahead))
        for st, c in sorted(f["stacks"].items()):
            if "na" in c:
                print("    %s: n/a: %s" % (st, c["na"]))
        for e in f["errors"]:
            print("    ERROR %s" % e)
        nerr += bool(f["errors"])
    # A smoke run's figures mean nothing: they never replace real ones.
    path = os.path.join(out, "results-smoke.json" if r.a.bench_smoke else "results.json")
    with open(path, "w") as fh:
        json.dump({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "kver": r.a.kver,
                   "smoke": r.a.bench_smoke, "rounds": bench_rounds(r.a),
                   "figures": figs}, fh, indent=2)
    print("# written %s" % os.path.relpath(path, ROOT))
    if nerr:
        print("ampsoc: %d figure(s) with an error (above)" % nerr)
    return nerr


def shell_selftest(r):
    """make shell's guest (this runner's --shell on this build) driven
    through a pseudo-terminal by tests/harness/shell_pty.py: CMD runs, the
    shell answers typed input, poweroff ends the run with status 0. Its
    KTAP counts as one scenario's, harness_shell."""
    name = "harness_shell"
    rundir = os.path.join(r.build, "scenarios", name)
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    argv = [sys.executable, os.path.abspath(__file__), "--build", r.build,
            "--kver", r.a.kver, "--cpu", r.a.cpu, "--shell",
            "--shell-dir", os.path.join(rundir, "shell"),
            "--cmd", "echo AMPSOC-CMD-$((40+2))"]
    for opt in ("kernel", "accel", "stack"):
        if getattr(r.a, opt):
            argv += ["--" + opt, getattr(r.a, opt)]
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "harness", "shell_pty.py"),
                        "--timeout", str(int(240 * r.a.timeout_scale)),
                        "--log", os.path.join(rundir, "console.log"), "--"] + argv,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    with open(os.path.join(rundir, "verdict.log"), "w") as f:
        f.write(p.stdout + p.stderr)
    c, failures = parse_ktap(p.stdout)
    reasons = []
    if p.returncode and not c.failed:
        c.failed += 1
        reasons.append("shell_pty.py exited %d" % p.returncode)
    with open(os.path.join(rundir, "console.log"), errors="replace") as f:
        console = f.read()
    return {"name": name, "rel": "tests/harness/shell_pty.py", "counts": c,
            "reasons": reasons, "notes": [], "failures": failures, "rundir": rundir,
            "bench": [], "verdict": p.stdout, "console": console,
            "time": time.monotonic() - t0}


def shell(r):
    """Interactive guest on this terminal, with the default services."""
    rundir = r.a.shell_dir or os.path.join(r.build, "shell")
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    services = r.a.services
    if services is None:
        services = "socmodel" if os.path.exists(
            os.path.join(ROOT, "tests/qemu/services/socmodel")) else ""
    h = header_defaults(r.a.stack)
    h.update({"services": [s.split() for s in services.split(",") if s.strip()],
              "smp": "2", "memory": "1024"})
    for svc in h["services"]:
        if r.a.gdb and svc[0] == "socmodel" and "gdb" not in svc[1:]:
            svc.append("gdb")
    conf = "MODE=shell\nSTACK=%s\n" % (r.a.stack or "ampsoc")
    if r.a.cmd:
        conf += "CMD=%s\n" % shlex.quote(r.a.cmd)
    with open(os.path.join(rundir, "runner.log"), "w") as log:
        qargs, started = r.start_services(h, rundir, log)
        try:
            # SIGTERM (a closed terminal, the pty self-test's timeout)
            # unwinds: subprocess.call kills QEMU, the services stop.
            signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))
            initrd = r.overlay(rundir, conf)
            rc = subprocess.call(r.qemu_cmd(h, rundir, initrd, interactive=True) + qargs)
        finally:
            r.stop_services(started, log)
            r.release_guest_ram(h)
    session_picture(rundir)
    return rc


def session_picture(rundir):
    """make shell: the session's energy report and power picture, drawn
    from what the SoC model left (as make demo's)."""
    mdir = os.path.join(rundir, "socmodel")
    if not all(os.path.isfile(os.path.join(mdir, f)) for f in ("report", "timeline.txt")):
        return
    if not shutil.which("gnuplot"):
        print("ampsoc: no gnuplot for this session's power picture "
              "(tools/deps.sh demo installs it)")
        return
    print("\nampsoc: this session's energy (from the SoC model):", flush=True)
    subprocess.call([os.path.join(ROOT, "tools", "demo-report.py"), mdir, rundir])


if __name__ == "__main__":
    sys.exit(main())

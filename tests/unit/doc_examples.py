#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compile every code example in docs/ (a host unit test, KTAP on stdout).

A fenced block whose info string is one of these is compiled:
  ```c kernel     a complete kernel source file; built as a module against
                  the kernel headers (KVER) with ampsoc's include directory
                  and the test modules' (tests/kmod/include), include/compat
                  first (mainline-style drivers build as is)
  ```c user       a complete userspace program; built with the host gcc
  ```c firmware   a complete firmware source; compiled freestanding with
                  the firmware SDK's include directories
Plain ```c blocks are prose-only snippets and are not compiled; the docs
use them only for signatures and layouts.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build", "doc-examples")
FENCE = re.compile(r"^```c (kernel|user|firmware)\s*$")


def examples():
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "docs"))):
        for f in sorted(files):
            if not f.endswith(".md"):
                continue
            path = os.path.join(dirpath, f)
            kind, buf, start = None, [], 0
            with open(path, encoding="utf-8") as fh:
                for no, line in enumerate(fh, 1):
                    if kind is None:
                        m = FENCE.match(line)
                        if m:
                            kind, buf, start = m.group(1), [], no
                    elif line.startswith("```"):
                        yield os.path.relpath(path, ROOT), start, kind, "".join(buf)
                        kind = None
                    else:
                        buf.append(line)


def main():
    kver = os.environ.get("KVER") or subprocess.run(
        [os.path.join(ROOT, "tools", "kver.sh")], capture_output=True,
        text=True).stdout.strip()
    kdir = "/usr/src/linux-headers-%s" % kver
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(BUILD)
    ex = list(examples())
    print("KTAP version 1")
    print("1..%d" % max(len(ex), 1))
    if not ex:
        print("ok 1 doc_examples # SKIP no compiled examples in docs/ yet")
        return 0
    failed = 0
    for i, (doc, line, kind, code) in enumerate(ex, 1):
        name = "%s_%d" % (re.sub(r"[^A-Za-z0-9]", "_", doc[:-3]), line)
        d = os.path.join(BUILD, name)
        os.makedirs(d)
        src = os.path.join(d, "ex_%s.c" % name)
        with open(src, "w") as f:
            f.write(code)
        if kind == "kernel":
            with open(os.path.join(d, "Kbuild"), "w") as f:
                # include/compat first, as a mainline driver's Kbuild puts
                # it: <linux/remoteproc.h> and <linux/rpmsg.h> are ampsoc's.
                # tests/kmod/include: <ampsoc/ktap.h>, for the example test
                # module (tests/kmod/Kbuild gives it to the test modules).
                f.write("NOSTDINC_FLAGS += -I%s/include/compat -I%s/include\n"
                        "ccflags-y += -I%s/include -I%s/tests/kmod/include -Werror\n"
                        "obj-m += ex_%s.o\n"
                        % (ROOT, ROOT, ROOT, ROOT, name))
            # Our own modules' symbols, so examples that call them link.
            symvers = os.path.join(ROOT, "Module.symvers")
            cmd = ["make", "-s", "-C", kdir, "M=" + d, "W=1", "modules"]
            if os.path.exists(symvers):
                cmd.append("KBUILD_EXTRA_SYMBOLS=" + symvers)
        elif kind == "user":
            cmd = ["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror",
                   "-I" + os.path.join(ROOT, "include"), "-o",
                   os.path.join(d, "a.out"), src, "-lpthread"]
        else:
            # against the SDK's own libc headers, never the host's
            gccinc = subprocess.run(["gcc", "-print-file-name=include"],
                                    capture_output=True, text=True).stdout.strip()
            fw = os.path.join(ROOT, "firmware", "include")
            cmd = ["gcc", "-std=gnu11", "-ffreestanding", "-nostdlib", "-nostdinc",
                   "-fno-pie", "-Wall", "-Wextra", "-Werror", "-c",
                   "-isystem", gccinc, "-I" + os.path.join(fw, "libc"), "-I" + fw,
                   "-I" + os.path.join(ROOT, "include"),
                   "-include", os.path.join(fw, "amp", "core", "m3.h"),
                   "-o", os.path.join(d, "a.o"), src]
        p = subprocess.run(cmd, capture_output=True, text=True)
        out = (p.stdout + p.stderr).strip()
        ok = p.returncode == 0 and "warning:" not in out
        if not ok:
            failed += 1
            print("# %s:%d (%s example) does not compile:" % (doc, line, kind))
            for l in out.splitlines()[:15]:
                print("#   " + l)
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

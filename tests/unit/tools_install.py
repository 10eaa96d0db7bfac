#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test: `make install` and `make uninstall` of the user's tool
(README.md, "Install the tools"). Into a scratch DESTDIR: exactly
sbin/ampsocctl (0755, dynamically linked, runs) and share/man/man8/ampsocctl.8
(0644) under PREFIX; the man page renders without a warning and documents
exactly the command forms that `ampsocctl --help` lists; uninstall leaves
no file behind; and a release tarball (make dist) installs the same without
git. KTAP on stdout."""

import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAN = os.path.join(ROOT, "tools", "ampsocctl", "ampsocctl.8")
BIN = "sbin/ampsocctl"
PAGE = "share/man/man8/ampsocctl.8"

results = []


def point(ok, name, why=""):
    results.append((ok, name, why))


def make(cwd, *args, env=None):
    e = dict(os.environ)
    # A make check run passes its own command-line variables down in
    # MAKEFLAGS; this test's make must see only its own.
    e.pop("MAKEFLAGS", None)
    e.pop("MAKELEVEL", None)
    e.update(env or {})
    return subprocess.run(["make", "-s", "-C", cwd] + list(args), capture_output=True,
                          text=True, env=e, timeout=600)


def files_under(top):
    out = []
    for d, _, fs in os.walk(top):
        out += [os.path.relpath(os.path.join(d, f), top) for f in fs]
    return sorted(out)


def is_dynamic_elf(path):
    """True for an ELF64 executable with a program interpreter (PT_INTERP)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return False
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    return any(struct.unpack_from("<I", data, phoff + i * phentsize)[0] == 3
               for i in range(phnum))


def roff_text(line):
    """The text of one roff line: a font macro's arguments in their fonts."""
    m = re.match(r"^\.([A-Z]{1,2})\s*(.*)$", line)
    if m:
        args = [a or q.replace('""', '"')
                for q, a in re.findall(r'"((?:[^"]|"")*)"|(\S+)', m.group(2))]
        line = (" " if m.group(1) in ("B", "I") else "").join(args)
    line = re.sub(r"\\f[BIRP]", "", line)
    return line.replace("\\-", "-").replace("\\&", "")


def norm(form):
    return " ".join(form.split())


def man_forms():
    """The tags of the COMMANDS section: one command form each."""
    forms, in_cmds, tag_next = set(), False, False
    with open(MAN, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".SH"):
                in_cmds = line.split(None, 1)[1:] == ["COMMANDS"]
                continue
            if not in_cmds:
                continue
            if tag_next:
                forms.add(norm(roff_text(line)))
                tag_next = False
            elif line.startswith(".TP"):
                tag_next = True
    return forms


def help_forms(out):
    """The usage lines of ampsocctl --help: two spaces, then a command form,
    then (after two or more spaces) what it does."""
    forms = set()
    for line in out.splitlines():
        if re.match(r"^  [a-z]", line):
            forms.add(norm(re.split(r"\s{2,}", line.strip())[0]))
    return forms


def main():
    tmp = tempfile.mkdtemp(prefix="ampsoc-install-")
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("KTAP version 1")
    print("1..%d" % len(results))
    for i, (ok, name, why) in enumerate(results, 1):
        for w in why.splitlines() if not ok else []:
            print("# " + w)
        print("%s %d %s%s" % ("ok" if ok else "not ok", i, name,
                              " # SKIP " + why if ok is None else ""))
    return 1 if any(ok is False for ok, _, _ in results) else 0


def run(tmp):
    dest = os.path.join(tmp, "dest")
    build = os.path.join(tmp, "build")
    prefix = os.path.join(dest, "usr", "local")

    # 1: the default PREFIX is /usr/local; exactly two files, their modes
    p = make(ROOT, "install", "DESTDIR=" + dest, "BUILD=" + build)
    got = files_under(dest)
    want = ["usr/local/" + BIN, "usr/local/" + PAGE]
    modes = {f: stat.S_IMODE(os.lstat(os.path.join(dest, f)).st_mode) for f in got}
    ok = p.returncode == 0 and got == want and modes == {want[0]: 0o755, want[1]: 0o644}
    point(ok, "install_puts_two_files",
          "make install: exit %d\n%s\ninstalled: %s" % (
              p.returncode, p.stderr.strip()[-800:],
              " ".join("%s %o" % (f, m) for f, m in modes.items())))
    if not ok:
        return

    # 2: built for this machine: dynamically linked, and it runs
    exe = os.path.join(prefix, BIN)
    h = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=30)
    ok = is_dynamic_elf(exe) and h.returncode == 0 and h.stdout.startswith("usage:")
    point(ok, "installed_ampsocctl_help",
          "dynamic ELF: %s; --help exit %d" % (is_dynamic_elf(exe), h.returncode))

    # 3, 4: the contract between the two: every command form --help lists
    # is a tag of the man page's COMMANDS, and every tag is one it lists
    hf, mf = help_forms(h.stdout), man_forms()
    point(bool(hf) and not hf - mf, "man_documents_every_help_form",
          "not in ampsocctl.8: " + "; ".join(sorted(hf - mf)))
    point(bool(mf) and not mf - hf, "help_lists_every_man_form",
          "not in --help: " + "; ".join(sorted(mf - hf)))

    # 5: the installed page renders without a warning
    if not shutil.which("groff"):
        point(None, "man_page_renders_clean", "no groff (tools/deps.txt: groff-base)")
    else:
        r = subprocess.run(["groff", "-man", "-ww", "-z", os.path.join(prefix, PAGE)],
                           capture_output=True, text=True, timeout=60)
        point(r.returncode == 0 and not r.stderr.strip(), "man_page_renders_clean",
              r.stderr.strip())

    # 6: uninstall takes out exactly what install put
    p = make(ROOT, "uninstall", "DESTDIR=" + dest, "BUILD=" + build)
    left = files_under(dest)
    point(p.returncode == 0 and not left, "uninstall_leaves_no_file",
          "make uninstall: exit %d; left: %s" % (p.returncode, " ".join(left)))

    # 7: from a release tarball, without git, and PREFIX honoured
    if not shutil.which("git") or not os.path.exists(os.path.join(ROOT, ".git")):
        point(None, "install_from_tarball", "not a git checkout")
        return
    p = make(ROOT, "dist", "BUILD=" + os.path.join(tmp, "dist"),
             "DKMS_VERSION=0.0.selftest.install")
    tree = os.path.join(tmp, "ampsoc-0.0.selftest.install")
    dest2 = os.path.join(tmp, "dest2")
    why = p.stderr.strip()
    if p.returncode == 0:
        subprocess.run(["tar", "-C", tmp, "-xzf",
                        os.path.join(tmp, "dist", "ampsoc-0.0.selftest.install.tar.gz")],
                       check=True)
        # Any git the tarball's Makefile ran would fail here.
        p = make(tree, "install", "DESTDIR=" + dest2, "PREFIX=/opt/ampsoc",
                 env={"GIT_DIR": os.path.join(tmp, "no-git"), "GIT_CEILING_DIRECTORIES": tmp})
        why = p.stderr.strip()
    got = files_under(dest2) if os.path.isdir(dest2) else []
    ok = (p.returncode == 0 and not os.path.exists(os.path.join(tree, ".git")) and
          got == ["opt/ampsoc/" + BIN, "opt/ampsoc/" + PAGE])
    if ok:
        h = subprocess.run([os.path.join(dest2, "opt/ampsoc", BIN), "--help"],
                           capture_output=True, timeout=30)
        ok = h.returncode == 0
    point(ok, "install_from_tarball", "%s\ninstalled: %s" % (why[-800:], " ".join(got)))


if __name__ == "__main__":
    sys.exit(main())

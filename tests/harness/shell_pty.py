#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive `make shell` (or the runner's --shell) through a pseudo-terminal,
as a user at a terminal does, and print KTAP.

    shell_pty.py [--timeout S] [--log FILE] -- COMMAND [ARG...]

COMMAND must start the shell guest with CMD='echo AMPSOC-CMD-$((40+2))'
($$ for make's $; the marker proves CMD ran after the modules were loaded). The driver waits
for the guest shell, types a command whose output differs from its echo,
then `poweroff -f`, and expects COMMAND to exit 0 within the timeout. A
console showing kernel trouble fails it. On a timeout, COMMAND gets SIGTERM
(the runner then stops QEMU and the services) and later SIGKILL.
"""

import argparse
import os
import pty
import re
import select
import signal
import sys
import time

CMD_MARK = "AMPSOC-CMD-42"
SHELL_UP = "ampsoc: guest shell"
TTY_MARK = "AMPSOC-TTY-42"
TROUBLE = re.compile(r"Kernel panic|\bOops\b|WARNING: (CPU|at)|\bBUG: |"
                     r"Call Trace:|Traceback \(most recent call last\)")


class Pty:
    def __init__(self, argv, log):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)
        self.buf = ""
        self.log = log
        self.rc = None

    def read(self, until):
        """Read what is there, waiting at most until `until` (monotonic)."""
        left = until - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([self.fd], [], [], min(left, 1.0))
        if not r:
            return True
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        if not data:
            self.reap(until)
            return False
        text = data.decode("utf-8", "replace")
        self.buf += text
        self.log.write(text)
        self.log.flush()
        return True

    def expect(self, what, until):
        """Wait for `what` in the output from where it was last found."""
        while what not in self.buf:
            if not self.read(until):
                return what in self.buf
        return True

    def send(self, line):
        os.write(self.fd, (line + "\r").encode())

    def reap(self, until):
        while self.rc is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.rc = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > until:
                break
            time.sleep(0.1)
        return self.rc

    def stop(self):
        """SIGTERM first, so that the runner stops QEMU and its services."""
        for sig, grace in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
            if self.rc is not None:
                return
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass
            self.reap(time.monotonic() + grace)
        if self.rc is None:
            os.killpg(self.pid, signal.SIGKILL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--log", default="/dev/null")
    ap.add_argument("argv", nargs="+")
    a = ap.parse_args()

    points = []
    with open(a.log, "w") as log:
        t = Pty(a.argv, log)
        until = time.monotonic() + a.timeout
        try:
            # CMD's output comes before the shell's banner: a CMD that
            # failed does not make the driver wait for its marker.
            up = t.expect(SHELL_UP, until)
            ran = CMD_MARK in t.buf and t.buf.index(CMD_MARK) < t.buf.index(SHELL_UP) \
                if up else CMD_MARK in t.buf
            points.append(("cmd_ran_after_load", ran))
            points.append(("shell_prompt", up))
            typed = False
            if up:
                # Typed input: the guest echoes "$((6*7))", only the
                # shell's answer contains 42.
                t.send("echo AMPSOC-TTY-$((6*7))")
                typed = t.expect(TTY_MARK, until)
            points.append(("typed_command_answered", typed))
            if typed:
                t.send("poweroff -f")
            while t.rc is None and t.read(until):
                pass
            t.reap(until)
        finally:
            t.stop()
    points.append(("exits_0", t.rc == 0))
    trouble = TROUBLE.search(t.buf)
    points.append(("console_clean", trouble is None))

    print("KTAP version 1")
    print("1..%d" % len(points))
    for i, (name, ok) in enumerate(points, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
    if trouble:
        print("# console: %s" % trouble.group(0))
    if t.rc != 0:
        print("# exit status %s%s" % (t.rc, " (killed after the timeout)"
                                      if time.monotonic() > until else ""))
    if not all(ok for _, ok in points):
        for line in t.buf.splitlines()[-15:]:
            print("# | %s" % line.rstrip("\r"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

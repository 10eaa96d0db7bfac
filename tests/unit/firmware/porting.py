#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test: what docs/porting-firmware.md tells the writer of their own
Cortex-M firmware holds for its example, firmware/examples/bare-m4 (built
without the SDK). The image: ELF32 EM_ARM, Thumb entry in the code TCM,
vector 0 a stack in the SRAM and vector 1 the entry, every segment inside
one of the m4's memories of the board file, a .resource_table of version 1
with a trace buffer in the SRAM and a carveout in the DRAM window. Then it
boots on the runner as the model starts it: its line on the console with
the carveout pa "Linux" wrote back, the same line in its trace buffer, and
a doorbell answered on its first vector.

Usage: porting.py IMAGE RUNNER BOARD. KTAP on stdout."""

import os
import re
import select
import signal
import struct
import subprocess
import sys
import time

EM_ARM = 40
PT_LOAD = 1
RSC_CARVEOUT, RSC_TRACE = 0, 2
PA_WRITTEN = 0x12345000    # what the test, as Linux, writes back
KICK_VECTOR = 3
WAIT_S = 10                # a failure guard only

results = []


def point(ok, name, why=""):
    results.append((bool(ok), name, "" if ok else why))


def board_windows(board):
    """[(name, shm_off, da, len)] of [core m4]'s mem keys."""
    sizes = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    wins, section = [], None
    with open(board, encoding="utf-8") as f:
        for line in f:
            line = line.split(";")[0].strip()
            m = re.match(r"^\[(.*)\]$", line)
            if m:
                section = m.group(1).split()
                continue
            m = re.match(r"^mem\s*=\s*(\w+):(\w+):(\w+):(\w+)", line)
            if section == ["core", "m4"] and m:
                size = m.group(4)
                n = int(size[:-1], 0) * sizes[size[-1]] if size[-1] in sizes else int(size, 0)
                wins.append((m.group(1), int(m.group(2), 0), int(m.group(3), 0), n))
    return wins


class Elf32:
    def __init__(self, data):
        self.data = data
        (self.type, self.machine, _, self.entry, phoff, shoff, _, _, phentsize, phnum,
         shentsize, shnum, shstrndx) = struct.unpack_from("<HHIIIIIHHHHHH", data, 16)
        self.segs = [struct.unpack_from("<IIIIIIII", data, phoff + i * phentsize)
                     for i in range(phnum)]
        secs = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
                for i in range(shnum)]
        stroff = secs[shstrndx][4]
        self.secs = {}
        for s in secs:
            end = data.index(b"\0", stroff + s[0])
            self.secs[data[stroff + s[0]:end].decode()] = s

    def loads(self):
        """(paddr, filesz, memsz, offset) of each PT_LOAD."""
        return [(s[3], s[4], s[5], s[1]) for s in self.segs if s[0] == PT_LOAD]

    def read_da(self, da, n):
        for paddr, filesz, _, off in self.loads():
            if paddr <= da and da + n <= paddr + filesz:
                return self.data[off + da - paddr:off + da - paddr + n]
        return None


def window_of(wins, da, n):
    for name, _, wda, wlen in wins:
        if wda <= da and da + n <= wda + wlen:
            return name
    return None


def parse_rsc(elf):
    """The entries of .resource_table: [(type, fields...)], or None."""
    s = elf.secs.get(".resource_table")
    if not s:
        return None
    off, size = s[4], s[5]
    ver, num = struct.unpack_from("<II", elf.data, off)
    if ver != 1 or 16 + 4 * num > size:
        return None
    entries = []
    for i in range(num):
        e, = struct.unpack_from("<I", elf.data, off + 16 + 4 * i)
        if e + 4 > size:
            return None
        t, = struct.unpack_from("<I", elf.data, off + e)
        if t == RSC_TRACE and e + 4 + 44 <= size:
            entries.append((t, e) + struct.unpack_from("<III", elf.data, off + e + 4))
        elif t == RSC_CARVEOUT and e + 4 + 52 <= size:
            entries.append((t, e) + struct.unpack_from("<IIIII", elf.data, off + e + 4))
        else:
            entries.append((t, e))
    return entries


def check_image(elf, wins):
    point(elf.data[:4] == b"\x7fELF" and elf.data[4] == 1 and elf.machine == EM_ARM
          and elf.type == 2, "elf32_arm_executable",
          "class %d e_machine %d e_type %d" % (elf.data[4], elf.machine, elf.type))
    point(elf.entry & 1 and window_of(wins, elf.entry & ~1, 2) == "tcm",
          "entry_thumb_in_tcm", "e_entry %#x" % elf.entry)
    vec = elf.read_da(0, 8)
    sp, reset = struct.unpack("<II", vec) if vec else (None, None)
    point(vec and sp % 8 == 0 and window_of(wins, sp - 8, 8) == "sram" and reset == elf.entry,
          "vector_table_at_0", "vectors 0 and 1: %r %r, entry %#x" % (sp, reset, elf.entry))
    bad = [(p, m) for p, _, m, _ in elf.loads() if not window_of(wins, p, m)]
    point(elf.loads() and not bad, "segments_inside_m4_memories",
          "outside: " + " ".join("%#x+%#x" % b for b in bad))
    rsc = parse_rsc(elf)
    s = elf.secs.get(".resource_table")
    point(rsc is not None and window_of(wins, s[3], s[5]) == "sram",
          "resource_table_in_sram", "section %r, entries %r" % (s, rsc))
    trace = [e for e in rsc or [] if e[0] == RSC_TRACE]
    point(len(trace) == 1 and window_of(wins, trace[0][2], trace[0][3]) == "sram",
          "trace_buffer_in_sram", "trace entries %r" % trace)
    carve = [e for e in rsc or [] if e[0] == RSC_CARVEOUT]
    point(len(carve) == 1 and window_of(wins, carve[0][2], carve[0][4]) == "ddr" and
          carve[0][3] == 0xffffffff, "carveout_in_ddr_pa_any", "carveouts %r" % carve)
    return rsc


def boot(elf, rsc, wins, runner, tmp_name="ampsoc-porting"):
    size = max(off + n for _, off, _, n in wins)
    shm = os.memfd_create(tmp_name)
    os.ftruncate(shm, size)
    for paddr, filesz, memsz, off in elf.loads():
        for _, woff, wda, wlen in wins:
            if wda <= paddr < wda + wlen:
                os.pwrite(shm, elf.data[off:off + filesz], woff + paddr - wda)
    # As Linux does: write the carveout's pa into the loaded table.
    s = elf.secs[".resource_table"]
    carve = [e for e in rsc if e[0] == RSC_CARVEOUT][0]
    rsc_shm = [woff + s[3] - wda for _, woff, wda, wlen in wins if wda <= s[3] < wda + wlen][0]
    os.pwrite(shm, struct.pack("<I", PA_WRITTEN), rsc_shm + carve[1] + 4 + 4)

    irq, kick = os.eventfd(0), os.eventfd(0, os.EFD_NONBLOCK)
    cons_r, cons_w = os.pipe()
    args = [runner, "--isa", "armv7m", "--name", "m4", "--shm-fd", str(shm)]
    for _, woff, wda, wlen in wins:
        args += ["--map", "%#x:%#x:%#x" % (woff, wda, wlen)]
    args += ["--entry", "%#x" % elf.entry, "--irq-fd", str(irq),
             "--kick-fd", "%d:%d" % (KICK_VECTOR, kick), "--console-fd", str(cons_w)]
    p = subprocess.Popen(args, pass_fds=(shm, irq, kick, cons_w), stderr=subprocess.PIPE)
    os.close(cons_w)
    try:
        want = "bare-m4: hello from m4, carveout da %#010x pa %#010x" % (carve[2], PA_WRITTEN)
        cons = b""
        while b"\n" not in cons and select.select([cons_r], [], [], WAIT_S)[0]:
            chunk = os.read(cons_r, 4096)
            if not chunk:
                break
            cons += chunk
        line = cons.decode(errors="replace").split("\n")[0]
        point(line == want, "boots_and_prints_its_line",
              "console: %r\nwanted:  %r" % (line, want))

        trace = [e for e in rsc if e[0] == RSC_TRACE][0]
        woff, wda = [(o, d) for _, o, d, n in wins if d <= trace[2] < d + n][0]

        def trace_text():
            buf = os.pread(shm, trace[3], woff + trace[2] - wda)
            return buf.split(b"\0")[0].decode(errors="replace")
        # The firmware writes each character to the console register, then
        # to the trace buffer: the line's newline reaches the buffer just
        # after the console line is out, so wait for the whole line.
        deadline = time.monotonic() + WAIT_S
        text = trace_text()
        while text != want + "\n" and time.monotonic() < deadline:
            time.sleep(0.01)
            text = trace_text()
        point(text == want + "\n", "trace_buffer_holds_its_line", "trace0: %r" % text)

        os.eventfd_write(irq, 1)
        rung = select.select([kick], [], [], WAIT_S)[0] and os.eventfd_read(kick) >= 1
        point(rung, "doorbell_answered_on_first_vector", "no doorbell back in %d s" % WAIT_S)
        point(p.poll() is None, "still_running_after_the_doorbell",
              "runner ended: %r %s" % (p.returncode, p.stderr.read().decode()[-400:]
                                        if p.returncode is not None else ""))
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        p.wait()
        for fd in (shm, irq, kick, cons_r):
            os.close(fd)


def main():
    image, runner, board = sys.argv[1:4]
    wins = board_windows(board)
    with open(image, "rb") as f:
        elf = Elf32(f.read())
    if [w[0] for w in wins] != ["tcm", "sram", "ddr"]:
        point(False, "board_m4_memories", "omap4.ini's [core m4] mem: %r" % wins)
    else:
        rsc = check_image(elf, wins)
        if all(ok for ok, _, _ in results):
            boot(elf, rsc, wins, runner)
    print("KTAP version 1")
    print("1..%d" % len(results))
    for i, (ok, name, why) in enumerate(results, 1):
        for w in why.splitlines():
            print("# " + w)
        print("%s %d %s" % ("ok" if ok else "not ok", i, name))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())

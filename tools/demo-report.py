#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The demo's energy report and its power picture.

Reads what the SoC model left in a service directory (its final report
and timeline.txt: the model parsed the board file, and its report carries
every domain's energy and on-power), then
  - prints joules per domain against the same run with every domain held
    on (the board's on-power for the whole run, plus the same peripheral
    activity), and the share saved;
  - draws the run with gnuplot, as SVG and PNG, under OUTDIR: on top each
    domain's power in mW, stacked, with each domain's energy and the
    total (the model's figures) in the key; below, the state of every
    domain and core (a filled bar while on or running). The model's
    marks (its `mark LABEL` control command, which the demo sends at the
    start of each step) are dashed lines with their labels, and the
    interval between a mark `sleep` and the next `wake` (system suspend)
    is shaded.

usage: demo-report.py MODEL_DIR OUTDIR
"""
import os
import subprocess
import sys

SLEEP, WAKE = "sleep", "wake"
COLOURS = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
           "#bbbbbb", "#994455", "#117733", "#882255"]


def read_report(path):
    """The model's report: run time, total energy in uJ, and per domain (in
    board order) the energy in uJ and the power drawn while on, in uW."""
    time_ns, total, energy, power, order = 0, None, {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "time_ns":
                time_ns = int(w[1])
            elif w[0] == "energy" and len(w) >= 3 and w[1] == "total":
                total = int(w[2])
            elif w[0] == "energy" and len(w) >= 4:
                energy[w[1]] = int(w[2])
                order.append(w[1])
                for kv in w[4:]:
                    if kv.startswith("on_power_uw="):
                        power[w[1]] = int(kv.split("=", 1)[1])
                if w[1] not in power:
                    sys.exit("demo-report: %s: no on_power_uw for domain %s"
                             % (path, w[1]))
    if total is None:
        total = sum(energy.values())
    return time_ns, total, energy, power, order


def read_timeline(path):
    """[(t_ns, kind, name, state, power_uw, extra)] in time order; extra
    is a peripheral's domain (or None)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            w = line.split()
            if len(w) >= 5:
                rows.append((int(w[0]), w[1], w[2], w[3], int(w[4]),
                             w[5] if len(w) > 5 else None))
    return rows


def base_energy(rows, end_ns):
    """Each domain's energy from its state power alone (no peripheral
    activity), integrated over the timeline, in microjoules."""
    e, last = {}, {}
    for t, kind, name, _, pw, _ in rows:
        if kind != "domain":
            continue
        if name in last:
            t0, p0 = last[name]
            e[name] = e.get(name, 0.0) + p0 * (t - t0) / 1e9
        last[name] = (t, pw)
    for name, (t0, p0) in last.items():
        e[name] = e.get(name, 0.0) + p0 * (end_ns - t0) / 1e9
    return e


def power_steps(rows, order):
    """[(t_ns, [uW per domain in order])]: each domain's power after every
    change (a domain's own rows, and a peripheral's, which carry its
    domain's power with the peripheral's activity)."""
    cur = [0] * len(order)
    idx = {d: i for i, d in enumerate(order)}
    steps = []
    for t, kind, name, _, pw, extra in rows:
        d = name if kind == "domain" else extra if kind == "periph" else None
        if d not in idx:
            continue
        cur[idx[d]] = pw
        if steps and steps[-1][0] == t:
            steps[-1] = (t, list(cur))
        else:
            steps.append((t, list(cur)))
    return steps


# A state's bar height, as a share of a track (on/running: full).
LEVEL = {"off": 0.0, "reset": 0.0, "halted": 0.0, "going-on": 0.5,
         "going-off": 0.5, "on": 1.0, "running": 1.0, "crashed": 0.5}


def state_tracks(rows):
    """[(kind, name, [(t_ns, level)])] for every domain and core."""
    tracks = {}
    for t, kind, name, state, _, _ in rows:
        if kind in ("domain", "core"):
            tracks.setdefault((kind, name), []).append(
                (t, LEVEL.get(state, 0.5)))
    return [(k, n, pts) for (k, n), pts in tracks.items()]


def marks_of(rows):
    """The step marks [(t_ns, label)] and the suspend intervals
    [(t0_ns, t1_ns or None)]."""
    steps, sleeps = [], []
    for t, kind, name, _, _, _ in rows:
        if kind != "mark":
            continue
        label = name.replace("_", " ")
        if label == SLEEP:
            sleeps.append([t, None])
        elif label == WAKE and sleeps and sleeps[-1][1] is None:
            sleeps[-1][1] = t
        else:
            steps.append((t, label))
    return steps, sleeps


def joules(uj):
    return "%.3f J" % (uj / 1e6)


class Axis:
    """The time axis: seconds, with the longest stretch in which nothing
    changed (in the demo, the guest booting under TCG) drawn narrow when
    it is most of the run, so that the story gets the width. x(t_s) is
    where a time is drawn; tics() the real seconds to label."""

    def __init__(self, rows, end_ns):
        self.end = end_ns / 1e9
        self.cut = None
        times = sorted({t / 1e9 for t, *_ in rows} | {0.0, self.end})
        gaps = [(b - a, a, b) for a, b in zip(times, times[1:])]
        if gaps:
            span, a, b = max(gaps)
            if span > 10 and span > 0.4 * self.end:
                lo, hi = a + 0.5, b - 0.5
                shown = self.end - (hi - lo)
                self.cut = (lo, hi, 0.05 * shown)

    def x(self, t):
        if not self.cut:
            return t
        lo, hi, w = self.cut
        if t <= lo:
            return t
        if t >= hi:
            return t - (hi - lo) + w
        return lo + w * (t - lo) / (hi - lo)

    def tics(self):
        shown = self.x(self.end)
        step = next((v for v in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500,
                                 1000, 2000, 5000) if shown / v <= 14), 10000)
        out, k = [], 0
        while k * step <= self.end + 1e-9:
            t = k * step
            if not self.cut or t <= self.cut[0] or t >= self.cut[1]:
                out.append(t)
            k += 1
        return out


def write_data(outdir, rows, order, end_ns, ax):
    """timeline-power.dat: t, where t is drawn, 0, then the running sums
    of the domains' mW; timeline-state.dat: one block per track, t, where
    it is drawn and the bar's height. Both as steps (each change written
    twice)."""
    steps = power_steps(rows, order)
    pfile = os.path.join(outdir, "timeline-power.dat")
    with open(pfile, "w") as f:
        f.write("#t_s x_s 0 " + " ".join("+" + d for d in order) + " (mW)\n")
        prev = None
        for t, uw in steps + [(end_ns, None)]:
            if prev is not None:
                f.write(cumline(t, prev, ax))
            if uw is not None:
                f.write(cumline(t, uw, ax))
                prev = uw
    tracks = state_tracks(rows)
    sfile = os.path.join(outdir, "timeline-state.dat")
    with open(sfile, "w") as f:
        for kind, name, pts in tracks:
            f.write("# %s %s\n" % (kind, name))
            last = None
            for t, lvl in pts + [(end_ns, None)]:
                if last is not None:
                    f.write("%.6f %.6f %.3f\n" % (t / 1e9, ax.x(t / 1e9), last))
                if lvl is not None:
                    f.write("%.6f %.6f %.3f\n" % (t / 1e9, ax.x(t / 1e9), lvl))
                    last = lvl
            f.write("\n\n")
    return pfile, sfile, tracks


def cumline(t, uw, ax):
    s, cols = 0.0, ["%.6f" % (t / 1e9), "%.6f" % ax.x(t / 1e9), "0"]
    for p in uw:
        s += p / 1000.0
        cols.append("%.3f" % s)
    return " ".join(cols) + "\n"


def gp_str(s):
    return "'" + s.replace("'", "''") + "'"


def plot_script(term, out, pfile, sfile, tracks, order, energy, total,
                steps, sleeps, ax):
    n = len(tracks)
    x = ax.x
    g = ["set terminal %s noenhanced" % term,
         "set output %s" % gp_str(out),
         "set multiplot",
         "set lmargin at screen 0.11",
         "set rmargin at screen 0.80",
         "set xrange [0:%.6f]" % x(ax.end),
         "set xtics (%s)" % ", ".join('"" %.6f' % x(t) for t in ax.tics()),
         "set grid xtics",
         "set style fill solid 0.85 noborder"]
    obj = 0
    # both panels: the steps, the suspend interval, the stretch drawn narrow
    for t0, t1 in sleeps:
        obj += 1
        g.append("set object %d rect from %.6f, graph 0 to %.6f, graph 1 "
                 "behind fillcolor rgb '#d0d0d0' fillstyle solid 1.0 noborder"
                 % (obj, x(t0 / 1e9), x((t1 if t1 is not None else ax.end * 1e9) / 1e9)))
    if ax.cut:
        lo, hi, _ = ax.cut
        obj += 1
        g.append("set object %d rect from %.6f, graph 0 to %.6f, graph 1 "
                 "behind fillcolor rgb '#f0f0f0' fillstyle pattern 4 "
                 "border rgb '#999999'" % (obj, x(lo), x(hi)))
    for i, (t, _) in enumerate(steps):
        g.append("set arrow %d from %.6f, graph 0 to %.6f, graph 1 nohead "
                 "front dashtype 2 linecolor rgb '#333333'"
                 % (i + 1, x(t / 1e9), x(t / 1e9)))
    # top: stacked power
    g += ["set origin 0,%.3f" % 0.40,
          "set size 1,0.60",
          "set tmargin 7",
          "set bmargin 0",
          "set ylabel 'power (mW)'",
          "set yrange [0:*]",
          "set key outside right top title %s box" % gp_str(
              "energy, total %s" % joules(total)),
          "set label 999 %s at screen 0.45, screen 0.98 center front" % gp_str(
              "ampsoc: power per domain (stacked, mW)" +
              (", the steps" if steps else "") +
              (", system suspend shaded" if sleeps else ""))]
    for i, (t, label) in enumerate(steps):
        g.append("set label %d %s at %.6f, graph 1.02 left rotate by 35 "
                 "front" % (i + 1, gp_str(label), x(t / 1e9)))
    for i, (t0, t1) in enumerate(sleeps):
        mid = (x(t0 / 1e9) + x((t1 if t1 is not None else ax.end * 1e9) / 1e9)) / 2
        g.append("set label %d 'suspended' at %.6f, graph 0.93 center front"
                 % (len(steps) + i + 1, mid))
    if ax.cut:
        lo, hi, _ = ax.cut
        g.append("set label %d %s at %.6f, graph 0.5 center rotate by 90 front"
                 % (len(steps) + len(sleeps) + 1,
                    gp_str("%.1f s, no change" % (hi - lo)), (x(lo) + x(hi)) / 2))
    clauses = []
    for i, d in enumerate(order):
        clauses.append("%s using 2:%d:%d with filledcurves "
                       "fillcolor rgb '%s' title %s"
                       % (gp_str(pfile), i + 3, i + 4,
                          COLOURS[i % len(COLOURS)],
                          gp_str("%s %s" % (d, joules(energy[d])))))
    g.append("plot " + ", \\\n     ".join(clauses))
    # bottom: the state bars
    g += ["unset label",
          "set origin 0,0",
          "set size 1,0.40",
          "set tmargin 0.5",
          "set bmargin 3.5",
          "set xtics (%s)" % ", ".join('"%g" %.6f' % (t, x(t)) for t in ax.tics()),
          "set xlabel 'model time (s)'",
          "set ylabel 'state (bar: on)'",
          "set yrange [0:%d]" % n,
          "set ytics (%s)" % ", ".join(
              "%s %.2f" % (gp_str(nm if k == "domain" else "core " + nm),
                           n - 1 - i + 0.45)
              for i, (k, nm, _) in enumerate(tracks)),
          "unset key"]
    clauses = []
    for i, (kind, name, _) in enumerate(tracks):
        base = n - 1 - i + 0.05
        colour = COLOURS[order.index(name) % len(COLOURS)] \
            if kind == "domain" and name in order else "#555555"
        clauses.append("%s index %d using 2:(%.2f):(%.2f+0.8*$3) with "
                       "filledcurves fillcolor rgb '%s'"
                       % (gp_str(sfile), i, base, base, colour))
    g.append("plot " + ", \\\n     ".join(clauses))
    g.append("unset multiplot")
    return "\n".join(g) + "\n"


def plot(rows, order, energy, total, end_ns, outdir):
    if not order:
        return []
    ax = Axis(rows, end_ns)
    pfile, sfile, tracks = write_data(outdir, rows, order, end_ns, ax)
    steps, sleeps = marks_of(rows)
    with open(os.path.join(outdir, "marks.txt"), "w") as f:
        for t, label in steps:
            f.write("step %.6f %s\n" % (t / 1e9, label))
        for t0, t1 in sleeps:
            f.write("suspended %.6f %.6f\n" % (t0 / 1e9,
                                              (t1 if t1 else end_ns) / 1e9))
    height = 560 + 22 * len(tracks)
    outputs = []
    for term, ext in (("svg size 1200,%d dynamic font 'sans,11'" % height, "svg"),
                      ("pngcairo size 1200,%d font 'sans,10'" % height, "png")):
        out = os.path.join(outdir, "timeline." + ext)
        script = plot_script(term, out, pfile, sfile, tracks, order, energy,
                             total, steps, sleeps, ax)
        with open(os.path.join(outdir, "timeline.gp"), "w") as f:
            f.write(script)
        p = subprocess.run(["gnuplot"], input=script, text=True,
                           capture_output=True)
        if p.returncode == 0 and os.path.getsize(out) > 0:
            outputs.append(out)
        else:
            print("demo-report: gnuplot (%s) failed: %s"
                  % (ext, p.stderr.strip()[:300]))
    return outputs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    mdir, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    time_ns, total, energy, power, order = read_report(
        os.path.join(mdir, "report"))
    rows = read_timeline(os.path.join(mdir, "timeline.txt"))
    base = base_energy(rows, time_ns)
    secs = time_ns / 1e9
    print("%-12s %14s %16s %8s" % ("domain", "this run (J)",
                                   "all held on (J)", "saved"))
    tot, tot_on = 0.0, 0.0
    for d in order:
        used = energy[d] / 1e6
        # Held on: the board's on-power for the whole run, plus the same
        # peripheral activity this run had (what it used above its states).
        active = max(used - base.get(d, 0.0) / 1e6, 0.0)
        held = power[d] * secs / 1e6 + active
        tot += used
        tot_on += held
        print("%-12s %14.3f %16.3f %7.1f%%" % (
            d, used, held, 100 * (1 - used / held) if held else 0))
    print("%-12s %14.3f %16.3f %7.1f%%" % (
        "total", tot, tot_on, 100 * (1 - tot / tot_on) if tot_on else 0))
    print("over %.1f s of model time" % secs)
    with open(os.path.join(outdir, "energy.txt"), "w") as f:
        f.write("total_j %.6f\nall_on_j %.6f\nseconds %.3f\n"
                % (tot, tot_on, secs))
    outs = plot(rows, order, energy, total, time_ns, outdir)
    for o in outs:
        print("power picture: %s" % o)
    return 0 if outs else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The demo's energy report and power-state timeline picture.

Reads what the SoC model left in a scenario's service directory (its
final report and timeline.txt; the model parsed the board file, and its
report carries every domain's on-power), then
  - prints joules per domain against the same run with every domain held
    on (the board's on-power for the whole run, plus the same peripheral
    activity), and the share saved;
  - draws every domain's and core's state over the run with gnuplot, as
    SVG and PNG, under OUTDIR.

usage: demo-report.py MODEL_DIR OUTDIR
"""
import os
import subprocess
import sys


def read_report(path):
    """The model's report: run time, and per domain (in board order) the
    energy in uJ and the power drawn while on, in uW."""
    time_ns, energy, power, order = 0, {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "time_ns":
                time_ns = int(w[1])
            elif w[0] == "energy" and len(w) >= 4 and w[1] != "total":
                energy[w[1]] = int(w[2])
                order.append(w[1])
                for kv in w[4:]:
                    if kv.startswith("on_power_uw="):
                        power[w[1]] = int(kv.split("=", 1)[1])
                if w[1] not in power:
                    sys.exit("demo-report: %s: no on_power_uw for domain %s"
                             % (path, w[1]))
    return time_ns, energy, power, order


def read_timeline(path):
    """[(t_ns, kind, name, state, power_uw)] in time order."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            w = line.split()
            if len(w) >= 5:
                rows.append((int(w[0]), w[1], w[2], w[3], int(w[4])))
    return rows


def base_energy(rows, end_ns):
    """Each domain's energy from its state power alone (no peripheral
    activity), integrated over the timeline, in microjoules."""
    e, last = {}, {}
    for t, kind, name, _, pw in rows:
        if kind != "domain":
            continue
        if name in last:
            t0, p0 = last[name]
            e[name] = e.get(name, 0.0) + p0 * (t - t0) / 1e9
        last[name] = (t, pw)
    for name, (t0, p0) in last.items():
        e[name] = e.get(name, 0.0) + p0 * (end_ns - t0) / 1e9
    return e


LEVEL = {"off": 0.0, "reset": 0.0, "halted": 0.0, "going-on": 0.5,
         "going-off": 0.5, "on": 1.0, "running": 1.0, "crashed": 0.25}


def plot(rows, end_ns, outdir):
    tracks = []
    for _, kind, name, _, _ in rows:
        if kind in ("domain", "core") and (kind, name) not in tracks:
            tracks.append((kind, name))
    if not tracks:
        return []
    datafile = os.path.join(outdir, "timeline.dat")
    with open(datafile, "w") as f:
        for i, (kind, name) in enumerate(tracks):
            f.write("# %s %s\n" % (kind, name))
            last = None
            for t, k, n, state, _ in rows:
                if (k, n) != (kind, name):
                    continue
                lvl = i * 1.5 + 0.9 * LEVEL.get(state, 0.5)
                if last is not None:
                    f.write("%.6f %.3f\n" % (t / 1e9, last))
                f.write("%.6f %.3f\n" % (t / 1e9, lvl))
                last = lvl
            if last is not None:
                f.write("%.6f %.3f\n" % (end_ns / 1e9, last))
            f.write("\n\n")
    ytics = ", ".join('"%s %s" %.2f' % (k, n, i * 1.5 + 0.45)
                      for i, (k, n) in enumerate(tracks))
    outputs = []
    for term, ext in (("svg size 1100,%d dynamic" % (120 + 45 * len(tracks)), "svg"),
                      ("pngcairo size 1100,%d" % (120 + 45 * len(tracks)), "png")):
        out = os.path.join(outdir, "timeline." + ext)
        script = "\n".join([
            "set terminal %s noenhanced" % term,
            "set output '%s'" % out,
            "set title 'ampsoc demo: power state of every domain and core (high = on)'",
            "set xlabel 'time since the model started (s)'",
            "set ytics (%s)" % ytics,
            "set yrange [-0.3:%.2f]" % (len(tracks) * 1.5),
            "set grid xtics",
            "unset key",
            "plot for [i=0:%d] '%s' index i with lines lw 2" % (len(tracks) - 1, datafile),
        ])
        p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if p.returncode == 0 and os.path.getsize(out) > 0:
            outputs.append(out)
        else:
            print("demo-report: gnuplot (%s) failed: %s" % (ext, p.stderr.strip()[:200]))
    return outputs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    mdir, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    time_ns, energy, power, order = read_report(os.path.join(mdir, "report"))
    rows = read_timeline(os.path.join(mdir, "timeline.txt"))
    base = base_energy(rows, time_ns)
    secs = time_ns / 1e9
    print("%-12s %14s %16s %8s" % ("domain", "this run (J)", "all held on (J)", "saved"))
    tot, tot_on = 0.0, 0.0
    for d in order:
        used = energy[d] / 1e6
        # Held on: the board's on-power for the whole run, plus the same
        # peripheral activity this run had (what it used above its states).
        active = max(used - base.get(d, 0.0) / 1e6, 0.0)
        held = power[d] * secs / 1e6 + active
        tot += used
        tot_on += held
        print("%-12s %14.3f %16.3f %7.1f%%" % (d, used, held,
                                               100 * (1 - used / held) if held else 0))
    print("%-12s %14.3f %16.3f %7.1f%%" % ("total", tot, tot_on,
                                           100 * (1 - tot / tot_on) if tot_on else 0))
    print("over %.1f s of model time" % secs)
    with open(os.path.join(outdir, "energy.txt"), "w") as f:
        f.write("total_j %.6f\nall_on_j %.6f\nseconds %.3f\n" % (tot, tot_on, secs))
    outs = plot(rows, time_ns, outdir)
    for o in outs:
        print("timeline picture: %s" % o)
    return 0 if outs else 1


if __name__ == "__main__":
    sys.exit(main())

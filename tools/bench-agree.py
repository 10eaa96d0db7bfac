#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Do several make bench runs agree? Reads the results.json of each run
(build/bench/results.json, written by tests/qemu/run.py) and prints, for
every ratio of every figure (its median against its floor on each stack,
and mainline against ampsoc), the value of each run and their spread:
(largest - smallest) / smallest. Exits 1 when a spread exceeds the limit
(15 % unless --limit says) or a ratio is missing from a run, 2 on bad
input. docs/benchmarks.md, "Do three runs agree?"."""
import argparse
import json
import math
import sys


def ratios(path):
    """{(figure, ratio name): value} of one run."""
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for fig in doc.get("figures", []):
        for k, v in fig.get("ratios", {}).items():
            if isinstance(v, (int, float)) and math.isfinite(v) and v > 0:
                out[(fig["name"], k)] = float(v)
    return out


def agree(runs, limit):
    """Rows (figure, ratio, values, spread or None, ok) over the runs'
    ratio maps, and whether all of them agree."""
    keys = []
    for r in runs:
        for k in r:
            if k not in keys:
                keys.append(k)
    rows = []
    good = True
    for k in keys:
        vals = [r.get(k) for r in runs]
        if None in vals:
            rows.append((k[0], k[1], vals, None, False))
            good = False
            continue
        spread = (max(vals) - min(vals)) / min(vals)
        ok = spread <= limit
        good = good and ok
        rows.append((k[0], k[1], vals, spread, ok))
    return rows, good


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=float, default=0.15,
                    help="largest spread allowed, a fraction (default 0.15)")
    ap.add_argument("results", nargs="+", help="results.json of each run")
    a = ap.parse_args(argv)
    if len(a.results) < 2:
        print("bench-agree: give at least two runs", file=sys.stderr)
        return 2
    try:
        runs = [ratios(p) for p in a.results]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("bench-agree: %s" % e, file=sys.stderr)
        return 2
    rows, good = agree(runs, a.limit)
    if not rows:
        print("bench-agree: no ratio in these runs", file=sys.stderr)
        return 2
    print("%-36s %-18s %s %8s" % ("figure", "ratio", " ".join(
        "%9s" % ("run%d" % (i + 1)) for i in range(len(runs))), "spread"))
    for fig, name, vals, spread, ok in rows:
        print("%-36s %-18s %s %8s%s" % (
            fig[:36], name, " ".join("%9.4f" % v if v is not None else "%9s" % "missing"
                                     for v in vals),
            "%.1f%%" % (100 * spread) if spread is not None else "-",
            "" if ok else "  DISAGREE"))
    bad = sum(not r[4] for r in rows)
    print("%d ratios, %d disagree (limit %.0f%%)" % (len(rows), bad, 100 * a.limit))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host unit test of the benchmark arithmetic (docs/benchmarks.md): three
recorded runs whose ratios spread 14 % agree and 16 % do not
(tools/bench-agree.py); the runner's min/median/p90 of a figure's rounds,
its ratio of medians, and a floor slower than its figure reported as an
error (tests/qemu/run.py)."""
import importlib.util
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.join(here, "..", "..")


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


run = load("run", os.path.join(top, "tests", "qemu", "run.py"))
tool = os.path.join(top, "tools", "bench-agree.py")
rec = os.path.join(here, "bench_agree")
tests = []


def t(name):
    def reg(fn):
        tests.append((name, fn))
        return fn
    return reg


def agree(*files):
    p = subprocess.run([sys.executable, tool] + [os.path.join(rec, f) for f in files],
                       capture_output=True, text=True)
    for line in (p.stdout + p.stderr).splitlines():
        print("# " + line)
    return p.returncode


@t("agree_at_14_percent")
def _():
    return agree("run1.json", "run2.json", "run3-14.json") == 0


@t("disagree_at_16_percent")
def _():
    return agree("run1.json", "run2.json", "run3-16.json") == 1


@t("one_run_is_no_comparison")
def _():
    return agree("run1.json") == 2


@t("stats_min_median_p90")
def _():
    s = run.bench_stats(run.bench_values("5,1,4,2,3,nan,6,7,8,9,10"))
    return (s["rounds"], s["min"], s["median"], s["p90"]) == (10, 1, 5.5, 9)


def merged(value, floor, better="lower", kind="floor", stack="ampsoc"):
    return run.bench_merge([{"name": "x", "value": value, "unit": "us",
                             "baseline": "f", "baseline_value": floor,
                             "better": better, "kind": kind, "stack": stack}])[0]


@t("ratio_of_medians")
def _():
    f = merged("10,12,100", "5,6,7")
    return abs(f["ratios"]["ampsoc/floor"] - 2.0) < 1e-9 and not f["errors"]


@t("floor_slower_than_figure_is_an_error")
def _():
    return bool(merged("10,10,10", "11,12,13")["errors"])


@t("ceiling_below_throughput_is_an_error")
def _():
    return bool(merged("100,100", "90,95", better="higher")["errors"])


@t("floor_noise_is_not_an_error")
def _():
    # the figure's median past the floor's median, not past its best round
    return (not merged("10,10,10", "9,11,12")["errors"] and
            not merged("100,100", "90,105", better="higher")["errors"])


@t("reference_baseline_may_be_beaten")
def _():
    return not merged("10", "20", kind="ref")["errors"]


@t("stacks_side_by_side")
def _():
    figs = run.bench_merge([
        {"name": "e", "value": "10,10", "baseline": "db", "baseline_value": "8,8",
         "kind": "floor", "stack": "ampsoc"},
        {"name": "e", "value": "15,15", "baseline": "db", "baseline_value": "8,9",
         "kind": "floor", "stack": "mainline"},
        {"name": "k", "na": "no client", "stack": "mainline"}])
    e, k = figs
    return (abs(e["ratios"]["mainline/ampsoc"] - 1.5) < 1e-9 and not e["errors"]
            and e["ampsoc_ahead"] and k["stacks"]["mainline"]["na"] == "no client")


@t("mainline_ahead_on_throughput")
def _():
    figs = run.bench_merge([
        {"name": "t", "value": "100", "better": "higher", "stack": "ampsoc"},
        {"name": "t", "value": "120", "better": "higher", "stack": "mainline"}])
    return figs[0]["ampsoc_ahead"] is False


@t("na_line_keeps_its_reason")
def _():
    b = run.parse_bench_line("# BENCH name=k unit=us na=no kernel client: why")
    return b == {"name": "k", "unit": "us", "na": "no kernel client: why"}


print("KTAP version 1")
print("1..%d" % len(tests))
bad = 0
for i, (name, fn) in enumerate(tests, 1):
    ok = fn()
    bad += not ok
    print("%s %d %s" % ("ok" if ok else "not ok", i, name))
sys.exit(1 if bad else 0)

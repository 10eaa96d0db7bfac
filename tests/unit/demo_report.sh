#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the demo's energy report and picture (tools/demo-report.py):
# on a board that writes every numeric key in 0x hex (the board format
# allows it, docs/board-file.md), the model's report carries each domain's
# on-power, its "mark" command puts labels on its timeline, and
# demo-report.py renders the report from the model's output alone. Then a
# recorded make demo run (tests/unit/demo_report/: the model's report and
# timeline.txt) is drawn and the picture checked against what
# docs/demo.md promises: every step's label, the legend's energies equal
# to the model's, the always-on domain drawn on for the whole run, the
# suspend shaded, the Cortex-M4's domain drawing power.
# Needs the model built (make host). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
model=$root/build/soc-model/ampsoc-socmodel
ctl=$root/build/soc-model/ampsoc-socctl
echo "KTAP version 1"
echo "1..11"
fail=0
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

result() { # result N NAME OK [DIAG-FILE]
	if [ "$3" = 1 ]; then
		echo "ok $1 $2"
	else
		[ -n "${4:-}" ] && [ -f "$4" ] && sed -n '1,15s/^/# /p' "$4"
		echo "not ok $1 $2"
		fail=1
	fi
}

# Every numeric key of every section, in hex.
cat >"$tmp/hex.ini" <<'INI'
[soc]
name = hexboard
shm_size = 0x8000000
[domain aon]
always_on = yes
on_latency_us = 0xa
off_latency_us = 0xa
on_power_uw = 0x5dc
off_power_uw = 0x0
[domain per]
parent = aon
on_latency_us = 0x32
off_latency_us = 0x14
on_power_uw = 0x2ee0
off_power_uw = 0x12c
[domain cpu]
parent = aon
on_latency_us = 0xc8
off_latency_us = 0x64
on_power_uw = 0x15f90
off_power_uw = 0x1f4
[clock osc]
rate = 0x249f000
[clock fck]
parent = osc
rate = 0x5b8d800
gate = yes
set_rate = yes
min_rate = 0x3e8
max_rate = 0x5b8d800
[periph dma0]
type = dma
domain = per
clock = fck
active_power_uw = 0x1388
data_size = 0x40000
bandwidth = 0x64
[core ipu]
domain = cpu
mem = code:0x4000000:0x100000:0x100000:exec
rpmsg_static = svc:0x400:0x401
ddr = 0x80000000:0x40000000
[mbox tx]
from = linux
to = ipu
[mbox rx]
from = ipu
to = linux
INI

"$model" --check "$tmp/hex.ini" >"$tmp/check.log" 2>&1
result 1 hex_board_accepted "$([ $? = 0 ] && echo 1)" "$tmp/check.log"

# A model with no guest: started, given two marks, a label one byte too
# long and one with a tab (both refused), told to quit, its report written
# at exit.
mkdir -p "$tmp/model"
long=$(printf '%032d' 0)
"$model" --board "$tmp/hex.ini" --socket "$tmp/s" --report "$tmp/model/report" \
	--log-dir "$tmp/model" --daemon --pidfile "$tmp/pid" >"$tmp/model.log" 2>&1 &&
	pid=$(cat "$tmp/pid") &&
	"$ctl" "$tmp/s.ctl" mark first step >>"$tmp/model.log" 2>&1 &&
	! "$ctl" "$tmp/s.ctl" mark "$long" >>"$tmp/model.log" 2>&1 &&
	! "$ctl" "$tmp/s.ctl" mark "$(printf 'tab\there')" >>"$tmp/model.log" 2>&1 &&
	"$ctl" "$tmp/s.ctl" mark second >>"$tmp/model.log" 2>&1 &&
	"$ctl" "$tmp/s.ctl" quit >>"$tmp/model.log" 2>&1 &&
	tail --pid="$pid" -f /dev/null
pid=
# on_power_uw as the file gives it (0x5dc, 0x2ee0, 0x15f90), in decimal.
grep '^energy ' "$tmp/model/report" 2>/dev/null | grep -v ' total ' |
	awk '{ print $2, $5 }' >"$tmp/power"
printf 'aon on_power_uw=1500\nper on_power_uw=12000\ncpu on_power_uw=90000\n' \
	>"$tmp/power.want"
cmp -s "$tmp/power" "$tmp/power.want"
result 2 report_carries_on_power "$([ $? = 0 ] && echo 1)" "$tmp/model.log"

"$root/tools/demo-report.py" "$tmp/model" "$tmp/out" >"$tmp/report.log" 2>&1
rc=$?
# The held-on baseline comes from the on-powers: it exceeds this run's
# energy, in which per and cpu stayed off.
grep -q '^total ' "$tmp/report.log" &&
	awk '/^total_j/ { t = $2 } /^all_on_j/ { j = $2 }
	     END { exit !(j > t && t > 0) }' "$tmp/out/energy.txt"
result 3 energy_report_rendered "$([ $? = 0 ] && echo 1)" "$tmp/report.log"

# The marks, in order, on the model's clock; the refused one not there.
awk '$2 == "mark" { print $3 }' "$tmp/model/timeline.txt" >"$tmp/marks"
printf 'first_step\nsecond\n' >"$tmp/marks.want"
cmp -s "$tmp/marks" "$tmp/marks.want" &&
	awk '$2 == "mark" { if ($1 < t) exit 1; t = $1 }' "$tmp/model/timeline.txt"
result 4 model_marks_timeline "$([ $? = 0 ] && echo 1)" "$tmp/model/timeline.txt"

if ! command -v gnuplot >/dev/null; then
	for n in 5 6 7 8 9 10 11; do
		echo "ok $n picture # SKIP no gnuplot (make demo installs it)"
	done
	exit $fail
fi
result 5 timeline_drawn "$([ $rc = 0 ] && [ -s "$tmp/out/timeline.svg" ] &&
	[ -s "$tmp/out/timeline.png" ] && grep -q '>first step<' "$tmp/out/timeline.svg" &&
	echo 1)" "$tmp/report.log"

# The recorded demo run.
rec=$root/tests/unit/demo_report
"$root/tools/demo-report.py" "$rec" "$tmp/demo" >"$tmp/demo.log" 2>&1
rc=$?
svg=$tmp/demo/timeline.svg
result 6 demo_picture_drawn "$([ $rc = 0 ] && [ -s "$svg" ] &&
	[ -s "$tmp/demo/timeline.png" ] && echo 1)" "$tmp/demo.log"

# SVG text, one string a line (gnuplot escapes nothing in these labels).
grep -o '>[^<>]*<' "$svg" 2>/dev/null | sed 's/^>//; s/<$//' >"$tmp/text"
ok=1
for label in boot "runtime PM" "remote boot" echo "resource manager" \
	"crash and recovery" "Cortex-M4 echo" suspend; do
	grep -qxF "$label" "$tmp/text" || { echo "# no step label '$label'"; ok=0; }
done
result 7 demo_step_labels "$ok"

# The key: each domain's energy and the total, the model's own figures.
awk '$1 == "energy" && $2 == "total" { printf "energy, total %.3f J\n", $3 / 1e6; next }
     $1 == "energy" { printf "%s %.3f J\n", $2, $3 / 1e6 }' "$rec/report" >"$tmp/key.want"
ok=1
while read -r line; do
	grep -qxF "$line" "$tmp/text" || { echo "# key lacks '$line'"; ok=0; }
done <"$tmp/key.want"
[ -s "$tmp/key.want" ] || ok=0
result 8 demo_key_energy_is_models "$ok"

# The always-on domain (wkup, always_on in omap4.ini): its bar is at the
# on level from the model's start to its end, and the picture plots it.
end=$(awk '$1 == "time_ns" { printf "%.6f", $2 / 1e9 }' "$rec/report")
awk -v end="$end" '/^# domain wkup$/ { on = 1; next } /^#/ { on = 0 }
	on && NF == 3 { n++; if ($3 != 1) bad = 1; if (n == 1) first = $1; last = $1 }
	END { exit !(n >= 2 && !bad && first == 0 && last == end) }' \
	"$tmp/demo/timeline-state.dat" 2>/dev/null &&
	idx=$(awk '/^# / { n++ } /^# domain wkup$/ { print n - 1 }' "$tmp/demo/timeline-state.dat") &&
	grep -q "timeline-state.dat' index $idx " "$tmp/demo/timeline.gp"
result 9 demo_always_on_drawn_on "$([ $? = 0 ] && echo 1)"

# The suspend: shaded from the "sleep" mark to the "wake" mark.
want=$(awk '$2 == "mark" && $3 == "sleep" { s = $1 } $2 == "mark" && $3 == "wake" { w = $1 }
	END { if (s && w) printf "suspended %.6f %.6f", s / 1e9, w / 1e9 }' "$rec/timeline.txt")
[ -n "$want" ] && grep -qxF "$want" "$tmp/demo/marks.txt" 2>/dev/null &&
	grep -qxF suspended "$tmp/text" && grep -q 'set object 1 rect' "$tmp/demo/timeline.gp"
result 10 demo_suspend_shaded "$([ $? = 0 ] && echo 1)"

# The Cortex-M4 ran: its domain's power is in the stack (column m4 above
# the one before it, at some time), and its energy is above its off power's.
awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "+m4") c = i; next }
	c && $(c) - $(c - 1) >= 30 { found = 1 } END { exit !found }' \
	"$tmp/demo/timeline-power.dat" 2>/dev/null
result 11 demo_m4_power_drawn "$([ $? = 0 ] && echo 1)"
exit $fail

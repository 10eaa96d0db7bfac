#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the demo's energy report (tools/demo-report.py): on a board
# that writes every numeric key in 0x hex (the board format allows it,
# docs/board-file.md), the model's report carries each domain's on-power
# and demo-report.py renders the report from the model's output alone.
# Needs the model built (make host). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
model=$root/build/soc-model/ampsoc-socmodel
ctl=$root/build/soc-model/ampsoc-socctl
echo "KTAP version 1"
echo "1..4"
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

# A model with no guest: started, told to quit, its report written at exit.
mkdir -p "$tmp/model"
"$model" --board "$tmp/hex.ini" --socket "$tmp/s" --report "$tmp/model/report" \
	--log-dir "$tmp/model" --daemon --pidfile "$tmp/pid" >"$tmp/model.log" 2>&1 &&
	pid=$(cat "$tmp/pid") && "$ctl" "$tmp/s.ctl" quit >>"$tmp/model.log" 2>&1 &&
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

if command -v gnuplot >/dev/null; then
	result 4 timeline_drawn "$([ $rc = 0 ] && [ -s "$tmp/out/timeline.svg" ] && echo 1)" \
		"$tmp/report.log"
else
	echo "ok 4 timeline_drawn # SKIP no gnuplot (make demo installs it)"
fi
exit $fail

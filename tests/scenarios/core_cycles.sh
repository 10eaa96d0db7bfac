#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: 100 boot/stop cycles of a real remote core (ampsoc-hello on
#   ipu, a host process forked and killed by the SoC model each time) leak
#   nothing: slab objects and vmalloc areas are unchanged, and the model
#   counted exactly one boot and one power-on per cycle.
# STRATEGY: warm up with 20 cycles; count slab objects (caches shrunk),
#   vmalloc areas, the model's boot count and the domain's on count; run
#   100 start/stop cycles through sysfs; count again. A leak of one object
#   per cycle would show as 100; the bound is 50.
# services: socmodel
# load-all: 1
# timeout: 400
. /ampsoc/lib.sh


VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)

# core_find NAME: set R (sysfs remoteproc), D (its debugfs dir), PDEV (the
# vsoc-rproc platform device) and C (this driver's debugfs dir).
core_find() {
	R=
	wait_for 10 sh -c "grep -lx $1 /sys/class/remoteproc/remoteproc*/name" || return 1
	for _d in /sys/class/remoteproc/remoteproc*; do
		grep -qx "$1" "$_d/name" && R=$_d
	done
	[ -n "$R" ] || return 1
	D=/sys/kernel/debug/remoteproc/$(basename "$R")
	PDEV=$(readlink -f "$R/device")
	C=/sys/kernel/debug/vsoc_rproc/$(basename "$PDEV")
	[ -d "$C" ]
}

# dom_state NAME: the domain's state as the SoC model reports it.
dom_state() {
	awk -v d="$1" '$1 == "domain" && $2 == d { print $4 }' "$VSOC/telemetry"
}

# tele_field KEY: a global telemetry value.
tele_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$VSOC/telemetry"
}

# core_field KEY: a field of the core's control block (written by the model).
core_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$C/ctl"
}

# The model's view: off (0) or held in reset (1).
core_not_running() {
	_s=$(core_field state)
	[ "$_s" = 0 ] || [ "$_s" = 1 ]
}

# slab: active slab objects, after flushing per-CPU slabs.
slab() {
	echo 2 >/proc/sys/vm/drop_caches
	for _c in /sys/kernel/slab/*/shrink; do echo 1 >"$_c"; done 2>/dev/null
	awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo
}

core_find ipu || bail "no remote processor for core ipu"
is() {
	read -r _v <"$1" && [ "$_v" = "$2" ]
}
cycle() {
	echo start >"$R/state" && is "$R/state" running &&
		echo stop >"$R/state" && is "$R/state" offline
}
vmap() { grep -vc unpurged /proc/vmallocinfo; }
dom_on() {
	awk '$1 == "domain" && $2 == "ipu" { print $6 }' "$VSOC/telemetry"
}

i=0
while [ $i -lt 20 ]; do cycle || break; i=$((i + 1)); done
check warmup_cycles test $i = 20
s0=$(slab)
v0=$(vmap)
b0=$(core_field boot_count)
o0=$(dom_on)
i=0
while [ $i -lt 100 ]; do cycle || break; i=$((i + 1)); done
check hundred_cycles test $i = 100
s1=$(slab)
v1=$(vmap)
ktap_diag "active slab objects: $s0 -> $s1; vmalloc areas: $v0 -> $v1"
check slab_no_leak test $((s1 - s0)) -lt 50
check vmalloc_no_leak test "$v1" = "$v0"
check_eq hundred_boots_in_model $((b0 + 100)) core_field boot_count
check_eq hundred_power_ons_in_model $((o0 + 100)) dom_on
check_eq domain_off_at_end off dom_state ipu
check_eq no_violations 0 tele_field violations

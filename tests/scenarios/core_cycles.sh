#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: 100 boot/stop cycles of a real remote core (ampsoc-hello on
#   $CORE, a host process forked and killed by the SoC model each time)
#   leak nothing: slab objects grow by less than one per cycle, vmalloc
#   areas (thread stacks aside) by fewer than 10, and the model counted
#   exactly one boot and one power-on per cycle.
# STRATEGY: warm up with 20 cycles; count slab objects (caches shrunk),
#   vmalloc areas, the model's boot count and the domain's on count; run
#   100 start/stop cycles through sysfs; count again. A leak of one object
#   per cycle would show as 100; the bound is 50.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 400
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
is() {
	read -r _v <"$1" && [ "$_v" = "$2" ]
}
cycle() {
	echo start >"$R/state" && is "$R/state" running &&
		echo stop >"$R/state" && is "$R/state" offline
}
dom_on() {
	awk -v d="$CORE" '$1 == "domain" && $2 == d { print $6 }' "$VSOC/telemetry"
}

i=0
while [ $i -lt 20 ]; do cycle || break; i=$((i + 1)); done
check warmup_cycles test $i = 20
s0=$(slab)
v0=$(vmap_areas)
b0=$(core_field boot_count)
o0=$(dom_on)
i=0
while [ $i -lt 100 ]; do cycle || break; i=$((i + 1)); done
check hundred_cycles test $i = 100
s1=$(slab)
v1=$(vmap_areas)
ktap_diag "active slab objects: $s0 -> $s1; vmalloc areas: $v0 -> $v1"
check slab_no_leak test $((s1 - s0)) -lt 50
check vmalloc_no_leak test $((v1 - v0)) -lt 10
check_eq hundred_boots_in_model $((b0 + 100)) core_field boot_count
check_eq hundred_power_ons_in_model $((o0 + 100)) dom_on
check_eq domain_off_at_end off dom_state $CORE
check_eq no_violations 0 tele_field violations
ktap_done

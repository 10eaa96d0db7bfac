#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: 100 boot/stop cycles of a remote processor leak no memory:
#   slab objects grow by less than one per cycle, vmalloc areas (thread
#   stacks aside) by fewer than 10, and the processor's runtime PM status
#   follows each cycle.
# STRATEGY: load the fake driver, warm up with 50 cycles (first-use caches),
#   record the total of active slab objects and the vmalloc area count,
#   run 100 start/stop cycles through sysfs, record again. Every slab cache
#   is shrunk before counting so per-CPU slabs do not blur the count; a
#   leak of one object per cycle would show as 100, the bound is 50.
# timeout: 300
. /ampsoc/lib.sh

check load_fake modprobe ampsoc_rproc_fake devices=1
r=
for d in /sys/class/remoteproc/remoteproc*; do
	grep -qx ampsoc-rproc-fake.0 "$d/name" && r=$d
done
[ -n "$r" ] || bail "no fake remote processor"
pdev=$(readlink -f "$r/device")

# Shell builtins only: forks would allocate (and lazily free) memory.
is() {
	read -r _v <"$1" && [ "$_v" = "$2" ]
}
cycle() {
	echo start >"$r/state" && is "$r/state" running &&
		is "$pdev/power/runtime_status" active &&
		echo stop >"$r/state" && is "$r/state" offline &&
		is "$pdev/power/runtime_status" suspended
}
# Lazily freed areas show as "unpurged" until the next purge.

i=0
while [ $i -lt 50 ]; do cycle || break; i=$((i + 1)); done
check warmup_cycles test $i = 50
s0=$(slab)
v0=$(vmap_areas)
slab_caches /tmp/slab0
i=0
while [ $i -lt 100 ]; do cycle || break; i=$((i + 1)); done
check hundred_cycles test $i = 100
s1=$(slab)
v1=$(vmap_areas)
slab_caches /tmp/slab1
# Name the caches that changed, for the log.
slab_changes /tmp/slab0 /tmp/slab1
ktap_diag "active slab objects: $s0 -> $s1; vmalloc areas: $v0 -> $v1"
check slab_no_leak test $((s1 - s0)) -lt 50
check vmalloc_no_leak test $((v1 - v0)) -lt 10
check no_devcoredump sh -c '! ls /sys/class/devcoredump 2>/dev/null | grep -q devcd'
check unload rmmod ampsoc_rproc_fake
ktap_done

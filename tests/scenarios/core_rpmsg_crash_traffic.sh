#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the remote core crashes (on its own, a fault) while Linux
#   has writers blocked on a full ring and readers blocked waiting: every
#   blocked write and read returns an error (EPIPE, not the 15 s send
#   timeout), the channels disappear and come back, checked traffic works
#   on the new channels, and repeated crashes leak nothing.
# STRATEGY: boot ampsoc-rpmsg-check on $CORE. Each cycle: rpmsg_check crash
#   runs checked traffic on 8 endpoints, orders "crash 1500" (the
#   firmware stops serving Linux, then faults 1.5 s later), starts a
#   blocking writer and a blocking reader per endpoint; all 16 threads must
#   return an error within 12 s, the writers having filled the ring, and
#   the old endpoints must then fail with EPIPE. The model must count the
#   crash and a new boot, a new ampsoc-check channel (new sysfs node) must
#   appear, and checked traffic must pass on it. One warm-up cycle, then
#   active slab objects are counted (caches shrunk) around 3 more cycles;
#   the transport's debugfs must list one device with nothing rejected.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
check_eq recovery_enabled enabled cat "$R/recovery"
echo disabled >"$R/coredump"
fw rpmsg-check >"$R/firmware"
chan=
check_chan() {
	chan=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-check.* 2>/dev/null | head -n 1)
	[ -n "$chan" ]
}
ino() { ls -di "$chan/" | awk '{ print $1 }'; }
check start sh -c "echo start >$R/state"
check channel wait_for 20 check_chan || bail "no ampsoc-check channel"
new_chan() { check_chan && [ "$(ino)" != "$old" ]; }

cycle() {
	old=$(ino)
	c0=$(core_field crash_count)
	b0=$(core_field boot_count)
	ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	guest_test rpmsg_check crash "$ctrl" 8
	check "crash$1_counted" wait_for 10 sh -c "[ \$(awk '\$1 == \"crash_count\" { print \$2 }' $C/ctl) -gt $c0 ]"
	check "crash$1_channel_back" wait_for 20 new_chan
	check "crash$1_rebooted" test "$(core_field boot_count)" -gt "$b0"
	check "crash$1_running" wait_for 10 grep -qx running "$R/state"
	ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	guest_test rpmsg_check integrity "$ctrl" 4 2000
}

cycle 0
s0=$(slab)
slab_caches /tmp/slab0
cycle 1
cycle 2
cycle 3
s1=$(slab)
slab_caches /tmp/slab1
slab_changes /tmp/slab0 /tmp/slab1
ktap_diag "active slab objects around 3 crash cycles: $s0 -> $s1"
check slab_no_leak test $((s1 - s0)) -lt 100
check_eq one_transport_device 1 sh -c 'ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | wc -l'
st=$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats
ktap_diag_file "$st"
check_eq transport_rejected_nothing 0 awk '$1 ~ /^bad_|unknown_dst|ns_rejected/ { s += $2 } END { print s + 0 }' "$st"
check stop sh -c "echo stop >$R/state"
check_eq domain_off_after_stop off dom_state $CORE
check_eq no_violations 0 tele_field violations
ktap_done

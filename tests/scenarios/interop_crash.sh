#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: crash and recovery of the SDK's firmware under Linux's own
#   remoteproc and rpmsg (the peer stack): the core faults on its own, and
#   mainline reports, recovers and reboots it through ampsoc_vsoc_rproc's
#   peer build; channels come back in Linux's DRAM and checked traffic
#   runs again; a crash reported through mainline's debugfs "crash"
#   recovers the same way. No writer is blocked at the crash: mainline's
#   rpmsg_char holds the endpoint's lock while a write waits (up to 15 s
#   per try) for a tx buffer, and the crash's teardown waits for that lock
#   (seen here as a hung task; ampsoc fails such writers at once,
#   core_rpmsg_crash_traffic).
# STRATEGY: on the mainline stack, recovery is enabled by default; boot
#   ampsoc-rpmsg-check-nobuf.elf on $CORE. Twice: 2000 checked messages,
#   then "crash 100" on the firmware's control channel (it faults 100 ms
#   later); the model's crash_count moves, the driver reports an MMU
#   fault, a new ampsoc-check channel appears, the core booted again and
#   is running, and 2000 checked messages go through. Then "2" into
#   debugfs crash: running again with a new channel and checked traffic.
#   Stop: the domain is off.
# services: socmodel
# stack: mainline
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 420
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

# At least $1 crashes reported as MMU faults: Linux reports a crash after
# the model counts it, so wait for the line.
mmufaults() { [ "$(dmesg | grep -cF "crash detected in $CORE: type mmufault")" -ge "$1" ]; }

core_find $CORE || bail "no remote processor for core $CORE"
check_eq recovery_enabled enabled cat "$R/recovery"
fw rpmsg-check-nobuf >"$R/firmware"
chan=
check_chan() {
	chan=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-check.* 2>/dev/null | head -n 1)
	[ -n "$chan" ]
}
ino() { ls -di "$chan/" | awk '{ print $1 }'; }
new_chan() { check_chan && [ "$(ino)" != "$old" ]; }
check start sh -c "echo start >$R/state"
check channel wait_for 20 check_chan || bail "no ampsoc-check channel"
check firmware_uses_dram trace_has "buffers by bus address in Linux's DRAM"

ctl_call() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(($(cat "$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-check-ctl.* | head -n 1)/dst")))
	ampsocctl ept "$_ctrl" interop-ctl 3200 "$_dst" call "$1"
}

cycle() {
	ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	guest_test rpmsg_check integrity "$ctrl" 4 2000
	old=$(ino)
	c0=$(core_field crash_count)
	b0=$(core_field boot_count)
	ctl_call "crash 100" >/dev/null
	check "crash$1_counted" wait_for 10 sh -c "[ \$(awk '\$1 == \"crash_count\" { print \$2 }' $C/ctl) -gt $c0 ]"
	check "crash$1_mmufault" wait_for 10 mmufaults "$1"
	check "crash$1_channel_back" wait_for 20 new_chan
	check "crash$1_rebooted" test "$(core_field boot_count)" -gt "$b0"
	check "crash$1_running" wait_for 10 grep -qx running "$R/state"
}
cycle 1
cycle 2

ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check integrity "$ctrl" 4 2000
old=$(ino)
b0=$(core_field boot_count)
check debugfs_crash sh -c "echo 2 >$D/crash"
check debugfs_crash_channel_back wait_for 20 new_chan
check debugfs_crash_rebooted test "$(core_field boot_count)" -gt "$b0"
check debugfs_crash_running wait_for 10 grep -qx running "$R/state"
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check integrity "$ctrl" 4 2000

check stop sh -c "echo stop >$R/state"
check_eq domain_off_after_stop off dom_state $CORE
check_eq no_violations 0 tele_field violations
ktap_done

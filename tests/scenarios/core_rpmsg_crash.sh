#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A crash of a real remote core in the middle of rpmsg traffic
#   tears the channels down and brings them back: the userspace sender
#   fails with an error instead of hanging, the channels are recreated,
#   and echo works again.
# STRATEGY: boot ampsoc-rpmsg-echo on ipu; start a long echo stream
#   through /dev/rpmsgN in the background; report a crash through
#   remoteproc's debugfs "crash" (mainline's test hook: the core is halted
#   in the model, reloaded and restarted); the stream must exit non-zero
#   (wait for it: it must not hang); the echo channel must be recreated
#   (a new sysfs node) and echo again; the model must count a second
#   boot and no violation.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
echo=
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
echo $(fw rpmsg-echo) >"$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel wait_for 20 echo_chan || bail "no echo channel"
ino() { ls -di "$echo/" | awk '{ print $1 }'; }
old=$(ino)
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
dst=$(($(cat "$echo/dst")))
b0=$(core_field boot_count)

ampsocctl ept "$ctrl" stream 2000 "$dst" ping 1000000 64 >/tmp/stream 2>&1 &
pid=$!
check traffic_flowing wait_for 10 sh -c "ls /dev/rpmsg* | grep -q 'rpmsg[0-9]'"
echo 2 >"$D/crash"
wait $pid
rc=$?
ktap_diag "stream: $(cat /tmp/stream)"
check sender_got_error test "$rc" != 0
# The virtio index may be reused: a recreated channel has a new sysfs node.
new_chan() { echo_chan && [ "$(ino)" != "$old" ]; }
check channels_come_back wait_for 20 new_chan
ktap_diag "channel node $old -> $(ino) ($(basename "$echo"))"
check running_after_recovery wait_for 10 grep -qx running "$R/state"
check_eq rebooted_in_model $((b0 + 1)) core_field boot_count
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
dst=$(($(cat "$echo/dst")))
check echo_after_recovery ampsocctl ept "$ctrl" again 2001 "$dst" ping 100 16
check stop sh -c "echo stop >$R/state"
check_eq domain_off_after_stop off dom_state $CORE
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg on a real remote core: ampsoc-rpmsg-echo on ipu gets
#   its vdev as a virtio device with vrings and buffers in BAR2, announces
#   its services, and echoes messages sent from userspace through
#   /dev/rpmsg*; stopping the core removes the channels and a restart
#   brings them back.
# STRATEGY: load ampsoc-rpmsg-echo, start; wait for the ampsoc-echo and
#   rpmsg-raw channels on /sys/bus/rpmsg; take the echo service's address
#   from its device name; create an endpoint through /dev/rpmsg_ctrlN and
#   run 200 checked echoes of 16 and 496 bytes with ampsocctl (Linux's
#   kicks must have gone out as words on the ipu-tx mailbox); the
#   firmware's trace must say it uses buffers by physical address (the
#   vdev0buffer carveout pa Linux wrote back). Stop: the channels go
#   away; start: they come back and echo again; stop.
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
no_chan() { ! ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* >/dev/null 2>&1; }
ping() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(cat "$echo/dst")
	ampsocctl ept "$_ctrl" core-test 2000 "$((_dst))" ping 200 "$1"
}

check set_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel_appears wait_for 20 echo_chan
check raw_channel_appears wait_for 5 sh -c 'ls -d /sys/bus/rpmsg/devices/*.rpmsg-raw.* >/dev/null 2>&1'
check firmware_uses_carveout_pa grep -q "buffers by physical address" "$D/trace0"
check echo_16 ping 16
check echo_496 ping 496
# Linux's kicks are words on the core's guest->core mailbox, which carried
# at least as many words as the driver sent.
kicks=$(core_field kicks)
ktap_diag "kicks $kicks merged $(core_field kicks_merged)"
ktap_diag_file "$VSOC/mbox_stats"
check kicks_through_mailbox test "$kicks" -gt 0
check_eq mailbox_carried_kicks 1 awk -v k="$kicks" -v m="$CORE-tx" '$1 == m { print ($4 >= k) }' "$VSOC/mbox_stats"
check stop sh -c "echo stop >$R/state"
check channels_gone no_chan
check_eq domain_off_after_stop off dom_state $CORE
check restart sh -c "echo start >$R/state"
check channels_back wait_for 20 echo_chan
check echo_after_restart ping 64
check stop_again sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

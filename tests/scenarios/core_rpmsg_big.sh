#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ampsoc's negotiated extensions end to end with a real
#   remote core and its resource table: ampsoc-rpmsg-echo-big proposes
#   2048-byte buffers (F_BUFSZ, in the vdev's config space) and offers
#   flow control (F_FC). Linux must run the vdev with 2048-byte buffers
#   both ways, echo 2032-byte messages (the MTU) through /dev/rpmsgN and
#   refuse 2033, and a slow reader must throttle the firmware's stream
#   instead of losing messages.
# STRATEGY: boot ampsoc-rpmsg-echo-big on ipu; the transport's debugfs
#   stats must say buf_size 2048/2048; ampsocctl echoes 50 messages of
#   2032 bytes and fails to send 2033; rpmsg_stream asks ampsoc-source for
#   3000 messages of 2032 bytes, reads nothing until the firmware's trace
#   says Linux paused it, then reads and checks all of them (order,
#   length, content), with nothing dropped and the firmware reporting all
#   sent and at least one pause. Then a plain ampsoc-rpmsg-echo on the
#   same core falls back to mainline's 512-byte buffers.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
chan() {
	_c=$(ls -d /sys/bus/rpmsg/devices/*."$1".* 2>/dev/null | head -n 1)
	[ -n "$_c" ] && cat "$_c/dst"
}
stats() { echo "$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats"; }
buf_size() { awk '$1 == "buf_size" { print $2 }' "$(stats)"; }
ctrl() { ls /dev/rpmsg_ctrl* | head -n 1; }
ping() { ampsocctl ept "$(ctrl)" big-echo 2100 "$(($(chan ampsoc-echo)))" ping "$@"; }

check set_firmware sh -c "echo $(fw rpmsg-echo-big) >$R/firmware"
check start sh -c "echo start >$R/state"
check channels wait_for 20 chan ampsoc-source
ktap_diag_file "$(stats)"
check_eq buffers_2048_both_ways 2048/2048 buf_size
check firmware_saw_mtu_2032 grep -q "mtu 2032, name service on, flow control on" "$D/trace0"
check echo_2032 ping 50 2032
check refuse_2033 sh -c '! ping 1 2033'
guest_test rpmsg_stream "$(ctrl)" "$(chan ampsoc-source)" 3000 2032 "$D/trace0"
ktap_diag_file "$(stats)"
check stop sh -c "echo stop >$R/state"

check set_plain_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check start_plain sh -c "echo start >$R/state"
check plain_channels wait_for 20 chan ampsoc-echo
check_eq buffers_512_fallback 512/512 buf_size
check echo_496 ping 20 496
check refuse_497 sh -c '! ping 1 497'
check stop_plain sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

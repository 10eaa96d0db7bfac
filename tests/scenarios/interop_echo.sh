#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the SDK's echo firmware runs unchanged under Linux's own
#   remoteproc and rpmsg (the peer stack): ampsoc_vsoc_rproc, built from
#   the same source against mainline's remoteproc, boots it on ipu (and,
#   in the ISA matrix, on the emulated m4 and rv cores); the
#   vrings and rpmsg buffers are in Linux's DRAM (mainline's
#   dma_alloc_coherent()), which the core sees at the board's ddr address;
#   the firmware finds its vrings there and takes descriptor addresses as
#   bus addresses of that DRAM. Mainline refuses the image with a
#   vdev0buffer carveout (Debian's kernel has no DMA_DECLARE_COHERENT).
# STRATEGY: on the mainline stack, the core's driver says it sees the DRAM
#   at the board's ddr address (an emulated core reads it from its core
#   peripheral's DDR_DA/DDR_LEN);
#   ampsoc-rpmsg-echo.elf (vdev0buffer) fails to start with mainline's
#   "Failed to associate buffer" and leaves the core offline and its
#   domain off; ampsoc-rpmsg-echo-nobuf.elf starts, its trace says buffers
#   by bus address in Linux's DRAM, its channels appear on mainline's bus
#   (rpmsg-raw bound to mainline's rpmsg_chrdev), 200 checked echoes of 16
#   and 496 bytes go through an endpoint of /dev/rpmsg_ctrlN and 100 through
#   the rpmsg-raw /dev/rpmsgN; the vring firewall protected both descriptor
#   tables in the DRAM window; stop removes the channels and powers the domain off;
#   a second start echoes again.
# services: socmodel
# stack: mainline
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

dmesg_has() { dmesg | grep -qF "$1"; }

core_find $CORE || bail "no remote processor for core $CORE"
# where each board puts Linux's DRAM in the core's map (omap4*.ini)
case $CORE in
m4) DDR_DA=0x90000000 ;;
rv) DDR_DA=0x40000000 ;;
*) DDR_DA=0x80000000 ;;
esac
check_eq peer_driver "remoteproc" sh -c \
	"modinfo -F depends ampsoc_vsoc_rproc | tr ',' '\n' | grep -x remoteproc"
check sees_dram dmesg_has "$CORE: sees Linux's DRAM [0, 0x20000000) at $DDR_DA"

echo=
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
no_chan() { ! ls -d /sys/bus/rpmsg/devices/virtio* >/dev/null 2>&1; }
ping() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(cat "$echo/dst")
	ampsocctl ept "$_ctrl" interop 2000 "$((_dst))" ping "$1" "$2"
}
raw_ping() {
	_raw=$(ls -d /sys/bus/rpmsg/devices/*.rpmsg-raw.* | head -n 1)
	_dev=$(ls "$_raw/rpmsg" 2>/dev/null | head -n 1)
	[ -c "/dev/$_dev" ] && ampsocctl ept "/dev/$_dev" ping "$1" "$2"
}

# mainline cannot give a vdev0buffer carveout to the DMA API here
check set_carveout_image sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check carveout_image_refused sh -c "! echo start >$R/state 2>/dev/null"
check refused_by_mainline dmesg_has "Failed to associate buffer"
check_eq offline_after_refusal offline cat "$R/state"
check_eq domain_off_after_refusal off dom_state $CORE

check set_firmware sh -c "echo $(fw rpmsg-echo-nobuf) >$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel_appears wait_for 20 echo_chan
check raw_bound_to_mainline wait_for 10 sh -c \
	'test "$(basename "$(readlink -f /sys/bus/rpmsg/devices/*.rpmsg-raw.*/driver)")" = rpmsg_chrdev'
check firmware_uses_dram trace_has "buffers by bus address in Linux's DRAM"
check echo_16 ping 200 16
check echo_496 ping 200 496
check echo_raw raw_ping 100 64
ktap_diag_file "$C/ctl"
check_eq firewall_regions 2 core_field fw_regions
# the descriptor tables (4 KiB each, page aligned in the DRAM) at least
check firewall_protected test "$(core_field fw_protected)" -ge 8192
check stop sh -c "echo stop >$R/state"
check channels_gone no_chan
check_eq domain_off_after_stop off dom_state $CORE
check restart sh -c "echo start >$R/state"
check channels_back wait_for 20 echo_chan
check echo_after_restart ping 100 496
check stop_again sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

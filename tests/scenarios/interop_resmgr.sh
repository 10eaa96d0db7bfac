#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the SDK's resource-manager firmware under Linux's own
#   remoteproc and rpmsg (the peer stack): mainline has no driver for the
#   "rpmsg-resmgr" service (the resource manager is ampsoc's rpmsg driver),
#   so the firmware's power request is never served: its channel is
#   announced and stays unbound, the domain it asks for stays off in the
#   kernel and in the model, and everything else of the firmware (its echo
#   and control channels) works. What mainline can serve, it serves.
# STRATEGY: on the mainline stack, boot ampsoc-rpmsg-resmgr-nobuf.elf on
#   $CORE: rpmsg-resmgr, ampsoc-echo and ampsoc-resmgr-ctl appear on
#   mainline's bus; rpmsg-resmgr has no driver and no module could bind it
#   (ampsoc_rpmsg_resmgr is not in the tree); 100 echoes go through
#   ampsoc-echo; l4per_sub is off in the kernel and the model and the
#   firmware never logged a request (no HELLO came from Linux); stop, the
#   domain stays off.
# services: socmodel
# stack: mainline
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/resmgr.sh

DOM=l4per_sub
core_find $CORE || bail "no remote processor for core $CORE"
not_installed() { ! grep -q "/$1.ko:" "/lib/modules/$(uname -r)/modules.dep"; }
echo_ping() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	ampsocctl ept "$_ctrl" interop 2000 "$(($(cat "$(chan ampsoc-echo)/dst")))" ping "$1" "$2"
}

check resmgr_driver_not_in_tree not_installed ampsoc_rpmsg_resmgr
check domain_off_before wait_for 10 both $DOM off
check set_firmware sh -c "echo $(fw rpmsg-resmgr-nobuf) >$R/firmware"
check start sh -c "echo start >$R/state"
check resmgr_channel_announced wait_for 20 sh -c '[ -n "$(ls -d /sys/bus/rpmsg/devices/*.rpmsg-resmgr.* 2>/dev/null)" ]'
check echo_channel wait_for 20 sh -c '[ -n "$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null)" ]'
check ctl_channel wait_for 20 sh -c '[ -n "$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-resmgr-ctl.* 2>/dev/null)" ]'
check firmware_uses_dram trace_has "buffers by bus address in Linux's DRAM"
check resmgr_channel_unbound sh -c "! test -e $(chan rpmsg-resmgr)/driver"
check echo_works echo_ping 100 64
check_eq domain_still_off off dom_state $DOM
check_eq kernel_domain_off off kernel_dom $DOM
check no_request_logged sh -c "! grep -q 'requested domain' $D/trace0"
check stop sh -c "echo stop >$R/state"
check_eq domain_off_after off dom_state $DOM
check_eq no_violations 0 tele_field violations
ktap_done

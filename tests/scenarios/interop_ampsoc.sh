#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the images that run under Linux's own remoteproc and rpmsg
#   (the interop_* scenarios on the mainline stack) run unchanged on
#   ampsoc's stack too: without a vdev0buffer carveout, ampsoc puts the
#   vrings and rpmsg buffers in the core's own memory (declared memory)
#   and descriptors carry device addresses, which the firmware takes as
#   such although it also sees Linux's DRAM.
# STRATEGY: on ampsoc's stack, boot ampsoc-rpmsg-echo-nobuf.elf on ipu:
#   its trace says buffers by device address; 200 checked echoes of 496
#   bytes; stop. ampsoc-rpmsg-check-nobuf.elf: 20000 checked messages on
#   8 endpoints, none rejected by the transport; stop.
#   ampsoc-rpmsg-resmgr-nobuf.elf: ampsoc's resource manager serves its
#   request (l4per_sub on in the kernel and the model); stop, off again.
# services: socmodel
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/resmgr.sh

core_find ipu || bail "no remote processor for core ipu"

check echo_boots core_boot ampsoc-rpmsg-echo-nobuf.elf ampsoc-echo
check echo_by_device_address trace_has "buffers by device address"
check echo_works echo_ping 200 496
check echo_stop core_stop

check check_boots core_boot ampsoc-rpmsg-check-nobuf.elf ampsoc-check
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check integrity "$ctrl" 8 20000
stats_diag check
check check_nothing_rejected stats_are bad_len=0 bad_ring=0 bad_addr=0 unknown_dst=0
check check_stop core_stop

check resmgr_boots core_boot ampsoc-rpmsg-resmgr-nobuf.elf rpmsg-resmgr
check resmgr_bound wait_for 20 bound
check resmgr_domain_on wait_for 10 both l4per_sub on
check resmgr_stop core_stop
check resmgr_domain_off wait_for 10 both l4per_sub off
check_eq no_violations 0 tele_field violations

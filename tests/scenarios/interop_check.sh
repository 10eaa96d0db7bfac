#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: message integrity between the SDK's firmware and Linux's own
#   rpmsg (the peer stack): 100000 messages of pseudo-random sizes up to the
#   MTU, each with a sequence number and a CRC-32, checked by the firmware
#   (ampsoc-rpmsg-check-nobuf, buffers in Linux's DRAM) and answered with
#   checked messages that Linux verifies; nothing lost, duplicated or
#   reordered on any endpoint, in either direction.
# STRATEGY: on the mainline stack, boot ampsoc-rpmsg-check-nobuf.elf on
#   $CORE; its trace says buffers by bus address in Linux's DRAM; rpmsg_check
#   integrity creates 8 endpoints through mainline's /dev/rpmsg_ctrlN to
#   the "ampsoc-check" channel, keeps 8 messages in flight on each, checks
#   every reply, then reads the firmware's counters over "ampsoc-check-ctl"
#   (no bad magic/length/CRC/sequence, rx = tx = 100000, 8 conversations)
#   and each endpoint's dropped count (0).
# services: socmodel
# stack: mainline
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 420
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
fw rpmsg-check-nobuf >"$R/firmware"
check start sh -c "echo start >$R/state"
check ctrl_dev wait_for 20 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
check check_channel wait_for 20 sh -c 'ls -d /sys/bus/rpmsg/devices/*.ampsoc-check.* >/dev/null 2>&1'
check firmware_uses_dram trace_has "buffers by bus address in Linux's DRAM"
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check integrity "$ctrl" 8 100000
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

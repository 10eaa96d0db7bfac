#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: message integrity on a real remote core: 100000 messages of
#   pseudo-random sizes up to the MTU, each carrying a sequence number and
#   a CRC-32, are checked by the firmware (ampsoc-rpmsg-check) and answered
#   with checked messages that Linux verifies; nothing is lost, duplicated
#   or reordered on any endpoint, in either direction.
# STRATEGY: boot ampsoc-rpmsg-check on ipu; rpmsg_check integrity creates
#   8 endpoints through /dev/rpmsg_ctrlN to the "ampsoc-check" channel and
#   keeps 8 messages in flight on each from one poll() loop; it checks
#   every reply, then reads the firmware's counters over the
#   "ampsoc-check-ctl" channel (no bad magic/length/CRC/sequence, rx = tx
#   = 100000, 8 conversations, interleaved) and each endpoint's dropped
#   count (0). The transport's stats must show no rejected buffer.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
echo $(fw rpmsg-check) >"$R/firmware"
check start sh -c "echo start >$R/state"
check ctrl_dev wait_for 20 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check integrity "$ctrl" 8 100000
st=$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats
ktap_diag_file "$st"
check_eq transport_rejected_nothing 0 awk '$1 ~ /^bad_|unknown_dst|ns_rejected/ { s += $2 } END { print s + 0 }' "$st"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

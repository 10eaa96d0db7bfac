#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: 32 channels and 32 endpoints at once on a real remote core,
#   created and removed at run time: the firmware (ampsoc-rpmsg-check)
#   announces 32 channels at Linux's request, they appear on
#   /sys/bus/rpmsg, all carry checked traffic at once with the
#   conversations interleaved, and when the firmware destroys them they
#   disappear; twice.
# STRATEGY: boot ampsoc-rpmsg-check on $CORE; rpmsg_check many asks the
#   firmware over "ampsoc-check-ctl" to add channels ampsoc-check-0..31,
#   waits for each on /sys/bus/rpmsg, creates one endpoint per channel
#   through /dev/rpmsg_ctrlN (its dst), runs 16000 checked messages over
#   the 32 at once (window of 8 each, one poll() loop), checks both sides'
#   counters (32 conversations, no error, nothing lost, conversations
#   interleaved), asks the firmware to destroy the channels and waits for
#   them to disappear; a second cycle does it again on the same addresses'
#   successors. The transport must count 34 channels at the peak and 2
#   after, and reject nothing; the kernel must not report a mailbox queue
#   that overflowed or a kick word it refused (a slow core's full FIFO
#   turns kicks into doorbells, docs/vsoc-rproc.md).
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
fw rpmsg-check >"$R/firmware"
check start sh -c "echo start >$R/state"
check ctrl_dev wait_for 20 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
st=$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats
chans() { awk '$1 == "channels" { print $2 }' "$st"; }
chans_are() { [ "$(chans)" = "$1" ]; }
# rpmsg_ctrl appears with the vdev, before the firmware's announcements.
check two_channels_at_boot wait_for 20 chans_are 2
guest_test rpmsg_check many "$ctrl" 32 16000 2
check_eq two_channels_after 2 chans
ktap_diag "kicks $(core_field kicks) merged $(core_field kicks_merged) rung $(core_field kicks_rung)"
# A slow core lets its FIFO fill; kicks then ring its doorbell rather
# than pile up in the mailbox core's queue until it refuses them.
check no_kick_queue_overflow sh -c \
	'! dmesg | grep -e "Try increasing MBOX_TX_QUEUE_LEN" -e "kick word refused"'
ktap_diag_file "$st"
check_eq transport_rejected_nothing 0 awk '$1 ~ /^bad_|unknown_dst|ns_rejected/ { s += $2 } END { print s + 0 }' "$st"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

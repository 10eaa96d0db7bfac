#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the remoteproc framework's kernel API against mainline
#   6.1's contract, on fake remote processors written with mainline's API
#   (built through include/compat): boot/shutdown/detach and their errnos,
#   prepare/unprepare, carveouts registered by name, declared memory and
#   DMA allocations, address and notify-id write-back, refcounting with
#   concurrent users, subdevices, vdevs as virtio devices, attach to a core
#   a boot loader started, runtime PM through a parent and child PM domain,
#   every malformed firmware image rejected with its errno (the processor
#   left offline, a correct image booting afterwards), crash recovery,
#   recovery disabled, the panic notifier, sysfs_read_only, devm.
# STRATEGY: on two CPUs (so concurrent users really race), load the
#   in-kernel KTAP module ampsoc_rproc_test (it creates its
#   own fake processors and domains for each case), then check that each
#   rejected image logged exactly one line and the module unloads cleanly.
# timeout: 300
# smp: 2
. /ampsoc/lib.sh

dmesg -c >/dev/null
kmod_test ampsoc_rproc_test
dmesg >/tmp/rproc.log

# Each malformed image is booted twice (registered carveouts, declared
# memory; segment_truncated a third time by direct_refuses_segment_past_end)
# and each refusal names it in exactly one log line of ours (the firmware
# loader's own "direct-loading firmware" line aside).
bad=0
for f in /lib/firmware/ampsoc-rproc-bad-*.elf; do
	name=${f##*/}
	want=2
	[ "$name" = ampsoc-rproc-bad-segment_truncated.elf ] && want=3
	n=$(grep "$name" /tmp/rproc.log | grep -vc 'direct-loading firmware')
	[ "$n" = $want ] || { ktap_diag "$name: $n log lines"; bad=$((bad + 1)); }
done
check one_log_line_per_bad_image test "$bad" = 0
check no_rejection_of_good_image sh -c \
	'! grep -q "firmware ampsoc-rproc-fake.elf rejected" /tmp/rproc.log'
check fake_unloads rmmod ampsoc_rproc_fake
check framework_unloads rmmod ampsoc_rproc
ktap_done

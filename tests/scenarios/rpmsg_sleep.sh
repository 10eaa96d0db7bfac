#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg traffic survives a real system suspend (ACPI S3, woken
#   by the RTC alarm): a checked stream read through /dev/rpmsgN loses,
#   duplicates and reorders nothing across it, flow control holds the
#   remote while userspace is frozen, and echo works after resume.
# STRATEGY: load the transport and a loopback remote with flow control,
#   select deep sleep, run rpmsg_sleep (reads 200 of 3000 stream messages,
#   suspends with the stream running, reads the rest), then check that the
#   suspend was counted and that the endpoint dropped nothing.
# timeout: 300
. /ampsoc/lib.sh

check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 fc=1
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0
[ -e /sys/class/rtc/rtc0/wakealarm ] || bail "no RTC wake alarm"
grep -q deep /sys/power/mem_sleep || bail "no deep sleep state"
echo deep >/sys/power/mem_sleep
echo none >/sys/power/pm_test 2>/dev/null
ok0=$(cat /sys/power/suspend_stats/success)
guest_test rpmsg_sleep /dev/rpmsg_ctrl0 3000
ktap_diag_file /sys/kernel/debug/ampsoc_rpmsg_lb/stats
ktap_diag_file /sys/kernel/debug/ampsoc_rpmsg/virtio0/stats
for f in /sys/class/rpmsg/rpmsg[0-9]*/dropped; do ktap_diag "$f: $(cat $f)"; done
check_eq suspend_counted $((ok0 + 1)) cat /sys/power/suspend_stats/success
check unload rmmod ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

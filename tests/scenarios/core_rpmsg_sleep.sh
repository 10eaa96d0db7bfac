#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: system suspend with checked rpmsg traffic running to a real
#   remote core: at the pm_test levels "devices" and "platform", then in a
#   real suspend to RAM (ACPI S3, woken by the RTC alarm), nothing is
#   lost, duplicated or reordered in either direction and traffic goes on
#   after each resume.
# STRATEGY: boot ampsoc-rpmsg-check on ipu; rpmsg_check sleep runs checked
#   traffic on 4 endpoints from a thread (window of 8 each) and, once 500
#   replies came, suspends with pm_test=devices, then platform, then
#   pm_test=none with deep sleep and an RTC alarm 3 s ahead; after each,
#   500 more replies must come. Then the traffic drains and both sides'
#   counters must agree (firmware: no bad sequence/CRC, rx = tx = all
#   Linux sent). The three suspends must be counted.
# services: socmodel
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
[ -e /sys/power/pm_test ] || bail "no /sys/power/pm_test"
[ -e /sys/class/rtc/rtc0/wakealarm ] || bail "no RTC wake alarm"
grep -q deep /sys/power/mem_sleep || bail "no deep sleep state"
echo deep >/sys/power/mem_sleep
echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
echo ampsoc-rpmsg-check.elf >"$R/firmware"
check start sh -c "echo start >$R/state"
check ctrl_dev wait_for 20 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
ok0=$(cat /sys/power/suspend_stats/success)
guest_test rpmsg_check sleep "$ctrl" 4 devices platform mem
check_eq suspends_counted $((ok0 + 3)) cat /sys/power/suspend_stats/success
check_eq running_after_resume running cat "$R/state"
st=$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats
ktap_diag_file "$st"
check_eq transport_rejected_nothing 0 awk '$1 ~ /^bad_|unknown_dst|ns_rejected/ { s += $2 } END { print s + 0 }' "$st"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations

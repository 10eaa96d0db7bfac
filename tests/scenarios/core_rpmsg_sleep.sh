#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: system suspend with checked rpmsg traffic running to a real
#   remote core: at the pm_test levels "devices" and "platform", then in a
#   real suspend to RAM (ACPI S3, woken by the RTC alarm), nothing is
#   lost, duplicated or reordered in either direction and traffic goes on
#   after each resume.
# STRATEGY: boot ampsoc-rpmsg-check on $CORE; rpmsg_check sleep runs checked
#   traffic on 4 endpoints from a thread (window of 8 each) and, once 500
#   replies came, suspends with pm_test=devices, then platform, then
#   pm_test=none with deep sleep and an RTC alarm 3 s ahead; after each,
#   500 more replies must come. Then the traffic drains and both sides'
#   counters must agree (firmware: no bad sequence/CRC, rx = tx = all
#   Linux sent). The three suspends must be counted.
#   Then a reply that falls due while Linux sleeps, with nothing after it:
#   ampsoc-rpmsg-echo's "ampsoc-later" service answers 1.5 s after the
#   request, and Linux suspends right after asking (pm_test devices and
#   platform held 3 s, then S3 woken 4 s later); each reply must reach
#   /dev/rpmsgN after resume. Their doorbells are lost while the PCI
#   function sleeps; the mailbox's resume scan must have found them.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
[ -e /sys/power/pm_test ] || bail "no /sys/power/pm_test"
[ -e /sys/class/rtc/rtc0/wakealarm ] || bail "no RTC wake alarm"
grep -q deep /sys/power/mem_sleep || bail "no deep sleep state"
echo deep >/sys/power/mem_sleep
echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
fw rpmsg-check >"$R/firmware"
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

later_chan() {
	later=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-later.* 2>/dev/null | head -n 1)
	[ -n "$later" ]
}
check set_echo_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check start_echo sh -c "echo start >$R/state"
check later_channel wait_for 20 later_chan
echo 3 >/sys/module/suspend/parameters/pm_test_delay
ok0=$(cat /sys/power/suspend_stats/success)
guest_test rpmsg_sleep late "$(ls /dev/rpmsg_ctrl* | head -n 1)" "$(cat "$later/dst")" 1500 awake devices platform mem
check_eq late_suspends_counted $((ok0 + 3)) cat /sys/power/suspend_stats/success
# The replies' doorbells were lost (bus mastering off, or S3): the mailbox's
# resume scan is what delivered them.
ktap_diag_file "$VSOC/mbox_stats"
check late_words_found_on_resume test "$(awk '$2 == "rx" { s += $8 } END { print s + 0 }' "$VSOC/mbox_stats")" -ge 3
check stop_echo sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

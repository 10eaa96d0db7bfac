#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a real suspend-to-idle (freeze, pm_test none), woken at the
#   time of the RTC alarm it armed, as rtcwake -m freeze does: the s2idle
#   loop is entered, domains in use go off in the noirq phase and come back,
#   a SLEEP_SKIP_OFF domain off at runtime (fake_side) stays off, idle
#   domains go off again after.
# STRATEGY: hold device 0 (leaf > mid > top), arm /sys/class/rtc/rtc0/
#   wakealarm a few seconds ahead and hand its epoch to the wakeup host
#   service, which raises the ACPI wake event (QEMU delivers the RTC alarm
#   to ACPI only from S3, see tests/qemu/services/wakeup) when the guest
#   RTC reaches it (again until the guest says it is awake); write freeze
#   to /sys/power/state, and once it returns check the suspend_resume trace (the machine entered
#   s2idle), suspend_stats, the wakeup IRQ (the ACPI SCI), the RTC time
#   against the alarm, driver callback counts and the fake hardware's power
#   counters. Twice, to show the loop is repeatable.
# services: wakeup
# timeout: 300
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh

W=/dev/ttyS2
RTC=/sys/class/rtc/rtc0
T=/sys/kernel/tracing
modprobe button || bail "no ACPI button driver (the wake event)"
[ -c $W ] || bail "no wake port $W"
stty -F $W 115200 raw -echo || bail "cannot set up $W"
[ -e $RTC/wakealarm ] || bail "no RTC wake alarm"
grep -qw freeze /sys/power/state || bail "no suspend-to-idle"
sci=$(awk '$NF == "acpi" { sub(":", "", $1); print $1 }' /proc/interrupts)
[ -n "$sci" ] || bail "no ACPI SCI"
echo none >/sys/power/pm_test
echo 1 >$T/events/power/suspend_resume/enable || bail "no suspend_resume trace event"

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos

for round in 1 2; do
	ctl 0 on
	check "r${round}_busy_chain_on" all_on fake_leaf fake_mid fake_top
	ok0=$(cat /sys/power/suspend_stats/success)
	n0=$(stat 0 suspend_noirq) rn0=$(stat 0 resume_noirq)
	lo=$(cnt fake_leaf sleep_offs) to=$(cnt fake_top sleep_offs)
	so=$(cnt fake_side ons) sk=$(stat 2 suspend)
	echo >$T/trace
	echo 0 >$RTC/wakealarm
	echo +4 >$RTC/wakealarm
	at=$(cat $RTC/wakealarm)
	echo "alarm $at" >$W
	echo freeze >/sys/power/state
	check_eq "r${round}_freeze_returns_success" 0 echo $?
	now=$(cat $RTC/since_epoch)
	echo awake >$W
	delta "r${round}_suspend_stats_success" "$ok0" "$(cat /sys/power/suspend_stats/success)" 1
	check "r${round}_s2idle_loop_entered" grep -q 'machine_suspend\[1\] begin' $T/trace
	check_eq "r${round}_woken_by_acpi_sci" "$sci" cat /sys/power/pm_wakeup_irq
	check "r${round}_woken_at_alarm_time" test "$now" -ge "$at"
	delta "r${round}_noirq_suspend" "$n0" "$(stat 0 suspend_noirq)" 1
	delta "r${round}_noirq_resume" "$rn0" "$(stat 0 resume_noirq)" 1
	delta "r${round}_leaf_off_during_s2idle" "$lo" "$(cnt fake_leaf sleep_offs)" 1
	delta "r${round}_top_off_during_s2idle" "$to" "$(cnt fake_top sleep_offs)" 1
	check "r${round}_chain_back_on" all_on fake_leaf fake_mid fake_top
	delta "r${round}_off_domain_device_skipped" "$sk" "$(stat 2 suspend)" 0
	delta "r${round}_off_domain_stays_off" "$so" "$(cnt fake_side ons)" 0
	ctl 0 auto
	check "r${round}_idle_after_resume_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top
done
echo 0 >$RTC/wakealarm
echo 0 >$T/events/power/suspend_resume/enable
check_eq "no_callback_with_hw_off" 0 cat $F/violations
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
ktap_done

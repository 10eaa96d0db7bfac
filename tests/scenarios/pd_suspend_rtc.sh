#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a real system suspend (ACPI S3), woken by the RTC alarm as
#   rtcwake -m mem does: domains in use go off in the noirq phase and come
#   back, a SLEEP_SKIP_OFF domain off at runtime (fake_side) stays off,
#   idle domains go off again after resume. (A real s2idle cannot be woken in this QEMU: the RTC alarm only
#   reaches an s2idle guest through ACPI, which QEMU signals only from S3;
#   pd_sleep covers s2idle's phases with pm_test=devices/platform.)
# STRATEGY: hold device 0 (leaf > mid > top), arm /sys/class/rtc/rtc0/
#   wakealarm a few seconds ahead, write mem to /sys/power/state with
#   mem_sleep=deep, and once it returns compare suspend_stats, driver
#   callback counts and the fake hardware's power-off counters with what a
#   real suspend must do.
# timeout: 300
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos
[ -e /sys/class/rtc/rtc0/wakealarm ] || bail "no RTC wake alarm"
echo none >/sys/power/pm_test
grep -q deep /sys/power/mem_sleep || bail "no deep sleep state"
echo deep >/sys/power/mem_sleep
ctl 0 on
check "busy_chain_on" all_on fake_leaf fake_mid fake_top

ok0=$(cat /sys/power/suspend_stats/success)
n0=$(stat 0 suspend_noirq) rn0=$(stat 0 resume_noirq)
lo=$(cnt fake_leaf sleep_offs) to=$(cnt fake_top sleep_offs) so=$(cnt fake_side ons)
sk=$(stat 2 suspend)
echo 0 >/sys/class/rtc/rtc0/wakealarm
echo +3 >/sys/class/rtc/rtc0/wakealarm
if command -v rtcwake >/dev/null; then
	rtcwake -m mem -s 3 >/dev/null
else
	echo mem >/sys/power/state
fi
check_eq "suspend_returns_success" 0 echo $?
delta "suspend_stats_success" "$ok0" "$(cat /sys/power/suspend_stats/success)" 1
delta "noirq_suspend" "$n0" "$(stat 0 suspend_noirq)" 1
delta "noirq_resume" "$rn0" "$(stat 0 resume_noirq)" 1
delta "leaf_off_during_suspend" "$lo" "$(cnt fake_leaf sleep_offs)" 1
delta "top_off_during_suspend" "$to" "$(cnt fake_top sleep_offs)" 1
check "chain_back_on" all_on fake_leaf fake_mid fake_top
delta "off_domain_device_skipped" "$sk" "$(stat 2 suspend)" 0
delta "off_domain_stays_off" "$so" "$(cnt fake_side ons)" 0
ctl 0 auto
check "idle_after_resume_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top
check_eq "no_callback_with_hw_off" 0 cat $F/violations
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
ktap_done

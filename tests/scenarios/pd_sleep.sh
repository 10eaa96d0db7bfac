#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: system suspend through PM domains at every pm_test level:
#   domains in use are powered off synchronously in the noirq phase and
#   back on at resume, a SLEEP_SKIP_OFF domain off at runtime
#   (fake_side) stays off with its devices skipped, ACTIVE_WAKEUP keeps
#   a wakeup device's domain on, and after complete idle devices let
#   their domains go off again.
# STRATEGY: with the fake SoC loaded, hold device 0 (leaf > mid > top on)
#   while side and wake are off; for each level of /sys/power/pm_test
#   (devices, platform, processors, core) suspend and compare the driver's
#   callback counts and the fake hardware's counters of power-offs done
#   during the transition (sleep_offs) with what that level must do.
# timeout: 240
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos
ktap_diag "state: $(cat /sys/power/state) mem_sleep: $(cat /sys/power/mem_sleep 2>/dev/null)"
echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if grep -q deep /sys/power/mem_sleep 2>/dev/null; then
	echo deep >/sys/power/mem_sleep
	STATE=mem
else
	STATE=freeze
fi

ctl 0 on
check "busy_chain_on" all_on fake_leaf fake_mid fake_top

for level in devices platform processors core; do
	if [ "$STATE" = freeze ] && [ "$level" != devices ] && [ "$level" != platform ]; then
		ktap_skip "sleep_$level" "s2idle has no $level test level"
		continue
	fi
	s0=$(stat 0 suspend) n0=$(stat 0 suspend_noirq) rn0=$(stat 0 resume_noirq)
	sk=$(stat 2 suspend) lo=$(cnt fake_leaf sleep_offs) to=$(cnt fake_top sleep_offs)
	so=$(cnt fake_side ons)
	echo $level >/sys/power/pm_test
	if echo $STATE >/sys/power/state; then
		ktap_ok "sleep_${level}_returns"
	else
		ktap_fail "sleep_${level}_returns" "echo $STATE >/sys/power/state failed"
	fi
	delta "${level}_dev_suspend_called" "$s0" "$(stat 0 suspend)" 1
	if [ $level = devices ]; then
		delta "${level}_no_noirq" "$n0" "$(stat 0 suspend_noirq)" 0
		delta "${level}_leaf_not_cut" "$lo" "$(cnt fake_leaf sleep_offs)" 0
	else
		delta "${level}_noirq_suspend" "$n0" "$(stat 0 suspend_noirq)" 1
		delta "${level}_noirq_resume" "$rn0" "$(stat 0 resume_noirq)" 1
		delta "${level}_leaf_off_in_noirq" "$lo" "$(cnt fake_leaf sleep_offs)" 1
		delta "${level}_top_off_after_children" "$to" "$(cnt fake_top sleep_offs)" 1
	fi
	check "${level}_chain_back_on" all_on fake_leaf fake_mid fake_top
	delta "${level}_off_domain_device_skipped" "$sk" "$(stat 2 suspend)" 0
	delta "${level}_off_domain_stays_off" "$so" "$(cnt fake_side ons)" 0
	check "${level}_side_off" is_off fake_side
done

# ACTIVE_WAKEUP: the wake domain stays on for a wakeup-enabled device.
echo platform >/sys/power/pm_test
echo enabled >"$(dev 3)/power/wakeup"
ctl 3 on
wo=$(cnt fake_wake sleep_offs) wn=$(stat 3 suspend_noirq)
echo $STATE >/sys/power/state
delta "wakeup_device_suspended" "$wn" "$(stat 3 suspend_noirq)" 1
delta "wakeup_domain_kept_on" "$wo" "$(cnt fake_wake sleep_offs)" 0
echo disabled >"$(dev 3)/power/wakeup"
echo $STATE >/sys/power/state
delta "no_wakeup_domain_off" "$wo" "$(cnt fake_wake sleep_offs)" 1
check "wake_domain_back_on" is_on fake_wake
echo none >/sys/power/pm_test

# Devices added or removed during a transition are refused; outside, fine.
ctl 3 auto
ctl 0 auto
check "idle_after_complete_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top fake_wake
check_eq "no_callback_with_hw_off" 0 cat $F/violations
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: hibernation through PM domains: image creation (freeze) stops
#   devices without powering domains off, the way back (thaw, or restore
#   when the PM core says so) restarts them, restore powers domains on from
#   scratch, and a SLEEP_SKIP_OFF domain off at runtime (fake_side) is
#   skipped throughout.
# STRATEGY: hold device 0 (leaf > mid > top), leave side off, then write
#   disk to /sys/power/state under each /sys/power/pm_test level (devices,
#   platform, processors, core; no swap needed) and compare the driver's
#   callback counts and the fake hardware's power counters with what the
#   freeze/thaw/restore paths must do.
# timeout: 240
# memory: 1024
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos
grep -qw disk /sys/power/state || bail "no hibernation support"
echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
ctl 0 on
check "busy_chain_on" all_on fake_leaf fake_mid fake_top

for level in devices platform processors core; do
	f0=$(stat 0 freeze) t0=$(stat 0 thaw) r0=$(stat 0 restore)
	fn0=$(stat 0 freeze_noirq) tn0=$(stat 0 thaw_noirq) rn0=$(stat 0 restore_noirq)
	lon=$(cnt fake_leaf ons) loff=$(cnt fake_leaf sleep_offs)
	sk=$(stat 2 freeze) so=$(cnt fake_side ons)
	echo $level >/sys/power/pm_test
	if echo disk >/sys/power/state; then
		ktap_ok "hibernate_${level}_returns"
	else
		ktap_fail "hibernate_${level}_returns" "echo disk >/sys/power/state failed"
	fi
	t=$(($(stat 0 thaw) - t0)) r=$(($(stat 0 restore) - r0))
	tn=$(($(stat 0 thaw_noirq) - tn0)) rn=$(($(stat 0 restore_noirq) - rn0))
	ktap_diag "$level: thaw $t restore $r thaw_noirq $tn restore_noirq $rn"
	delta "${level}_freeze_called" "$f0" "$(stat 0 freeze)" 1
	check_eq "${level}_one_way_back" 1 echo $((t + r))
	if [ $level = devices ]; then
		delta "${level}_no_noirq" "$fn0" "$(stat 0 freeze_noirq)" 0
	else
		delta "${level}_freeze_noirq" "$fn0" "$(stat 0 freeze_noirq)" 1
		check_eq "${level}_one_noirq_way_back" 1 echo $((tn + rn))
		# restore powers the domain on again from scratch; thaw does not.
		delta "${level}_restore_powers_on" "$lon" "$(cnt fake_leaf ons)" $rn
	fi
	delta "${level}_freeze_keeps_power" "$loff" "$(cnt fake_leaf sleep_offs)" 0
	check "${level}_chain_on" all_on fake_leaf fake_mid fake_top
	delta "${level}_off_domain_device_skipped" "$sk" "$(stat 2 freeze)" 0
	delta "${level}_off_domain_stays_off" "$so" "$(cnt fake_side ons)" 0
done
echo none >/sys/power/pm_test

ctl 0 auto
check "idle_after_complete_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top
check_eq "no_callback_with_hw_off" 0 cat $F/violations
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: PM domains follow real runtime PM: a domain and its parents
#   power on when a device resumes (power/control=on, a busy reference) and
#   power off when every device is idle again, through autosuspend; the QoS
#   governor honours power/pm_qos_resume_latency_us; the fake hardware, the
#   debugfs state, the sysfs view and the trace events agree at each step.
# STRATEGY: load the fake SoC (ampsoc_pdfake_test): top > mid > leaf and
#   top > side, plus a QoS-governed domain. Drive its devices from sysfs
#   and wait (wait_for, never sleep) for each expected state, checking both
#   our state (current_state) and the fake hardware's (hw=).
# timeout: 180
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh
S=/sys/kernel/ampsoc_pd
expect_state() { # NAME DOMAIN WANT
	check_eq "$1" "$3" cat "$D/$2/current_state"
}

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos

echo 1 >/sys/kernel/tracing/events/ampsoc_pd/enable 2>/dev/null
echo >/sys/kernel/tracing/trace 2>/dev/null

r0=$(stat 0 rt_resume)
ctl 0 on
check "control_on_powers_chain" all_on fake_leaf fake_mid fake_top
check "sibling_stays_off" all_off fake_side fake_wake
check_eq "device_active" active cat "$(dev 0)/power/runtime_status"
check "driver_resume_ran" test "$(stat 0 rt_resume)" -gt "$r0"
check_eq "sysfs_active_count" 1 cat $S/fake_leaf/active_count
check_eq "sysfs_sd_count_top" 1 cat $S/fake_top/sd_count
check "trace_power_on" grep -q "ampsoc_pd_power_on: domain=fake_leaf state=" /sys/kernel/tracing/trace

ctl 1 on
ctl 0 auto
check "leaf_kept_on_by_second_device" all_on fake_leaf fake_mid fake_top
ctl 1 auto
check "control_auto_powers_chain_off" wait_for 10 all_off fake_leaf fake_mid fake_top
check "trace_power_off" grep -q "ampsoc_pd_power_off: domain=fake_top state=0 latency_ns=" /sys/kernel/tracing/trace

# Autosuspend: a long delay keeps the domain on after the last put.
echo 100000 >"$(dev 0)/power/autosuspend_delay_ms"
echo 1 >"$(dev 0)/busy"
check "busy_powers_on" all_on fake_leaf fake_mid fake_top
echo 0 >"$(dev 0)/busy"
check_eq "autosuspend_pending" active cat "$(dev 0)/power/runtime_status"
check "domain_on_during_autosuspend_delay" all_on fake_leaf fake_mid fake_top
echo 20 >"$(dev 0)/power/autosuspend_delay_ms"
check "autosuspend_expiry_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top
check_eq "device_suspended" suspended cat "$(dev 0)/power/runtime_status"

# The side branch only needs the top.
ctl 2 on
check "side_branch_on" all_on fake_side fake_top
check "other_branch_off" all_off fake_mid fake_leaf
ctl 2 auto
check "side_branch_off" wait_for 10 all_off fake_side fake_top

# QoS governor: no constraint picks the deepest state; 5 ms allows the
# 2 ms state only; 1 ms only the free one; n/a keeps the device up.
expect_state "qos_none_deepest" fake_qos off-2
q=$(dev 4)/power/pm_qos_resume_latency_us
qos_cycle() {
	echo "$1" >"$q"
	ctl 4 on
	ctl 4 auto
	wait_for 10 is_off fake_qos
}
qos_cycle 5000
expect_state "qos_5ms_state1" fake_qos off-1
qos_cycle 1000
expect_state "qos_1ms_state0" fake_qos off-0
echo n/a >"$q"
ctl 4 on
ctl 4 auto
check_eq "qos_na_device_stays_active" active cat "$(dev 4)/power/runtime_status"
check "qos_na_domain_stays_on" is_on fake_qos
qos_cycle 0
expect_state "qos_cleared_deepest" fake_qos off-2

check_eq "sysfs_devices" "ampsoc-pdfake.0
ampsoc-pdfake.1" cat $S/fake_leaf/devices
check_eq "sysfs_sub_domains" "fake_mid
fake_side" cat $S/fake_top/sub_domains
check_eq "sysfs_parents" fake_mid cat $S/fake_leaf/parents
check "summary_lists_devices" grep -q "^    /devices/platform/ampsoc-pdfake.0  " $D/pm_genpd_summary
check "counts_match_hardware" test "$(cat $S/fake_top/on_count)" = "$(cnt fake_top ons)"
check_eq "no_callback_with_hw_off" 0 cat $F/violations

echo 0 >/sys/kernel/tracing/events/ampsoc_pd/enable 2>/dev/null
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
check "domains_removed" sh -c "! grep -q fake_ $D/pm_genpd_summary"
ktap_done

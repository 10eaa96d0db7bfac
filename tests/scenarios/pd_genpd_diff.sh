#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the kernel's own genpd as the oracle for ampsoc_pd: one
#   three-level, multi-parent topology built with pm_genpd_* and twice with
#   ampsoc_pd (SYNC_OFF, and the seed's asynchronous parent power-off),
#   the same seeded runtime PM, QoS, notifier-veto and performance-state
#   sequences replayed on each, callback traces, final states and debugfs
#   summaries compared; the same with every domain and device IRQ-safe
#   (no performance requests there); then a real system suspend at
#   pm_test devices and platform.
# STRATEGY: load ampsoc_pdgenpd_test with several seeds (nested KTAP; the
#   first difference is reported with both traces, the intended
#   differences of docs/pmdomain.md are pinned), then once per pm_test
#   level with sleep=<level>, which calls pm_suspend() itself.
# timeout: 300
. /ampsoc/lib.sh

kmod_test ampsoc_pdgenpd_test seeds=1,2,3,4,5,6 steps=200
kmod_test ampsoc_pdgenpd_test irq_safe=1 seeds=1,2,3,4,5,6 steps=200

echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if grep -q deep /sys/power/mem_sleep 2>/dev/null; then
	echo deep >/sys/power/mem_sleep
fi
for level in devices platform; do
	echo $level >/sys/power/pm_test
	kmod_test ampsoc_pdgenpd_test sleep=$level
done
echo none >/sys/power/pm_test
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_genpd_debugfs_clean" sh -c '! grep -q "^gd_" /sys/kernel/debug/pm_genpd/pm_genpd_summary'
ktap_done

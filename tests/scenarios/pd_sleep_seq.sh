#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the driver callbacks every device gets through a real system
#   suspend, per device and in order, as Linux 6.1's genpd gives them:
#   every callback whatever the domain's state, resume_noirq powering an
#   off domain on; and, with AMPSOC_PD_FLAG_SLEEP_SKIP_OFF, the seed's
#   skipping, decided once per device per transition (a domain powered on
#   mid-suspend gives no late or noirq callback without the main one);
#   IRQ-safe domains and devices (AMPSOC_PD_FLAG_IRQ_SAFE) through the
#   same phases.
# STRATEGY: for pm_test levels devices and platform, load
#   ampsoc_pdsleep_test, which builds its domains and devices, calls
#   pm_suspend() itself and checks each device's callback string and each
#   domain's power log (nested KTAP).
# timeout: 240
. /ampsoc/lib.sh

echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if grep -q deep /sys/power/mem_sleep 2>/dev/null; then
	echo deep >/sys/power/mem_sleep
fi
for level in devices platform; do
	echo $level >/sys/power/pm_test
	kmod_test ampsoc_pdsleep_test level=$level
done
echo none >/sys/power/pm_test
check "pd_module_unloads" rmmod ampsoc_pd
ktap_done

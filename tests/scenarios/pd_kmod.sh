#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the PM domain core's invariants, checked in-kernel with fake
#   domains and real runtime PM on platform devices.
# STRATEGY: load ampsoc_pd_test (which needs ampsoc_pd) and nest its KTAP:
#   counters under random operations, multi-parent graphs, governors,
#   notifier rollback, noirq call order, debugfs bytes and misuse paths.
#   Then unload both modules and check nothing is left behind.
# timeout: 300
. /ampsoc/lib.sh

kmod_test ampsoc_pd_test
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_debugfs_gone" test ! -e /sys/kernel/debug/ampsoc_pd
check "pd_sysfs_gone" test ! -e /sys/kernel/ampsoc_pd
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: regressions of issue 21's power leaks and bugs stay fixed:
#   QoS-governed domains over ungoverned subdomains power off, a vetoed or
#   failed runtime power-off is retried, a provider's unused domains go off
#   by themselves, an IRQ-safe device added while suspended resumes, our PM
#   clocks live beside the kernel's pm_clk, measured latencies change only
#   under the domain lock.
# STRATEGY: load ampsoc_pdfix_test (which needs ampsoc_pd) and nest its
#   KTAP, with a fixed seed for the random runtime PM case; then unload
#   both modules and check nothing is left behind.
# smp: 2
# timeout: 300
. /ampsoc/lib.sh

kmod_test ampsoc_pdfix_test seed=21
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_debugfs_gone" test ! -e /sys/kernel/debug/ampsoc_pd
ktap_done

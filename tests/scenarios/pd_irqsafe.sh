#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: IRQ-safe PM domains (AMPSOC_PD_FLAG_IRQ_SAFE): an IRQ-safe
#   device's runtime get/put with interrupts off (under a spinlock, from a
#   hard hrtimer) powers its domain on and off synchronously; an IRQ-safe
#   domain refuses a sleeping parent and takes an IRQ-safe one; nested
#   power order; an IRQ-safe device in a sleeping domain keeps it on; the
#   intended differences from 6.1 (no WARN, request kept); debugfs.
# STRATEGY: load ampsoc_pdirq_test and nest its KTAP, then unload
#   ampsoc_pd and check nothing is left behind.
# smp: 2
# timeout: 180
. /ampsoc/lib.sh

kmod_test ampsoc_pdirq_test
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_sysfs_gone" test ! -e /sys/kernel/ampsoc_pd
ktap_done

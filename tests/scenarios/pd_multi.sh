#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: multiple PM domains per device (docs/pmdomain.md, "Multiple
#   domains per device"): virtual devices by index and by name with 6.1's
#   NULL and ERR_PTR answers, the consumer's runtime PM powering every
#   domain through device links, detach unregistering the virtual
#   devices, and a failed attach of several undone.
# STRATEGY: load ampsoc_pdmulti_test and nest its KTAP, then check no
#   virtual device is left on the ampsoc_pd bus and ampsoc_pd unloads
#   (its bus with it).
# timeout: 180
. /ampsoc/lib.sh

kmod_test ampsoc_pdmulti_test
check "pd_multi_bus_empty" sh -c '[ -z "$(ls /sys/bus/ampsoc_pd/devices)" ]'
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_bus_gone" test ! -e /sys/bus/ampsoc_pd
ktap_done

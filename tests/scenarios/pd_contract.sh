#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the PM-domain API does what include/ampsoc/pm_domain.h and
#   docs/pmdomain.md say: every documented errno, attach's 0 and 1, what
#   unlinking does, state names, the summary's order, governor names,
#   the governor differences from 6.1 the docs call intended, and
#   performance states (aggregation, order, unwinding, runtime PM,
#   debugfs).
# STRATEGY: load ampsoc_pdcontract_test and nest its KTAP, then unload
#   ampsoc_pd and check nothing is left behind.
# timeout: 180
. /ampsoc/lib.sh

kmod_test ampsoc_pdcontract_test
check "pd_module_unloads" rmmod ampsoc_pd
check "pd_sysfs_gone" test ! -e /sys/kernel/ampsoc_pd
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the guest harness works: filesystems are mounted, ampsoc
#   modules load and unload by hand, an in-kernel KTAP module nests its
#   results, and guest programs run.
# STRATEGY: check each mount, load and unload the KTAP self-test module and
#   the modules built so far, run the guest KTAP self-test program.
. /ampsoc/lib.sh

check debugfs_mounted grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
check sysfs_mounted test -d /sys/class
check kernel_is_debian_image grep -q "$(uname -r)" /proc/version
kmod_test ampsoc_harness_test
check harness_test_unloaded sh -c '! grep -q ampsoc_harness_test /proc/modules'
guest_test ktap_selftest
ktap_done

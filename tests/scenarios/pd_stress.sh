#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: concurrent runtime PM on many devices across a domain
#   hierarchy (on two CPUs) leaves consistent counters: once every device
#   is idle again, every domain is off in our view and in the hardware's,
#   no driver callback ever ran with its domain's hardware off, and no
#   lock or counter warning was printed.
# STRATEGY: load the fake SoC with 24 extra devices spread over top, mid,
#   leaf and side; pd_stress runs 4 threads of random power/control and
#   busy requests in two rounds, each followed by auto everywhere and a
#   wait for all domains to go off; some domain must have powered on
#   again after going off.
# smp: 2
# timeout: 240
. /ampsoc/lib.sh

modprobe ampsoc_pdfake_test extra_devs=24 autosuspend_ms=1 ||
	bail "cannot load ampsoc_pdfake_test"
guest_test pd_stress -t 4 -n 1500
check "no_unbalanced_warning" sh -c "! dmesg | grep -q 'unbalanced runtime'"
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
ktap_done

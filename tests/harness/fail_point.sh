#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A failing in-kernel test point must fail
#   the run although the guest finishes cleanly.
# expect: deliberate_failure
. /ampsoc/lib.sh
ktap_ok before_failure
kmod_test ampsoc_harness_test fail=1
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A kernel WARN must fail the run whatever
#   the test points said.
# expect: WARNING|kernel panic|no success token
# timeout: 60
. /ampsoc/lib.sh
ktap_ok before_warn
modprobe ampsoc_warn_test warn=1
ktap_ok after_warn
ktap_done

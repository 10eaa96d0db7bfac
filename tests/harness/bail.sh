#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A scenario that bails out before its end
#   writes no success token and must fail.
# expect: Bail out|no success token
. /ampsoc/lib.sh
ktap_ok before_bail
bail "deliberate bail-out"

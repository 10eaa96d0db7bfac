#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A scenario that stops before its last
#   line (ktap_done) must fail, although it exits 0 and every test point
#   it printed passed.
# STRATEGY: one passing test point, then exit 0; the test point after it
#   and ktap_done are never reached, so PID 1 writes no success token.
# expect: no success token
. /ampsoc/lib.sh
ktap_ok before_exit
exit 0
ktap_ok after_exit
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A guest that hangs must fail the run by
#   the scenario's timeout, even after passing test points.
# expect: timeout
# timeout: 25
. /ampsoc/lib.sh
ktap_ok before_hang
mkfifo /tmp/never
read -r _ </tmp/never
ktap_ok after_hang
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The power campaign in full (make soak): 1000 random
#   runtime-PM operations across every device of the board and 100 system
#   suspend/resume cycles (s2idle among them) under checked rpmsg traffic to a real remote
#   core, zero violations, nothing lost, counters balanced.
# STRATEGY: as tests/scenarios/soak_power.sh, with the counts.
# services: socmodel
# services: wakeup
# load-all: 1
# timeout: 1800
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/soak.sh

soak_power_campaign 1000 100 1500 /dev/ttyS2
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The remote lifecycle campaign in full (make soak): 200
#   boot/crash/recover/stop cycles with traffic and userspace endpoints
#   open, no leak by slab counts and vmalloc areas (and by kmemleak on the
#   debug kernel), no hung sender, no violation.
# STRATEGY: as tests/soak/soak_remote.sh, with 200 cycles after 5
#   warm-up cycles.
# services: socmodel
# load-all: 1
# timeout: 1800
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/soak.sh

soak_remote_campaign 200 5
ktap_done

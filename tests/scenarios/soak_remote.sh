#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The remote lifecycle campaign, short form for make check
#   (make soak runs 200 cycles, tests/soak/soak_remote_full.sh): 20
#   boot/crash/recover/stop cycles of a real remote core with rpmsg traffic
#   and userspace endpoints open across the crash and the stop leak no
#   memory (slab objects, vmalloc areas; kmemleak on the debug kernel) and
#   never hang a sender.
# STRATEGY: soak_remote (tests/guest) runs 3 warm-up cycles, counts slab
#   objects and vmalloc areas, runs the cycles (start; echoes through
#   /dev/rpmsgN; a crash through debugfs while a thread streams; the thread
#   must fail within 20 s; a new channel echoes; stop with that endpoint
#   open, which then fails), counts again. The model must count two boots
#   per cycle and no violation; the processor and its domain end off.
# services: socmodel
# load-all: 1
# timeout: 420
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/soak.sh

soak_remote_campaign 20 3
ktap_done

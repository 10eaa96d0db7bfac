#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The power campaign, short form for make check (make soak
#   runs 1000 operations and 100 cycles, tests/soak/soak_power_full.sh):
#   200 random runtime-PM operations on every peripheral of the board and
#   on the dsp core, and 12 system suspend/resume cycles, under checked
#   rpmsg traffic to the echo firmware on ipu. After each: no active device
#   in an off domain, kernel and SoC model agree once settled; at the end
#   counters balance, no message was lost, no violation.
# STRATEGY: boot ampsoc-rpmsg-echo on ipu; soak_power (tests/guest) with a
#   random seed it prints (SOAK_SEED=N in CMD replays one): operations are
#   power/control on/auto, touch, a use of the device (timer, sensor, DMA),
#   autosuspend delays, timer stop, dsp start/stop; cycles rotate
#   pm_test=devices, pm_test=platform, a real S3 woken by the RTC alarm and
#   a real s2idle woken at the alarm's time (the wakeup host service);
#   a thread echoes sequence-numbered messages through /dev/rpmsgN
#   throughout. Then ipu is stopped and the model's counters compared.
# services: socmodel
# services: wakeup
# load-all: 1
# timeout: 420
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/soak.sh

soak_power_campaign 200 12 300 /dev/ttyS2
ktap_done

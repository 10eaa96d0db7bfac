#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: many channels between the SDK's firmware and Linux's own
#   rpmsg (the peer stack): the firmware announces and destroys 32 channels
#   at Linux's request, twice, through mainline's name service, and 16000
#   checked messages go over 32 endpoints at once.
# STRATEGY: on the mainline stack, boot ampsoc-rpmsg-check-nobuf.elf on
#   $CORE: two channels (ampsoc-check, ampsoc-check-ctl) on mainline's bus;
#   rpmsg_check many asks for 32 more (add I), checks each appears on
#   /sys/bus/rpmsg, runs 16000 checked messages over 32 endpoints, has
#   them destroyed (del I) and checks they are gone, twice; two channels
#   remain.
# services: socmodel
# stack: mainline
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 420
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
chans() { ls -d /sys/bus/rpmsg/devices/*.ampsoc-check* 2>/dev/null | wc -l; }
fw rpmsg-check-nobuf >"$R/firmware"
check start sh -c "echo start >$R/state"
check ctrl_dev wait_for 20 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
check two_channels_at_boot wait_for 20 sh -c '[ "$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-check* 2>/dev/null | wc -l)" = 2 ]'
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
guest_test rpmsg_check many "$ctrl" 32 16000 2
check_eq two_channels_after 2 chans
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

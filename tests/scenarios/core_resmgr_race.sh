#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The rpmsg resource manager lets go of a remote completely
#   when its channel goes away, whatever the remote is sending meanwhile: no
#   request is served after the removal started, nothing stays held, the
#   kernel and the SoC model agree that every domain the remote used is
#   off.
# STRATEGY: ampsoc-rpmsg-resmgr on $CORE, two guest CPUs. (1) The race made
#   wide: ampsoc_resmgr_race_test holds the receive callback of a request for
#   l4per right where it queues the request's work, while the driver is
#   unbound from the channel on the other CPU; the module reports that the
#   removal ran while the callback was held. Afterwards nothing is held (no
#   debugfs directory, no resmgr- device in any domain), l4per and
#   l4per_sub are off in the kernel and the model; rebinding brings a
#   HELLO and the firmware's holding back. (2) Floods: ten times, the firmware sends 64 requests without
#   waiting and the core is crashed at once (recovery on); once it is back
#   it holds exactly its own l4per_sub again. Stopping it leaves every
#   domain off on both sides. No model violation.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# smp: 2
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/resmgr.sh

DOM=l4per_sub
RACE=/sys/module/ampsoc_resmgr_race_test/parameters

core_find $CORE || bail "no remote processor for core $CORE"
REMOTE=$(basename "$R")

held_only_own() { [ "$(cat "$RM/$REMOTE/holdings" 2>/dev/null)" = "domain $DOM 1" ]; }
no_holder_devices() { ! grep -q '^resmgr-' /sys/kernel/ampsoc_pd/*/devices; }
all_off() { both l4per_sub off && both l4per off; }
race_is() { [ "$(cat $RACE/state)" = "$1" ]; }

check set_firmware sh -c "echo $(fw rpmsg-resmgr) >$R/firmware"
check start sh -c "echo start >$R/state"
check channel_bound wait_for 20 bound || bail "no resource-manager channel"
check holds_its_domain wait_for 10 held_only_own
check control_channel wait_for 10 open_ctl race-test 3300 || bail "no control endpoint"

# (1) the receive callback held at its queue_work while the driver goes
CH=$(basename "$(chan rpmsg-resmgr)")
check race_module_loaded modprobe ampsoc_resmgr_race_test hold_ms=3000
ctl request domain l4per >/tmp/race.answer 2>&1 &
CALL=$!
check callback_held wait_for 10 race_is 1
check unbind_during_callback sh -c "echo $CH >/sys/bus/rpmsg/drivers/ampsoc_rpmsg_resmgr/unbind"
check callback_released wait_for 10 race_is 2
check_eq removal_ran_while_held Y cat $RACE/remove_seen
ktap_diag "remove returned before the callback queued its work: $(cat $RACE/remove_first)"
check nothing_held_after_unbind wait_for 10 no_holdings
check no_holder_device_left wait_for 10 no_holder_devices
check domains_off_after_unbind wait_for 10 all_off
# Served before the removal took over (then released with the rest) or
# dropped with the queue (the firmware times out): either is fine.
wait $CALL
ktap_diag "the firmware's request answered: $(cat /tmp/race.answer)"
check race_module_removed rmmod ampsoc_resmgr_race_test
check still_nothing_held no_holder_devices
check_eq still_off off kernel_dom l4per
check rebind sh -c "echo $CH >/sys/bus/rpmsg/drivers/ampsoc_rpmsg_resmgr/bind"
check holds_again_after_rebind wait_for 20 held_only_own
check domain_on_after_rebind wait_for 10 both $DOM on

# (2) floods, each ended by a crash
echo enabled >"$R/recovery"
i=0
while [ $i -lt 10 ]; do
	b0=$(core_field boot_count)
	wait_for 10 open_ctl race-test 3300 || break
	ctl flood 64 >/dev/null
	echo 2 >"$D/crash"
	back() { [ "$(core_field boot_count)" -gt "$b0" ] && bound && held_only_own; }
	wait_for 30 back || break
	i=$((i + 1))
done
check_eq ten_floods_survived 10 echo $i
check holds_only_its_own held_only_own
check_eq one_holder_device "resmgr-$DOM" sh -c "cat /sys/kernel/ampsoc_pd/*/devices | grep '^resmgr-'"

check stop sh -c "echo stop >$R/state"
check nothing_held_at_end wait_for 10 no_holdings
check domains_off_at_end wait_for 10 all_off
check no_holder_device_at_end no_holder_devices
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Unbinding the vsoc power controller while another module's
#   device is in one of its domains frees nothing that is still registered:
#   the domain (and its parent) stay registered, readable and consistent,
#   without power control, the module stays loaded, and once the device
#   has left they are unregistered and the controller binds again as if
#   nothing happened.
# STRATEGY: Load ampsoc_vsoc_holder_test, which puts a device of its own in
#   l4per and keeps it runtime-active (its KTAP: joined, on in the kernel
#   and the model). Unbind vsoc-power: l4per and its parent wkup stay in
#   /sys/kernel/ampsoc_pd, every one of their sysfs and debugfs files reads
#   back what it should (state on, the holder in l4per's devices, l4per a
#   subdomain of wkup), the other domains are gone, the log says why, and
#   ampsoc_vsoc_power cannot be removed. Remove the holder: both domains
#   are unregistered within seconds. Bind vsoc-power again: every domain
#   is back, every peripheral is bound and answers, the kernel and the
#   model agree on every domain's state, l4per goes off once idle. Then
#   rmmod ampsoc_vsoc_power with the holder back in l4per: unloading
#   cannot be refused, so it waits (the module "going", l4per still on in
#   the kernel and the model) until the holder is removed, then finishes
#   with every domain gone; modprobe brings the SoC back. No violation.
# services: socmodel
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh

wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
PDS=/sys/kernel/ampsoc_pd
PDD=/sys/kernel/debug/ampsoc_pd
DRV=/sys/bus/platform/drivers/vsoc-power
POWER=$(basename "$(ls -d $DRV/vsoc-power.* | head -n 1)")

dom_model() {
	awk -v d="$1" '$1 == "domain" && $2 == d { print $4 }' "$VSOC/telemetry"
}
# read_all DIR: every regular file of DIR reads without error
read_all() {
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		cat "$f" >/dev/null || { echo "$f unreadable"; return 1; }
	done
}
gone() { [ ! -e "$PDS/$1" ] && [ ! -e "$PDD/$1" ]; }

check works_at_start all_work
check holder_loaded modprobe ampsoc_vsoc_holder_test domain=l4per
KT=/sys/kernel/debug/ampsoc_ktap/ampsoc_vsoc_holder_test
cat "$KT" | sed 's/^/# /'
check holder_ktap_passed sh -c "grep -q '^ok' $KT && ! grep -q '^not ok' $KT"
check_eq l4per_on_with_holder on cat $PDS/l4per/current_state

check unbind_power sh -c "echo $POWER >$DRV/unbind"
check power_unbound test ! -e "$DRV/$POWER"
check parked_logged sh -c "dmesg | grep -q 'stay registered, without power control'"
check l4per_still_registered test -d $PDS/l4per
check wkup_still_registered test -d $PDS/wkup
for d in l4per_sub ipu dsp; do
	check "${d}_unregistered" gone $d
done
check l4per_sysfs_reads read_all $PDS/l4per
check wkup_sysfs_reads read_all $PDS/wkup
check l4per_debugfs_reads read_all $PDD/l4per
check summary_reads cat $PDD/pm_genpd_summary
check_eq l4per_state_on on cat $PDS/l4per/current_state
check_eq l4per_holds_holder vsoc-test-holder cat $PDS/l4per/devices
check_eq l4per_one_device 1 cat $PDS/l4per/device_count
check_eq wkup_parent_of_l4per l4per cat $PDS/wkup/sub_domains
check_eq l4per_on_in_model on dom_model l4per
check module_pinned sh -c "! rmmod ampsoc_vsoc_power 2>/dev/null"

check holder_removed rmmod ampsoc_vsoc_holder_test
check l4per_unregistered_after_holder wait_for 10 gone l4per
check wkup_unregistered_after_holder wait_for 10 gone wkup
check released_logged sh -c "dmesg | grep -q 'last parked domain is unregistered'"

check rebind_power sh -c "echo $POWER >$DRV/bind"
check settled_again wait_for 30 vsoc_settled
for d in wkup l4per l4per_sub ipu dsp; do
	check "${d}_back" test -d $PDS/$d
done
check works_after_rebind wait_for 20 all_work
# the kernel's counters started again with the binding, the model's did
# not: compare states
states_agree() {
	for d in wkup l4per l4per_sub ipu dsp; do
		case $(cat $PDS/$d/current_state) in off*) k=off ;; *) k=on ;; esac
		[ "$k" = "$(dom_model $d)" ] || { echo "$d: kernel $k, model $(dom_model $d)"; return 1; }
	done
}
check states_agree wait_for 20 states_agree
both_off() {
	case $(cat $PDS/$1/current_state) in off*) ;; *) return 1 ;; esac
	[ "$(dom_model "$1")" = off ]
}
check l4per_off_when_idle wait_for 20 both_off l4per

# Unloading the module cannot be refused: it waits for the device to leave.
check holder_loaded_again modprobe ampsoc_vsoc_holder_test domain=l4per
rmmod ampsoc_vsoc_power >/tmp/rmmod.out 2>&1 &
RMMOD=$!
check rmmod_waits wait_for 20 sh -c "dmesg | grep -q 'unloading waits until the devices of other drivers leave'"
check_eq module_going going cat /sys/module/ampsoc_vsoc_power/initstate
check_eq l4per_on_while_unloading on cat $PDS/l4per/current_state
check_eq l4per_on_in_model_while_unloading on dom_model l4per
check holder_removed_again rmmod ampsoc_vsoc_holder_test
wait $RMMOD
check_eq rmmod_done 0 echo $?
check module_unloaded test ! -e /sys/module/ampsoc_vsoc_power
for d in wkup l4per l4per_sub ipu dsp; do
	check "${d}_gone_after_unload" gone $d
done
check reload_power modprobe ampsoc_vsoc_power
check settled_after_reload wait_for 30 vsoc_settled
check works_after_reload wait_for 20 all_work
check states_agree_after_reload wait_for 20 states_agree
check_eq no_violations 0 awk '$1 == "violations" { print $2 }' "$VSOC/telemetry"
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: stay on until sync (docs/pmdomain.md): a domain registered
#   on with AMPSOC_PD_FLAG_STAY_ON stays on until its provider's
#   sync_state or the stay-on timeout, then goes off if idle; on the vsoc,
#   a board domain with stay_on_until_sync is not switched off at probe,
#   stays on while a consumer of the power controller is unbound, is
#   released by the controller's sync_state once every consumer bound,
#   and the model, told of the sync, records no violation.
# STRATEGY: nest ampsoc_pdstayon_test's KTAP (fake domains: held across
#   runtime suspend and power_off_unused, parent kept on, sync, timeout,
#   refused release, pm_suspend() at pm_test platform leaves it on,
#   errors) and check the timeout's log line names its
#   domain. Then on tests/boards/stayon.ini (disp: stay-on, its only
#   consumer dss; gpt2 in l4per): load the SoC and its power controller,
#   disp is held; unbind and bind the vsoc PCI device (the controller then
#   binds before its consumers are linked): disp is still held. Keep gpt2
#   from binding (driver_override), load the peripheral drivers: disp is
#   on in the kernel and the model, held
#   (debugfs stay_on, summary), dss bound and runtime-suspended. Let gpt2
#   bind: the controller's sync_state releases disp, which goes off in the
#   kernel and the model; the log says so; zero violations, zero garbage.
# services: socmodel board=tests/boards/stayon.ini
# smp: 2
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh

PDS=/sys/kernel/ampsoc_pd
PDD=/sys/kernel/debug/ampsoc_pd
PAR=/sys/module/ampsoc_pd/parameters/stay_on_timeout_ms

# The system-sleep case runs pm_suspend() at pm_test platform (noirq
# phases run, nothing sleeps).
echo 0 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if grep -q deep /sys/power/mem_sleep 2>/dev/null; then
	echo deep >/sys/power/mem_sleep
fi
echo platform >/sys/power/pm_test
kmod_test ampsoc_pdstayon_test sleep=1
echo none >/sys/power/pm_test
check timeout_log_names_domain sh -c \
	"dmesg | grep -q 'pdst_timeout: stay-on hold released by timeout, no sync_state after 300 ms'"
check sync_cases_not_timed_out sh -c \
	"! dmesg | grep -q 'pdst_held: stay-on hold released by timeout'"

# The vsoc part: the hold must end by sync_state, not by the timeout.
check long_timeout sh -c "echo 120000 >$PAR"
check vsoc_loaded modprobe ampsoc_vsoc
check clk_loaded modprobe ampsoc_vsoc_clk
check power_loaded modprobe ampsoc_vsoc_power
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
TEL=$VSOC/telemetry
dom_model() {
	awk -v d="$1" '$1 == "domain" && $2 == d { print $4 }' "$TEL"
}
check_eq disp_held_at_probe held cat $PDD/disp/stay_on

# The SoC probing again with the power driver loaded: the controller binds
# from its device's registration, before the vsoc core links the
# consumers; it must wait for the links, or sync_state releases disp now.
PCI=$(basename "$(readlink -f "$(ls -d /sys/bus/platform/devices/vsoc-power.* | head -n 1)/..")")
PCIDRV=/sys/bus/pci/drivers/ampsoc_vsoc
check soc_unbound sh -c "echo $PCI >$PCIDRV/unbind"
check soc_rebound sh -c "echo $PCI >$PCIDRV/bind"
power_bound() { ls /sys/bus/platform/drivers/vsoc-power/ | grep -q '^vsoc-power'; }
check power_bound_again wait_for 10 power_bound
check_eq disp_held_after_rebind held cat $PDD/disp/stay_on
check_eq disp_on_after_rebind on dom_model disp

GPT=$(basename "$(ls -d /sys/bus/platform/devices/vsoc-timer.* | head -n 1)")
DSS=$(basename "$(ls -d /sys/bus/platform/devices/vsoc-simple.* | head -n 1)")
check gpt2_kept_unbound sh -c "echo ampsoc-none >/sys/bus/platform/devices/$GPT/driver_override"
check periph_loaded modprobe ampsoc_vsoc_periph
dss_suspended() {
	[ "$(cat /sys/bus/platform/devices/$DSS/power/runtime_status)" = suspended ]
}
check dss_bound test -e /sys/bus/platform/devices/$DSS/driver
check dss_runtime_suspended wait_for 10 dss_suspended
check gpt2_unbound test ! -e /sys/bus/platform/devices/$GPT/driver
check_eq disp_on_while_held on cat $PDS/disp/current_state
check_eq disp_held held cat $PDD/disp/stay_on
check summary_shows_hold sh -c "grep -q '^disp .*on (stay-on)' $PDD/pm_genpd_summary"
check_eq disp_on_in_model on dom_model disp
check no_sync_yet sh -c "! dmesg | grep -q 'stay-on domain(s) released'"

check gpt2_override_cleared sh -c "echo >/sys/bus/platform/devices/$GPT/driver_override"
check gpt2_probed sh -c "echo $GPT >/sys/bus/platform/drivers_probe"
check gpt2_bound wait_for 10 test -e /sys/bus/platform/devices/$GPT/driver
disp_off() { [ "$(cat $PDS/disp/current_state)" = off-0 ]; }
check disp_off_after_sync wait_for 10 disp_off
check_eq disp_released released-sync cat $PDD/disp/stay_on
check sync_state_logged sh -c "dmesg | grep -q 'sync_state: consumers bound, 1 stay-on domain(s) released'"
check_eq disp_off_in_model off dom_model disp
check no_timeout_for_disp sh -c "! dmesg | grep -q 'disp: stay-on hold released by timeout'"
check_eq zero_violations 0 awk '$1 == "violations" { print $2 }' "$TEL"
check_eq zero_garbage 0 awk '$1 == "garbage" { print $2 }' "$TEL"
# The model's counters span both bindings (the kernel's restart at the
# rebind): disp went off once, at the sync.
check_eq disp_off_once_in_model 1 \
	awk '$1 == "domain" && $2 == "disp" { print $8 }' "$TEL"
ktap_done

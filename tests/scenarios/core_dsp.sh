#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The DSP-style core (dsp: split program and data memories at
#   0x20000000, its own PM domain) runs real firmware built for its memory
#   map, alone and together with the M3-style core (ipu): its domain is on
#   exactly while it runs (as the SoC model reports it) and independent of
#   ipu's; a firmware crash on it is recovered, or with recovery disabled
#   leaves it crashed with a coredump; rpmsg echo works on both cores at
#   once, each core's channels on the bus under its own remoteproc, and a
#   crash of the dsp tears down and recreates only the dsp's channels.
# STRATEGY: dsp alone: ampsoc-hello-dsp boots, trace0 says "hello from
#   core dsp", model domain dsp on and ipu off, control block RUNNING,
#   mailbox echo answered, stop, domain off. ampsoc-crash-dsp with recovery:
#   the model counts a crash and a second boot within 10 s; without: state
#   crashed, a devcoredump with an ELF core, no further boot. Both cores:
#   ampsoc-rpmsg-echo on ipu and ampsoc-rpmsg-echo-dsp on dsp, both domains
#   on, an ampsoc-echo channel under each remoteproc, 200 echoes on each
#   through its own rpmsg_ctrl; a crash report on dsp (debugfs crash):
#   dsp's channel is recreated and echoes, ipu's channel is the same node
#   and echoes; stop dsp (its domain off, ipu's on), stop ipu; no
#   violations in the model.
# Not in the ISA matrix (no "# isa:"): it is about the native dsp and ipu
#   cores by name, and no board has an emulated DSP (docs/cores.md).
# services: socmodel
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
IR=$R ID=$D IC=$C
core_find dsp || bail "no remote processor for core dsp"
ktap_diag "dsp is $R ($PDEV), ipu is $IR"

# ---- dsp alone: hello ------------------------------------------------------
check_eq dsp_offline_at_probe offline cat "$R/state"
check_eq dsp_domain_off_before_boot off dom_state dsp
check dsp_core_not_running_before_boot core_not_running
check set_hello_dsp sh -c "echo ampsoc-hello-dsp.elf >$R/firmware"
b0=$(core_field boot_count)
check dsp_start sh -c "echo start >$R/state"
check_eq dsp_running running cat "$R/state"
check_eq dsp_domain_on_while_running on dom_state dsp
check_eq ipu_domain_still_off off dom_state ipu
check_eq dsp_core_running_in_model 2 core_field state
check_eq dsp_boot_count_incremented $((b0 + 1)) core_field boot_count
check dsp_trace_shows_firmware wait_for 10 grep -q "hello from core dsp (dsp map)" "$D/trace0"
ktap_diag "trace0: $(tr '\n' '|' <"$D/trace0")"
echo 20 >"$C/iters"
check dsp_mbox_echo sh -c "grep -q 'status 0 iters 20 ' $C/mbox_ping"
check_eq dsp_runtime_pm_active active cat "$PDEV/power/runtime_status"
check dsp_stop sh -c "echo stop >$R/state"
check_eq dsp_domain_off_after_stop off dom_state dsp
check dsp_core_not_running_after_stop core_not_running
check_eq dsp_runtime_pm_suspended suspended cat "$PDEV/power/runtime_status"

# ---- dsp crash, recovered --------------------------------------------------
check_eq dsp_recovery_default enabled cat "$R/recovery"
echo disabled >"$R/coredump"
c0=$(core_field crash_count)
b0=$(core_field boot_count)
check set_crash_dsp sh -c "echo ampsoc-crash-dsp.elf >$R/firmware"
check dsp_start_crash sh -c "echo start >$R/state"
recovered() {
	[ "$(core_field crash_count)" -gt "$c0" ] &&
		[ "$(core_field boot_count)" -ge $((b0 + 2)) ]
}
check dsp_recovered_within_10s wait_for 10 recovered
check dsp_crash_trace_line wait_for 10 grep -q "core dsp about to crash" "$D/trace0"
check dsp_stop_recovering sh -c "echo stop >$R/state"
check_eq dsp_domain_off_after_crash_stop off dom_state dsp

# ---- dsp crash, recovery disabled: coredump --------------------------------
echo disabled >"$R/recovery"
echo enabled >"$R/coredump"
c1=$(core_field crash_count)
b1=$(core_field boot_count)
check dsp_start_no_recovery sh -c "echo start >$R/state"
check dsp_crashed_state wait_for 10 grep -qx crashed "$R/state"
devcd() { ls -d /sys/class/devcoredump/devcd* 2>/dev/null | head -n 1; }
has_devcd() { [ -n "$(devcd)" ]; }
check dsp_devcoredump_appears wait_for 10 has_devcd
CD=$(devcd)
check_eq dsp_devcoredump_is_elf_core "7f454c46" sh -c "head -c 4 $CD/data | od -An -tx1 | tr -d ' \n'"
echo 1 >"$CD/data" 2>/dev/null
check_eq dsp_no_reboot_in_model $((b1 + 1)) core_field boot_count
check_eq dsp_one_crash_in_model $((c1 + 1)) core_field crash_count
check_eq dsp_core_crashed_in_model 3 core_field state
check dsp_stop_crashed sh -c "echo stop >$R/state"
check_eq dsp_domain_off_after_crashed_stop off dom_state dsp
echo enabled >"$R/recovery"
echo disabled >"$R/coredump"

# ---- both cores, rpmsg echo on each ----------------------------------------
DCH= ICH=
dsp_chan() { DCH=$(core_chan "$R" ampsoc-echo); [ -n "$DCH" ]; }
ipu_chan() { ICH=$(core_chan "$IR" ampsoc-echo); [ -n "$ICH" ]; }
# ping RDIR CHAN ADDR: 200 checked echoes through RDIR's own rpmsg_ctrl.
ping() {
	_ctrl=$(core_ctrl "$1")
	[ -n "$_ctrl" ] || return 1
	ampsocctl ept "$_ctrl" core-dsp "$3" "$(($(cat "$2/dst")))" ping 200 64
}
check set_echo_ipu sh -c "echo ampsoc-rpmsg-echo.elf >$IR/firmware"
check set_echo_dsp sh -c "echo ampsoc-rpmsg-echo-dsp.elf >$R/firmware"
check ipu_start_echo sh -c "echo start >$IR/state"
check dsp_start_echo sh -c "echo start >$R/state"
check_eq both_ipu_domain_on on dom_state ipu
check_eq both_dsp_domain_on on dom_state dsp
check ipu_echo_channel wait_for 20 ipu_chan
check dsp_echo_channel wait_for 20 dsp_chan
ktap_diag "ipu channel $(basename "$ICH"), dsp channel $(basename "$DCH")"
check channels_are_distinct test "$ICH" != "$DCH"
check dsp_uses_carveout_pa grep -q "buffers by physical address" "$D/trace0"
check echo_on_ipu ping "$IR" "$ICH" 2000
check echo_on_dsp ping "$R" "$DCH" 2001

ino() { ls -di "$1/" | awk '{ print $1 }'; }
iold=$(ino "$ICH")
dold=$(ino "$DCH")
b0=$(core_field boot_count)
ib0=$(ctl_field "$IC" boot_count)
echo 2 >"$D/crash"
dsp_new() { dsp_chan && [ "$(ino "$DCH")" != "$dold" ]; }
check dsp_channel_recreated wait_for 20 dsp_new
check dsp_running_after_recovery wait_for 10 grep -qx running "$R/state"
check_eq dsp_rebooted_in_model $((b0 + 1)) core_field boot_count
check echo_on_dsp_after_recovery ping "$R" "$DCH" 2002
ipu_same() { ipu_chan && [ "$(ino "$ICH")" = "$iold" ]; }
check ipu_channel_untouched ipu_same
check_eq ipu_not_rebooted "$ib0" ctl_field "$IC" boot_count
check echo_on_ipu_after_dsp_crash ping "$IR" "$ICH" 2003

check dsp_stop_echo sh -c "echo stop >$R/state"
check_eq dsp_domain_off_ipu_running off dom_state dsp
check_eq ipu_domain_on_dsp_stopped on dom_state ipu
no_dsp_chan() { ! dsp_chan; }
check dsp_channels_gone no_dsp_chan
check echo_on_ipu_alone ping "$IR" "$ICH" 2004
check ipu_stop_echo sh -c "echo stop >$IR/state"
check_eq ipu_domain_off_at_end off dom_state ipu
check_eq dsp_domain_off_at_end off dom_state dsp
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The vring firewall: Linux makes the driver-owned part of
#   every vring (descriptor table, available ring) read-only for the core
#   before it releases it; rpmsg works as before (the core writes only its
#   used ring), and a core that writes Linux's part ends with a firewall
#   fault of its own: one log line with the address, a remoteproc MMU-fault
#   crash, the model's counters, no violation, and a recovery after which
#   everything works again.
# STRATEGY: Boot ampsoc-vring-poke on ipu (4 KiB-aligned vrings: desc and
#   avail fill whole pages). Check the control block: firewall on, 2
#   regions, 16 KiB protected, nothing unprotected. Echo 100 messages. Ask
#   where its vrings are, poke its own used ring (goes through, still
#   running, echo works). Poke the tx descriptor table: no answer; the
#   model counts a firewall fault, the control block says crash reason
#   FAULT (6), info FIREWALL (1), the faulting address is the descriptor
#   table's, Linux logs "firewall fault: write at ADDR" and "type
#   mmufault"; recovery is disabled, so the core stays crashed and its
#   trace says what it was writing, and nothing after; stop and start it,
#   it echoes again. Then the same with the rx available ring and recovery
#   enabled: the core comes back by itself. Stop; no violation.
# services: socmodel
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/firewall.sh

core_find ipu || bail "no remote processor for core ipu"

more_crashes() { [ "$(core_field crash_count)" -gt "$1" ]; }
running_again() {
	[ "$(core_field boot_count)" -gt "$1" ] && grep -qx running "$R/state" &&
		chan_of ampsoc-vring-poke && chan_of ampsoc-echo
}
# one firewall fault: poke PART RING, then check everything about it;
# RECOVERY enabled or disabled (then the trace is still there to read)
fault_case() {
	_part=$1 _ring=$2
	echo "$3" >"$R/recovery"
	_addr=$(addr_of "$_part" "$_ring")
	_b0=$(core_field boot_count)
	_c0=$(core_field crash_count)
	_f0=$(tele_field firewall_faults)
	check "${_part}_${_ring}_poke_unanswered" sh -c "! ampsocctl ept $EPT call '$_part $_ring'"
	check "${_part}_${_ring}_crash_counted" wait_for 10 more_crashes "$_c0"
	check_eq "${_part}_${_ring}_model_counts_fault" $((_f0 + 1)) tele_field firewall_faults
	check_eq "${_part}_${_ring}_reason_fault" 6 core_field crash_reason
	check_eq "${_part}_${_ring}_info_firewall" 1 core_field crash_info
	check_eq "${_part}_${_ring}_fault_address" "$_addr" core_field fault_addr
	check_eq "${_part}_${_ring}_write_access" 2 core_field fault_access
	check "${_part}_${_ring}_logged" sh -c "dmesg | grep -q 'ipu crashed: firewall fault: write at $_addr, pc 0x'"
	if [ "$3" = disabled ]; then
		check "${_part}_${_ring}_stays_crashed" wait_for 10 grep -qx crashed "$R/state"
		check "${_part}_${_ring}_trace_names_it" trace_has "writing the $_part of the $_ring vring at $_addr"
		check_eq "${_part}_${_ring}_last_words" "writing the $_part of the $_ring vring at $_addr" \
			sh -c "grep -o 'vring-poke: .*' $D/trace0 | tail -n 1 | cut -d' ' -f2-"
		check "${_part}_${_ring}_stop" core_stop
		check "${_part}_${_ring}_start" sh -c "echo start >$R/state"
		echo enabled >"$R/recovery"
	fi
	check "${_part}_${_ring}_recovered" wait_for 30 running_again "$_b0"
	check "${_part}_${_ring}_ctl_again" wait_for 10 poke_ept
	check "${_part}_${_ring}_echo_after_recovery" echo_ping 20 64
}

MMU0=$(dmesg | grep -c 'crash detected in ipu: type mmufault')
check boot_poke core_boot ampsoc-vring-poke.elf ampsoc-vring-poke
check_eq firewall_on on core_field firewall
check_eq two_regions 2 core_field fw_regions
check_eq desc_and_avail_pages_protected 16384 core_field fw_protected
check_eq nothing_unprotected 0 core_field fw_unprotected
check echo_works echo_ping 100 64
check control_channel wait_for 10 poke_ept || bail "no control endpoint"
WHERE=$(poke where)
ktap_diag "vrings: $WHERE"
check where_answers test -n "$(addr_of used rx)"

used=$(addr_of used tx)
check_eq used_ring_is_ours "poked used tx $used" poke used tx
check_eq still_running running cat "$R/state"
check echo_after_used_poke echo_ping 20 64
check_eq no_fault_yet 0 tele_field firewall_faults

echo disabled >"$R/coredump"
fault_case desc tx disabled
WHERE=$(poke where)
fault_case avail rx enabled
check_eq two_mmufaults $((MMU0 + 2)) sh -c "dmesg | grep -c 'crash detected in ipu: type mmufault'"
check_eq core_counts_two 2 core_field fw_faults

check stop_core core_stop
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A remote core of the virtual SoC runs the firmware Linux
#   loaded: ampsoc-hello boots on the M3-style core (ipu), its trace buffer
#   in debugfs shows the firmware's own output, it answers doorbells, and
#   it stops again. The core's PM domain is on exactly while the core runs,
#   as the SoC model itself reports it, and nothing is violated.
# STRATEGY: find the remoteproc whose name is the board's core "ipu"; check
#   in the model's telemetry that its domain is off and the core is held
#   (control block state 0/1); echo start; check the remoteproc state, the
#   trace0 text ("hello" with the core's name), the model's domain state
#   (on) and the control block (RUNNING, boot count up), a mailbox echo
#   round trip answered by the firmware; echo stop; check the domain is off
#   in the model and the core is no longer running. On the m4 (armv7m)
#   only, the same boot with ampsoc-bare-m4, firmware written without the
#   SDK (docs/porting-firmware.md): its trace line carries the carveout pa
#   Linux wrote back, and it answers the mailbox echo.
#   On the ipu, whose memory has its own domain (ipu_mem, ABI 1.5): the
#   core's virtual device on the ampsoc_pd bus, the memory domain off
#   before the boot, on while the core runs, off again after the stop
#   (the model would report core_running_with_memory_off otherwise).
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 180
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
ktap_diag "$CORE is $R ($PDEV)"

# The memory domain of the default board's ipu (docs/vsoc.md).
MEMDOM=
[ "$CORE" = ipu ] && MEMDOM=ipu_mem
VIRT=/sys/bus/ampsoc_pd/devices/ampsoc_pd:1:$(basename "$PDEV")
mem_off() { [ "$(dom_state $MEMDOM)" = off ]; }
if [ -n "$MEMDOM" ]; then
	check mem_virtual_device test -e "$VIRT"
	check mem_linked test -e "$PDEV/supplier:ampsoc_pd:$(basename "$VIRT")"
	check mem_domain_off_before_boot wait_for 10 mem_off
fi

check_eq firmware_default "$(fw hello)" cat "$R/firmware"
check_eq offline_at_probe offline cat "$R/state"
check_eq domain_off_before_boot off dom_state $CORE
check core_not_running_before_boot core_not_running

b0=$(core_field boot_count)
check start sh -c "echo start >$R/state"
check_eq running running cat "$R/state"
check_eq domain_on_while_running on dom_state $CORE
check_eq core_running_in_model 2 core_field state
check_eq boot_count_incremented $((b0 + 1)) core_field boot_count
check trace_shows_firmware_output wait_for 10 grep -q "$CORE" "$D/trace0"
ktap_diag "trace0: $(tr '\n' '|' <"$D/trace0")"
echo 20 >"$C/iters"
check mbox_echo_answered_by_firmware sh -c "grep -q 'status 0 iters 20 ' $C/mbox_ping"
check_eq runtime_pm_active active cat "$PDEV/power/runtime_status"
[ -n "$MEMDOM" ] && check_eq mem_domain_on_while_running on dom_state $MEMDOM

check stop sh -c "echo stop >$R/state"
check_eq offline_after_stop offline cat "$R/state"
check_eq domain_off_after_stop off dom_state $CORE
check core_not_running_after_stop core_not_running
check_eq runtime_pm_suspended suspended cat "$PDEV/power/runtime_status"
# The link releases the memory domain asynchronously, after the core's own.
[ -n "$MEMDOM" ] && check mem_domain_off_after_stop wait_for 10 mem_off

# Firmware of one's own (firmware/examples/bare-m4, docs/porting-firmware.md):
# Linux loads it, gives its carveout a pa and shows its trace buffer.
if [ "$CORE" = m4 ]; then
	check bare_firmware_set sh -c "echo $(fw bare) >$R/firmware"
	check bare_start sh -c "echo start >$R/state"
	check_eq bare_running running cat "$R/state"
	check bare_trace_line wait_for 10 grep -q \
		"^bare-m4: hello from m4, carveout da 0x80000000 pa 0x" "$D/trace0"
	ktap_diag "trace0: $(tr '\n' '|' <"$D/trace0")"
	check bare_carveout_pa_written_back sh -c "! grep -q 'pa 0xffffffff' $D/trace0"
	echo 20 >"$C/iters"
	check bare_mbox_echo sh -c "grep -q 'status 0 iters 20 ' $C/mbox_ping"
	check bare_stop sh -c "echo stop >$R/state"
	check_eq bare_domain_off_after_stop off dom_state $CORE
fi
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A firmware crash on a real remote core (ampsoc-crash: a
#   store to address 0x10, SIGSEGV in the core process) becomes a
#   remoteproc crash report: with recovery enabled the core is restarted
#   automatically within a bounded time; with recovery disabled it stays
#   crashed and a readable devcoredump (ELF core) appears. A malformed
#   firmware is refused with the core left offline and its domain off, and
#   a correct firmware boots afterwards.
# STRATEGY: on ipu, load ampsoc-crash with recovery enabled and wait (10 s
#   bound) for the model to count a second boot after a crash; stop it.
#   Disable recovery, start again, wait for state "crashed", the devcoredump
#   (read its ELF magic), check the model's boot count has not moved since
#   and the core is crashed in the model; stop. Write a garbage image and a
#   truncated ELF to /lib/firmware, start must fail each time, the model's
#   domain must be off; then ampsoc-hello runs and its trace is there.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 180
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"

# Recovery enabled: crash, recover, crash again...
check_eq recovery_default enabled cat "$R/recovery"
echo disabled >"$R/coredump"
c0=$(core_field crash_count)
b0=$(core_field boot_count)
check set_crash_firmware sh -c "echo $(fw crash) >$R/firmware"
check start_crash sh -c "echo start >$R/state"
recovered() {
	[ "$(core_field crash_count)" -gt "$c0" ] &&
		[ "$(core_field boot_count)" -ge $((b0 + 2)) ]
}
check recovered_within_10s wait_for 10 recovered
check crash_trace_line wait_for 10 grep -q "about to crash" "$D/trace0"
check stop_recovering sh -c "echo stop >$R/state"
check_eq offline_after_stop offline cat "$R/state"
check_eq domain_off_after_crash_stop off dom_state $CORE

# Recovery disabled: stays crashed, coredump.
echo disabled >"$R/recovery"
echo enabled >"$R/coredump"
c1=$(core_field crash_count)
b1=$(core_field boot_count)
check start_no_recovery sh -c "echo start >$R/state"
check crashed_state wait_for 10 grep -qx crashed "$R/state"
devcd() { ls -d /sys/class/devcoredump/devcd* 2>/dev/null | head -n 1; }
has_devcd() { [ -n "$(devcd)" ]; }
check devcoredump_appears wait_for 10 has_devcd
CD=$(devcd)
check_eq devcoredump_is_elf_core "7f454c46" sh -c "head -c 4 $CD/data | od -An -tx1 | tr -d ' \n'"
check devcoredump_has_memory test "$(wc -c <"$CD/data")" -gt 4096
echo 1 >"$CD/data" 2>/dev/null
check_eq still_crashed crashed cat "$R/state"
check_eq no_reboot_in_model $((b1 + 1)) core_field boot_count
check_eq one_crash_in_model $((c1 + 1)) core_field crash_count
check_eq core_crashed_in_model 3 core_field state
check stop_crashed sh -c "echo stop >$R/state"
check_eq domain_off_after_stop off dom_state $CORE
echo enabled >"$R/recovery"

# Malformed images, then a correct one.
printf 'this is not an ELF image at all' >/lib/firmware/ampsoc-garbage.elf
head -c 100 /lib/firmware/$(fw hello) >/lib/firmware/ampsoc-truncated.elf
for fw in ampsoc-garbage.elf ampsoc-truncated.elf; do
	echo $fw >"$R/firmware"
	check "refused_$fw" sh -c "! echo start >$R/state"
	check_eq "offline_after_$fw" offline cat "$R/state"
	check_eq "domain_off_after_$fw" off dom_state $CORE
done
check set_hello sh -c "echo $(fw hello) >$R/firmware"
check hello_boots_after_bad sh -c "echo start >$R/state"
check hello_trace wait_for 10 grep -q "hello from core $CORE" "$D/trace0"
check_eq domain_on_while_running on dom_state $CORE
check stop_hello sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

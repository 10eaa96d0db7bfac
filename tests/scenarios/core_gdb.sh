#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: gdb-multiarch debugs an emulated core's firmware while Linux
#   keeps running: it breaks in the rpmsg receive callback when Linux sends
#   a message, reads the message's length there, and the core goes on. A
#   crash's devcoredump is an ELF32 core of the core's machine (EM_ARM,
#   EM_RISCV) with its registers as an NT_PRSTATUS note, and gdb's
#   backtrace of it names the function that faulted.
# STRATEGY: the model opens a gdb port per emulated core (socmodel gdb); the
#   gdb host service attaches once the model starts the core. Boot
#   ampsoc-rpmsg-echo on the ISA's core; send 37-byte messages through an
#   endpoint until one comes back 5 bytes long (gdb, stopped in echo_cb,
#   printed len, 37, and set it to 5 before it detached; the service checks
#   both in gdb's output); a plain echo works after the detach; stop.
#   Then ampsoc-crash with recovery disabled and coredumps enabled: wait for
#   the crash and the devcoredump, check its ELF class and machine here,
#   copy it to the scratch disk; after the guest, the service opens it with
#   gdb-multiarch and the firmware's ELF and checks the backtrace's frame 0
#   is main, and the machine. Native cores have no gdb server: x86-64 is not
#   in the matrix.
# services: socmodel gdb
# services: gdb
# isa: armv7m rv32imac
# disk: 32
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

modprobe virtio_pci && modprobe virtio_blk || bail "no virtio-blk driver"
wait_for 20 test -b /dev/vda || bail "no scratch disk /dev/vda"
core_find "$CORE" || bail "no remote processor for core $CORE"

# ---- live: a breakpoint in the receive callback ----
echo=
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
call() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	ampsocctl ept "$_ctrl" gdb-test 2000 "$(($(cat "$echo/dst")))" call "$1"
}
MSG=0123456789abcdefghijklmnopqrstuvwxyz0	# 37 bytes
short_echo() {
	[ "$(call "$MSG")" = 01234 ]
}
plain_echo() {
	[ "$(call hello)" = hello ]
}
check set_echo_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check start_echo sh -c "echo start >$R/state"
check echo_channel_appears wait_for 60 echo_chan
check echo_shortened_by_gdb_in_callback wait_for 120 short_echo
check echo_after_detach plain_echo
check stop_echo sh -c "echo stop >$R/state"

# ---- post mortem: the coredump ----
echo disabled >"$R/recovery"
echo enabled >"$R/coredump"
check set_crash_firmware sh -c "echo $(fw crash) >$R/firmware"
check start_crash sh -c "echo start >$R/state"
check crashed_state wait_for 20 grep -qx crashed "$R/state"
devcd() { ls -d /sys/class/devcoredump/devcd* 2>/dev/null | head -n 1; }
has_devcd() { [ -n "$(devcd)" ]; }
check devcoredump_appears wait_for 20 has_devcd
CD=$(devcd)
cp "$CD/data" /tmp/core
echo 1 >"$CD/data" 2>/dev/null
# e_ident: ELFCLASS32; e_machine 40 (EM_ARM) or 243 (EM_RISCV)
case $AMPSOC_ISA in armv7m) machine=40 ;; *) machine=243 ;; esac
check_eq coredump_elf32 "7f454c4601" sh -c "head -c 5 /tmp/core | od -An -tx1 | tr -d ' \n'"
check_eq coredump_machine "$machine" sh -c "od -An -tu2 -j18 -N2 /tmp/core | tr -d ' '"
len=$(wc -c </tmp/core)
ktap_diag "devcoredump: $len bytes"
{ printf 'AMPSOCDUMP %s\n' "$len"; dd if=/dev/zero bs=1 count=500 2>/dev/null; } |
	dd of=/dev/vda bs=512 count=1 conv=sync 2>/dev/null
check coredump_to_disk dd if=/tmp/core of=/dev/vda bs=512 seek=1 conv=fsync
check stop_crashed sh -c "echo stop >$R/state"
echo enabled >"$R/recovery"
ktap_done

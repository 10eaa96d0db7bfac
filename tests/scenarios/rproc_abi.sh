#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the remoteproc userspace ABI answers as mainline 6.1's:
#   sysfs class attributes and their semantics and errnos in every state,
#   debugfs files (trace buffer, resource table, carveouts, crash) and
#   their write parsing, /dev/remoteprocN with its ioctls; garbage written
#   to every writable file is rejected; a crash recovers, coredumps are off
#   until enabled, and with recovery disabled the processor stays crashed
#   with a readable ELF coredump; a processor a boot loader started is
#   attached and detached; ELF32 firmware boots on a processor that
#   accepts it.
# STRATEGY: load the fake remote processor driver with two processors and
#   a detached one, run the rproc_abi guest program on the first and the
#   detached one, boot the second with the ELF32 image through sysfs, then
#   unload everything.
# timeout: 180
. /ampsoc/lib.sh

check load_fake modprobe ampsoc_rproc_fake devices=2 detached=1
guest_test rproc_abi ampsoc-rproc-fake.0 ampsoc-rproc-fake.2

r1=
for d in /sys/class/remoteproc/remoteproc*; do
	grep -qx ampsoc-rproc-fake.1 "$d/name" && r1=$d
done
check second_processor_found test -n "$r1"
check elf32_firmware_set sh -c "echo ampsoc-rproc-fake32.elf > $r1/firmware"
check elf32_boots sh -c "echo start > $r1/state && grep -qx running $r1/state"
check elf32_trace grep -q 'booted ampsoc-rproc-fake32.elf' \
	"/sys/kernel/debug/remoteproc/${r1##*/}/trace0"
# The user's tool (tools/ampsocctl) sees the same ABI.
check ampsocctl_list sh -c 'ampsocctl rproc list | grep -q "ampsoc-rproc-fake.1 *running"'
check ampsocctl_trace sh -c 'ampsocctl rproc trace ampsoc-rproc-fake.1 | grep -q "booted ampsoc-rproc-fake32.elf"'
check ampsocctl_stop sh -c 'ampsocctl rproc stop ampsoc-rproc-fake.1 &&
	ampsocctl rproc state ampsoc-rproc-fake.1 | grep -qx offline'
check ampsocctl_bad_firmware sh -c '! ampsocctl rproc firmware ampsoc-rproc-fake.1 ../x 2>/dev/null &&
	grep -qx ampsoc-rproc-fake32.elf '"$r1/firmware"
check ampsocctl_start ampsocctl rproc start ampsoc-rproc-fake.1
# Unloading the driver while a processor runs stops it cleanly.
check unload_while_running rmmod ampsoc_rproc_fake
check class_empty sh -c '! ls /sys/class/remoteproc | grep -q .'
check framework_unloads rmmod ampsoc_rproc
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: random syscalls from several threads against a real remote
#   core's interfaces (/dev/remoteproc*, /sys/class/remoteproc/*, the
#   remoteproc, vsoc_rproc, vsoc and ampsoc_pd debugfs files) and its rpmsg
#   channels (/dev/rpmsg_ctrl*, /dev/rpmsg*, /sys/bus/rpmsg/devices/*),
#   with the rpmsg and remoteproc drivers removed under the workers' open
#   descriptors, leave the kernel without a WARN, oops or hang; every
#   unload succeeds or is refused, and the core echoes again afterwards.
# STRATEGY: boot ampsoc-rpmsg-echo on ipu; run fuzz_userspace (fixed seed,
#   40000 operations, 4 threads, an unload attempt every 2000 operations
#   among the rpmsg transport, the rpmsg core, the echo client and the vsoc
#   remoteproc driver; each successful one is followed by a reload that
#   must bring the core back up and its echo channel back); then put the
#   core in a known state (recovery enabled, stopped, the echo firmware),
#   start it and run 100 checked echoes; the model must report no
#   violation.
# services: socmodel
# load-all: 1
# timeout: 900
# smp: 2
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

SEED=20261203
cat >/tmp/reload.sh <<'RELOAD'
# Bring the core and its echo channel back, whatever the campaign left.
until_ok() {
	n=0
	until "$@" >/dev/null 2>&1; do
		n=$((n + 1))
		[ "$n" -lt 3000 ] || return 1
		usleep 10000
	done
}
# a pending "inline" coredump holds crash handling: collect it
for d in /sys/class/devcoredump/devcd*; do
	[ -e "$d/data" ] && cat "$d/data" >/dev/null && echo 1 >"$d/data"
done
modprobe ampsoc_rpmsg_virtio && modprobe ampsoc_rpmsg_echo &&
	modprobe ampsoc_vsoc_rproc || exit 1
until_ok sh -c 'grep -lx ipu /sys/class/remoteproc/*/name' || exit 1
R=$(dirname "$(grep -lx ipu /sys/class/remoteproc/*/name | head -n 1)")
# The campaign's threads still write start, stop and firmware names to
# these very files while this runs: converge instead of assuming a state.
# Every second without the echo channel, a running core (maybe started by
# a thread with another firmware) is stopped and started with the echo
# firmware again.
tries=0
echo_up() {
	ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* >/dev/null 2>&1 && return 0
	tries=$((tries + 1))
	case $(cat "$R/state") in
	running) [ $((tries % 100)) -ne 0 ] || echo stop >"$R/state" ;;
	offline|crashed)
		echo enabled >"$R/recovery"
		echo ampsoc-rpmsg-echo.elf >"$R/firmware" && echo start >"$R/state" ;;
	esac
	return 1
}
until_ok echo_up
RELOAD

core_find ipu || bail "no remote processor for core ipu"
check set_firmware sh -c "echo ampsoc-rpmsg-echo.elf >$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel wait_for 20 sh -c 'ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.*'
guest_test fuzz_userspace -s "$SEED" -n 40000 -t 4 -u 2000 \
	-m "ampsoc_rpmsg_virtio ampsoc_rpmsg ampsoc_rpmsg_echo ampsoc_vsoc_rproc" \
	-r "sh /tmp/reload.sh"

check reload_all sh /tmp/reload.sh
core_find ipu || bail "no remote processor for core ipu after the campaign"
echo enabled >"$R/recovery"
check stop_after_campaign sh -c "[ \$(cat $R/state) = offline ] || echo stop >$R/state"
check restore_firmware sh -c "echo ampsoc-rpmsg-echo.elf >$R/firmware"
check restart sh -c "echo start >$R/state"
echo=
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
check echo_channel_back wait_for 20 echo_chan
check echo_works sh -c "ampsocctl ept \$(ls /dev/rpmsg_ctrl* | head -n 1) fuzz-check 2001 \$((\$(cat $echo/dst))) ping 100 64"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

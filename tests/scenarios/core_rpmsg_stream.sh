#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the kernel echo client (ampsoc_rpmsg_echo) streams to a real
#   remote core without stalling: it sends each message from the rx
#   callback of the previous echo, so one lost notification in either
#   direction (a kick the core never sees, an interrupt Linux never
#   handles) stops the stream for good. Both sides decide whether to
#   notify with a store, a full barrier and a load (docs/shm-abi.md,
#   "Memory ordering"); in a one-CPU TCG guest of QEMU 7.2 Linux's
#   barrier was left out unless maxcpus > 1: 2 streams of about 330
#   stalled here, and 2 of 3 `make bench` runs (idle=poll) had one.
# STRATEGY: ampsoc_rpmsg_echo count=2000; 40 times: start
#   ampsoc-rpmsg-echo on $CORE, wait for the echo channel and for
#   echo_received to reach 2000 with echo_errors 0, stop. On a stall, dump
#   what locates the lost notification: the transport's rings (avail/used
#   idx and flags, last_used), its stats, the vsoc mailbox FIFOs (head,
#   tail, overflows, both directions), the core driver's kick counters
#   and the firmware's trace; then send a mailbox ping, whose word wakes
#   the core, and say whether the stream resumed (a lost kick: the core
#   slept on a message) or not (a lost interrupt: Linux never took the
#   reply), and dump again. On every ISA: an emulated core's env_mb() is
#   the barrier Unicorn generates for it.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

CYCLES=40
N=2000
core_find $CORE || bail "no remote processor for core $CORE"
KC=/sys/module/ampsoc_rpmsg_echo/parameters/count
[ -w $KC ] || bail "no ampsoc_rpmsg_echo module"
echo $N >$KC

echo_dev() {
	ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1
}
received() {
	cat "$(echo_dev)/echo_received" 2>/dev/null
}
stream_done() {
	[ "$(received)" = "$N" ]
}
# Everything that says where the notification went: each side's view.
dump() {
	_vrp=/sys/kernel/debug/ampsoc_rpmsg/$(basename "$(echo_dev)" | cut -d. -f1)
	ktap_diag "cycle $1: echo_received $(received) of $N"
	ktap_diag "transport rings ($_vrp):"
	ktap_diag_file "$_vrp/rings"
	ktap_diag "transport stats:"
	ktap_diag_file "$_vrp/stats"
	ktap_diag "mailbox FIFOs:"
	ktap_diag_file "$VSOC/mbox_stats"
	ktap_diag "core driver ($C/ctl):"
	grep -E '^(state|kicks|kicks_merged|kick_queued|bad_words) ' "$C/ctl" |
		sed 's/^/# /'
	ktap_diag "firmware trace:"
	tail -n 5 "$D/trace0" 2>/dev/null | sed 's/^/# /'
}

check set_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
ok=0
i=0
while [ $i -lt "$CYCLES" ]; do
	i=$((i + 1))
	echo start >"$R/state" || break
	wait_for 20 echo_dev || break
	if ! wait_for 60 stream_done; then
		dump $i
		# A ping's ECHO_REQUEST word wakes the core: a stream that goes
		# on afterwards lost a kick towards the core.
		cat "$C/mbox_ping" >/dev/null
		if wait_for 5 stream_done; then
			ktap_diag "cycle $i: the stream resumed after a mailbox ping"
		else
			ktap_diag "cycle $i: still $(received) after a mailbox ping"
		fi
		dump $i
		break
	fi
	[ "$(cat "$(echo_dev)/echo_errors")" = 0 ] || break
	echo stop >"$R/state" || break
	ok=$i
done
check_eq "streams_of_${N}_completed" "$CYCLES" echo $ok
[ "$(cat "$R/state")" = running ] && echo stop >"$R/state"
check_eq stopped offline cat "$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

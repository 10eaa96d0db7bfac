#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Linux's rpmsg treats a real remote core as untrusted: each
#   mode of the misbehaving firmware ampsoc-rpmsg-bad-MODE, run on core
#   $CORE, has its bad items rejected and counted by exactly the matching
#   counter, Linux stays up and still echoes through the channel (or, for
#   a corrupted ring, declares the transport dead at once and remoteproc
#   recovery brings the remote back), and a well-behaved firmware works
#   afterwards.
# STRATEGY: for each of badlen, nsbad, nsown, unknown, badaddr: boot it,
#   wait for the firmware's last misdeed in its trace buffer and for the
#   counter to reach the number of bad items sent (3, 3, 4, 100, 3; nsown
#   destroys rpmsg_ns at 53 and rpmsg_ctrl at 0 and announces channels
#   under both names, which, obeyed, would deadlock the rx path in the
#   name service; badaddr rewrites the descriptor addresses of three
#   well-formed messages to 0, the top of the address space and bit 40
#   flipped), check that every
#   other reject counter is still 0, echo 50 messages through /dev/rpmsgN,
#   stop. badid and badidx: the used id (num + 5) or index (num + 3 ahead)
#   makes bad_ring 1 and the transport dead (the index jump hides the
#   announcement it overwrote, so there may be no channel); an endpoint
#   on it fails at once (no 15 s wait); for badid, report a crash through debugfs: the
#   core is reloaded, a new transport comes up, the channel is recreated
#   and the same firmware is refused the same way (bad_ring 1 again).
#   Then ampsoc-rpmsg-echo boots and echoes. The SoC model must count no
#   violation, and the runner fails on any WARN/oops on the console.
# (firewall=off: the firmware writes Linux's descriptor table, which the
#   vring firewall would fault; vsoc_firewall tests the firewall itself.)
# services: socmodel firewall=off
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
REJECTS="bad_len bad_ring bad_addr unknown_dst ns_rejected fc_rejected"

# zero_except KEY=VALUE...: the listed counters have these values, every
# other reject counter is 0, and the transport is alive unless listed.
zero_except() {
	_want="$*"
	for _k in $REJECTS dead; do
		case " $* " in *" $_k="*) ;; *) _want="$_want $_k=0" ;; esac
	done
	# shellcheck disable=SC2086
	stats_are $_want
}

# mode NAME LAST_TRACE_LINE KEY=VALUE: the common part of a surviving mode.
mode() {
	check "$1_boots" core_boot "$(fw "rpmsg-bad-$1")" ampsoc-echo ||
		{ core_stop; return; }
	check "$1_misdeeds_done" wait_for 20 trace_has "$2"
	check "$1_counted" wait_for 10 stats_are "$3"
	stats_diag "$1"
	check "$1_only_$(echo "$3" | cut -d= -f1)" zero_except "$3"
	check "$1_still_echoes" echo_ping 50 64
	check "$1_stop" core_stop
}

t0=$(date +%s)
mode badlen "used length shorter than a header" bad_len=3
mode nsbad "unknown flags" ns_rejected=3
mode nsown "Linux's own channels named" ns_rejected=4
mode unknown "messages to unknown addresses" unknown_dst=100
mode badaddr "rewritten descriptor addresses done" bad_addr=3

# A corrupted ring: the transport is dead, everything fails at once. The
# index jump also hides the announcement it overwrote: there may be no
# channel, only the transport.
any_vrp() {
	VRP=$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* 2>/dev/null | head -n 1)
	[ -r "$VRP/stats" ]
}
ring_mode() {
	fw "rpmsg-bad-$1" >"$R/firmware"
	check "$1_boots" sh -c "echo start >$R/state"
	check "$1_transport_up" wait_for 20 any_vrp || { core_stop; return 1; }
	check "$1_misdeed_done" wait_for 20 trace_has "$2"
	check "$1_transport_dead" wait_for 10 stats_are dead=1
	stats_diag "$1"
	check "$1_only_bad_ring" zero_except bad_ring=1 dead=1
	_s=$(date +%s)
	check "$1_endpoint_fails" no_send
	check "$1_fails_at_once" test $(($(date +%s) - _s)) -lt 5
}

if ring_mode badid "bad: used id" && check badid_channel chan_of ampsoc-echo; then
	old=$(ls -di "$CHAN/" | awk '{ print $1 }')
	b0=$(core_field boot_count)
	echo 2 >"$D/crash"
	new_chan() { chan_of ampsoc-echo && [ "$(ls -di "$CHAN/" | awk '{ print $1 }')" != "$old" ]; }
	check badid_recovered wait_for 20 new_chan
	check_eq badid_rebooted $((b0 + 1)) core_field boot_count
	check badid_running wait_for 10 grep -qx running "$R/state"
	check badid_refused_again wait_for 10 stats_are bad_ring=1 dead=1
fi
check badid_stop core_stop

ring_mode badidx "bad: used index"
check badidx_stop core_stop

check echo_boots core_boot "$(fw rpmsg-echo)" ampsoc-echo
check echo_clean_counters zero_except
check echo_works echo_ping 200 496
check echo_stop core_stop
ktap_diag "hostile modes took $(($(date +%s) - t0)) s"
check_eq no_violations 0 tele_field violations
ktap_done

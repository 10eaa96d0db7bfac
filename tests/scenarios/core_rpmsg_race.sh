#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A remote core that races Linux over the rx ring, rewriting
#   descriptor flags (chained, indirect) and used ids while Linux reads
#   them, cannot lock Linux up: Linux reads each field once, finds the
#   corruption, counts it once and declares the transport dead, so that
#   senders fail at once; remoteproc recovery brings the remote back and
#   the same happens again; a well-behaved firmware works afterwards.
# STRATEGY: boot ampsoc-rpmsg-bad-flagrace on $CORE. It first sends a lap
#   of ordinary messages to an address with no endpoint, then keeps rx
#   descriptor 0 marked chained and, for each further message, pulses
#   NEXT/INDIRECT on that buffer's descriptor and flips the used id
#   between the buffer and 0 until Linux gives a buffer back. (6.1's
#   virtio_ring frees a buffer by following NEXT through the descriptor
#   table; a transport that checks an entry and lets virtio_ring read it
#   again spins in detach_buf_split() once it reads a pulse after its
#   check.) Wait for the firmware's "stopped giving buffers back" and for
#   dead=1: bad_ring 1, bad_len, bad_addr, ns_rejected, fc_rejected 0,
#   unknown_dst at least the lap; an endpoint fails at once. Report a crash
#   through debugfs five times: each reboot races and is refused the same
#   way. Stop; ampsoc-rpmsg-echo echoes 200 messages. No SoC-model
#   violation. The firmware writes Linux's descriptor table and used ring.
# (firewall=off: the firmware writes Linux's descriptor table, which the
#   vring firewall would fault; vsoc_firewall tests the firewall itself.)
# services: socmodel firewall=off
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
t0=$(date +%s)

# last_race: of the firmware's first and last race lines, the last one
# says it is over (the trace may keep what earlier boots wrote).
last_race() {
	grep -E "bad: flagrace: (start|Linux stopped giving)" "$D/trace0" |
		tail -n 1 | grep -qF "stopped giving"
}
lap_counted() { [ "$(vrp_stat unknown_dst)" -ge 256 ]; }

# round NAME: the running boot races until Linux gives up the transport.
round() {
	check "$1_race_over" wait_for 60 last_race
	grep -F "bad: flagrace:" "$D/trace0" | tail -n 2 | sed 's/^/# /'
	check "$1_dead" wait_for 10 stats_are dead=1
	stats_diag "$1"
	check "$1_counted_once" stats_are bad_ring=1 bad_len=0 bad_addr=0 \
		ns_rejected=0 fc_rejected=0
	check "$1_lap_delivered" lap_counted
	_s=$(date +%s)
	check "$1_refuses" no_send
	check "$1_at_once" test $(($(date +%s) - _s)) -lt 5
}

check race_boots core_boot "$(fw rpmsg-bad-flagrace)" ampsoc-echo ||
	bail "flagrace firmware did not come up"
round race
ino() { ls -di "$CHAN/" | awk '{ print $1 }'; }
new_chan() { chan_of ampsoc-echo && [ "$(ino)" != "$old" ]; }
for n in 1 2 3 4 5; do
	old=$(ino)
	echo 2 >"$D/crash"
	check "recovery_$n" wait_for 20 new_chan || break
	round "race_$n"
done
check race_stop core_stop

echo_clean_after
ktap_diag "flag races took $(($(date +%s) - t0)) s"
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A remote core writing random values into every field it
#   controls cannot hurt Linux: each bad item is rejected and counted by
#   exactly the counter the firmware predicted, valid announcements among
#   them create channels, Linux echoes once the firmware behaves, a
#   corruption of the used ring then kills only the transport (counted,
#   every operation fails at once), remoteproc recovery brings the remote
#   back, and a well-behaved firmware works afterwards.
# STRATEGY: boot ampsoc-rpmsg-bad-chaos on $CORE. From its seed (drawn from
#   the clock at every boot and printed here; make CHAOS_SEED=N builds a
#   firmware that replays seed N at every boot) it sends 2000 items in
#   random batches of 1-8 handed back in random order: random used
#   lengths, header src/dst/len/flags/reserved, name-service messages (new,
#   duplicate, destroy, unknown, malformed), rewritten descriptor
#   addresses, lengths and flags. It simulates Linux's checks, in the order
#   Linux reads the items, to predict each item's fate and logs the totals
#   (and how many announcements the hand-back order decided). Wait for "done,
#   behaving"; every counter (bad_len, bad_addr, unknown_dst, fc_rejected,
#   ns_rejected) and the channel count must equal its prediction, bad_ring
#   0, rejects > 0; echo 50. Then send "ring" to ampsoc-echo: the firmware
#   corrupts its used ring once (index jump, id out of range, or a
#   descriptor made chained/indirect, picked at random): bad_ring 1, dead,
#   nothing else moved, an endpoint fails at once. Report a crash through
#   debugfs: recovery reboots the firmware (new transport) and
#   the round repeats, once per ring corruption ("ring0".."ring2"): 8000
#   items in all. Stop; ampsoc-rpmsg-echo echoes 200 messages. No
#   SoC-model violation.
# (firewall=off: the firmware writes Linux's descriptor table, which the
#   vring firewall would fault; vsoc_firewall tests the firewall itself.)
# services: socmodel firewall=off
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
t0=$(date +%s)
ITEMS=0
REJECTED=0
ACCEPTED=0
REORDERED=0

# last_of A B: of the trace lines matching A or B, the last matches B (the
# trace may keep what earlier boots wrote).
last_of() {
	grep -E "chaos: ($1|$2)" "$D/trace0" | tail -n 1 | grep -qE "chaos: $2"
}
# expect KEY: the running boot's prediction for counter KEY.
expect() {
	sed -n "s/.*chaos: expect $1 \([0-9]*\).*/\1/p" "$D/trace0" | tail -n 1
}

# round NAME RING: check one boot's chaos phase, then corrupt its ring
# with the message RING ("ring": kind at random, "ringN": kind N).
round() {
	check "$1_done" wait_for 60 last_of seed "done, behaving"
	_done=$?
	# the seed, whatever happened: make CHAOS_SEED=<it> replays the run
	sed -n '/chaos: seed/h; /chaos: seed/!H; ${x; p}' "$D/trace0" |
		grep -F "chaos:" | sed 's/^/# /'
	[ "$_done" -eq 0 ] || return 1
	want=
	_total=0
	for _k in bad_len bad_addr unknown_dst fc_rejected ns_rejected; do
		_v=$(expect $_k)
		want="$want $_k=$_v"
		_total=$((_total + ${_v:-0}))
	done
	# shellcheck disable=SC2086
	check "$1_all_counted" wait_for 30 stats_are $want
	stats_diag "$1"
	# shellcheck disable=SC2086
	check "$1_as_predicted" stats_are $want bad_ring=0 dead=0 \
		channels="$(expect channels)"
	check "$1_rejects_some" test "$_total" -gt 0
	ITEMS=$((ITEMS + 2000))
	REJECTED=$((REJECTED + _total))
	ACCEPTED=$((ACCEPTED + $(expect ns_ok)))
	_r=$(sed -n 's/.*chaos: ns decided by the order \([0-9]*\).*/\1/p' \
		"$D/trace0" | tail -n 1)
	REORDERED=$((REORDERED + ${_r:-0}))
	check "$1_still_echoes" echo_ping 50 64

	# One corruption of the ring: only the transport dies.
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	check "$1_ring_sent" ampsocctl ept "$_ctrl" chaos-ring 2001 \
		"$(($(cat "$CHAN/dst")))" send "$2"
	check "$1_ring_attack" wait_for 20 last_of seed "ring attack sent"
	grep -F "chaos: ring:" "$D/trace0" | tail -n 1 | sed 's/^/# /'
	check "$1_ring_dead" wait_for 10 stats_are dead=1
	stats_diag "$1_ring"
	# shellcheck disable=SC2086
	check "$1_ring_counted" stats_are $want bad_ring=1
	_s=$(date +%s)
	check "$1_dead_refuses" no_send
	check "$1_dead_at_once" test $(($(date +%s) - _s)) -lt 5
}

ino() { ls -di "$CHAN/" | awk '{ print $1 }'; }
new_chan() { chan_of ampsoc-echo && [ "$(ino)" != "$old" ]; }

check chaos_boots core_boot "$(fw rpmsg-bad-chaos)" ampsoc-echo ||
	bail "chaos firmware did not come up"
round chaos ring
# Remoteproc recovery brings the remote back with a fresh transport. Each
# ring corruption once.
for kind in 0 1 2; do
	old=$(ino)
	echo 2 >"$D/crash"
	check "recovery_$kind" wait_for 20 new_chan || break
	round "chaos_$kind" "ring$kind"
done
ktap_diag "chaos: $ITEMS items, $REJECTED rejected and counted, $ACCEPTED announcements accepted, $REORDERED decided by the hand-back order"
check chaos_stop core_stop

echo_clean_after
ktap_diag "chaos took $(($(date +%s) - t0)) s"
check_eq no_violations 0 tele_field violations
ktap_done

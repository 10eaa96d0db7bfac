#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A remote core that floods Linux cannot make it grow memory
#   without bound: a name-service flood is capped at max_channels with
#   every extra announcement counted, and a message flood to a
#   /dev/rpmsgN nobody reads is held to the device's bounded queue with
#   the excess counted as dropped, then as unknown_dst once the endpoint
#   is closed; Linux keeps echoing meanwhile and all of it goes away with
#   the core.
# STRATEGY: nsflood: slab objects before; boot ampsoc-rpmsg-bad-nsflood
#   (1000 announcements of services that do not exist); wait for its
#   trace line and for ns_rejected = 1000 - (max_channels - 1) (the echo
#   channel takes one); channels = max_channels; slab growth per accepted
#   channel bounded; echo 50; stop: the channels are gone and slab is back
#   near where it was. flood: boot ampsoc-rpmsg-bad-flood; open a /dev/rpmsgN
#   towards ampsoc-flood and write once (the firmware then floods that
#   address forever); wait until 2000 messages were dropped; slab growth is
#   bounded by the 512-message queue; 20 echoes still work; read messages
#   back; close: the flood now counts as unknown_dst; stop. Finally
#   ampsoc-rpmsg-echo works. No SoC-model violation.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
t0=$(date +%s)

# ---- nsflood -----------------------------------------------------------
max=$(cat /sys/module/ampsoc_rpmsg_virtio/parameters/max_channels)
s0=$(slab)
check nsflood_boots core_boot "$(fw rpmsg-bad-nsflood)" ampsoc-echo
check nsflood_done wait_for 60 trace_has "announcements of services that do not exist"
ktap_diag "firmware: $(grep -F 'announcements of services' "$D/trace0")"
check nsflood_counted wait_for 20 stats_are ns_rejected=$((1000 - (max - 1)))
check nsflood_capped stats_are channels="$max" bad_len=0 bad_ring=0 dead=0
check_eq nsflood_sysfs_channels "$max" sh -c \
	"ls -d /sys/bus/rpmsg/devices/*.ampsoc-*.-1.* | wc -l"
s1=$(slab)
stats_diag nsflood
ktap_diag "nsflood: slab objects $s0 -> $s1 for $max channels"
# A channel is a device, its sysfs directory and a few attributes: a few
# dozen objects each. 200 per channel is generous and still linear in the
# cap, not in the number of announcements.
check nsflood_slab_bounded test $((s1 - s0)) -lt $((max * 200))
check nsflood_still_echoes echo_ping 50 64
check nsflood_stop core_stop
s2=$(slab)
ktap_diag "nsflood: slab objects after stop $s2"
check nsflood_slab_released test $((s2 - s0)) -lt $(((s1 - s0) / 4))

# ---- flood -------------------------------------------------------------
check flood_boots core_boot "$(fw rpmsg-bad-flood)" ampsoc-flood
fdst=$(($(cat "$CHAN/dst")))
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
dev=$(ampsocctl ept "$ctrl" flood-sink 3000 "$fdst" create)
check flood_endpoint test -c "$dev"
DROPPED=/sys/class/rpmsg/$(basename "$dev")/dropped
s0=$(slab)
exec 3<>"$dev"
echo -n go >&3
check flood_started wait_for 20 trace_has "flooding address 3000"
dropped_over() { [ "$(cat "$DROPPED")" -gt "$1" ]; }
check flood_dropped_counted wait_for 60 dropped_over 2000
s1=$(slab)
ktap_diag "flood: dropped $(cat "$DROPPED"), slab objects $s0 -> $s1"
stats_diag flood
# 512 queued messages of 64 bytes: an skb-like entry each.
check flood_slab_bounded test $((s1 - s0)) -lt 4000
check flood_still_echoes echo_ping 20 64
check flood_queue_readable sh -c "dd bs=512 count=8 <&3 2>/dev/null | grep -q flood"
exec 3<&-
u0=$(vrp_stat unknown_dst)
unknown_over() { [ "$(vrp_stat unknown_dst)" -gt $((u0 + 1000)) ]; }
check flood_unknown_after_close wait_for 60 unknown_over
check flood_no_ring_damage stats_are bad_len=0 bad_ring=0 bad_addr=0 dead=0
stats_diag flood_closed
check flood_stop core_stop

check echo_boots core_boot "$(fw rpmsg-echo)" ampsoc-echo
check echo_works echo_ping 200 496
check echo_stop core_stop
ktap_diag "flood modes took $(($(date +%s) - t0)) s"
check_eq no_violations 0 tele_field violations
ktap_done

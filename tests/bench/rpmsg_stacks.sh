#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg through /dev/rpmsg_ctrl0 on ampsoc's stack and on
#   mainline's (the peer stack), against the same loopback remote set up
#   the same way on both (no buffer region, no flow control: the ampsoc
#   extensions mainline does not negotiate, docs/peer-stack.md): echo
#   round trip at 16, 64 and 496 bytes against the raw doorbell round trip
#   from userspace, and one-way throughput at the same sizes against the
#   raw 496-byte slot ring from userspace, each floor measured in the same
#   boot interleaved with its figures.
# STRATEGY: load the stack's rpmsg transport and char devices and the
#   loopback remote (its thread on CPU 1, the client on CPU 0, as
#   rpmsg_transport), then R rounds (BENCH_ROUNDS) of rpmsg_bench with
#   one inner round each: the doorbell floor, the three echoes, the raw
#   ring floor, the three one-way runs. Every figure is reported as its
#   rounds. The kernel client's figures are rpmsg_transport's: its client
#   (ampsoc_rpmsg_perf_test) is built on ampsoc's rpmsg API.
# stacks: ampsoc mainline
# smp: 2
# timeout: 900
. /ampsoc/lib.sh
. /ampsoc/lib/bench.sh

STACK=${AMPSOC_STACK:-ampsoc}
if [ "$STACK" = mainline ]; then
	check load_transport modprobe virtio_rpmsg_bus
	check load_ctrl modprobe rpmsg_ctrl
else
	check load_transport modprobe ampsoc_rpmsg_virtio
fi
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 shm=0 fc=0 remote_cpu=1
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0

ROUNDS=$(bench_rounds)
RTT=$(bench_count 2000)
TPUT=$(bench_count 20000)
DB= RAW= RAWMB= E16= E64= E496= T16= T64= T496= MB496=
v() { awk -v k="$1" '$1 == k { print $2 }' /tmp/r; }
ok=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	taskset 1 rpmsg_bench /dev/rpmsg_ctrl0 "$RTT" "$TPUT" 1 >/tmp/r 2>/tmp/err || break
	acc DB "$(v user_doorbell_rtt)"
	acc RAW "$(v user_raw_ring_tput_496)"
	acc RAWMB "$(v user_raw_ring_mbps_496)"
	for sz in 16 64 496; do
		acc E$sz "$(v user_echo_rtt_$sz)"
		acc T$sz "$(v user_tput_$sz)"
	done
	acc MB496 "$(v user_mbps_496)"
	ok=$i
done
[ $ok = "$ROUNDS" ] || ktap_diag_file /tmp/err
check_eq "rounds_$ROUNDS" "$ROUNDS" echo $ok
for sz in 16 64 496; do
	eval "e=\$E$sz t=\$T$sz"
	bench_floor stacks_user_echo_rtt_$sz "$e" ns stacks_user_doorbell_rtt "$DB"
	# The raw ring moves 496-byte slots: a bound for 496 bytes only.
	if [ $sz = 496 ]; then
		bench_floor stacks_user_tput_$sz "$t" msg/s stacks_user_raw_ring_tput_496 "$RAW" higher
	else
		bench stacks_user_tput_$sz "$t" msg/s stacks_user_raw_ring_tput_496 "$RAW" higher
	fi
done
bench_floor stacks_user_mbps_496 "$MB496" MB/s stacks_user_raw_ring_mbps_496 "$RAWMB" higher
check unload_remote rmmod ampsoc_rpmsg_lb
ktap_done

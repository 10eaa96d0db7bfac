#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg echo round-trip latency and one-way throughput at 16,
#   64 and 496-byte payloads, from a kernel client and from userspace,
#   against the loopback remote, each next to the transport's floor
#   measured in the same boot: a raw doorbell round trip (same kick and
#   interrupt path) and a raw single-producer ring of 496-byte slots in
#   the same shared region, copied with the same memcpy(). The host is
#   shared: each figure and its baseline keep their best of 3 rounds, and
#   the kernel side also prints doorbells, context switches and the
#   remote's and the copy's share per message (diagnostics).
# STRATEGY: load the kernel benchmark module (it runs at load and leaves
#   its figures in debugfs), then run the userspace benchmark through
#   /dev/rpmsg against a second loopback remote; report every figure with
#   its baseline and print the ratios the issue sets targets for.
# timeout: 900
# smp: 1
. /ampsoc/lib.sh

R=/sys/kernel/debug/ampsoc_rpmsg_perf/results
check load_transport modprobe ampsoc_rpmsg_virtio
if ! modprobe ampsoc_rpmsg_perf_test; then
	bail "ampsoc_rpmsg_perf_test did not load"
fi
cat /sys/kernel/debug/ampsoc_ktap/ampsoc_rpmsg_perf_test >/tmp/perf.ktap
_nest /tmp/perf.ktap
ktap_result kernel_benchmark $?
cp $R /tmp/results
rmmod ampsoc_rpmsg_perf_test ampsoc_rpmsg_lb

check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 fc=0
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0
if rpmsg_bench /dev/rpmsg_ctrl0 >>/tmp/results 2>/tmp/ub.err; then
	ktap_ok user_benchmark
else
	ktap_diag_file /tmp/ub.err
	ktap_fail user_benchmark "rpmsg_bench failed"
fi

v() { awk -v k="$1" '$1 == k { print $2 }' /tmp/results; }
DB=$(v doorbell_rtt)
RAW=$(v raw_ring_tput_496)
RAWMB=$(v raw_ring_mbps_496)
for who in kernel user; do
	for sz in 16 64 496; do
		bench ${who}_echo_rtt_$sz "$(v ${who}_echo_rtt_$sz)" ns doorbell_rtt "$DB" lower
		bench ${who}_tput_$sz "$(v ${who}_tput_$sz)" msg/s raw_ring_tput_496 "$RAW" higher
	done
	bench ${who}_mbps_496 "$(v ${who}_mbps_496)" MB/s raw_ring_mbps_496 "$RAWMB" higher
	awk -v w=$who -v db="$DB" -v raw="$RAW" '
		$1 == w "_echo_rtt_16" { printf "# ratio %s echo rtt 16 / doorbell rtt = %.2f (target <= 1.5)\n", w, $2 / db }
		$1 == w "_tput_496" { printf "# ratio %s tput 496 / raw ring = %.2f (target >= 0.5)\n", w, $2 / raw }' /tmp/results
done
sed 's/^/# /' /tmp/results

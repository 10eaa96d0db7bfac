#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg echo round-trip latency and one-way throughput at 16,
#   64 and 496-byte payloads, from a kernel client and from userspace,
#   against the loopback remote, each next to the transport's floor
#   measured in the same boot: a raw doorbell round trip (same kick and
#   interrupt path) and a raw single-producer ring of 496-byte slots in
#   the same shared region, copied with the same memcpy(). Both floors are
#   measured from the kernel and from userspace (one system call per
#   step), and each client is compared with its own side's floor. The
#   host is shared: each figure and its baseline keep their best of 3
#   rounds, a round trip is a round's median (means are printed too), and
#   the kernel side also prints doorbells, context switches and the
#   remote's and the copy's share per message (diagnostics).
# STRATEGY: load the kernel benchmark module (it runs at load and leaves
#   its figures in debugfs), then run the userspace benchmark through
#   /dev/rpmsg against a second loopback remote; report every figure with
#   its baseline and print the ratios the issue sets targets for.
# timeout: 900
# smp: 2
. /ampsoc/lib.sh

R=/sys/kernel/debug/ampsoc_rpmsg_perf/results
check load_transport modprobe ampsoc_rpmsg_virtio
# The loopback remote stands for a core beside Linux, so it gets one: its
# thread runs on CPU 1 and its interrupts, and every client, on CPU 0.
# Sharing a CPU made each figure switch between two modes about 2x apart,
# by which thread the scheduler ran after each kick.
LB="remote_cpu=1"
check load_lb modprobe ampsoc_rpmsg_lb $LB
if ! taskset 1 modprobe ampsoc_rpmsg_perf_test; then
	bail "ampsoc_rpmsg_perf_test did not load"
fi
cat /sys/kernel/debug/ampsoc_ktap/ampsoc_rpmsg_perf_test >/tmp/perf.ktap
_nest /tmp/perf.ktap
ktap_result kernel_benchmark $?
cp $R /tmp/results
rmmod ampsoc_rpmsg_perf_test ampsoc_rpmsg_lb

check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 fc=0 $LB
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0
if taskset 1 rpmsg_bench /dev/rpmsg_ctrl0 >>/tmp/results 2>/tmp/ub.err; then
	ktap_ok user_benchmark
else
	ktap_diag_file /tmp/ub.err
	ktap_fail user_benchmark "rpmsg_bench failed"
fi

v() { awk -v k="$1" '$1 == k { print $2 }' /tmp/results; }
# rpmsg_transport_wordcopy.sh runs this with a prefix for its figures.
P=${BENCH_PREFIX:-}
# Each side against the floor measured from the same side: the kernel
# client against the raw doorbell and raw ring driven in the kernel, the
# userspace client against the same two driven from userspace with one
# system call per step, as /dev/rpmsgN takes. The userspace figures are
# also printed against the kernel's floor.
for who in kernel user; do
	pre=; [ $who = user ] && pre=user_
	DB=$(v ${pre}doorbell_rtt)
	RAW=$(v ${pre}raw_ring_tput_496)
	RAWMB=$(v ${pre}raw_ring_mbps_496)
	for sz in 16 64 496; do
		bench $P${who}_echo_rtt_$sz "$(v ${who}_echo_rtt_$sz)" ns \
			$P${pre}doorbell_rtt "$DB" lower
		bench $P${who}_tput_$sz "$(v ${who}_tput_$sz)" msg/s \
			$P${pre}raw_ring_tput_496 "$RAW" higher
	done
	bench $P${who}_mbps_496 "$(v ${who}_mbps_496)" MB/s \
		$P${pre}raw_ring_mbps_496 "$RAWMB" higher
	awk -v w=$who -v p="$pre" -v db="$DB" -v raw="$RAW" \
	    -v kdb="$(v doorbell_rtt)" -v kraw="$(v raw_ring_tput_496)" '
		$1 ~ "^" w "_echo_rtt_[0-9]+$" {
			printf "# ratio %s / %sdoorbell_rtt = %.2f (target <= 1.5)", $1, p, $2 / db
			if (p) printf "; / doorbell_rtt = %.2f", $2 / kdb
			printf "\n"
		}
		$1 == w "_tput_496" {
			printf "# ratio %s / %sraw_ring_tput_496 = %.2f (target >= 0.5)", $1, p, $2 / raw
			if (p) printf "; / raw_ring_tput_496 = %.2f", $2 / kraw
			printf "\n"
		}' /tmp/results
done
sed 's/^/# /' /tmp/results
ktap_done

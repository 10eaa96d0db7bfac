#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the echo client survives a remote that sends to its
#   endpoint's address while the client is being set up (the endpoint
#   exists before the driver's probe has made its state), drops what does
#   not come from the echo service, and still completes its round trips.
# STRATEGY: one loopback remote announcing ampsoc-echo only, so that the
#   client's endpoint is always the first dynamic address, 1024. The
#   remote streams to 1024 without a pause (from its stream source, not
#   the echo service); meanwhile the echo client is loaded and unloaded
#   20 times, and each load must complete its 100 round trips with no
#   error. Then the stream stops and a last load does the same.
# timeout: 300
# smp: 2
. /ampsoc/lib.sh

ECHO=/sys/bus/rpmsg/devices/virtio0.ampsoc-echo.-1.1024
CTL=/sys/kernel/debug/ampsoc_rpmsg_lb/ctl

# one_load: load the client, wait for its round trips, unload it
one_load() {
	modprobe ampsoc_rpmsg_echo &&
		wait_for 30 grep -qx 100 "$ECHO/echo_received" &&
		grep -qx 0 "$ECHO/echo_errors" &&
		rmmod ampsoc_rpmsg_echo
}

check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 services=ampsoc-echo
check channel_announced wait_for 10 test -d "$ECHO"
check stream_started sh -c "echo stream 1024 1000000000 16 >$CTL"
n=0
for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	one_load && n=$((n + 1))
done
check_eq loads_under_stream 20 echo "$n"
check stream_stopped sh -c "echo stream 1024 0 16 >$CTL"
check load_alone one_load
check unload_stack rmmod ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

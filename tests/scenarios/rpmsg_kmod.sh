#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the rpmsg bus, virtio transport, name service, flow control,
#   zero-copy, buffer-size negotiation and teardown behave as specified
#   against the loopback remote, and a hostile remote is rejected and
#   counted without harm.
# STRATEGY: load the transport, run the in-kernel KTAP suite (it creates
#   its own loopback remotes: 100k checked messages, 32 concurrent
#   endpoints, channel churn, removal mid-traffic, injected faults), then
#   check that nothing is left behind on the bus.
# timeout: 900
# smp: 2
. /ampsoc/lib.sh

check load_transport modprobe ampsoc_rpmsg_virtio
kmod_test ampsoc_rpmsg_test
check no_channels_left sh -c '[ -z "$(ls /sys/bus/rpmsg/devices)" ]'
check loopback_unloads rmmod ampsoc_rpmsg_lb
check transport_unloads rmmod ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

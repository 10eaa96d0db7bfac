#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: on a kernel with kcov, the rx passes of the rpmsg
#   transport, which run in kernel threads on the remote's behalf, give
#   their coverage to the task that stored its kcov common handle in
#   /sys/kernel/debug/ampsoc_rpmsg/kcov_handle, and nothing once the
#   handle is 0. Debian's kernel has no kcov: the points are skipped.
# STRATEGY: load the transport and one loopback remote; rpmsg_kcov enables
#   kcov remote collection with a common handle, writes to kcov_handle
#   (reads it back), has the loopback send a message to an address with
#   no endpoint, waits for it to be counted, and finds program counters of
#   ampsoc_rpmsg_virtio in its coverage; then writes 0 and finds none for
#   the next message.
# timeout: 120
. /ampsoc/lib.sh

check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1
check transport_up wait_for 10 test -r /sys/kernel/debug/ampsoc_rpmsg/virtio0/stats
guest_test rpmsg_kcov virtio0
check unload_stack rmmod ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

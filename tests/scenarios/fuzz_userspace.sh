#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: random syscalls from several threads against /dev/rpmsg_ctrl*,
#   /dev/rpmsg*, the rpmsg sysfs attributes and the ampsoc debugfs files,
#   with the rpmsg modules removed under the workers' open descriptors,
#   leave the kernel without a WARN, oops or hang: every unload either
#   succeeds or is refused, and the stack works again afterwards.
# STRATEGY: load the transport, one loopback remote and the echo client;
#   run fuzz_userspace (fixed seed, 60000 operations, 4 threads, an unload
#   attempt every 1500 operations among the loopback remote, the transport,
#   the echo client and the core, each successful one followed by a reload
#   that must bring /dev/rpmsg_ctrl* back); then remove the whole stack
#   (which fails if the campaign leaked a module reference), load it again
#   and run the rpmsg_abi guest program on it.
# timeout: 900
# smp: 2
. /ampsoc/lib.sh

SEED=20261203
cat >/tmp/reload.sh <<'RELOAD'
modprobe ampsoc_rpmsg_virtio && modprobe ampsoc_rpmsg_lb nr_devices=1 &&
	modprobe ampsoc_rpmsg_echo || exit 1
n=0
until ls /dev/rpmsg_ctrl* >/dev/null 2>&1; do
	n=$((n + 1))
	[ "$n" -lt 1000 ] || exit 1
	usleep 10000
done
RELOAD

check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1
check load_echo_client modprobe ampsoc_rpmsg_echo
check ctrl_dev_exists wait_for 10 sh -c 'ls /dev/rpmsg_ctrl*'
guest_test fuzz_userspace -s "$SEED" -n 60000 -t 4 -u 1500 \
	-m "ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg_echo ampsoc_rpmsg" \
	-r "sh /tmp/reload.sh"

# Everything the campaign created goes with its modules; a leaked
# reference would make one of these refuse.
check unload_remote rmmod ampsoc_rpmsg_lb
check_eq bus_empty "" ls /sys/bus/rpmsg/devices
check unload_stack rmmod ampsoc_rpmsg_echo ampsoc_rpmsg_virtio ampsoc_rpmsg
check reload_transport modprobe ampsoc_rpmsg_virtio
check reload_remote modprobe ampsoc_rpmsg_lb nr_devices=1
check channels_back wait_for 10 sh -c 'ls -d /sys/bus/rpmsg/devices/virtio0.rpmsg-raw.*'
guest_test rpmsg_abi /dev/rpmsg_ctrl0
check final_unload sh -c 'rmmod ampsoc_rpmsg_lb && rmmod ampsoc_rpmsg_virtio ampsoc_rpmsg'
ktap_done

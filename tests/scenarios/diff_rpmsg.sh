#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: differential: what a user observes of rpmsg is mainline
#   6.1's. The same script runs on ampsoc's rpmsg and on Linux's own (the
#   peer stack), with the same remote (the loopback, without ampsoc's
#   buffer region and flow control, which mainline does not negotiate), and
#   its transcript must be the one recorded on mainline (tests/diff/
#   diff_rpmsg.golden), but for the differences docs/mainline-differences.md
#   gives a reason for (tests/diff/diff_rpmsg.allow): bus device names,
#   attributes, modes, uevents and drivers; the rpmsg class devices;
#   /dev/rpmsg_ctrlN and /dev/rpmsgN for every ioctl of <linux/rpmsg.h>
#   with their errnos, reads, writes and poll, on a live endpoint, a
#   destroyed one and one whose remote went away; channels made and
#   released from userspace; the remote's name-service create and destroy.
# STRATEGY: load the stack's virtio transport and char devices, then one
#   loopback remote announcing rpmsg-raw and rpmsg-client-sample; run
#   diff_abi, which prints "# T KEY = VALUE" lines; the runner compares
#   them (tests/qemu/run.py, "# golden:"). Then unload everything.
# stacks: ampsoc mainline
# golden: tests/diff/diff_rpmsg.golden
# timeout: 180
. /ampsoc/lib.sh

case $AMPSOC_STACK in
mainline)
	check load_stack modprobe -a virtio_rpmsg_bus rpmsg_ctrl rpmsg_char
	stack="rpmsg_ctrl rpmsg_char virtio_rpmsg_bus rpmsg_ns rpmsg_core" ;;
*)
	check load_stack modprobe ampsoc_rpmsg_virtio
	stack="ampsoc_rpmsg_virtio ampsoc_rpmsg" ;;
esac
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 \
	services=rpmsg-raw,rpmsg-client-sample shm=0 fc=0
D=/sys/bus/rpmsg/devices
check channels_announced wait_for 10 test -e $D/virtio0.rpmsg-client-sample.-1.1025
check raw_bound wait_for 10 test -e $D/virtio0.rpmsg-raw.-1.1024/driver
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0
diff_abi rpmsg 2>/tmp/diff.err
ktap_result transcript_ran $? "$(cat /tmp/diff.err)"
check unload_remote rmmod ampsoc_rpmsg_lb
check_eq bus_empty "" ls $D
check unload_stack rmmod $stack
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the peer stack's rpmsg (Linux's own virtio_rpmsg_bus,
#   rpmsg_ns, rpmsg_char and rpmsg_ctrl from linux-source-6.1, built
#   unmodified) binds to a virtio rpmsg device and serves userspace through
#   /dev/rpmsg_ctrl0 and /dev/rpmsgN, in a guest where ampsoc's own rpmsg
#   cannot be loaded at all.
# STRATEGY: boot the mainline module tree; ampsoc's rpmsg modules must be
#   unknown to modprobe. Load mainline's transport and char devices, then
#   the loopback remote (a pure virtio device of ID 7, which needs nothing
#   of ampsoc's rpmsg) without the ampsoc extensions mainline ignores: no
#   buffer region (mainline allocates its buffers from the DMA API), no
#   flow control. Its rpmsg-raw announcement must become a channel with
#   mainline's name bound to mainline's rpmsg_chrdev, whose /dev/rpmsg0
#   echoes; an endpoint made through /dev/rpmsg_ctrl0 echoes too, at the
#   largest size mainline's 512-byte buffers carry. The remote must have
#   seen every message and no descriptor outside RAM. Removing the remote
#   removes the channels and the char devices; every module unloads.
# stack: mainline
# timeout: 180
. /ampsoc/lib.sh

D=/sys/bus/rpmsg/devices
RAW=$D/virtio0.rpmsg-raw.-1.1024
LB=/sys/kernel/debug/ampsoc_rpmsg_lb
# module NAME: the module that provides driver NAME on bus rpmsg
module() { basename "$(readlink /sys/bus/rpmsg/drivers/$1/module)"; }
lb_stat() { awk -v k="$1" '$1 == k { print $2 }' $LB/stats; }
# not_installed MODULE: no such module in this boot's module tree
not_installed() { ! grep -q "/$1.ko:" "/lib/modules/$(uname -r)/modules.dep"; }

check ampsoc_rpmsg_not_installed not_installed ampsoc_rpmsg
check ampsoc_rpmsg_virtio_not_installed not_installed ampsoc_rpmsg_virtio
check modprobe_cannot_load_it sh -c '! modprobe ampsoc_rpmsg_virtio'
check load_virtio_rpmsg_bus modprobe virtio_rpmsg_bus
check load_rpmsg_ctrl modprobe rpmsg_ctrl
check_eq rpmsg_modules "rpmsg_char rpmsg_core rpmsg_ctrl rpmsg_ns virtio_rpmsg_bus" \
	sh -c "grep -o '^[a-z_]*rpmsg[a-z_]*' /proc/modules | sort | tr '\n' ' ' | sed 's/ \$//'"
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 services=rpmsg-raw shm=0 fc=0
check_eq virtio_driver virtio_rpmsg_bus \
	sh -c 'basename $(readlink /sys/bus/virtio/devices/virtio0/driver)'
check ns_channel_bound wait_for 10 test -e $D/virtio0.rpmsg_ns.53.53/driver
check_eq ns_driver_is_mainline rpmsg_ns module rpmsg_ns
check ctrl_channel_bound wait_for 10 test -e $D/virtio0.rpmsg_ctrl.0.0/driver
check_eq ctrl_driver_is_mainline rpmsg_ctrl module rpmsg_ctrl
check ctrl_dev wait_for 10 test -c /dev/rpmsg_ctrl0
check raw_channel_announced wait_for 10 test -e $RAW/driver
check_eq raw_channel_driver rpmsg_chrdev sh -c "basename \$(readlink $RAW/driver)"
check_eq chrdev_driver_is_mainline rpmsg_char module rpmsg_chrdev
check_eq raw_dst 0x400 cat $RAW/dst
check raw_eptdev wait_for 10 test -c /dev/rpmsg0
check echo_on_channel ampsocctl ept /dev/rpmsg0 ping 100 64
check echo_on_ctrl_endpoint ampsocctl ept /dev/rpmsg_ctrl0 peer-test 2000 $((0x401)) ping 100 496
check_eq remote_saw_all 200 lb_stat msgs
check_eq remote_saw_no_bad_descriptor 0 lb_stat bad_desc
check unload_remote rmmod ampsoc_rpmsg_lb
check channels_gone sh -c "! ls -d $D/virtio0.* 2>/dev/null"
check chardevs_gone sh -c '! ls /dev/rpmsg0 /dev/rpmsg_ctrl0 2>/dev/null'
check unload_stack rmmod rpmsg_ctrl rpmsg_char virtio_rpmsg_bus rpmsg_ns rpmsg_core
check bus_gone test ! -e /sys/bus/rpmsg
ktap_done

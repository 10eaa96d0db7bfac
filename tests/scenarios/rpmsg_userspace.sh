#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: channels announced by a remote appear on bus "rpmsg" with
#   mainline's names and attributes, drivers bind by name, by modalias
#   (module autoload) and by driver_override, the echo client completes its
#   round trips, and /dev/rpmsg_ctrlN and /dev/rpmsgN follow mainline's ABI
#   (including the post-6.1 flow-control ioctls) with the right errnos.
# STRATEGY: load the transport and one loopback remote announcing
#   ampsoc-echo, rpmsg-client-sample and rpmsg-raw; check sysfs; load the
#   echo client through the channel's modalias; rebind a channel with
#   driver_override; run the rpmsg_abi guest program (Debian's
#   <linux/rpmsg.h> only), which ends by removing and re-adding the remote.
# timeout: 300
# smp: 2
. /ampsoc/lib.sh

D=/sys/bus/rpmsg/devices
ECHO=$D/virtio0.ampsoc-echo.-1.1024
SAMPLE=$D/virtio0.rpmsg-client-sample.-1.1025
RAW=$D/virtio0.rpmsg-raw.-1.1026

check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1
check channels_announced wait_for 10 test -d "$RAW"
check ctrl_dev_exists test -c /dev/rpmsg_ctrl0
check ns_channel_exists test -d $D/virtio0.rpmsg_ns.53.53
check ctrl_channel_exists test -d $D/virtio0.rpmsg_ctrl.0.0
check_eq attr_name ampsoc-echo cat $ECHO/name
check_eq attr_src 0xffffffff cat $ECHO/src
check_eq attr_dst 0x400 cat $ECHO/dst
check_eq attr_announce false cat $ECHO/announce
check_eq attr_modalias rpmsg:ampsoc-echo cat $ECHO/modalias
check_eq attr_driver_override "(null)" cat $ECHO/driver_override
check uevent_modalias grep -qx MODALIAS=rpmsg:ampsoc-echo $ECHO/uevent
check raw_channel_bound_to_chrdev sh -c "[ \$(basename \$(readlink $RAW/driver)) = rpmsg_chrdev ]"
check raw_channel_has_eptdev sh -c "ls $RAW/rpmsg | grep -q '^rpmsg[0-9]'"

# modalias autoload, as udev would do it
check echo_client_autoloads modprobe "$(cat $ECHO/modalias)"
check echo_client_bound wait_for 10 test -e $ECHO/driver
check echo_client_round_trips wait_for 30 grep -qx 100 $ECHO/echo_received
check_eq echo_client_no_errors 0 cat $ECHO/echo_errors

# driver_override binds a channel to a driver that does not list its name
check sample_unbound sh -c "[ ! -e $SAMPLE/driver ]"
echo rpmsg_chrdev >$SAMPLE/driver_override
echo virtio0.rpmsg-client-sample.-1.1025 >/sys/bus/rpmsg/drivers_probe
check override_binds sh -c "[ \$(basename \$(readlink $SAMPLE/driver)) = rpmsg_chrdev ]"
echo virtio0.rpmsg-client-sample.-1.1025 >$SAMPLE/driver/unbind
echo >$SAMPLE/driver_override
check_eq override_cleared "(null)" cat $SAMPLE/driver_override

guest_test rpmsg_abi /dev/rpmsg_ctrl0
check rebuilt_after_readd wait_for 10 sh -c "ls -d /sys/bus/rpmsg/devices/virtio*.ampsoc-echo.-1.* && test -c /dev/rpmsg_ctrl1"
check unload_remote rmmod ampsoc_rpmsg_lb
check_eq bus_empty "" ls /sys/bus/rpmsg/devices
check unload_stack rmmod ampsoc_rpmsg_echo ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

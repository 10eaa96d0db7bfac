#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: mainline's samples/rpmsg/rpmsg_client_sample.c, built
#   outside the tree exactly as docs/third-party-drivers.md says (taken
#   from Debian's linux-source-6.1, never committed), loads through its
#   channel's modalias and completes its 100 exchanges with the loopback
#   remote's echo service.
# STRATEGY: load the transport and a loopback remote announcing
#   "rpmsg-client-sample"; modprobe the channel's modalias (what udev does);
#   wait for the sample's "goodbye!" and check the remote saw its 100
#   messages; unbind and unload.
# timeout: 120
. /ampsoc/lib.sh

CH=/sys/bus/rpmsg/devices/virtio0.rpmsg-client-sample.-1.1024
check sample_installed grep -q '/rpmsg_client_sample.ko:' "/lib/modules/$(uname -r)/modules.dep"
check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 services=rpmsg-client-sample
check channel_announced wait_for 10 test -d $CH
check_eq modalias rpmsg:rpmsg-client-sample cat $CH/modalias
check sample_autoloads modprobe "$(cat $CH/modalias)"
check sample_bound wait_for 10 sh -c "[ \"\$(readlink $CH/driver)\" != '' ]"
check sample_said_hello wait_for 10 sh -c "dmesg | grep -q 'rpmsg-client-sample.*new channel: 0x400 -> 0x400'"
check sample_said_goodbye wait_for 60 sh -c "dmesg | grep -q 'rpmsg-client-sample.*goodbye!'"
check sample_got_100 sh -c "dmesg | grep -q 'incoming msg 100 (src: 0x400)'"
check remote_saw_100 grep -qx 'msgs 100' /sys/kernel/debug/ampsoc_rpmsg_lb/stats
check unload_sample rmmod rpmsg_client_sample
check unload_stack rmmod ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: mainline's rpmsg API through include/compat. A KTAP module
#   written as a mainline driver finds each call it uses reaching the
#   ampsoc function of the same meaning, and mainline's byte-order helpers
#   and wire types; mainline's samples/rpmsg/rpmsg_client_sample.c, built
#   outside the tree exactly as docs/third-party-drivers.md says (taken
#   from Debian's linux-source-6.1, never committed), loads through its
#   channel's modalias and completes its 100 exchanges with the loopback
#   remote's echo service.
# STRATEGY: load the transport and a loopback remote announcing
#   "rpmsg-client-sample" (0x400) and "ampsoc-compat-test" (0x401); run
#   ampsoc_rpmsg_compat_test, which binds to the second; modprobe the
#   first channel's modalias (what udev does); wait for the sample's
#   "goodbye!" and check the remote saw its 100 messages; unbind and unload.
# timeout: 120
. /ampsoc/lib.sh

CH=/sys/bus/rpmsg/devices/virtio0.rpmsg-client-sample.-1.1024
COMPAT=/sys/bus/rpmsg/devices/virtio0.ampsoc-compat-test.-1.1025
lb_msgs() { awk '$1 == "msgs" { print $2 }' /sys/kernel/debug/ampsoc_rpmsg_lb/stats; }
# the messages the remote saw since $before
since() { echo $(($(lb_msgs) - before)); }
check sample_installed grep -q '/rpmsg_client_sample.ko:' "/lib/modules/$(uname -r)/modules.dep"
check load_transport modprobe ampsoc_rpmsg_virtio
check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1 \
	services=rpmsg-client-sample,ampsoc-compat-test
check channels_announced wait_for 10 test -d $COMPAT -a -d $CH
kmod_test ampsoc_rpmsg_compat_test
before=$(lb_msgs)
check_eq modalias rpmsg:rpmsg-client-sample cat $CH/modalias
check sample_autoloads modprobe "$(cat $CH/modalias)"
check sample_bound wait_for 10 sh -c "[ \"\$(readlink $CH/driver)\" != '' ]"
check sample_said_hello wait_for 10 sh -c "dmesg | grep -q 'rpmsg-client-sample.*new channel: 0x400 -> 0x400'"
check sample_said_goodbye wait_for 60 sh -c "dmesg | grep -q 'rpmsg-client-sample.*goodbye!'"
check sample_got_100 sh -c "dmesg | grep -q 'incoming msg 100 (src: 0x400)'"
check_eq remote_saw_100 100 since
check unload_sample rmmod rpmsg_client_sample
check unload_stack rmmod ampsoc_rpmsg_lb ampsoc_rpmsg_virtio ampsoc_rpmsg
ktap_done

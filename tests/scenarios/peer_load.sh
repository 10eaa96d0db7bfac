#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a guest on the peer stack (Linux's own remoteproc and rpmsg,
#   built unmodified from linux-source-6.1) loads it whole with load-all,
#   in place of ampsoc's remoteproc and rpmsg, and every peer module
#   unloads and loads again cleanly: class remoteproc, its char devices,
#   debugfs and rproc-virtio driver come and go with remoteproc.ko, bus
#   and class rpmsg with rpmsg_core.
# STRATEGY: boot the mainline module tree with load-all: the six peer
#   modules and what ampsoc's DKMS set keeps (ampsoc_pd, the vsoc drivers,
#   ampsoc_vsoc_rproc and ampsoc_rpmsg_echo in their peer builds, which
#   are unloaded first) are loaded; ampsoc_rproc, ampsoc_rpmsg and the
#   modules needing them are neither loaded nor installed; no test module
#   was loaded. Check what
#   remoteproc.ko registers, unload it, check all of it is gone, twice
#   (a leftover makes the second load fail or WARN); the same for rpmsg.
# stack: mainline
# load-all: 1
. /ampsoc/lib.sh

loaded() { grep -q "^$1 " /proc/modules; }
# not_installed MODULE: no such module in this boot's module tree
not_installed() { ! grep -q "/$1.ko:" "/lib/modules/$(uname -r)/modules.dep"; }
# rproc_parts: what remoteproc.ko registers that is there now
rproc_parts() {
	for p in /sys/class/remoteproc /sys/kernel/debug/remoteproc \
		 /sys/bus/platform/drivers/rproc-virtio; do
		[ -e $p ] && echo "$p"
	done
	grep ' remoteproc$' /proc/devices | sed 's|^|/proc/devices: |'
}
rproc_there() { [ "$(rproc_parts | wc -l)" = 4 ] || { rproc_parts; false; }; }
rproc_gone() { [ -z "$(rproc_parts)" ] || { rproc_parts; false; }; }

for m in remoteproc rpmsg_core rpmsg_ns rpmsg_char rpmsg_ctrl virtio_rpmsg_bus \
	 ampsoc_pd ampsoc_vsoc ampsoc_vsoc_rproc; do
	check "loaded_$m" loaded $m
done
# The vsoc remote-core driver is the peer build of the same source, on
# mainline's remoteproc (tests/peer/Kbuild).
check vsoc_rproc_is_peer_build sh -c \
	'grep -q "^extra/peer/ampsoc_vsoc_rproc.ko:.*extra/peer/remoteproc.ko" "/lib/modules/$(uname -r)/modules.dep"'
check vsoc_rproc_unloads rmmod ampsoc_vsoc_rproc
# So is the kernel echo client, on mainline's rpmsg.
check loaded_ampsoc_rpmsg_echo loaded ampsoc_rpmsg_echo
check rpmsg_echo_is_peer_build sh -c \
	'grep -q "^extra/peer/ampsoc_rpmsg_echo.ko:.*extra/peer/rpmsg_core.ko" "/lib/modules/$(uname -r)/modules.dep"'
check rpmsg_echo_unloads rmmod ampsoc_rpmsg_echo
for m in ampsoc_rproc ampsoc_rpmsg ampsoc_rpmsg_virtio \
	 ampsoc_rpmsg_resmgr; do
	check "absent_$m" sh -c "! grep -q '^$m ' /proc/modules"
	check "not_installed_$m" not_installed $m
done
check no_test_module_loaded sh -c "! grep -E '^(ampsoc_rpmsg_lb|ampsoc_[a-z_]*_test) ' /proc/modules"

for round in 1 2; do
	[ $round = 1 ] || check "load_remoteproc_$round" modprobe remoteproc
	check "remoteproc_registered_$round" rproc_there
	check "unload_remoteproc_$round" rmmod remoteproc
	check "remoteproc_gone_$round" rproc_gone
done
for round in 1 2; do
	[ $round = 1 ] || check "load_rpmsg_$round" modprobe rpmsg_ctrl
	[ $round = 1 ] || check "load_rpmsg_bus_$round" modprobe virtio_rpmsg_bus
	check "rpmsg_registered_$round" test -d /sys/bus/rpmsg -a -d /sys/class/rpmsg
	check "unload_rpmsg_$round" rmmod virtio_rpmsg_bus rpmsg_ctrl rpmsg_char rpmsg_ns rpmsg_core
	check "rpmsg_gone_$round" sh -c 'test ! -e /sys/bus/rpmsg && test ! -e /sys/class/rpmsg'
done
ktap_done

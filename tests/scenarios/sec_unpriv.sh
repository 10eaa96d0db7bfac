#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Only root can create or destroy rpmsg endpoints and boot or
#   stop remote processors, as in mainline (file modes: /dev nodes 0600
#   root, sysfs attributes 0644, debugfs 0700; CAP_MKNOD for a node of
#   one's own). An unprivileged user is refused every such operation.
# STRATEGY: boot ampsoc-rpmsg-echo on ipu; sec_unpriv checks as root that
#   an endpoint can be created and /dev/remoteprocN opened, then a child
#   drops to nobody (uid/gid 65534, no capabilities) and tries
#   /dev/rpmsg_ctrlN and /dev/rpmsgN (open, and mknod of a copy),
#   state/firmware/recovery/coredump, /dev/remoteprocN, the debugfs crash
#   file, a channel's driver_override and unbind: each must fail with
#   EACCES or EPERM; the processor is still running and the endpoint
#   still there afterwards, and root destroys it. The node modes are
#   checked too.
# services: socmodel
# load-all: 1
# timeout: 180
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
echo ampsoc-rpmsg-echo.elf >"$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel wait_for 20 sh -c 'ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.*'
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
# mode and owner: crw------- root root
mode_ok() { ls -l "$1" | awk '{ exit !($1 == "crw-------" && $3 == "root") }'; }
check ctrl_node_mode mode_ok "$ctrl"
check remoteproc_node_mode mode_ok "/dev/$(basename "$R")"
check_eq state_attr_mode "-rw-r--r--" sh -c "ls -l $R/state | cut -c1-10"
guest_test sec_unpriv "$R" "$D" "$ctrl"
check_eq still_running running cat "$R/state"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

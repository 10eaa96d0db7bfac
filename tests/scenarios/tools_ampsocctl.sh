#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ampsocctl's command line as its help documents it: ept
#   commands take the operation first, the previous release's order (the
#   operation after the endpoint) still works, every command has --help,
#   bad usage exits 2 and a failed operation 1, and pd reads the PM
#   domains from sysfs, so it works with debugfs unmounted.
# STRATEGY: with the SoC model's domains registered (load-all), load the
#   rpmsg loopback remote and echo through an endpoint on the control
#   device in both orders; create an endpoint operation-first and echo
#   through its /dev/rpmsgN; check each command's --help and the exit
#   status of a usage error and of an operation on a missing device; then
#   unmount debugfs and list the domains and read one domain's state.
# services: socmodel
# load-all: 1
. /ampsoc/lib.sh

check load_remote modprobe ampsoc_rpmsg_lb nr_devices=1
check ctrl_dev_exists wait_for 10 sh -c 'ls /dev/rpmsg_ctrl* >/dev/null 2>&1'
CTRL=$(ls /dev/rpmsg_ctrl* | head -n 1)
ECHO_DST=$(($(cat "$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* | head -n 1)/dst")))

check ping_op_first ampsocctl ept ping "$CTRL" t-new any "$ECHO_DST" 20 16
check ping_op_last_still_works ampsocctl ept "$CTRL" t-old any "$ECHO_DST" ping 20 16
check create_op_first sh -c "ampsocctl ept create $CTRL t-dev any $ECHO_DST >/tmp/dev"
DEV=$(cat /tmp/dev)
check created_dev_is_endpoint test -c "$DEV"
check ping_dev_op_first ampsocctl ept ping "$DEV" 10 32
check destroy_op_first ampsocctl ept destroy "$DEV"

for c in rproc channels ept pd resmgr; do
	check "help_$c" sh -c "ampsocctl $c --help >/tmp/help && grep -q '^  $c' /tmp/help &&
		! grep -v '^  $c\|^    \|^usage\|^Exit' /tmp/help | grep -q ."
done
check help_names_exit_codes sh -c 'ampsocctl --help | grep -q "^Exit status: 0 .* 1 .* 2 bad usage"'
check_eq usage_error_exits_2 2 sh -c 'ampsocctl ept ping 2>/dev/null; echo $?'
check_eq unknown_command_exits_2 2 sh -c 'ampsocctl frobnicate 2>/dev/null; echo $?'
check_eq failed_operation_exits_1 1 sh -c 'ampsocctl ept ping /dev/rpmsg-none 2>/dev/null; echo $?'

check unmount_debugfs umount /sys/kernel/debug
check pd_list_from_sysfs sh -c 'ampsocctl pd >/tmp/pd && grep -q "^DOMAIN " /tmp/pd &&
	grep -Eq "^wkup +on " /tmp/pd'
check_eq pd_one_domain on ampsocctl pd wkup
check_eq pd_bad_name_exits_2 2 sh -c 'ampsocctl pd ../x 2>/dev/null; echo $?'
check remount_debugfs mount -t debugfs debugfs /sys/kernel/debug
check unload_remote rmmod ampsoc_rpmsg_lb
ktap_done

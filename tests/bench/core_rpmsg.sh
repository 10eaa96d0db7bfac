#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg echo round trip from userspace to a real remote core
#   (ampsoc-rpmsg-echo on ipu), against the raw mailbox round trip to the
#   same core in the same boot (ECHO_REQUEST/ECHO_REPLY on the very
#   doorbell and mailbox path rpmsg notifications take).
# STRATEGY: boot ampsoc-rpmsg-echo, wait for the ampsoc-echo channel;
#   read the driver's mbox_ping (2000 round trips, timed in the kernel);
#   run 2000 echoes of 16 and 496 bytes with ampsocctl through
#   /dev/rpmsgN (timed in userspace); report the averages and the ratio.
# services: socmodel
# load-all: 1
# timeout: 600
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
echo ampsoc-rpmsg-echo.elf >"$R/firmware"
check start sh -c "echo start >$R/state"
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
check echo_channel wait_for 20 echo_chan || bail "no echo channel"
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
dst=$(($(cat "$echo/dst")))

echo 2000 >"$C/iters"
cat "$C/mbox_ping" >/tmp/mb
check_eq mbox_ping_ok 0 awk '{ print $2 }' /tmp/mb
MB=$(awk '{ printf "%.2f", $6 / 1000 }' /tmp/mb)
for size in 16 496; do
	ampsocctl ept "$ctrl" bench 2000 "$dst" ping 2000 $size >/tmp/p$size
	check "echo_$size" test $? = 0
	AVG=$(sed -n 's/.*avg \([0-9.]*\) us.*/\1/p' /tmp/p$size)
	ktap_diag "$(cat /tmp/p$size); ratio $(awk -v a="$AVG" -v b="$MB" 'BEGIN { printf "%.2f", a / b }')"
	bench "core_rpmsg_user_echo_rtt_$size" "$AVG" us core_mbox_rtt "$MB"
done
echo stop >"$R/state"

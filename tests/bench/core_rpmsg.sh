#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg echo round trip from a kernel client and from
#   userspace to a real remote core (ampsoc-rpmsg-echo on ipu), against the
#   raw mailbox round trip to the same core in the same boot
#   (ECHO_REQUEST/ECHO_REPLY on the very doorbell and mailbox path rpmsg
#   notifications take).
# STRATEGY: boot ampsoc-rpmsg-echo, wait for the ampsoc-echo channel and
#   for the kernel echo client bound to it to finish 2000 round trips
#   (timed in the kernel, each sent from the previous echo's callback);
#   read the driver's mbox_ping (2000 round trips, timed in the kernel);
#   run 2000 echoes of 16 and 496 bytes with ampsocctl through
#   /dev/rpmsgN (timed in userspace); report the averages and the ratio,
#   the best cases, and the doorbells Linux rang per echo.
# services: socmodel
# load-all: 1
# timeout: 600
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
echo ampsoc-rpmsg-echo.elf >"$R/firmware"
# The kernel echo client binds the channel and runs its round trips first.
KC=/sys/module/ampsoc_rpmsg_echo/parameters/count
[ -w $KC ] && echo 2000 >$KC
check start sh -c "echo start >$R/state"
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
check echo_channel wait_for 20 echo_chan || bail "no echo channel"
ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
if [ -w $KC ]; then
	check kernel_echo wait_for 120 grep -qx 2000 "$echo/echo_received"
	check_eq kernel_echo_errors 0 cat "$echo/echo_errors"
	KNS=$(cat "$echo/echo_ns")
else
	ktap_skip kernel_echo "ampsoc_rpmsg_echo is not loaded"
fi
dst=$(($(cat "$echo/dst")))
# The transport's counters: doorbells Linux rang per echo (diagnostics).
ST=/sys/kernel/debug/ampsoc_rpmsg/$(basename "$(dirname "$(readlink -f "$echo")")")/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' "$ST" 2>/dev/null; }

echo 2000 >"$C/iters"
cat "$C/mbox_ping" >/tmp/mb
check_eq mbox_ping_ok 0 awk '{ print $2 }' /tmp/mb
MB=$(awk '{ printf "%.2f", $6 / 1000 }' /tmp/mb)
MBMIN=$(awk '{ printf "%.2f", $8 / 1000 }' /tmp/mb)
ktap_diag "mailbox round trip: $(cat /tmp/mb)"
if [ -n "$KNS" ]; then
	# about 15-byte messages, each sent from the previous echo's callback
	bench core_rpmsg_kernel_echo_rtt "$(awk -v n="$KNS" 'BEGIN { printf "%.2f", n / 2000 / 1000 }')" us \
		core_mbox_rtt "$MB"
fi
for size in 16 496; do
	k0=$(stat kicks)
	ampsocctl ept "$ctrl" bench 2000 "$dst" ping 2000 $size >/tmp/p$size
	check "echo_$size" test $? = 0
	k1=$(stat kicks)
	AVG=$(sed -n 's/.*avg \([0-9.]*\) us.*/\1/p' /tmp/p$size)
	ktap_diag "$(cat /tmp/p$size); ratio $(awk -v a="$AVG" -v b="$MB" 'BEGIN { printf "%.2f", a / b }')"
	MIN=$(sed -n 's/.*min \([0-9.]*\) us.*/\1/p' /tmp/p$size)
	ktap_diag "best case: echo min $MIN us / mailbox min $MBMIN us = $(awk -v a="$MIN" -v b="$MBMIN" 'BEGIN { printf "%.2f", a / b }')"
	ktap_diag "doorbells rung by Linux per echo: $(awk -v a="${k0:-0}" -v b="${k1:-0}" 'BEGIN { printf "%.2f", (b - a) / 2000 }')"
	bench "core_rpmsg_user_echo_rtt_$size" "$AVG" us core_mbox_rtt "$MB"
done
echo stop >"$R/state"
ktap_done

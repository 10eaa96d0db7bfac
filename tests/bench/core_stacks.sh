#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the rpmsg and remoteproc figures of a real remote core
#   (the SDK's echo firmware on ipu, default board) on ampsoc's stack and
#   on mainline's (the peer stack), each next to the floor measured in the
#   same boot, interleaved with it: echo round trip at 16 and 496 bytes
#   from a kernel client and through /dev/rpmsg_ctrlN, against the raw
#   mailbox round trip to the same core (ECHO_REQUEST/ECHO_REPLY on the
#   doorbell and mailbox path rpmsg notifications take); firmware load of
#   an 8 MiB image against a memcpy() of the same bytes into the same
#   device memory; start to first message (the echo channel announced);
#   recovery time (debugfs crash to the channel announced again).
# STRATEGY: R rounds (BENCH_ROUNDS). Each round: start the echo image
#   timing the "start" write and the time to its channel (rproc_bench
#   firstmsg); wait for the kernel echo client's round trips (its peer
#   build on mainline);
#   the mailbox floor; the two userspace echoes (ampsocctl ept bench);
#   a debugfs crash and the time to the new channel (rproc_bench
#   recover; the kernel client is told to send nothing on it); stop;
#   then start and stop the 8 MiB image (rproc_bench
#   latency, one run) and, on ampsoc, the memcpy of the same size
#   (debugfs memcpy_bench). Every figure is reported as its rounds. The
#   8 MiB image is started and stopped once before the rounds, uncounted
#   (the first touch of its device memory).
#   Mainline runs the -nobuf image (docs/firmware-sdk.md: it cannot start
#   the carveout one), ampsoc the carveout one (it cannot run -nobuf yet).
# services: socmodel
# stacks: ampsoc mainline
# load-all: 1
# timeout: 1200
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/bench.sh

STACK=${AMPSOC_STACK:-ampsoc}
core_find ipu || bail "no remote processor for core ipu"
if [ "$STACK" = mainline ]; then
	FW=ampsoc-rpmsg-echo-nobuf.elf
else
	FW=ampsoc-rpmsg-echo.elf
fi
ROUNDS=$(bench_rounds)
N=$(bench_count 2000)
GLOB="/sys/bus/rpmsg/devices/*.ampsoc-echo.*"
KC=/sys/module/ampsoc_rpmsg_echo/parameters/count
[ -w $KC ] && echo "$N" >$KC
echo enabled >"$R/recovery"
echo "$N" >"$C/iters"
MIB=8
DA=10200000
BIG=ampsoc-bench-stacks.elf
check mkfw rproc_bench mkfw /lib/firmware/ampsoc-hello.elf \
	/lib/firmware/$BIG $((MIB << 20)) $DA

field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"
}
us() {
	awk -v n="$1" 'BEGIN { if (n != "") printf "%.2f", n / 1000 }'
}
mibs() {
	awk -v b="$1" -v u="$2" 'BEGIN { if (u > 0) printf "%.1f", (b / 1048576) / (u / 1e6) }'
}
echo_dev() {
	ls -d $GLOB 2>/dev/null | head -n 1
}
kernel_done() {
	[ "$(cat "$(echo_dev)/echo_received" 2>/dev/null)" = "$N" ]
}

# One load of the big image first, not counted: the first load is the
# first touch of its device memory in the boot (rproc_load.sh).
echo $BIG >"$R/firmware"
check warmup_load sh -c "rproc_bench latency $R/state $D/trace0 1 >/dev/null"

FLOOR= K= U16= U496= START= FIRST= REC= LOAD= MC=
ok=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	echo $FW >"$R/firmware"
	rproc_bench firstmsg "$R/state" "$GLOB" >/tmp/fm || break
	acc START "$(field /tmp/fm start_write_us)"
	acc FIRST "$(field /tmp/fm first_msg_us)"
	if [ -w $KC ]; then
		wait_for 120 kernel_done || break
		acc K "$(us "$(($(cat "$(echo_dev)/echo_ns") / N))")"
	fi
	cat "$C/mbox_ping" >/tmp/mb
	[ "$(field /tmp/mb status)" = 0 ] || break
	acc FLOOR "$(us "$(field /tmp/mb avg_ns)")"
	ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	dst=$(($(cat "$(echo_dev)/dst")))
	for size in 16 496; do
		ampsocctl ept "$ctrl" bench 2000 "$dst" ping "$N" $size >/tmp/p || break 2
		acc U$size "$(sed -n 's/.*avg \([0-9.]*\) us.*/\1/p' /tmp/p)"
	done
	# The recovered channel gets no kernel echo traffic (count 0 at its
	# probe): the figure is the recovery alone, and the stop after it
	# waits for nothing.
	[ -w $KC ] && echo 0 >$KC
	rproc_bench recover "$D/crash" 2 "$GLOB" >/tmp/rec || break
	acc REC "$(field /tmp/rec recover_us)"
	echo stop >"$R/state" || break
	[ -w $KC ] && echo "$N" >$KC
	echo $BIG >"$R/firmware"
	rproc_bench latency "$R/state" "$D/trace0" 1 >/tmp/lat || break
	acc LOAD "$(mibs $((MIB << 20)) "$(field /tmp/lat start_write_median_us)")"
	if [ -e "$D/memcpy_bench" ]; then
		echo "$DA $((MIB << 20))" >"$D/memcpy_bench" || break
		acc MC "$(mibs $((MIB << 20)) "$(us "$(field "$D/memcpy_bench" ns)")")"
	fi
	ok=$i
done
check_eq "rounds_$ROUNDS" "$ROUNDS" echo $ok
rm -f /lib/firmware/$BIG

bench_floor core_echo_rtt_user_16 "$U16" us core_mbox_rtt "$FLOOR"
bench_floor core_echo_rtt_user_496 "$U496" us core_mbox_rtt "$FLOOR"
if [ -w $KC ]; then
	bench_floor core_echo_rtt_kernel_15 "$K" us core_mbox_rtt "$FLOOR"
else
	bench_na core_echo_rtt_kernel_15 us "no kernel echo client on $STACK:" \
		"ampsoc_rpmsg_echo is not loaded"
fi
# The whole "start" write: request_firmware, the copy, power-on, release.
if [ -n "$MC" ]; then
	bench_floor core_fw_load_${MIB}m "$LOAD" MiB/s memcpy_${MIB}m "$MC" higher
else
	bench core_fw_load_${MIB}m "$LOAD" MiB/s
fi
bench core_start_to_first_msg "$FIRST" us rproc_start_write "$START"
bench core_recovery "$REC" us
ktap_diag "rounds: floor $FLOOR; kernel $K; user16 $U16; user496 $U496"
ktap_diag "rounds: start $START; first $FIRST; recover $REC; load $LOAD; memcpy $MC"
check_eq no_violations 0 tele_field violations
ktap_done

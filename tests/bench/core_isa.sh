#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: what an emulated remote core costs against the native one,
#   per instruction set: the emulated core ($CORE: m4 on omap4.ini, rv on
#   omap4-rv.ini) next to the native ipu of the same board, in the same
#   boot. Instructions per second of a two-instruction loop (the spin
#   firmware); echo round trip of 16 and 496 bytes through
#   /dev/rpmsg_ctrlN with the SDK's echo firmware; start to first message
#   (the "start" write to the echo channel in sysfs). The native core is
#   the floor of the instruction rate and of the start (the same source
#   and Linux path, only without the emulation, which can make neither
#   faster) and a reference for the round trips, whose floor is the raw
#   mailbox round trip to the same core.
# STRATEGY: R rounds (BENCH_ROUNDS), the native core and the emulated one
#   one after the other in each round. Spin: boot ampsoc-spin on the core,
#   wait for its two trace lines (iterations of the bare loop and of the
#   loop with a store, each over about a second of the core's clock),
#   stop; the rate is iterations x instructions / time. Echo: boot
#   ampsoc-rpmsg-echo timing the start write and the time to its channel
#   (rproc_bench firstmsg), 20 pings not timed (an emulated core
#   translates the echo path's code at its first messages), the mailbox
#   round trip (debugfs mbox_ping), then ampsocctl ept bench pings of 16
#   and 496 bytes, stop. The spin boots and the echo boots alternate on
#   each core, so a trace line read is always the running boot's (the SDK
#   clears the trace buffer at boot, and the echo firmware writes no
#   "spin:" line).
# services: socmodel
# isa: armv7m rv32imac
# load-all: 1
# timeout: 1200
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/bench.sh

NATIVE=ipu
core_find $NATIVE || bail "no remote processor for core $NATIVE"
NR=$R ND=$D NC=$C
core_find "$CORE" || bail "no remote processor for core $CORE"
ER=$R ED=$D EC=$C
ROUNDS=$(bench_rounds)
N=$(bench_count 1000)
echo "$N" >"$NC/iters"
echo "$N" >"$EC/iters"
GLOB="/sys/bus/rpmsg/devices/*.ampsoc-echo.*"

field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"
}
# rate COUNT INSNS NS: million instructions per second (MIPS)
rate() {
	awk -v c="$1" -v i="$2" -v t="$3" 'BEGIN { if (t > 0) printf "%.1f", c * i / t * 1000 }'
}
stopped() {
	grep -qx offline "$1/state" &&
		! ls -d /sys/bus/rpmsg/devices/virtio* >/dev/null 2>&1
}
stop_core() {
	echo stop >"$1/state" && wait_for 10 stopped "$1"
}
spin_done() {
	grep -qF "stores, 3 instructions" "$1/trace0" 2>/dev/null
}

# spin RDIR DDIR SUFFIX: boot the spin firmware; sets LOOP and STORE
# (MIPS of the bare loop and of the loop with a store).
spin() {
	LOOP='' STORE=''
	echo "ampsoc-spin$3.elf" >"$1/firmware" && echo start >"$1/state" || return 1
	if wait_for 20 spin_done "$2"; then
		_l=$(sed -n 's/.*spin: \([0-9]*\) iterations, 2 instructions each, in \([0-9]*\) ns.*/\1 \2/p' "$2/trace0")
		_s=$(sed -n 's/.*spin: \([0-9]*\) stores, 3 instructions each, in \([0-9]*\) ns.*/\1 \2/p' "$2/trace0")
		# shellcheck disable=SC2086
		LOOP=$(rate ${_l%% *} 2 ${_l##* })
		# shellcheck disable=SC2086
		STORE=$(rate ${_s%% *} 3 ${_s##* })
	fi
	stop_core "$1"
}

# echo_bench RDIR CDIR FIRMWARE: boot the echo firmware timing its first
# message; sets START, FIRST, MBOX (the raw mailbox round trip to the
# core, the driver's debugfs mbox_ping), U16, U496 (µs).
echo_bench() {
	START='' FIRST='' MBOX='' U16='' U496=''
	echo "$3" >"$1/firmware"
	rproc_bench firstmsg "$1/state" "$GLOB" >/tmp/fm || { stop_core "$1"; return 1; }
	START=$(field /tmp/fm start_write_us)
	FIRST=$(field /tmp/fm first_msg_us)
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(($(cat "$(ls -d $GLOB | head -n 1)/dst")))
	# Warm-up, not timed: an emulated core translates the echo path's
	# code at its first messages.
	ampsocctl ept "$_ctrl" bench 2000 "$_dst" ping 20 496 >/dev/null
	cat "$2/mbox_ping" >/tmp/mb
	[ "$(field /tmp/mb status)" = 0 ] &&
		MBOX=$(awk -v n="$(field /tmp/mb avg_ns)" 'BEGIN { printf "%.2f", n / 1000 }')
	for _size in 16 496; do
		ampsocctl ept "$_ctrl" bench 2000 "$_dst" ping "$N" $_size >/tmp/p || break
		eval "U$_size=\$(sed -n 's/.*avg \([0-9.]*\) us.*/\1/p' /tmp/p)"
	done
	stop_core "$1"
}

NLOOP='' NSTORE='' ELOOP='' ESTORE=''
NSTART='' NFIRST='' NMBOX='' N16='' N496=''
ESTART='' EFIRST='' EMBOX='' E16='' E496=''
ok=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	spin "$NR" "$ND" ""
	acc NLOOP "$LOOP"
	acc NSTORE "$STORE"
	spin "$ER" "$ED" "$FW_SUFFIX"
	acc ELOOP "$LOOP"
	acc ESTORE "$STORE"
	echo_bench "$NR" "$NC" ampsoc-rpmsg-echo.elf
	acc NSTART "$START"
	acc NFIRST "$FIRST"
	acc NMBOX "$MBOX"
	acc N16 "$U16"
	acc N496 "$U496"
	echo_bench "$ER" "$EC" "$(fw rpmsg-echo)"
	acc ESTART "$START"
	acc EFIRST "$FIRST"
	acc EMBOX "$MBOX"
	acc E16 "$U16"
	acc E496 "$U496"
	case ",$NLOOP,$ELOOP,$NFIRST,$EFIRST,$NMBOX,$EMBOX,$N16,$E16,$N496,$E496," in
	*,nan,*) break ;;
	esac
	ok=$i
done
check_eq "rounds_$ROUNDS" "$ROUNDS" echo $ok

bench_floor "core_isa_insn_rate_$CORE" "$ELOOP" MIPS native_insn_rate "$NLOOP" higher
# A store costs the emulated core far more than an instruction: a
# reference beside the loop, not a floor of anything.
bench "core_isa_store_loop_rate_$CORE" "$ESTORE" MIPS native_store_loop_rate "$NSTORE" higher
# The echo's floor is the raw mailbox round trip to the same core in the
# same boot, the path rpmsg's notifications take (as in core_stacks). The
# native core's round trips are references beside them, not floors: the
# emulated runner waits and wakes on other threads than the native one,
# and under TCG that wake-up, not the core's instructions, is most of a
# round trip, so a round on the emulated core can beat one on the native
# core (smoke runs saw it).
bench_floor "core_isa_echo_rtt_16_$CORE" "$E16" us "core_isa_mbox_rtt_$CORE" "$EMBOX"
bench_floor "core_isa_echo_rtt_496_$CORE" "$E496" us "core_isa_mbox_rtt_$CORE" "$EMBOX"
bench "core_isa_echo_rtt_16_${CORE}_vs_native" "$E16" us native_echo_rtt_16 "$N16"
bench "core_isa_echo_rtt_496_${CORE}_vs_native" "$E496" us native_echo_rtt_496 "$N496"
bench "core_isa_mbox_rtt_${CORE}_vs_native" "$EMBOX" us native_mbox_rtt "$NMBOX"
bench_floor "core_isa_start_to_first_msg_$CORE" "$EFIRST" us native_start_to_first_msg "$NFIRST"
ktap_diag "native $NATIVE: loop $NLOOP; store loop $NSTORE; start $NSTART; first $NFIRST; mbox $NMBOX; echo16 $N16; echo496 $N496"
ktap_diag "$CORE: loop $ELOOP; store loop $ESTORE; start $ESTART; first $EFIRST; mbox $EMBOX; echo16 $E16; echo496 $E496"
check_eq no_violations 0 tele_field violations
ktap_done

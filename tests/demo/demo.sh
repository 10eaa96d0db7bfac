#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make demo: the virtual AMP SoC story on the default board.
#   Each section shows the commands it runs and what they printed, and
#   every claim it makes is a checked test point.
# STRATEGY: load everything; show the board; use peripherals and watch their
#   domains go off and come back in the kernel and in the SoC model; boot the
#   M3 core, talk to it over rpmsg, let it power a domain through the
#   resource manager, crash it and watch it recover; boot the emulated
#   Cortex-M4 (ARMv7-M) with the SDK's echo firmware and talk to it; suspend
#   and resume the system. Each step starts with a "# demo-mark: LABEL"
#   line: the runner (tests/qemu/run.py --demo) has the SoC model put the
#   mark on its timeline, "sleep" and "wake" around the suspend. The host
#   side then prints the energy report and draws the power picture
#   (tools/demo-report.py).
# services: socmodel
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh

wait_for 30 vsoc_settled || bail "the virtual SoC did not come up (is the SoC model running?)"
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
TEL=$VSOC/telemetry
PD=/sys/kernel/debug/ampsoc_pd
KVER=$(uname -r)

section() {
	echo
	echo "== $* =="
}

# mark LABEL: the SoC model marks its timeline with LABEL now (the runner
# sends it when it reads this line; the picture draws it)
mark() {
	echo "# demo-mark: $*"
}

# run CMD...: show a command and what it printed
run() {
	echo "\$ $*"
	"$@" 2>&1 | sed 's/^/  /'
}

# available MODULE: the module is part of this build
available() {
	[ -e "/lib/modules/$KVER/extra/ampsoc/$1.ko" ]
}

model_domain() {
	awk -v n="$1" '$1 == "domain" && $2 == n { print $4 }' "$TEL"
}

kernel_domain() {
	case $(cat "$PD/$1/current_state" 2>/dev/null) in
	on) echo on ;;
	off*) echo off ;;
	*) echo unknown ;;
	esac
}

both_domain() {
	[ "$(kernel_domain "$1")" = "$2" ] && [ "$(model_domain "$1")" = "$2" ]
}

show_domain() {
	echo "  domain $1: kernel says $(kernel_domain "$1"), the SoC model says $(model_domain "$1")"
}

device_of() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ "$(cat "$d/label" 2>/dev/null)" = "$1" ] && { echo "$d"; return 0; }
	done
	return 1
}

section "1. The board"
[ -n "$VSOC" ] && [ -r "$TEL" ] || bail "the virtual SoC is not bound (is the SoC model running?)"
run cat "$VSOC/board"
run ampsocctl pd summary
run sh -c "cat /sys/kernel/debug/clk/clk_summary"
check demo_board_domains test -d "$PD/l4per"
check demo_board_clocks test -d /sys/kernel/debug/clk/sys_clk

section "2. Runtime power management"
mark runtime PM
TIMER=$(device_of gpt2)
SENSOR=$(device_of temp0)
DMA=$(device_of sdma)
echo "Peripherals idle: their domains are off, parents last."
wait_for 10 both_domain l4per off
show_domain l4per
show_domain l4per_sub
check demo_idle_domains_off both_domain l4per off
if [ -n "$SENSOR" ]; then
	run sh -c "echo '16 20000' >$SENSOR/sample; wc -l <$SENSOR/samples"
	check demo_sensor_samples test "$(wc -l <"$SENSOR/samples")" -eq 16
fi
if [ -n "$DMA" ]; then
	run sh -c "echo 'crc32 4096' >$DMA/start; cat $DMA/crc32"
	check demo_dma_crc32 test -n "$(cat "$DMA/crc32")"
fi
if [ -n "$TIMER" ]; then
	echo "A periodic timer keeps its domain on; the model agrees:"
	run sh -c "echo '500000 periodic' >$TIMER/start"
	check demo_timer_domain_on wait_for 10 both_domain "$(cat "$TIMER/domain")" on
	show_domain "$(cat "$TIMER/domain")"
	run sh -c "echo 1 >$TIMER/stop; cat $TIMER/expirations"
fi
echo "Idle again: autosuspend, then the domain powers off."
check demo_domains_off_again wait_for 10 both_domain l4per off
show_domain l4per

section "3. Remote cores"
mark remote boot
if available ampsoc_vsoc_rproc; then
	RP=$(for d in /sys/class/remoteproc/*; do
		[ "$(cat "$d/name" 2>/dev/null)" = ipu ] && echo "$d"; done)
	check demo_rproc_ipu_registered test -n "$RP"
	run ampsocctl rproc list
	run ampsocctl rproc firmware ipu ampsoc-hello.elf
	run ampsocctl rproc start ipu
	check demo_ipu_running wait_for 20 grep -qx running "$RP/state"
	check demo_ipu_domain_on wait_for 10 both_domain ipu on
	show_domain ipu
	# Its memory has a domain of its own on the default board (ABI 1.5).
	if [ -d "$PD/ipu_mem" ]; then
		check demo_ipu_mem_on both_domain ipu_mem on
		show_domain ipu_mem
	fi
	check demo_ipu_trace wait_for 20 sh -c "ampsocctl rproc trace ipu | grep -q ."
	run ampsocctl rproc trace ipu
	run ampsocctl rproc stop ipu
	check demo_ipu_domain_off wait_for 10 both_domain ipu off
	show_domain ipu
	if [ -d "$PD/ipu_mem" ]; then
		check demo_ipu_mem_off wait_for 10 both_domain ipu_mem off
		show_domain ipu_mem
	fi
else
	echo "(remote cores: the vsoc remoteproc driver is not in this build)"
fi

section "4. rpmsg"
mark echo
echo_chan() {
	ECHO=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$ECHO" ]
}
# The firmware that powers a domain through the resource manager also
# serves echo; without the resource manager, the plain echo server.
RMDOM=l4per_sub
RMFW=ampsoc-rpmsg-resmgr.elf
if ! available ampsoc_rpmsg_resmgr || [ ! -d "$PD/$RMDOM" ]; then
	RMFW=ampsoc-rpmsg-echo.elf
fi
rm_held() {
	grep -qx "domain $RMDOM 1" /sys/kernel/debug/ampsoc_resmgr/*/holdings 2>/dev/null
}
if available ampsoc_vsoc_rproc && available ampsoc_rpmsg_virtio; then
	run ampsocctl rproc firmware ipu "$RMFW"
	run ampsocctl rproc start ipu
	echo "The firmware announces its services; channels appear on the bus:"
	check demo_channels_announced wait_for 30 echo_chan
	run ampsocctl channels
	CTRL=$(ls /dev/rpmsg_ctrl* 2>/dev/null | head -n 1)
	DST=$(($(cat "$ECHO/dst")))
	echo "Echo from userspace through $CTRL and a new /dev/rpmsgN:"
	run ampsocctl ept "$CTRL" demo-echo 3000 "$DST" ping 100 496
	check demo_echo_from_userspace ampsocctl ept "$CTRL" demo-echo 3001 "$DST" ping 20 64
	if [ "$RMFW" = ampsoc-rpmsg-resmgr.elf ]; then
		mark resource manager
		echo "The remote asks Linux over its rpmsg-resmgr channel to power $RMDOM;"
		echo "Linux holds it through runtime PM, and the SoC model powers it on:"
		check demo_resmgr_domain_on wait_for 20 both_domain "$RMDOM" on
		show_domain "$RMDOM"
		check demo_resmgr_holding wait_for 10 rm_held
		run ampsocctl resmgr
		run sh -c "ampsocctl rproc trace ipu | grep resmgr"
		RMCTL=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-resmgr-ctl.* 2>/dev/null | head -n 1)
		RMEPT=$(ampsocctl ept "$CTRL" demo-resmgr 3010 "$(($(cat "$RMCTL/dst")))" create)
		echo "Told (on its control channel) to release it, the remote gives it back:"
		run ampsocctl ept "$RMEPT" call "release domain $RMDOM"
		check demo_resmgr_release_off wait_for 10 both_domain "$RMDOM" off
		show_domain "$RMDOM"
		run ampsocctl ept "$RMEPT" call "request domain $RMDOM"
		check demo_resmgr_request_on wait_for 10 both_domain "$RMDOM" on
		show_domain "$RMDOM"
	else
		echo "(the resource manager: not in this build, or no $RMDOM domain on this board)"
	fi
else
	echo "(rpmsg over a remote core: not in this build)"
fi

section "5. Recovery"
if [ -n "${RP:-}" ] && grep -qx running "$RP/state"; then
	mark crash and recovery
	echo "The firmware crashes; remoteproc recovers it and the channels come back:"
	run sh -c "echo 1 >/sys/kernel/debug/remoteproc/$(basename "$RP")/crash"
	check demo_recovered wait_for 30 grep -qx running "$RP/state"
	check demo_channels_back wait_for 30 echo_chan
	run ampsocctl channels
	DST=$(($(cat "$ECHO/dst")))
	check demo_echo_after_recovery ampsocctl ept "$CTRL" demo-echo 3002 "$DST" ping 20 64
	if [ "$RMFW" = ampsoc-rpmsg-resmgr.elf ]; then
		echo "The crash released what the remote held; recovered, it asks again:"
		check demo_resmgr_after_recovery wait_for 20 rm_held
		check demo_resmgr_domain_on_after_recovery wait_for 10 both_domain "$RMDOM" on
		run ampsocctl resmgr
	fi
	run ampsocctl rproc stop ipu
	check demo_ipu_off_after_stop wait_for 10 both_domain ipu off
	if [ "$RMFW" = ampsoc-rpmsg-resmgr.elf ]; then
		echo "Stopped, the remote holds nothing; its domain powers off:"
		check demo_resmgr_off_after_stop wait_for 10 both_domain "$RMDOM" off
		show_domain "$RMDOM"
	fi
else
	echo "(recovery: needs a running remote core)"
fi

section "6. A Cortex-M4 core"
# The board's ARMv7-M core: the one whose default firmware is the SDK's
# hello for ARMv7-M (docs/cores.md), m4 on omap4.ini.
M4=
for d in /sys/class/remoteproc/*; do
	[ "$(cat "$d/firmware" 2>/dev/null)" = ampsoc-hello-m4.elf ] && M4=$d
done
if [ -n "$M4" ] && available ampsoc_rpmsg_virtio; then
	M4NAME=$(cat "$M4/name")
	M4DOM=$(awk -v c="$M4NAME" '$1 == "core" && $3 == c { print $5 }' "$VSOC/board")
	mark Cortex-M4 echo
	echo "$M4NAME is an emulated ARMv7-M core; the SDK's echo firmware, built for it:"
	run ampsocctl rproc firmware "$M4NAME" ampsoc-rpmsg-echo-m4.elf
	run ampsocctl rproc start "$M4NAME"
	check demo_m4_running wait_for 30 grep -qx running "$M4/state"
	check demo_m4_domain_on wait_for 10 both_domain "$M4DOM" on
	show_domain "$M4DOM"
	check demo_m4_channels_announced wait_for 30 echo_chan
	run ampsocctl channels
	CTRL=$(ls /dev/rpmsg_ctrl* 2>/dev/null | head -n 1)
	DST=$(($(cat "$ECHO/dst")))
	echo "Echo from userspace, answered by Thumb-2 code:"
	run ampsocctl ept "$CTRL" demo-echo 3003 "$DST" ping 20 496
	check demo_m4_echo ampsocctl ept "$CTRL" demo-echo 3004 "$DST" ping 20 64
	run sh -c "ampsocctl rproc trace $M4NAME | tail -n 3"
	run ampsocctl rproc stop "$M4NAME"
	check demo_m4_domain_off wait_for 10 both_domain "$M4DOM" off
	show_domain "$M4DOM"
else
	echo "(no ARMv7-M core on this board, or no rpmsg in this build)"
fi

section "7. System suspend and resume"
mark suspend
before=$(awk '$1 == "domain" && $2 == "l4per" { print $0 }' "$TEL")
ok0=$(cat /sys/power/suspend_stats/success)
echo "Suspend to RAM (ACPI S3), woken 3 s later by the RTC alarm:"
run sh -c "echo deep >/sys/power/mem_sleep; echo 0 >/sys/class/rtc/rtc0/wakealarm; echo +3 >/sys/class/rtc/rtc0/wakealarm"
mark sleep
run sh -c "echo mem >/sys/power/state"
mark wake
check demo_suspend_resumed test "$(cat /sys/power/suspend_stats/success)" -gt "$ok0"
run cat /sys/power/suspend_stats/success
check demo_domains_off_after_resume wait_for 10 both_domain l4per off
show_domain l4per
echo "  model before: $before"
echo "  model after:  $(awk '$1 == "domain" && $2 == "l4per" { print $0 }' "$TEL")"
if [ -n "$SENSOR" ]; then
	echo "Devices work after resume, and their domain comes back on demand:"
	run sh -c "echo '4 20000' >$SENSOR/sample; wc -l <$SENSOR/samples"
	check demo_sensor_after_resume test "$(wc -l <"$SENSOR/samples")" -eq 4
fi
ktap_done

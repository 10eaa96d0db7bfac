#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: static rpmsg channels declared by the board, for a remote
#   that cannot announce: omap4-static.ini gives ipu the channels
#   rpmsg-raw (remote address 1025) and ampsoc-echo (1026, local address
#   0x500); ampsoc-rpmsg-echo-nons offers no name service. Each boot's
#   transport must create both channels before the remote runs, drivers
#   must bind them as if announced (/dev/rpmsgN for rpmsg-raw, the kernel
#   echo client for ampsoc-echo) and they must work; a stop removes them
#   and the next boot brings them back.
# STRATEGY: boot the firmware; its trace must say name service off; the
#   two channels must appear with the board's addresses; the rpmsg-raw
#   endpoint device echoes 50 messages of 16 and 496 bytes (ampsocctl);
#   the echo client's 100 round trips on ampsoc-echo complete with no
#   error; nothing was announced or sent to an unknown address; stop:
#   both gone; start: both back, echo again.
# Not in the ISA matrix (no "# isa:"): omap4-static.ini declares the static
#   channels on ipu, and what this tests is Linux's side of a board's
#   channels, which no core's ISA changes (docs/cores.md).
# services: socmodel board=soc-model/boards/omap4-static.ini
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
raw() { ls -d /sys/bus/rpmsg/devices/*.rpmsg-raw.-1.1025 2>/dev/null | head -n 1; }
echo_chan() { ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.1280.1026 2>/dev/null | head -n 1; }
both() { [ -n "$(raw)" ] && [ -n "$(echo_chan)" ]; }
none() { [ -z "$(raw)" ] && [ -z "$(echo_chan)" ]; }
# The /dev/rpmsgN that the rpmsg char driver made for the raw channel.
raw_dev() {
	for _n in /sys/class/rpmsg/rpmsg[0-9]*; do
		[ "$(cat "$_n/name")" = rpmsg-raw ] && [ "$(($(cat "$_n/dst")))" = 1025 ] &&
			echo "/dev/$(basename "$_n")" && return 0
	done
	return 1
}
stats() { echo "$(ls -d /sys/kernel/debug/ampsoc_rpmsg/virtio* | head -n 1)/stats"; }
stat() { awk -v k="$1" '$1 == k { print $2 }' "$(stats)"; }
lost() { echo $(($(stat unknown_dst) + $(stat ns_rejected))); }
echoes_done() { [ "$(cat "$(echo_chan)/echo_received" 2>/dev/null)" = 100 ]; }

check set_firmware sh -c "echo ampsoc-rpmsg-echo-nons.elf >$R/firmware"
round() {
	check "start_$1" sh -c "echo start >$R/state"
	check "static_channels_$1" wait_for 20 both
	check "firmware_without_ns_$1" wait_for 10 grep -q "name service off" "$D/trace0"
	check "raw_dev_$1" wait_for 10 raw_dev
	check "raw_echo_16_$1" ampsocctl ept "$(raw_dev)" ping 50 16
	check "raw_echo_496_$1" ampsocctl ept "$(raw_dev)" ping 50 496
	check "echo_client_$1" wait_for 30 echoes_done
	check_eq "echo_client_errors_$1" 0 cat "$(echo_chan)/echo_errors"
	ktap_diag_file "$(stats)"
	check_eq "nothing_announced_or_lost_$1" 0 lost
	check "stop_$1" sh -c "echo stop >$R/state"
	check "channels_gone_$1" wait_for 10 none
}
round 1
round 2
check_eq no_violations 0 tele_field violations
ktap_done

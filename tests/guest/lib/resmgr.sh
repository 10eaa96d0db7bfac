# SPDX-License-Identifier: GPL-2.0
# Helpers for the rpmsg resource manager's scenarios (ampsoc-rpmsg-resmgr
# on a core found by core_find); source after lib.sh and lib/core.sh:
# . /ampsoc/lib/resmgr.sh. Sets PDD and RM; REMOTE once core_find ran.

PDD=/sys/kernel/debug/ampsoc_pd
RM=/sys/kernel/debug/ampsoc_resmgr

# kernel_dom DOMAIN: on, off or unknown, as ampsoc_pd sees it
kernel_dom() {
	case $(cat "$PDD/$1/current_state" 2>/dev/null) in
	on) echo on ;;
	off*) echo off ;;
	*) echo unknown ;;
	esac
}
# both DOMAIN on|off: the kernel and the model agree on it
both() { [ "$(kernel_dom "$1")" = "$2" ] && [ "$(dom_state "$1")" = "$2" ]; }
# chan SERVICE: the first rpmsg channel of that name
chan() { ls -d /sys/bus/rpmsg/devices/*."$1".* 2>/dev/null | head -n 1; }
# bound: the resource manager serves an rpmsg-resmgr channel
bound() { _c=$(chan rpmsg-resmgr) && [ -n "$_c" ] && [ -e "$_c/driver" ]; }
# no_holdings: the resource manager has no client for the remote
no_holdings() { [ ! -e "$RM/$REMOTE" ]; }
# open_ctl NAME SRC: an endpoint to the firmware's control channel in EPT
EPT=
open_ctl() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(($(cat "$(chan ampsoc-resmgr-ctl)/dst")))
	EPT=$(ampsocctl ept "$_ctrl" "$1" "$2" "$_dst" create)
	[ -c "$EPT" ]
}
# ctl COMMAND...: one command to the firmware, its answer
ctl() { ampsocctl ept "$EPT" call "$*"; }

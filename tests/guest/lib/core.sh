# SPDX-License-Identifier: GPL-2.0
# Helpers for scenarios about the virtual SoC's remote cores; source it
# after lib.sh: . /ampsoc/lib/core.sh

VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)

# The ISA matrix ("# isa: x86_64 armv7m rv32imac", tests/qemu/run.py): the
# run's instruction set is AMPSOC_ISA (x86_64 without the header). CORE is
# the board's core of that ISA (omap4.ini: ipu native, m4 ARMv7-M;
# omap4-rv.ini: rv RV32IMAC), named like its domain and its mailboxes
# (CORE-tx, CORE-rx); fw NAME prints the file name of sample NAME built for
# it (fw crash: ampsoc-crash.elf, ampsoc-crash-m4.elf, ampsoc-crash-rv.elf).
case ${AMPSOC_ISA:-x86_64} in
armv7m) CORE=m4 FW_SUFFIX=-m4 ;;
rv32imac) CORE=rv FW_SUFFIX=-rv ;;
*) CORE=ipu FW_SUFFIX= ;;
esac
fw() {
	echo "ampsoc-$1$FW_SUFFIX.elf"
}

# core_find NAME: set R (sysfs remoteproc), D (its debugfs dir), PDEV (the
# vsoc-rproc platform device) and C (this driver's debugfs dir).
core_find() {
	R=
	wait_for 10 sh -c "grep -lx $1 /sys/class/remoteproc/remoteproc*/name" || return 1
	for _d in /sys/class/remoteproc/remoteproc*; do
		grep -qx "$1" "$_d/name" && R=$_d
	done
	[ -n "$R" ] || return 1
	D=/sys/kernel/debug/remoteproc/$(basename "$R")
	PDEV=$(readlink -f "$R/device")
	C=/sys/kernel/debug/vsoc_rproc/$(basename "$PDEV")
	[ -d "$C" ]
}

# dom_state NAME: the domain's state as the SoC model reports it.
dom_state() {
	awk -v d="$1" '$1 == "domain" && $2 == d { print $4 }' "$VSOC/telemetry"
}

# tele_field KEY: a global telemetry value.
tele_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$VSOC/telemetry"
}

# core_field KEY: a field of the core's control block (written by the model).
core_field() {
	awk -v k="$1" '$1 == k { print $2 }' "$C/ctl"
}

# The model's view: off (0) or held in reset (1).
core_not_running() {
	_s=$(core_field state)
	[ "$_s" = 0 ] || [ "$_s" = 1 ]
}

# ---- rpmsg on a remote core (the hostile-remote scenarios) -------------

# chan_of NAME: set CHAN to the sysfs node of the first channel NAME, VRP to
# the debugfs directory of the transport that carries it.
chan_of() {
	CHAN=$(ls -d /sys/bus/rpmsg/devices/*."$1".* 2>/dev/null | head -n 1)
	[ -n "$CHAN" ] || return 1
	VRP=/sys/kernel/debug/ampsoc_rpmsg/$(basename "$CHAN" | cut -d. -f1)
	[ -r "$VRP/stats" ]
}

# vrp_stat KEY: a line of the transport's stats file ("bad_len 3").
vrp_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$VRP/stats"
}

# stats_are KEY=VALUE...: every listed counter has exactly that value;
# prints the ones that differ.
stats_are() {
	_ok=0
	for _kv in "$@"; do
		_g=$(vrp_stat "${_kv%%=*}")
		if [ "$_g" != "${_kv#*=}" ]; then
			echo "${_kv%%=*} is '$_g', expected ${_kv#*=}"
			_ok=1
		fi
	done
	return $_ok
}

# stats_diag: the transport's counters as KTAP diagnostics.
stats_diag() {
	ktap_diag "$1: $(tr '\n' ' ' <"$VRP/stats")"
}

# core_boot FIRMWARE CHANNEL: boot FIRMWARE on the core found by
# core_find and wait for its CHANNEL (sets CHAN and VRP).
core_boot() {
	echo "$1" >"$R/firmware" && echo start >"$R/state" && wait_for 20 chan_of "$2"
}

# core_stop: stop the core; its channels and transport go away.
core_stop() {
	echo stop >"$R/state" && grep -qx offline "$R/state" &&
		! ls -d /sys/bus/rpmsg/devices/virtio* >/dev/null 2>&1
}

# echo_ping COUNT SIZE: checked echoes through a new /dev/rpmsgN towards
# the ampsoc-echo channel of CHAN's transport.
echo_ping() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_e=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* | head -n 1)
	ampsocctl ept "$_ctrl" hostile-ping 2000 "$(($(cat "$_e/dst")))" ping "$1" "$2"
}

# echo_clean_after: a well-behaved firmware on the core after a bad one:
# it boots, its new transport has every reject counter at 0, it echoes 200
# messages of 496 bytes, and the core stops.
echo_clean_after() {
	check echo_boots core_boot "$(fw rpmsg-echo)" ampsoc-echo
	check echo_clean stats_are bad_len=0 bad_ring=0 bad_addr=0 unknown_dst=0 \
		ns_rejected=0 fc_rejected=0 dead=0
	check echo_works echo_ping 200 496
	check echo_stop core_stop
}

# trace_has TEXT: the core's trace buffer has a line containing TEXT.
trace_has() {
	grep -qF "$1" "$D/trace0"
}

# no_send: the transport is there but refuses an endpoint (it is dead).
no_send() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1) && [ -c "$_ctrl" ] &&
		! ampsocctl ept "$_ctrl" hostile-dead 2000 1024 send hello
}

# ctl_field DIR KEY: like core_field, for the core whose driver debugfs
# directory is DIR (a scenario with two cores saves each one's $C).
ctl_field() {
	awk -v k="$2" '$1 == k { print $2 }' "$1/ctl"
}

# core_chan RDIR SERVICE: the rpmsg device of SERVICE announced by the
# remote processor RDIR (its sysfs directory), nothing if there is none.
core_chan() {
	for _d in /sys/bus/rpmsg/devices/*."$2".*; do
		[ -e "$_d" ] || continue
		readlink -f "$_d" | grep -q "/$(basename "$1")/" && echo "$_d"
	done | head -n 1
}

# core_ctrl RDIR: the /dev/rpmsg_ctrlN of the rpmsg bus on RDIR's vdev.
core_ctrl() {
	for _d in /sys/class/rpmsg/rpmsg_ctrl*; do
		[ -e "$_d" ] || continue
		readlink -f "$_d" | grep -q "/$(basename "$1")/" &&
			echo "/dev/$(basename "$_d")"
	done | head -n 1
}

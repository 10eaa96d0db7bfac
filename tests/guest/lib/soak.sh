# SPDX-License-Identifier: GPL-2.0
# Helpers for the soak campaigns (tests/scenarios/soak_*.sh for make check,
# tests/soak/*.sh for make soak); source after lib.sh, vsoc.sh and core.sh:
# . /ampsoc/lib/soak.sh
#
# SOAK_SEED=N, SOAK_OPS=N, SOAK_CYCLES=N in the environment, or as words
# of CMD (make check T=soak_power CMD='SOAK_SEED=42'), override a
# campaign's seed and counts.

for _w in ${CMD:-}; do
	case $_w in
	SOAK_SEED=*[!0-9]*|SOAK_OPS=*[!0-9]*|SOAK_CYCLES=*[!0-9]*) ;;
	SOAK_SEED=?*|SOAK_OPS=?*|SOAK_CYCLES=?*) eval "$_w" ;;
	esac
done

# The debug kernel (kmemleak present) runs everything about 6 times slower.
soak_scale() {
	if [ -e /sys/kernel/debug/kmemleak ]; then echo 6; else echo 1; fi
}

soak_seed() {
	echo "${SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
}

# echo_chan: set ECHO to the echo service's channel directory
echo_chan() {
	ECHO=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$ECHO" ]
}

# soak_power_campaign OPS CYCLES BUDGET_S [WAKE_PORT]: the power campaign,
# ipu running ampsoc-rpmsg-echo for the traffic, dsp booted and stopped
# among the operations. With WAKE_PORT (the wakeup host service's serial
# port: "# services: wakeup" in the scenario), a real s2idle joins the
# rotation of sleep cycles.
soak_power_campaign() {
	_ops=${SOAK_OPS:-$1}
	_cyc=${SOAK_CYCLES:-$2}
	_budget=$(($3 * $(soak_scale)))
	_wake=
	if [ -n "${4:-}" ]; then
		modprobe button || bail "no ACPI button driver (the wake event)"
		stty -F "$4" 115200 raw -echo || bail "cannot set up $4"
		grep -qw freeze /sys/power/state || bail "no suspend-to-idle"
		_wake="-w $4"
	fi
	wait_for 30 vsoc_settled || bail "the vsoc devices did not settle"
	core_find dsp || bail "no remote processor for core dsp"
	_dsp=$R
	core_find ipu || bail "no remote processor for core ipu"
	echo ampsoc-rpmsg-echo.elf >"$R/firmware"
	check start_echo_core sh -c "echo start >$R/state"
	check echo_channel wait_for 20 echo_chan || bail "no echo channel"
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(($(cat "$ECHO/dst")))
	guest_test soak_power -v "$VSOC" -C "$_ctrl" -e "$_dst" -r "$_dsp" \
		-s "$(soak_seed)" -n "$_ops" -c "$_cyc" -t "$_budget" \
		-a $((3 * $(soak_scale))) $_wake
	check_eq echo_core_still_running running cat "$R/state"
	check stop_echo_core sh -c "echo stop >$R/state"
	check transitions_match_model vsoc_counts_settle "$VSOC"
	check_eq no_violations 0 tele_field violations
}

# soak_remote_campaign CYCLES WARMUP: the remote lifecycle campaign on ipu with
# ampsoc-rpmsg-echo; the model must count one boot per start and one per
# recovery.
soak_remote_campaign() {
	_cyc=${SOAK_CYCLES:-$1}
	core_find ipu || bail "no remote processor for core ipu"
	echo ampsoc-rpmsg-echo.elf >"$R/firmware"
	_b0=$(core_field boot_count)
	_t0=$(date +%s)
	guest_test soak_remote "$R" "$D" "$_cyc" "$2" "$(soak_seed)"
	ktap_diag "soak_remote took $(($(date +%s) - _t0)) s"
	check_eq two_boots_per_cycle_in_model $((_b0 + 2 * (_cyc + $2))) core_field boot_count
	check_eq offline_at_end offline cat "$R/state"
	check_eq domain_off_at_end off dom_state ipu
	check no_devcoredump_left sh -c '! ls /sys/class/devcoredump 2>/dev/null | grep -q devcd'
	check_eq no_violations 0 tele_field violations
}

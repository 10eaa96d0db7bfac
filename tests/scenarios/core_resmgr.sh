#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The rpmsg resource manager on a real remote core: the
#   firmware asks Linux to power l4per_sub, the domain (and its parent)
#   powers on in the kernel and in the SoC model, references are counted
#   per remote and bounded, malformed requests are refused with an errno,
#   a core asks only for what the board lets it (anything else is refused
#   with EACCES and counted), and every holding is released when the
#   remote stops or crashes.
# STRATEGY: l4per_sub is off while its peripherals idle. Boot
#   ampsoc-rpmsg-resmgr on ipu: it requests the domain when Linux says
#   HELLO; check the domain on in ampsoc_pd and in the model's telemetry,
#   the holding in debugfs/sysfs and the holder device in the domain. Drive
#   the firmware through its control channel (ampsocctl ept call): release
#   (domain off), release again (EPERM), re-request, nested references,
#   the 256-reference bound (EOVERFLOW), a clock (on in the model, then
#   off), max_holdings=2 (ENOSPC), nine malformed requests (each errno,
#   counted in resmgr_rejected). The board lets ipu use l4per_sub, l4per
#   and gpt2_fck: the debugfs "allowed" list says so, and dsp, wkup,
#   dma_fck and names that do not exist are refused with EACCES (the
#   firmware gets it), counted in "denied", logged, and power nothing. rmmod
#   the server (domain off), modprobe it (a second HELLO: the firmware
#   requests again). Stop:
#   the domain goes off and the holdings are gone; start again (on); crash
#   it: the model sees the domain go off, and after recovery the firmware
#   requests it again; stop. No model violation.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/resmgr.sh

DOM=l4per_sub

core_find $CORE || bail "no remote processor for core $CORE"
REMOTE=$(basename "$R")

# model_count DOMAIN on_count|off_count
model_count() {
	awk -v d="$1" -v k="$2" '$1 == "domain" && $2 == d {
		for (i = 3; i < NF; i++) if ($i == k) print $(i + 1) }' "$VSOC/telemetry"
}
# clock_is CLOCK running|gated: the model's view of a clock
clock_is() {
	[ "$(awk -v c="$1" '$1 == "clock" && $2 == c { print $4 }' "$VSOC/telemetry")" = "$2" ]
}
held() { grep -qx "domain $DOM 1" "$RM/$REMOTE/holdings" 2>/dev/null; }
# expect NAME "ANSWER PREFIX" COMMAND...
expect() {
	_name=$1 _want=$2
	shift 2
	_got=$(ctl "$@")
	case $_got in
	"$_want"*) ktap_ok "$_name" ;;
	*) ktap_fail "$_name" "'$*' answered '$_got', expected '$_want...'" ;;
	esac
}

check module_loaded test -d /sys/module/ampsoc_rpmsg_resmgr
check domain_off_before wait_for 10 both $DOM off
on0=$(model_count $DOM on_count)

check set_firmware sh -c "echo $(fw rpmsg-resmgr) >$R/firmware"
check start sh -c "echo start >$R/state"
check channel_bound wait_for 20 bound || bail "no resource-manager channel"
check domain_on_at_remote_request wait_for 10 both $DOM on
check parent_on_in_model test "$(dom_state l4per)" = on
check model_counted_power_on test "$(model_count $DOM on_count)" -gt "$on0"
check holding_in_debugfs wait_for 10 held
check_eq holdings_in_sysfs 1 cat "$(chan rpmsg-resmgr)/resmgr_holdings"
check holder_device_in_domain grep -qx "resmgr-$DOM" /sys/kernel/ampsoc_pd/$DOM/devices
check firmware_logged_request wait_for 10 grep -q "requested domain $DOM: 0 (refs 1, on)" "$D/trace0"
check ampsocctl_resmgr sh -c "ampsocctl resmgr | grep -q '$REMOTE.*domain.*$DOM.*1'"

check control_channel wait_for 10 open_ctl resmgr-test 3100 || bail "no control endpoint"
expect query "0 1 1" query domain $DOM
expect release "0 0 " release domain $DOM
check domain_off_after_release wait_for 10 both $DOM off
check_eq no_holding_after_release 0 cat "$(chan rpmsg-resmgr)/resmgr_holdings"
expect release_unheld_eperm "-1 " release domain $DOM
expect request_again "0 1 1 1" request domain $DOM
check domain_on_again wait_for 10 both $DOM on
expect nested_refs "0 3 1 2" request domain $DOM 2
expect nested_release "0 1 1 2" release domain $DOM 2
check still_on_with_one_ref both $DOM on
expect refs_bounded_eoverflow "-75 256 1 255" request domain $DOM 300
expect refs_back_to_one "0 1 1 255" release domain $DOM 255

# Scoped by the board: only l4per_sub, l4per and gpt2_fck.
check_eq allowed_list "domain l4per domain l4per_sub clock gpt2_fck" \
	sh -c "cat $RM/$REMOTE/allowed | tr '\n' ' ' | sed 's/ $//'"
check scope_logged sh -c "dmesg | grep -q 'serving $REMOTE at .* (may use 2 domains, 1 clocks)'"
denied() { awk '$1 == "denied" { print $2 }' "$RM/$REMOTE/stats"; }
den0=$(denied)
dspon0=$(model_count dsp on_count)
expect other_core_domain_eacces "-13 " request domain dsp
expect always_on_domain_eacces "-13 " query domain wkup
expect unlisted_clock_eacces "-13 " request clock dma_fck
expect unknown_domain_eacces "-13 " request domain nosuch
expect unknown_clock_eacces "-13 " request clock nosuch
expect release_unlisted_eacces "-13 " release domain dsp
check_eq denials_counted $((den0 + 6)) denied
check denial_logged sh -c "dmesg | grep -q '$REMOTE may not use domain dsp: denied (-13)'"
check_eq dsp_never_powered "$dspon0" model_count dsp on_count
check_eq dsp_off_in_kernel off kernel_dom dsp
check dma_fck_gated clock_is dma_fck gated
check_eq holding_unchanged_by_denials 1 cat "$(chan rpmsg-resmgr)/resmgr_holdings"
expect clock_request "0 1 1 1" request clock gpt2_fck
check clock_running_in_model wait_for 10 clock_is gpt2_fck running
expect clock_release "0 0 " release clock gpt2_fck
check clock_gated_in_model wait_for 10 clock_is gpt2_fck gated
echo 2 >/sys/module/ampsoc_rpmsg_resmgr/parameters/max_holdings
expect second_holding_ok "0 1 1 1" request clock gpt2_fck
expect third_holding_enospc "-28 " request domain l4per
check_eq still_two_holdings 2 cat "$(chan rpmsg-resmgr)/resmgr_holdings"
expect clock_release_again "0 0 " release clock gpt2_fck
echo 8 >/sys/module/ampsoc_rpmsg_resmgr/parameters/max_holdings

rej0=$(cat "$(chan rpmsg-resmgr)/resmgr_rejected")
for m in short:-74 long:-74 nonul:-36 op:-95 hello:-95 type:-22 flags:-22 chars:-22 empty:-22; do
	expect "bad_${m%%:*}_refused" "${m#*:}" bad "${m%%:*}"
done
check_eq rejects_counted $((rej0 + 9)) cat "$(chan rpmsg-resmgr)/resmgr_rejected"
check reject_logged sh -c "dmesg | grep -q 'refused a request from'"
check_eq holding_unchanged_by_bad_requests 1 cat "$(chan rpmsg-resmgr)/resmgr_holdings"
check_eq stats_show_rejects $((rej0 + 9)) awk '$1 == "rejected" { print $2 }' "$RM/$REMOTE/stats"

# Unbinding the server (rmmod) releases everything; a new HELLO after
# modprobe makes the firmware ask again.
check rmmod_server rmmod ampsoc_rpmsg_resmgr
check domain_off_after_rmmod wait_for 10 both $DOM off
check modprobe_server modprobe ampsoc_rpmsg_resmgr
check domain_on_after_new_hello wait_for 20 both $DOM on
check holding_after_new_hello wait_for 10 held
expect firmware_saw_two_hellos "hellos 2 " status

check stop sh -c "echo stop >$R/state"
check domain_off_after_stop wait_for 10 both $DOM off
check parent_off_after_stop wait_for 10 both l4per off
check holdings_gone_after_stop no_holdings

check restart sh -c "echo start >$R/state"
check domain_on_after_restart wait_for 20 both $DOM on
check holding_after_restart wait_for 10 held

off0=$(model_count $DOM off_count)
b0=$(core_field boot_count)
old=$(ls -di "$(chan rpmsg-resmgr)/" | awk '{ print $1 }')
echo 2 >"$D/crash"
more_offs() { [ "$(model_count $DOM off_count)" -gt "$off0" ]; }
new_chan() { bound && [ "$(ls -di "$(chan rpmsg-resmgr)/" | awk '{ print $1 }')" != "$old" ]; }
check channel_back_after_crash wait_for 30 new_chan
check running_after_recovery wait_for 10 grep -qx running "$R/state"
check_eq rebooted_in_model $((b0 + 1)) core_field boot_count
check released_during_crash wait_for 10 more_offs
check rerequested_after_recovery wait_for 20 both $DOM on
check holding_after_recovery wait_for 10 held
check firmware_rerequested wait_for 10 grep -q "requested domain $DOM: 0" "$D/trace0"

check stop_again sh -c "echo stop >$R/state"
check domain_off_at_end wait_for 10 both $DOM off
check_eq core_domain_off_at_end off dom_state $CORE
check holdings_gone_at_end no_holdings
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Hardware faults injected by the SoC model reach the kernel as
#   errors, never as hangs: a domain whose power-on fails makes the consumer's
#   runtime resume fail with -EIO (and a retry reaches the model again), a
#   stuck domain times out within its latency plus the request timeout and is
#   then refused at once, and the rest of the SoC keeps working.
# STRATEGY: The model starts with a failing domain and a stuck domain. Load
#   all modules (the power controller survives both at probe); run the
#   in-kernel fault tests, which add a consumer of their own to each faulty
#   domain and runtime-resume it, checking the model's telemetry (failed
#   count, state) and the elapsed time; then use a peripheral outside the
#   faulty domains; the model must record no violation.
# services: socmodel fault=fail-on:l4per_sub fault=stuck:dsp
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

FAIL_DOM=l4per_sub
STUCK_DOM=dsp
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"
check power_controller_survived test -d /sys/kernel/debug/ampsoc_pd/$FAIL_DOM

kmod_test ampsoc_vsoc_test fail_domain=$FAIL_DOM stuck_domain=$STUCK_DOM

# a bound peripheral outside the faulty domains still works
healthy() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ -e "$d/driver" ] && [ -e "$d/touch" ] || continue
		dom=$(cat "$d/domain")
		[ "$dom" = "$FAIL_DOM" ] || [ "$dom" = "$STUCK_DOM" ] && continue
		echo "$d"
		return 0
	done
	return 1
}
DEV=$(healthy)
if [ -n "$DEV" ]; then
	check healthy_peripheral_works sh -c "echo 1 >$DEV/touch"
else
	ktap_skip healthy_peripheral_works "no peripheral outside the faulty domains"
fi
check_eq zero_violations 0 awk '$1 == "violations" { print $2 }' "$VSOC/telemetry"
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The SoC model catches a driver that touches a device while the
#   device's power domain is off: the command is refused, exactly one
#   violation is recorded naming the rule and the device, and nothing else in
#   the run is a violation.
# STRATEGY: Load all modules, then the deliberately broken test driver
#   (ampsoc_vsoc_broken): it takes a peripheral from its driver, waits for its
#   domain to be off in the kernel and in the model, and sends it a command
#   without runtime PM; its KTAP checks the refusal and the new violation
#   record (rule DOMAIN_OFF, object = that peripheral), then rebinds the real
#   driver. The scenario checks the telemetry counters and that the
#   peripheral works again. The model service is told to expect one
#   violation, so its own verdict passes only with exactly one.
# services: socmodel expect-violations=1
# load-all: 1
# timeout: 180
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"
TEL=$VSOC/telemetry

check_eq no_violation_before 0 awk '$1 == "violations" { print $2 }' "$TEL"
kmod_test ampsoc_vsoc_broken
check_eq exactly_one_violation 1 awk '$1 == "violations" { print $2 }' "$TEL"
# rule 1 = VSOC_RULE_DOMAIN_OFF, kind 3 = VSOC_OBJ_PERIPH
check_eq violation_is_domain_off "1 3" awk '$1 == "violation" { print $6, $8 }' "$TEL"

rebound() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ -e "$d/touch" ] || continue
		[ -e "$d/driver" ] || return 1
	done
}
check victim_rebound rebound
touch_all() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ -e "$d/touch" ] || continue
		echo 1 >"$d/touch" || return 1
	done
}
check peripherals_work_after touch_all
check_eq still_one_violation 1 awk '$1 == "violations" { print $2 }' "$TEL"
ktap_done

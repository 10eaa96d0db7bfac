#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: System sleep with the virtual SoC: a running timer is stopped
#   before its domain goes off, the domains really power off in the model
#   during the sleep, everything comes back (the timer runs again) and the
#   model records no violation.
# STRATEGY: Start a periodic timer, note the model's off counts, suspend the
#   whole system with /sys/power/pm_test=platform (every device suspend and
#   resume phase runs, noirq included; the machine is not powered down),
#   then compare the model's counters, check the timer is running and expiring again, and that
#   kernel and model agree on every domain once idle.
# services: socmodel
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

# sysfs_test FILE OP VALUE: test on the file's current contents (re-read on
# every call, so that wait_for can poll it)
sysfs_test() {
	test "$(cat "$1")" "$2" "$3"
}

VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"
TEL=$VSOC/telemetry
PD=/sys/kernel/debug/ampsoc_pd

TIMER=
for d in /sys/bus/platform/drivers/vsoc-timer/vsoc-timer.*; do
	[ -e "$d/start" ] && TIMER=$d && break
done
[ -n "$TIMER" ] || bail "no timer on this board"
DOM=$(cat "$TIMER/domain")

off_count() {
	awk -v n="$1" '$1 == "domain" && $2 == n { print $8 }' "$TEL"
}

echo "1000000 periodic" >"$TIMER/start"
check timer_running wait_for 10 sysfs_test "$TIMER/expirations" -ge 3
OFF0=$(off_count "$DOM")
check pm_test_platform sh -c "echo platform >/sys/power/pm_test"
check system_suspend_resume sh -c "echo mem >/sys/power/state"
echo none >/sys/power/pm_test
check domain_went_off_in_model test "$(off_count "$DOM")" -gt "$OFF0"
check_eq timer_still_running 1 cat "$TIMER/running"
N=$(cat "$TIMER/expirations")
check timer_expires_after_resume wait_for 10 sysfs_test "$TIMER/expirations" -gt "$N"
echo 1 >"$TIMER/stop"

agree() {
	awk '$1 == "domain" { print $2, $4 }' "$TEL" | while read -r name st; do
		k=$(cat "$PD/$name/current_state")
		case $k in off*) k=off ;; esac
		[ "$k" = "$st" ] || { echo "$name: kernel $k, model $st"; return 1; }
	done
}
# Stopping the timer lets its domain power off asynchronously: poll until
# the domain is idle, then states and transition counts must agree at once.
check kernel_and_model_agree wait_for 10 agree
check transitions_match_model vsoc_counts_settle "$VSOC"
check_eq zero_violations 0 awk '$1 == "violations" { print $2 }' "$TEL"
ktap_done

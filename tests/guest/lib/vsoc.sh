# SPDX-License-Identifier: GPL-2.0
# Helpers for scenarios on the virtual SoC; source after lib.sh:
# . /ampsoc/lib/vsoc.sh

# The board is up once the power controller is bound and no vsoc device
# waits in deferred probe (consumers probe asynchronously after it binds).
vsoc_settled() {
	ls /sys/bus/platform/drivers/vsoc-power/ 2>/dev/null | grep -q '^vsoc-power' &&
		! grep -q '^vsoc-' /sys/kernel/debug/devices_deferred
}

# vsoc_counts_match VSOC_DEBUGFS: every power transition the kernel made is
# one the model made. Per domain, the power controller's completed requests
# (power_stats) equal the model's counters (telemetry); prints the first
# domain that differs.
vsoc_counts_match() {
	awk '$1 == "domain" { print $2, $4, $10 }' "$1/power_stats" |
	while read -r name kon koff; do
		m=$(awk -v n="$name" '$1 == "domain" && $2 == n { print $6, $8 }' "$1/telemetry")
		[ "$m" = "$kon $koff" ] || { echo "$name: kernel on/off $kon $koff, model $m"; return 1; }
	done
}

# vsoc_counts_settle VSOC_DEBUGFS: a domain whose last user just went idle
# powers off asynchronously, so the counters may lag by one transition for
# a moment: poll until they agree, and print the difference if they never do.
vsoc_counts_settle() {
	wait_for 10 vsoc_counts_match "$1" || vsoc_counts_match "$1"
}

# all_work: every peripheral is bound and answers a command (its sysfs
# "touch"), and there is at least one; prints the first that does not.
all_work() {
	n=0
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ -e "$d/touch" ] || continue
		[ -e "$d/driver" ] || { echo "$d unbound"; return 1; }
		echo 1 >"$d/touch" || { echo "$d: touch failed"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || { echo "no peripheral"; return 1; }
}

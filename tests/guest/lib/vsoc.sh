# SPDX-License-Identifier: GPL-2.0
# Helpers for scenarios on the virtual SoC; source after lib.sh:
# . /ampsoc/lib/vsoc.sh

# The board is up once the power controller is bound and no vsoc device
# waits in deferred probe (consumers probe asynchronously after it binds).
vsoc_settled() {
	ls /sys/bus/platform/drivers/vsoc-power/ 2>/dev/null | grep -q '^vsoc-power' &&
		! grep -q '^vsoc-' /sys/kernel/debug/devices_deferred
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: IRQ-safe domains on real hardware (ABI 1.6): a board domain
#   with irq_safe = yes is registered IRQ-safe by the vsoc power
#   controller, which polls its requests without sleeping, so an IRQ-safe
#   device switches the SoC model's domain (and its IRQ-safe parent) from
#   atomic context, with interrupts off and from hard interrupt context,
#   before its own resume callback runs; a domain the model never answers
#   fails the get after a bounded spin and works again once it answers; a
#   sleeping domain under an IRQ-safe parent works. No violation.
# STRATEGY: On tests/boards/irqsafe.ini, load the SoC and its power
#   controller, then ampsoc_vsoc_irqsafe_test, whose devices read every
#   answer back from the model's telemetry while interrupts are still off
#   (the stuck case injects the model's "stuck" fault); then check the
#   log line of the timed-out request and that the model recorded no
#   violation.
# services: socmodel board=tests/boards/irqsafe.ini
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh

check vsoc_loaded modprobe ampsoc_vsoc
check clk_loaded modprobe ampsoc_vsoc_clk
check power_loaded modprobe ampsoc_vsoc_power
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"

kmod_test ampsoc_vsoc_irqsafe_test
check timeout_logged sh -c \
	"dmesg | grep -q 'domain stk: power on failed: -110'"
check_eq no_violations 0 awk '$1 == "violations" { print $2 }' "$VSOC/telemetry"
ktap_done

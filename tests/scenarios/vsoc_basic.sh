#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The vsoc drivers bind the SoC model's ivshmem-doorbell device,
#   create a device for every block of the board, register the domains, clocks
#   and mailboxes with the kernel's frameworks, and drive every peripheral
#   through runtime PM with the model recording zero violations. Every power
#   transition is checked in the model's telemetry, not only in the kernel.
# STRATEGY: Load all modules; compare the board (debugfs) with the PM-domain,
#   clock and platform-driver views; use each peripheral through its sysfs
#   interface; force a peripheral on and back to auto with power/control and
#   wait for its domain to be on, then off, in both the kernel and the model;
#   run the in-kernel tests (doorbells both ways, damaged tables, clocks,
#   power, mailbox, faults armed around single transitions); finally read
#   the model's violation counter.
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
[ -n "$VSOC" ] && [ -r "$VSOC/board" ] || bail "no vsoc device bound (is the SoC model running?)"
BOARD=$VSOC/board
TEL=$VSOC/telemetry
PD=/sys/kernel/debug/ampsoc_pd

# model_domain NAME: the domain's state in the model's telemetry
model_domain() {
	awk -v n="$1" '$1 == "domain" && $2 == n { print $4 }' "$TEL"
}

# kernel_domain NAME: on / off as the PM-domain framework sees it
kernel_domain() {
	case $(cat "$PD/$1/current_state") in
	on) echo on ;;
	off*) echo off ;;
	*) echo unknown ;;
	esac
}

both_domain() {
	[ "$(kernel_domain "$1")" = "$2" ] && [ "$(model_domain "$1")" = "$2" ]
}

# device_of LABEL: the sysfs directory of the bound peripheral with that label
device_of() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ "$(cat "$d/label" 2>/dev/null)" = "$1" ] && { echo "$d"; return 0; }
	done
	return 1
}

# every domain of the board is an ampsoc PM domain with the board's parent
domains_ok() {
	awk '$1 == "domain" { print $3, $5 }' "$BOARD" | while read -r name parent; do
		[ -d "$PD/$name" ] || { echo "no PM domain $name"; return 1; }
		if [ "$parent" != "-" ] &&
		   ! grep -qx "$name" "$PD/$parent/sub_domains"; then
			echo "$name is not a subdomain of $parent"
			return 1
		fi
	done
}
check pm_domains_match_board domains_ok

clocks_ok() {
	awk '$1 == "clock" { print $3 }' "$BOARD" | while read -r name; do
		[ -d "/sys/kernel/debug/clk/$name" ] || { echo "no clock $name"; return 1; }
	done
}
check clocks_registered clocks_ok

periphs_ok() {
	awk '$1 == "periph" { print $3, $NF }' "$BOARD" | while read -r name dev; do
		[ -e "/sys/bus/platform/devices/$dev/driver" ] || { echo "$name ($dev) unbound"; return 1; }
		drv=$(basename "$(readlink "/sys/bus/platform/devices/$dev/driver")")
		[ "$drv" = "${dev%%.*}" ] || { echo "$dev bound to $drv"; return 1; }
	done
}
check peripherals_bound periphs_ok
check mailbox_bound test -e /sys/bus/platform/drivers/vsoc-mbox

# A peripheral of each type, by board label.
label_of_type() {
	awk -v t="$1" '$1 == "periph" && $5 == t { print $3; exit }' "$BOARD"
}
TIMER=$(device_of "$(label_of_type 1)")
SENSOR=$(device_of "$(label_of_type 2)")
DMA=$(device_of "$(label_of_type 3)")

if [ -n "$TIMER" ]; then
	DOM=$(cat "$TIMER/domain")
	check timer_idle_domain_off wait_for 5 both_domain "$DOM" off
	echo 1000000 >"$TIMER/start"
	check timer_oneshot_expires wait_for 5 sysfs_test "$TIMER/expirations" -ge 1
	check timer_oneshot_released wait_for 5 sysfs_test "$TIMER/running" = 0
	echo "200000 periodic" >"$TIMER/start"
	check timer_periodic_runs wait_for 10 sysfs_test "$TIMER/expirations" -ge 5
	check timer_domain_on_while_running both_domain "$DOM" on
	echo 1 >"$TIMER/stop"
	check timer_counter_reads test "$(cat "$TIMER/counter")" -ge 0
	check timer_domain_off_after_stop wait_for 5 both_domain "$DOM" off

	echo on >"$TIMER/power/control"
	check power_control_on_reaches_model wait_for 5 both_domain "$DOM" on
	echo auto >"$TIMER/power/control"
	check power_control_auto_reaches_model wait_for 5 both_domain "$DOM" off
else
	ktap_skip timer "no timer on this board"
fi

if [ -n "$SENSOR" ]; then
	check sensor_samples sh -c "echo '8 50000' >$SENSOR/sample"
	check_eq sensor_sample_count 8 sh -c "wc -l <$SENSOR/samples | tr -d ' '"
	check sensor_domain_off_after wait_for 5 both_domain "$(cat "$SENSOR/domain")" off
else
	ktap_skip sensor "no sensor on this board"
fi

if [ -n "$DMA" ]; then
	dd if=/dev/urandom of=/tmp/src bs=4096 count=1 2>/dev/null
	cat /tmp/src >"$DMA/src"
	check dma_copy sh -c "echo 'copy 4096' >$DMA/start"
	dd if="$DMA/dst" of=/tmp/dst bs=4096 count=1 2>/dev/null
	check dma_copy_matches cmp /tmp/src /tmp/dst
	check dma_xor sh -c "echo 'xor 4096 0' >$DMA/start"
	dd if="$DMA/dst" of=/tmp/dst bs=4096 count=1 2>/dev/null
	check dma_xor_zero_key_is_copy cmp /tmp/src /tmp/dst
	check dma_crc32 sh -c "echo 'crc32 4096' >$DMA/start"
	check dma_bad_length_refused sh -c "! echo 'copy 0' >$DMA/start"
	check dma_domain_off_after wait_for 5 both_domain "$(cat "$DMA/domain")" off
else
	ktap_skip dma "no DMA engine on this board"
fi

# Every power transition the kernel made is one the model made: per
# domain, the power controller's completed requests equal the model's
# counters.
check transitions_match_model vsoc_counts_settle "$VSOC"

# nothing so far was garbage to the model (the kmod test makes its own,
# on purpose, and accounts for it)
check_eq zero_garbage 0 awk '$1 == "garbage" { print $2 }' "$TEL"

kmod_test ampsoc_vsoc_test

check_eq zero_violations 0 awk '$1 == "violations" { print $2 }' "$TEL"
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: With the vring firewall turned off (the socmodel service's
#   firewall=off, as for hostile-firmware scenarios that rewrite Linux's
#   descriptors on purpose), a core may write every part of its vrings, as
#   before the firewall existed: nothing faults, rpmsg keeps working.
# STRATEGY: Boot ampsoc-vring-poke on ipu with firewall=off. The control
#   block says firewall off, Linux still wrote its 2 regions, nothing is
#   protected. Poke the tx descriptor table, the rx available ring and the
#   tx used ring: each write is answered (it went through), the core keeps
#   running, echo works after each; no crash, no firewall fault, no
#   violation.
# services: socmodel firewall=off
# load-all: 1
# timeout: 180
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/firewall.sh

core_find ipu || bail "no remote processor for core ipu"

check boot_poke core_boot ampsoc-vring-poke.elf ampsoc-vring-poke
check_eq firewall_off off core_field firewall
check_eq regions_still_written 2 core_field fw_regions
check_eq nothing_protected 0 core_field fw_protected
check control_channel wait_for 10 poke_ept || bail "no control endpoint"
WHERE=$(poke where)
ktap_diag "vrings: $WHERE"
c0=$(core_field crash_count)
for pr in "desc tx" "avail rx" "used tx"; do
	n=$(echo "$pr" | tr ' ' _)
	check_eq "${n}_write_goes_through" "poked $pr $(addr_of $pr)" poke $pr
	check_eq "${n}_still_running" running cat "$R/state"
	check "${n}_echo_works" echo_ping 20 64
done
check_eq no_crash "$c0" core_field crash_count
check_eq no_firewall_fault 0 tele_field firewall_faults
check stop_core core_stop
check_eq no_violations 0 tele_field violations
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Every vsoc driver can go away and come back: unloading the
#   modules in any order the module loader allows, unbinding a supplier
#   (which unbinds its consumers first) and unbinding the PCI device all
#   leave nothing behind, and the SoC works again afterwards with zero
#   violations.
# STRATEGY: With everything loaded, unbind and rebind the power controller
#   and check that its consumers were unbound and come back; unload all
#   vsoc modules and load them again, twice; unbind and rebind the PCI
#   device; after each step every peripheral must be bound and answer a
#   command, and at the end the model must have recorded no violation.
# services: socmodel
# load-all: 1
# timeout: 300
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

MODS="ampsoc_vsoc_rproc ampsoc_vsoc_periph ampsoc_vsoc_power ampsoc_vsoc_mbox ampsoc_vsoc_clk ampsoc_vsoc"

vsoc_dir() {
	ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1
}


[ -n "$(vsoc_dir)" ] || bail "no vsoc device bound (is the SoC model running?)"
check works_at_start all_work

POWER=$(ls -d /sys/bus/platform/drivers/vsoc-power/vsoc-power.* | head -n 1)
PDEV=$(basename "$POWER")
echo "$PDEV" >/sys/bus/platform/drivers/vsoc-power/unbind
consumers_unbound() {
	for d in /sys/bus/platform/devices/vsoc-*; do
		[ -e "$d/touch" ] && [ -e "$d/driver" ] && return 1
	done
	return 0
}
check supplier_unbind_unbinds_consumers consumers_unbound
echo "$PDEV" >/sys/bus/platform/drivers/vsoc-power/bind
check consumers_come_back wait_for 10 all_work

for round in 1 2; do
	ok=1
	for m in $MODS; do
		rmmod "$m" || ok=0
	done
	check "unload_round_$round" test $ok = 1
	check "nothing_left_round_$round" test -z "$(vsoc_dir)"
	for m in $MODS; do
		modprobe "$m" || ok=0
	done
	check "reload_round_$round" test $ok = 1
	check "works_after_reload_$round" wait_for 10 all_work
done

PCI=
for d in /sys/bus/pci/drivers/ampsoc_vsoc/0000:*; do
	[ -e "$d" ] && PCI=$(basename "$d")
done
if [ -n "$PCI" ]; then
	echo "$PCI" >/sys/bus/pci/drivers/ampsoc_vsoc/unbind
	check pci_unbind_removes_board test -z "$(vsoc_dir)"
	echo "$PCI" >/sys/bus/pci/drivers/ampsoc_vsoc/bind
	check works_after_pci_rebind wait_for 10 all_work
else
	ktap_fail pci_unbind_removes_board "no PCI device bound to ampsoc_vsoc"
fi

check_eq zero_violations 0 awk '$1 == "violations" { print $2 }' "$(vsoc_dir)/telemetry"
ktap_done

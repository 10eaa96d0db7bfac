#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a real hibernation round trip through PM domains: the image
#   is written to swap on a disk, the machine powers off, a second boot
#   restores it, and the domains come back the restore way (freeze, then
#   restore_noirq powering the domain on from scratch, never thaw); a
#   SLEEP_SKIP_OFF domain off at runtime (fake_side) is skipped throughout.
# STRATEGY: boot 1 makes swap on the scratch disk (/dev/vda), holds device
#   0 (leaf > mid > top), leaves side off, and writes disk to
#   /sys/power/state (pm_test none, disk mode shutdown). The runner boots
#   the guest again with the same disk (boots: 2); boot 2 hands the disk
#   to /sys/power/resume as an initramfs's resume step does, which restores
#   boot 1's memory, and the scenario goes on after its write in boot 1's
#   context and compares the callback counts and the fake hardware's
#   counters with what a restore must do. A boot 2 that goes on past the
#   resume step found no image and fails.
# boots: 2
# memory: 1024
# disk: 256
# timeout: 600
. /ampsoc/lib.sh

. /ampsoc/lib/pd.sh

BOOT=1
. /ampsoc/run.conf
modprobe virtio_pci && modprobe virtio_blk || bail "no virtio-blk driver"
wait_for 20 test -b /dev/vda || bail "no scratch disk /dev/vda"
echo 1 >/sys/power/pm_debug_messages

if [ "$BOOT" != 1 ]; then
	# The restore kernel: this write does not return when an image is found.
	cat /sys/block/vda/dev >/sys/power/resume
	ktap_fail "image_restored" "boot $BOOT found no image on /dev/vda"
	dmesg | grep -E 'PM: |hibernation' | tail -8 | while read -r l; do ktap_diag "$l"; done
	exit 0
fi

grep -qw disk /sys/power/state || bail "no hibernation support"
mkswap /dev/vda >/dev/null || bail "mkswap failed"
swapon /dev/vda || bail "swapon failed"
cat /sys/block/vda/dev >/sys/power/resume
echo none >/sys/power/pm_test
echo shutdown >/sys/power/disk
echo 0 >/sys/power/image_size

modprobe ampsoc_pdfake_test || bail "cannot load ampsoc_pdfake_test"
check "idle_domains_power_off" wait_for 20 all_off fake_leaf fake_mid fake_top fake_side fake_wake fake_qos
ctl 0 on
check "busy_chain_on" all_on fake_leaf fake_mid fake_top

f0=$(stat 0 freeze) t0=$(stat 0 thaw) r0=$(stat 0 restore)
fn0=$(stat 0 freeze_noirq) tn0=$(stat 0 thaw_noirq) rn0=$(stat 0 restore_noirq)
lon=$(cnt fake_leaf ons) loff=$(cnt fake_leaf sleep_offs)
sk=$(stat 2 freeze) so=$(cnt fake_side ons)
id0=$(cat /proc/sys/kernel/random/boot_id)
echo disk >/sys/power/state
check_eq "hibernate_returns_success" 0 echo $?
# From here on this is boot 1's memory, restored by boot 2.
check "image_restored" sh -c "dmesg | grep -q 'Hibernation image restored'"
check_eq "same_memory_as_boot_1" "$id0" cat /proc/sys/kernel/random/boot_id
delta "freeze_called" "$f0" "$(stat 0 freeze)" 1
delta "freeze_noirq_called" "$fn0" "$(stat 0 freeze_noirq)" 1
delta "restore_noirq_called" "$rn0" "$(stat 0 restore_noirq)" 1
delta "restore_called" "$r0" "$(stat 0 restore)" 1
delta "no_thaw" "$t0" "$(stat 0 thaw)" 0
delta "no_thaw_noirq" "$tn0" "$(stat 0 thaw_noirq)" 0
delta "restore_powers_leaf_on" "$lon" "$(cnt fake_leaf ons)" 1
delta "freeze_keeps_power" "$loff" "$(cnt fake_leaf sleep_offs)" 0
check "chain_on_after_restore" all_on fake_leaf fake_mid fake_top
delta "off_domain_device_skipped" "$sk" "$(stat 2 freeze)" 0
delta "off_domain_stays_off" "$so" "$(cnt fake_side ons)" 0
ctl 0 auto
check "idle_after_restore_powers_off" wait_for 10 all_off fake_leaf fake_mid fake_top
check_eq "no_callback_with_hw_off" 0 cat $F/violations
check "fake_soc_unloads" rmmod ampsoc_pdfake_test
swapoff /dev/vda
ktap_done

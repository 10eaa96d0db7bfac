#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A board table corrupted in shared memory is refused by the
#   vsoc PCI driver with one clear error line, and nothing of the board is
#   created: no platform device, no PM domain, no clock, no debugfs entry.
# STRATEGY: The model publishes a table whose checksum does not match. Load
#   all modules; the ivshmem device must stay unbound, the kernel log must
#   hold exactly one "board table:" error naming the checksum, and none of
#   the board's devices may exist. (Each kind of damage is also fed to the
#   same validation in-kernel by ampsoc_vsoc_test's vsoc_table suite.)
# services: socmodel corrupt-table=crc
# load-all: 1
# timeout: 120
. /ampsoc/lib.sh

IVSHMEM=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor"):$(cat "$d/device")" = "0x1af4:0x1110" ] && IVSHMEM=$d
done
[ -n "$IVSHMEM" ] || bail "no ivshmem-doorbell device"

check modules_loaded grep -q '^ampsoc_vsoc ' /proc/modules
check device_unbound test ! -e "$IVSHMEM/driver"
check_eq one_error_line 1 sh -c "dmesg | grep -c 'board table:'"
check error_names_checksum sh -c "dmesg | grep 'board table:' | grep -q checksum"
check no_board_devices sh -c "! ls /sys/bus/platform/devices/ | grep -q '^vsoc-'"
check no_debugfs test ! -e /sys/kernel/debug/vsoc/vsoc0
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel release ampsoc builds and boots: the newest Debian
# amd64 headers package that has a matching /boot/vmlinuz. KVER=... in the
# environment overrides the choice but is still checked. The running
# kernel (uname -r) is deliberately never consulted.
set -eu

check() {
	if [ ! -d "/usr/src/linux-headers-$1" ]; then
		echo "ampsoc: no headers for $1: install linux-headers-$1 (or set KVER=)" >&2
		return 1
	fi
	if [ ! -f "/boot/vmlinuz-$1" ]; then
		echo "ampsoc: no /boot/vmlinuz-$1: install linux-image-$1 (or set KVER=)" >&2
		return 1
	fi
	if [ ! -d "/lib/modules/$1/kernel" ]; then
		echo "ampsoc: no /lib/modules/$1: install linux-image-$1" >&2
		return 1
	fi
}

if [ -n "${KVER:-}" ]; then
	check "$KVER"
	echo "$KVER"
	exit 0
fi

best=
for d in $(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V); do
	v=${d#/usr/src/linux-headers-}
	[ -f "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/kernel" ] && best=$v
done
if [ -z "$best" ]; then
	echo "ampsoc: no kernel with both headers and image: apt-get install linux-headers-amd64 linux-image-amd64" >&2
	exit 1
fi
echo "$best"

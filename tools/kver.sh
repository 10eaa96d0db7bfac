#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel release ampsoc builds and boots, on stdout, and one line
# saying which and why on stderr.
#
# A candidate is a Debian amd64 kernel with its headers
# (/usr/src/linux-headers-R), its image (/boot/vmlinuz-R) and its modules
# (/lib/modules/R/kernel). The plain flavour (R = X.Y.Z-N-amd64) is
# preferred, newest first: -rt-amd64 and -cloud-amd64 would otherwise sort
# after it, and a PREEMPT_RT or cloud kernel is not what a user who asked
# for nothing expects. Only when no plain kernel is complete is the newest
# of the other flavours used.
#
# KVER=R in the environment picks R (still checked); KVER_FLAVOUR=rt (or
# cloud, or plain) picks the newest complete kernel of that flavour. The
# running kernel (uname -r) is deliberately never consulted.
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

# flavour R: plain, rt, cloud, ... (the word before -amd64, if any)
flavour() {
	case $1 in
	*[0-9]-amd64) echo plain ;;
	*) f=${1%-amd64}; echo "${f##*-}" ;;
	esac
}

if [ -n "${KVER:-}" ]; then
	check "$KVER"
	echo "ampsoc: kernel $KVER (KVER=)" >&2
	echo "$KVER"
	exit 0
fi

want=${KVER_FLAVOUR:-}
# pick: the newest of the wanted (or the plain) flavour; other: of the rest
pick='' other=''
for d in $(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V); do
	v=${d#/usr/src/linux-headers-}
	if [ ! -f "/boot/vmlinuz-$v" ] || [ ! -d "/lib/modules/$v/kernel" ]; then continue; fi
	f=$(flavour "$v")
	if [ -n "$want" ]; then
		[ "$f" = "$want" ] && pick=$v
	elif [ "$f" = plain ]; then
		pick=$v
	else
		other=$v
	fi
done

if [ -n "$want" ]; then
	if [ -z "$pick" ]; then
		echo "ampsoc: no complete $want kernel: apt-get install linux-headers-$want-amd64 linux-image-$want-amd64" >&2
		exit 1
	fi
	echo "ampsoc: kernel $pick (newest $want flavour, KVER_FLAVOUR=$want)" >&2
	echo "$pick"
elif [ -n "$pick" ]; then
	echo "ampsoc: kernel $pick (newest plain -amd64 with headers and image; KVER= picks another)" >&2
	echo "$pick"
elif [ -n "$other" ]; then
	echo "ampsoc: kernel $other (no plain -amd64 kernel is installed; KVER= picks another)" >&2
	echo "$other"
else
	echo "ampsoc: no kernel with both headers and image: apt-get install linux-headers-amd64 linux-image-amd64" >&2
	exit 1
fi

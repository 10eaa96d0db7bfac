#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test: the DKMS packaging. dkms.conf installs exactly the modules the
# drivers build, refuses unsuitable kernels, and `dkms build` succeeds
# against Debian's headers (added, built and removed again: nothing is
# installed into any kernel). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..3"
fail=0

# 1: the module list dkms.conf computes equals the driver modules built
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ampsoc-test"
(cd "$root" && git ls-files -z drivers dkms.conf | xargs -0 cp --parents -t "$tmp/ampsoc-test")
sed -i 's/@PACKAGE_VERSION@/test/' "$tmp/ampsoc-test/dkms.conf"
listed=$(source_tree=$tmp bash -c 'source "$source_tree/ampsoc-test/dkms.conf"
	for i in "${!BUILT_MODULE_NAME[@]}"; do
		echo "${BUILT_MODULE_LOCATION[$i]}${BUILT_MODULE_NAME[$i]}"
	done' | sort)
built=$(cd "$root" && find drivers -name '*.ko' | sed 's/\.ko$//' | sort)
if [ -n "$built" ] && [ "$listed" = "$built" ]; then
	echo "ok 1 dkms_conf_lists_every_driver_module"
else
	echo "# dkms.conf lists: $(echo $listed)"
	echo "# drivers built:   $(echo $built)"
	echo "not ok 1 dkms_conf_lists_every_driver_module"
	fail=1
fi

# 2: the refusal rules name what a kernel must have and must not have
excl=$(sed -n 's/^BUILD_EXCLUSIVE_CONFIG="\(.*\)"/\1/p' "$root/dkms.conf")
ok=1
for want in CONFIG_PM_GENERIC_DOMAINS CONFIG_COMMON_CLK CONFIG_MAILBOX CONFIG_VIRTIO '!CONFIG_REMOTEPROC' '!CONFIG_RPMSG'; do
	case " $excl " in *" $want "*) ;; *) echo "# BUILD_EXCLUSIVE_CONFIG lacks $want"; ok=0 ;; esac
done
# and Debian's kernel passes them
config=/usr/src/linux-headers-${KVER:-$("$root/tools/kver.sh")}/.config
for c in $excl; do
	case $c in
	!*) grep -q "^${c#!}=[ym]" "$config" && { echo "# this kernel has ${c#!}"; ok=0; } ;;
	*) grep -q "^$c=[ym]" "$config" || { echo "# this kernel lacks $c"; ok=0; } ;;
	esac
done
if [ "$ok" = 1 ]; then echo "ok 2 dkms_exclusive_config"; else echo "not ok 2 dkms_exclusive_config"; fail=1; fi

# 3: a real dkms build (root only: dkms writes /usr/src and /var/lib/dkms).
# The version is unique to this run, so that two checkouts of the same
# commit testing at once do not share /usr/src/ampsoc-DKMS_VERSION.
if [ "$(id -u)" != 0 ] || ! command -v dkms >/dev/null; then
	echo "ok 3 dkms_build # SKIP needs root and the dkms package"
elif make -C "$root" -s dkms-build \
	DKMS_VERSION="0.1+g$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 0).test$$" >"$tmp/log" 2>&1; then
	echo "ok 3 dkms_build"
else
	tail -n 15 "$tmp/log" | sed 's/^/# /'
	echo "not ok 3 dkms_build"
	fail=1
fi
exit $fail

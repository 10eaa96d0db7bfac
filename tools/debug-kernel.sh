#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) ampsoc's lockdep+KASAN debug kernel from Debian's
# linux-source-6.1 with tests/qemu/debug/debug.config, in a cache directory
# outside the repository. Prints the build directory on success.
# Usage: tools/debug-kernel.sh CACHE_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$1
tarball=/usr/src/linux-source-6.1.tar.xz
frag=$root/tests/qemu/debug/debug.config
[ -f "$tarball" ] || { echo "ampsoc: install linux-source-6.1" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$(cat "$frag" | sha256sum | cut -c1-12)
dir=$cache/debug-kernel/$srcver-$key
mkdir -p "$cache/debug-kernel"
# One build at a time: a second caller (another clone's CI, a parallel
# make check-debug) waits for the first, then finds .built.
exec 9>"$cache/debug-kernel/.lock"
flock 9
if [ -f "$dir/.built" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$dir"
if [ ! -f "$dir/Makefile" ]; then
	echo "ampsoc: unpacking $tarball into $dir" >&2
	tar -xJf "$tarball" -C "$dir" --strip-components=1
fi
cd "$dir"
# Debian gets genpd and devcoredump selected by drivers we do not want in a
# small debug kernel (amdgpu's ACP, iwlwifi); give both symbols a prompt so
# the fragment can ask for them directly, as Debian's .config has them.
sed -i '/^config PM_GENERIC_DOMAINS$/{n;s/^\tbool$/\tbool "Generic PM domains (ampsoc debug kernel)"/}' kernel/power/Kconfig
sed -i '/^config WANT_DEV_COREDUMP$/{n;s/^\tbool$/\tbool "Want device coredump (ampsoc debug kernel)"/}' drivers/base/Kconfig
make -s x86_64_defconfig >&2
scripts/kconfig/merge_config.sh -m .config kernel/configs/kvm_guest.config \
	"$frag" >/dev/null
make -s olddefconfig >&2
# Every line of the fragment must have survived olddefconfig.
bad=0
while read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}; grep -q "^$opt=" .config && { echo "missing: $line" >&2; bad=1; } ;;
	CONFIG_*) grep -qx "$line" .config || { echo "not applied: $line" >&2; bad=1; } ;;
	esac
done <"$frag"
[ "$bad" = 0 ] || { echo "ampsoc: debug.config does not apply cleanly" >&2; exit 1; }
echo "ampsoc: building the debug kernel in $dir (10-25 min on 2 cores)" >&2
make -j"$(nproc)" bzImage modules >"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	exit 1
}
make -s modules_prepare >&2
touch "$dir/.built"
echo "$dir"

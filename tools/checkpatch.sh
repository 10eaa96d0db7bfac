#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict on every tracked C file and header, using the copy in
# Debian's linux-source-6.1 tarball, unpacked once into a cache directory
# outside the repository (argument 1).
set -euo pipefail
cache=$1
root=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "ampsoc: install linux-source-6.1 for checkpatch" >&2; exit 1; }
ksrc=$cache/checkpatch
if [ ! -x "$ksrc/scripts/checkpatch.pl" ] || [ "$tarball" -nt "$ksrc/.stamp" ]; then
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -xJf "$tarball" -C "$ksrc" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	touch "$ksrc/.stamp"
fi
cd "$root"
# Kernel code gets checkpatch as it is. Userspace code (SoC model, firmware
# SDK, host and guest tests, tools) is held to the same style except where
# the kernel's own spellings do not exist outside it (u32, __packed, ...).
user_ignore=PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO,PREFER_PACKED
user_ignore=$user_ignore,PREFER_ALIGNED,PREFER_PRINTF,PREFER_SCANF,SSCANF_TO_KSTRTO
user_ignore=$user_ignore,PREFER_FALLTHROUGH,NEW_TYPEDEFS
kfiles=$(git ls-files '*.c' '*.h' | grep -E '^(drivers|include/ampsoc|tests/kmod)/' || true)
ufiles=$(git ls-files '*.c' '*.h' | grep -vE '^(drivers|include/ampsoc|tests/kmod)/' || true)
opts=$(grep -v '^#' "$root/.checkpatch.conf" 2>/dev/null || true)
cp="perl $ksrc/scripts/checkpatch.pl --no-tree -f --strict --show-types --terse --quiet"
rc=0
# shellcheck disable=SC2086
[ -z "$kfiles" ] || $cp $opts $kfiles || rc=1
# shellcheck disable=SC2086
[ -z "$ufiles" ] || $cp $opts --ignore "$user_ignore" $ufiles || rc=1
[ "$rc" = 0 ] && echo "checkpatch: clean"
exit "$rc"

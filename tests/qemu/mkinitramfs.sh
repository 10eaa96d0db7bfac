#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs: busybox, PID 1, the scenario library and
# scripts, every ampsoc module, the Debian modules they need, static guest
# programs, firmware and the user's EXTRA files. No root needed.
#
# mkinitramfs.sh OUT --kmods "virtio ..." --progs "files" --firmware "files" --extra "files"
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
kmods= progs= firmware= extra= modroot= kodir=$root
while [ $# -gt 0 ]; do
	case $1 in
	--kmods) kmods=$2 ;;
	--progs) progs=$2 ;;
	--firmware) firmware=$2 ;;
	--extra) extra=$2 ;;
	# another kernel's installed modules (INSTALL_MOD_PATH), e.g. the debug kernel
	--modroot) modroot=$2 ;;
	# where our .ko files were built, if not in this tree
	--kodir) kodir=$2 ;;
	*) echo "mkinitramfs: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
: "${KVER:?KVER must be set}"

st=$(dirname "$out")/initramfs.d
rm -rf "$st"
mkdir -p "$st"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,lib/firmware,extra}
mkdir -p "$st/lib/modules/$KVER/extra/ampsoc" "$st/ampsoc"

# busybox and its applets
cp /bin/busybox "$st/bin/busybox"
for a in $(/bin/busybox --list-full); do
	[ -e "$st/$a" ] || ln -s /bin/busybox "$st/$a"
done

install -m 0755 "$root/tests/qemu/init" "$st/init"
install -m 0644 "$root/tests/guest/lib.sh" "$st/ampsoc/lib.sh"
install -m 0644 "$root/tests/qemu/lockdep-classes.sh" "$st/ampsoc/lockdep-classes.sh"
# per-area scenario helpers: . /ampsoc/lib/<area>.sh
mkdir -p "$st/ampsoc/lib"
for f in "$root"/tests/guest/lib/*.sh; do
	[ -e "$f" ] && install -m 0644 "$f" "$st/ampsoc/lib/"
done
for d in tests/scenarios tests/bench tests/soak tests/harness tests/demo tests/qemu; do
	[ -d "$root/$d" ] || continue
	mkdir -p "$st/ampsoc/$d"
	find "$root/$d" -maxdepth 1 -name '*.sh' -exec cp {} "$st/ampsoc/$d/" \;
done
echo "root:x:0:0:root:/root:/bin/sh" >"$st/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>"$st/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$st/etc/group"

# Our modules: everything Kbuild produced in the tree.
find "$kodir" -path "$root/build" -prune -o -path "$root/.git" -prune -o \
	-name '*.ko' -print | while read -r ko; do
	cp "$ko" "$st/lib/modules/$KVER/extra/ampsoc/"
done

# Debian's modules named in GUEST_KMODS, with their dependencies.
declare -A seen=()
mi=(modinfo -k "$KVER")
[ -n "$modroot" ] && mi+=(-b "$modroot")
kmoddir=${modroot}/lib/modules/$KVER
add_kmod() {
	local name=$1 path dep
	[ -n "${seen[$name]:-}" ] && return 0
	seen[$name]=1
	path=$("${mi[@]}" -n "$name" 2>/dev/null) || {
		echo "mkinitramfs: Debian module '$name' not found for $KVER" >&2
		return 1
	}
	[ "$path" = "(builtin)" ] && return 0
	path=${path#"$modroot"}
	mkdir -p "$st/$(dirname "$path")"
	cp "$modroot$path" "$st/$path"
	for dep in $("${mi[@]}" -F depends "$name" | tr ',' ' '); do
		add_kmod "$dep"
	done
}
for m in $kmods; do add_kmod "$m"; done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -f "$kmoddir/$f" ] && cp "$kmoddir/$f" "$st/lib/modules/$KVER/"
done

for p in $progs; do install -m 0755 "$p" "$st/usr/bin/"; done
for f in $firmware; do cp "$f" "$st/lib/firmware/"; done

# The user's own files: modules join ours, firmware goes to /lib/firmware,
# scripts become scenarios under /ampsoc/extra, anything else lands in /extra.
for f in $extra; do
	[ -e "$f" ] || { echo "mkinitramfs: EXTRA file '$f' does not exist" >&2; exit 1; }
	case $f in
	*.ko) mkdir -p "$st/lib/modules/$KVER/extra/user"
	      cp "$f" "$st/lib/modules/$KVER/extra/user/" ;;
	*.elf|*.fw|*.bin|*.mbn) cp "$f" "$st/lib/firmware/" ;;
	*.sh) mkdir -p "$st/ampsoc/extra"; cp "$f" "$st/ampsoc/extra/" ;;
	esac
	cp -r "$f" "$st/extra/"
done

depmod -b "$st" "$KVER"

tmp=$out.tmp
(cd "$st" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner 0:0 --quiet) >"$tmp"
mv "$tmp" "$out"

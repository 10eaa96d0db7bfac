#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs: busybox, PID 1, the scenario library and
# scripts, every ampsoc module, the Debian modules they need, static guest
# programs, firmware and the user's EXTRA files, and optionally the peer
# stack (Linux's own remoteproc and rpmsg) as a second module tree. No root
# needed.
#
# mkinitramfs.sh OUT --kmods "virtio ..." --progs "files" --firmware "files"
#                    --extra "files" [--test-kos "files"] [--peer DIR]
#
# /lib/modules/$KVER/extra/ampsoc        what the drivers build: the modules a
#                                         user installs (dkms.conf's set)
# /lib/modules/$KVER/extra/ampsoc-tests  test modules (tests/kmod, --test-kos)
# /lib/modules/$KVER/extra/user          the user's EXTRA modules
# /ampsoc/stack/mainline/lib/modules/$KVER  with --peer: the same tree without
#     ampsoc's remoteproc and rpmsg and every module that needs them, plus
#     the peer modules in extra/peer and the test modules built against
#     them in extra/peer-tests. tests/qemu/init mounts it over
#     /lib/modules for a "# stack: mainline" guest; otherwise nothing sees it.
# A module name is in a tree once: two of ours with one name fail the
# build; an EXTRA module replaces any other module of its name (one line
# says so).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
kmods= progs= firmware= extra= modroot= kodir=$root testkos= peer=
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
	# test modules built outside the tree (tests/third_party)
	--test-kos) testkos=$2 ;;
	# the peer stack's build directory (tests/peer/build.sh)
	--peer) peer=$2 ;;
	*) echo "mkinitramfs: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
: "${KVER:?KVER must be set}"
kodir=$(cd "$kodir" && pwd)
if [ -n "$peer" ]; then
	if [ ! -f "$peer/modules.order" ]; then
		echo "mkinitramfs: $peer holds no peer stack: run make peer" >&2
		exit 1
	fi
	peer=$(cd "$peer" && pwd)
fi

st=$(dirname "$out")/initramfs.d
rm -rf "$st"
mkdir -p "$st"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,lib/firmware,extra}
mdir=lib/modules/$KVER
mkdir -p "$st/$mdir/extra/ampsoc" "$st/$mdir/extra/ampsoc-tests" "$st/ampsoc"

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

# modname FILE: the name modprobe and the kernel know a module by.
modname() {
	local n
	n=$(basename "$1" .ko)
	echo "${n//-/_}"
}

# put FILE DIR: copy a module of ours; two with one file name would
# silently become one.
put() {
	if [ -e "$2/${1##*/}" ]; then
		echo "mkinitramfs: two modules named ${1##*/}: $1 and another" >&2
		return 1
	fi
	cp "$1" "$2/"
}

# Our modules: what the tree's last Kbuild run built (its modules.order;
# a stale .ko of a module that is gone stays out). What drivers/ builds
# is what a user installs (dkms.conf); the rest are test modules.
[ -f "$kodir/modules.order" ] || { echo "mkinitramfs: $kodir is not built" >&2; exit 1; }
while read -r ko; do
	ko=${ko#"$kodir"/}
	case $ko in
	drivers/*) put "$kodir/$ko" "$st/$mdir/extra/ampsoc" ;;
	*) put "$kodir/$ko" "$st/$mdir/extra/ampsoc-tests" ;;
	esac
done <"$kodir/modules.order"
for ko in $testkos; do put "$ko" "$st/$mdir/extra/ampsoc-tests"; done

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
	[ -f "$kmoddir/$f" ] && cp "$kmoddir/$f" "$st/$mdir/"
done

for p in $progs; do install -m 0755 "$p" "$st/usr/bin/"; done
for f in $firmware; do cp "$f" "$st/lib/firmware/"; done

# The user's own files: modules join ours, firmware goes to /lib/firmware,
# scripts become scenarios under /ampsoc/extra, anything else lands in /extra.
for f in $extra; do
	[ -e "$f" ] || { echo "mkinitramfs: EXTRA file '$f' does not exist" >&2; exit 1; }
	case $f in
	*.ko) mkdir -p "$st/$mdir/extra/user"
	      cp "$f" "$st/$mdir/extra/user/" ;;
	*.elf|*.fw|*.bin|*.mbn) cp "$f" "$st/lib/firmware/" ;;
	*.sh) mkdir -p "$st/ampsoc/extra"; cp "$f" "$st/ampsoc/extra/" ;;
	esac
	cp -r "$f" "$st/extra/"
done

# one_per_name TREE: leave one module of each name in TREE (its
# lib/modules/$KVER). Which of two a modprobe loads would be depmod's
# choice, so an EXTRA module replaces the other, and says so; two that
# are not the user's fail the build.
one_per_name() {
	local tree=$1 ko n
	local -A where=()
	for ko in "$tree"/extra/user/*.ko; do
		[ -e "$ko" ] || continue
		n=$(modname "$ko")
		if [ -n "${where[$n]:-}" ]; then
			echo "mkinitramfs: two EXTRA modules named $n" >&2
			return 1
		fi
		where[$n]=$ko
	done
	while read -r ko; do
		n=$(modname "$ko")
		if [ -z "${where[$n]:-}" ]; then
			where[$n]=$ko
		elif [[ ${where[$n]} == "$tree"/extra/user/* ]]; then
			echo "mkinitramfs: EXTRA ${where[$n]##*/} replaces ${ko#"$tree"/}" >&2
			rm -f "$ko"
		else
			echo "mkinitramfs: two modules named $n: ${where[$n]#"$tree"/} and ${ko#"$tree"/}" >&2
			return 1
		fi
	done < <(find "$tree" -path "$tree/extra/user" -prune -o -name '*.ko' -print | LC_ALL=C sort)
}
one_per_name "$st/$mdir"

# The peer stack's tree (see the top): a hard-linked copy of this one, so
# that the archive holds each shared file once.
if [ -n "$peer" ]; then
	pt=$st/ampsoc/stack/mainline/$mdir
	mkdir -p "$(dirname "$pt")"
	cp -al "$st/$mdir" "$pt"
	mkdir -p "$pt/extra/peer" "$pt/extra/peer-tests"
	while read -r ko; do
		ko=${ko#"$peer"/}
		# in a subdirectory: a test module built for this stack
		# (tests/peer/fake), which load-all leaves out
		case $ko in
		*/*) ;;
		*) put "$peer/$ko" "$pt/extra/peer" ;;
		esac
	done <"$peer/modules.order"
	# ampsoc_rproc and ampsoc_rpmsg register class remoteproc and bus
	# rpmsg as the peer's modules do: they go, with all that needs them.
	hide=" ampsoc_rproc ampsoc_rpmsg "
	grown=1
	while [ "$grown" = 1 ]; do
		grown=0
		for ko in "$pt"/extra/{ampsoc,ampsoc-tests,user}/*.ko; do
			[ -e "$ko" ] || continue
			n=$(modname "$ko")
			[[ $hide == *" $n "* ]] && continue
			for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
				if [[ $hide == *" ${d//-/_} "* ]]; then
					hide="$hide$n "
					grown=1
					break
				fi
			done
		done
	done
	for ko in "$pt"/extra/{ampsoc,ampsoc-tests,user}/*.ko; do
		[ -e "$ko" ] && [[ $hide == *" $(modname "$ko") "* ]] && rm -f "$ko"
	done
	while read -r ko; do
		ko=${ko#"$peer"/}
		case $ko in
		*/*) put "$peer/$ko" "$pt/extra/peer-tests" ;;
		esac
	done <"$peer/modules.order"
	one_per_name "$pt"
	depmod -b "$st/ampsoc/stack/mainline" "$KVER"
fi

depmod -b "$st" "$KVER"

tmp=$out.tmp
(cd "$st" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner 0:0 --quiet) >"$tmp"
mv "$tmp" "$out"

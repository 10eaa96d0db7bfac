#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the guest's module trees (tests/qemu/mkinitramfs.sh):
# extra/ampsoc holds exactly what drivers/ builds (the DKMS set, all that
# load-all loads), test modules sit apart, an EXTRA module replaces one of
# the same name instead of sitting beside it (and says so), two of ours
# with one name fail the build, and the peer stack's tree has the peer
# modules without ampsoc's remoteproc and rpmsg or anything needing them,
# while the default tree never holds a peer module. Needs the tree built
# (make modules). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
export KVER=${KVER:-$("$root/tools/kver.sh")}
mk=$root/tests/qemu/mkinitramfs.sh
echo "KTAP version 1"
echo "1..6"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() { # result N NAME OK [DIAG-FILE]
	if [ "$3" = 1 ]; then
		echo "ok $1 $2"
	else
		[ -n "${4:-}" ] && [ -f "$4" ] && sed -n '1,15s/^/# /p' "$4"
		echo "not ok $1 $2"
		fail=1
	fi
}
names() { # names DIR: module names in DIR, sorted
	for f in "$1"/*.ko; do [ -e "$f" ] && basename "$f" .ko; done | sort
}
# build NAME ARGS...: an initramfs into $tmp/NAME; its tree is $tmp/NAME/initramfs.d
build() {
	local n=$1
	shift
	mkdir -p "$tmp/$n"
	"$mk" "$tmp/$n/i.cpio" --kmods "virtio virtio_ring" --progs "" \
		--firmware "" "$@" >"$tmp/$n.out" 2>&1
}

if [ ! -f "$root/modules.order" ]; then
	for i in 1 2 3 4 5 6; do echo "not ok $i initramfs_layout # the tree is not built: make modules"; done
	exit 1
fi
order=$(sed "s|^$root/||" "$root/modules.order")
drivers=$(echo "$order" | grep '^drivers/' | xargs -n1 basename | sed 's/\.ko$//' | sort)
tests=$(echo "$order" | grep -v '^drivers/' | xargs -n1 basename | sed 's/\.ko$//' | sort)
some=$root/$(echo "$order" | grep -m1 '^tests/kmod/harness/')

# A stand-in peer stack: real modules under the peer's names.
mkdir -p "$tmp/peer"
for m in remoteproc rpmsg_core virtio_rpmsg_bus; do
	cp "$some" "$tmp/peer/$m.ko"
	echo "$tmp/peer/$m.ko" >>"$tmp/peer/modules.order"
done
# Someone's own build of a driver ampsoc has, by both spellings.
cp "$some" "$tmp/ampsoc_rpmsg_echo.ko"
mkdir -p "$tmp/dash"
cp "$some" "$tmp/dash/ampsoc-vsoc-clk.ko"

ok=0
if build plain --extra "" --peer "$tmp/peer"; then
	t=$tmp/plain/initramfs.d/lib/modules/$KVER
	[ "$(names "$t/extra/ampsoc")" = "$drivers" ] &&
	[ "$(names "$t/extra/ampsoc-tests")" = "$tests" ] && ok=1
fi
result 1 dkms_set_apart_from_test_modules "$ok" "$tmp/plain.out"

ok=0
if [ -d "${t:-}" ] && [ ! -e "$t/extra/peer" ] &&
   ! grep -q 'peer/' "$t/modules.dep" &&
   ! grep -rqs 'extra/peer' "$tmp/plain/initramfs.d/lib"; then
	ok=1
fi
result 2 default_tree_has_no_peer_module "$ok"

ok=0
p=$tmp/plain/initramfs.d/ampsoc/stack/mainline/lib/modules/$KVER
if [ -d "$p" ]; then
	ok=1
	[ "$(names "$p/extra/peer")" = "$(printf '%s\n' remoteproc rpmsg_core virtio_rpmsg_bus)" ] || ok=0
	for m in ampsoc_rproc ampsoc_rpmsg ampsoc_rpmsg_virtio ampsoc_vsoc_rproc ampsoc_rpmsg_test; do
		if [ -n "$(find "$p" -name "$m.ko")" ]; then echo "# $m.ko is in the mainline tree"; ok=0; fi
	done
	for m in ampsoc_pd ampsoc_vsoc ampsoc_rpmsg_lb; do
		if [ -z "$(find "$p" -name "$m.ko")" ]; then echo "# $m.ko is missing from the mainline tree"; ok=0; fi
	done
	# nothing left needs what went
	for ko in $(find "$p" -name '*.ko'); do
		case ",$(modinfo -F depends "$ko")," in
		*,ampsoc_rproc,*|*,ampsoc_rpmsg,*) echo "# ${ko#"$p"/} needs a module that went"; ok=0 ;;
		esac
	done
	grep -q '^extra/peer/virtio_rpmsg_bus.ko:' "$p/modules.dep" || { echo "# no peer module in its modules.dep"; ok=0; }
	# shared files are stored once
	[ "$(stat -c %i "$p/extra/ampsoc/ampsoc_pd.ko")" = "$(stat -c %i "$t/extra/ampsoc/ampsoc_pd.ko")" ] ||
		{ echo "# ampsoc_pd.ko is not shared"; ok=0; }
fi
result 3 mainline_tree "$ok" "$tmp/plain.out"

ok=0
if build extra --extra "$tmp/ampsoc_rpmsg_echo.ko $tmp/dash/ampsoc-vsoc-clk.ko"; then
	t=$tmp/extra/initramfs.d/lib/modules/$KVER
	found=$(find "$t" -name 'ampsoc[_-]rpmsg[_-]echo.ko' -o -name 'ampsoc[_-]vsoc[_-]clk.ko' | sed "s|^$t/||" | sort)
	if [ "$found" = "$(printf '%s\n' extra/user/ampsoc-vsoc-clk.ko extra/user/ampsoc_rpmsg_echo.ko)" ] &&
	   cmp -s "$t/extra/user/ampsoc_rpmsg_echo.ko" "$tmp/ampsoc_rpmsg_echo.ko" &&
	   grep -q '^extra/user/ampsoc_rpmsg_echo.ko:' "$t/modules.dep" &&
	   grep -qx 'mkinitramfs: EXTRA ampsoc_rpmsg_echo.ko replaces extra/ampsoc/ampsoc_rpmsg_echo.ko' "$tmp/extra.out" &&
	   grep -qx 'mkinitramfs: EXTRA ampsoc-vsoc-clk.ko replaces extra/ampsoc/ampsoc_vsoc_clk.ko' "$tmp/extra.out"; then
		ok=1
	else
		echo "# modules of those names: $(echo $found)"
	fi
fi
result 4 extra_replaces_same_name "$ok" "$tmp/extra.out"

ok=0
mkdir -p "$tmp/same"
cp "$some" "$tmp/same/ampsoc_pd.ko"
if ! build same --extra "" --test-kos "$tmp/same/ampsoc_pd.ko" &&
   grep -q 'two modules named ampsoc_pd' "$tmp/same.out"; then
	ok=1
fi
result 5 two_of_ours_with_one_name_fail "$ok" "$tmp/same.out"

ok=0
if ! build nopeer --extra "" --peer "$tmp/nothing" &&
   grep -q 'run make peer' "$tmp/nopeer.out"; then
	ok=1
fi
result 6 missing_peer_stack_fails "$ok" "$tmp/nopeer.out"
exit $fail

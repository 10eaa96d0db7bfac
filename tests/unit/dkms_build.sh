#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test: the DKMS packaging. dkms.conf installs exactly the modules the
# drivers build, refuses unsuitable kernels, a release tarball makes the
# same DKMS tree without git, and `dkms build` succeeds against Debian's
# headers (added, built and removed again: nothing is installed into any
# kernel, and a user's own install is never touched). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..5"
fail=0

# 1: the module list dkms-src writes equals the driver modules built, as
# plain assignments (dkms sources dkms.conf often: no commands in it)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/tools/dkms-src.sh" "$tmp/ampsoc-test" 0.0.selftest.unit
listed=$(env -i bash -c 'source "$1/dkms.conf"
	for i in "${!BUILT_MODULE_NAME[@]}"; do
		echo "${BUILT_MODULE_LOCATION[$i]}${BUILT_MODULE_NAME[$i]}"
	done' conf "$tmp/ampsoc-test" | sort)
built=$(cd "$root" && find drivers -name '*.ko' | sed 's/\.ko$//' | sort)
cmds=$(grep -vE '^[[:space:]]*(#|$|[A-Z_]+(\[[0-9]+\])?="[^"$`]*"$|(MAKE\[0\]|CLEAN)=)' \
	"$tmp/ampsoc-test/dkms.conf" || true)
if [ -n "$built" ] && [ "$listed" = "$built" ] && [ -z "$cmds" ]; then
	echo "ok 1 dkms_conf_lists_every_driver_module"
else
	echo "# dkms.conf lists: $(echo $listed)"
	echo "# drivers built:   $(echo $built)"
	[ -z "$cmds" ] || echo "# dkms.conf runs: $(echo $cmds)"
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

# 3: a release tarball (make dist) makes the same DKMS tree without git,
# with its version from the tarball's VERSION file
ok=0
if ! command -v git >/dev/null || [ ! -e "$root/.git" ]; then
	echo "ok 3 dkms_src_from_tarball # SKIP not a git checkout"
else
	if make -C "$root" -s dist BUILD="$tmp/dist" DKMS_VERSION=0.0.selftest.dist \
		>"$tmp/dist.log" 2>&1 &&
	   tar -C "$tmp" -xzf "$tmp/dist/ampsoc-0.0.selftest.dist.tar.gz" &&
	   [ ! -e "$tmp/ampsoc-0.0.selftest.dist/.git" ] &&
	   v=$("$tmp/ampsoc-0.0.selftest.dist/tools/dkms-version.sh") &&
	   "$tmp/ampsoc-0.0.selftest.dist/tools/dkms-src.sh" "$tmp/from-tar" "$v" \
		>>"$tmp/dist.log" 2>&1; then
		(cd "$tmp/ampsoc-test" && find . -type f | sort) >"$tmp/a"
		(cd "$tmp/from-tar" && find . -type f | sort) >"$tmp/b"
		if [ "$v" = 0.0.selftest.dist ] && cmp -s "$tmp/a" "$tmp/b" &&
		   grep -q '^PACKAGE_VERSION="0.0.selftest.dist"$' "$tmp/from-tar/dkms.conf"; then
			ok=1
		else
			echo "# version from the tarball: $v"
			diff "$tmp/a" "$tmp/b" | head -n 10 | sed 's/^/# /'
		fi
	else
		tail -n 10 "$tmp/dist.log" | sed 's/^/# /'
	fi
	if [ "$ok" = 1 ]; then echo "ok 3 dkms_src_from_tarball"; else echo "not ok 3 dkms_src_from_tarball"; fail=1; fi
fi

# 4: a real dkms build (root only: dkms writes /usr/src and /var/lib/dkms),
# under a version no install can have (tools/dkms-version.sh never says
# "selftest"), unique to this run; afterwards /usr/src and /var/lib/dkms
# hold what they held before. Not compared: other runs' self-test versions,
# which come and go meanwhile, and dkms's own module-signing key
# (/var/lib/dkms/mok.*), which dkms makes at its first build of any module
# and which belongs to the machine, not to ampsoc.
state() {
	{ ls -A /usr/src; find /var/lib/dkms -mindepth 1 -maxdepth 3 2>/dev/null; } |
		grep -v -e selftest -e '\.test[0-9]' -e '^/var/lib/dkms/ampsoc$' \
			-e '^/var/lib/dkms/mok\.' | sort
}
ver=0.0.selftest.$$
if [ "$(id -u)" != 0 ] || ! command -v dkms >/dev/null; then
	echo "ok 4 dkms_build # SKIP needs root and the dkms package"
else
	state >"$tmp/before"
	if make -C "$root" -s dkms-build DKMS_VERSION=$ver >"$tmp/log" 2>&1; then
		ok=1
	else
		tail -n 15 "$tmp/log" | sed 's/^/# /'
		ok=0
	fi
	state >"$tmp/after"
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		diff "$tmp/before" "$tmp/after" | head -n 10 | sed 's/^/# changed: /'
		ok=0
	fi
	if [ -e "/usr/src/ampsoc-$ver" ] || [ -e "/var/lib/dkms/ampsoc/$ver" ]; then
		echo "# ampsoc $ver was left behind"
		ok=0
	fi
	if [ "$ok" = 1 ]; then echo "ok 4 dkms_build"; else echo "not ok 4 dkms_build"; fail=1; fi
fi

# 5: DKMS ships only what a user's kernel needs: no test code, and in
# particular not the in-kernel KTAP helper (docs/CONVENTIONS.md, "File
# names and places")
shipped=$(cd "$tmp/ampsoc-test" && find . -type f \( -path '*/tests/*' -o -name '*ktap*' \) | sort)
if [ -z "$shipped" ]; then
	echo "ok 5 dkms_ships_no_test_code"
else
	echo "# test code in the DKMS tree: $(echo $shipped)"
	echo "not ok 5 dkms_ships_no_test_code"
	fail=1
fi
exit $fail

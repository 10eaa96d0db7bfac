#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the peer stack: Linux's own remoteproc and rpmsg, the oracle that
# scenarios with "# stack: mainline" boot (docs/peer-stack.md). Their
# sources are extracted from Debian's linux-source-6.1 into OUT, never into
# the tree, unmodified, next to tests/peer/Kbuild and remoteproc_peer.c, and
# built as out-of-tree modules against the kernel tree KDIR. Any compiler
# or modpost warning fails the build.
#
# Incremental: the tarball is read again only when it or the list of files
# changed (a minute of xz), and kbuild rebuilds only what changed.
#
#   tests/peer/build.sh OUT KDIR [AMPSOC_BUILT]
#
# With AMPSOC_BUILT, a tree where ampsoc's modules were built for KDIR (its
# Module.symvers), the virtual SoC's remote-core driver is built too, from
# ampsoc's own source, against mainline's remoteproc.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
kdir=$2
ampsoc_built=${3:-}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
top=linux-source-6.1
files="
drivers/remoteproc/remoteproc_core.c
drivers/remoteproc/remoteproc_coredump.c
drivers/remoteproc/remoteproc_debugfs.c
drivers/remoteproc/remoteproc_sysfs.c
drivers/remoteproc/remoteproc_virtio.c
drivers/remoteproc/remoteproc_elf_loader.c
drivers/remoteproc/remoteproc_cdev.c
drivers/remoteproc/remoteproc_internal.h
drivers/remoteproc/remoteproc_elf_helpers.h
drivers/rpmsg/rpmsg_core.c
drivers/rpmsg/rpmsg_ns.c
drivers/rpmsg/rpmsg_char.c
drivers/rpmsg/rpmsg_ctrl.c
drivers/rpmsg/virtio_rpmsg_bus.c
drivers/rpmsg/rpmsg_internal.h
drivers/rpmsg/rpmsg_char.h
"

[ -f "$tarball" ] || { echo "ampsoc: $tarball is missing: apt-get install linux-source-6.1" >&2; exit 1; }
[ -f "$kdir/Makefile" ] || { echo "ampsoc: $kdir is not a kernel build tree" >&2; exit 1; }

# What the extracted files came from: the tarball's identity and the list.
want=$(printf '%s\n' "$(stat -c '%n %s %Y' "$tarball")" $files)
if [ "$(cat "$out/.sources" 2>/dev/null)" != "$want" ]; then
	echo "  EXTRACT $out (from $tarball)"
	rm -rf "$out/.extract"
	mkdir -p "$out/.extract"
	members=()
	for f in $files; do members+=("$top/$f"); done
	# -m: the files get the time of extraction, so that kbuild rebuilds
	# them even when the new tarball's own dates are older.
	tar -xJmf "$tarball" -C "$out/.extract" --occurrence=1 "${members[@]}"
	for f in $files; do mv -f "$out/.extract/$top/$f" "$out/$(basename "$f")"; done
	rm -rf "$out/.extract"
	echo "$want" >"$out/.sources"
fi

# Our own files: copied only when they changed, so that kbuild sees the
# same dates as last time otherwise.
for f in Kbuild remoteproc_peer.c remoteproc_peer.h; do
	cmp -s "$root/tests/peer/$f" "$out/$f" || cp "$root/tests/peer/$f" "$out/$f"
done

vsoc=()
if [ -n "$ampsoc_built" ]; then
	[ -f "$ampsoc_built/Module.symvers" ] || {
		echo "ampsoc: $ampsoc_built/Module.symvers is missing: build ampsoc's modules first" >&2
		exit 1
	}
	# Copied under its module's name: tests/peer/Kbuild builds
	# ampsoc_vsoc_rproc.o from it.
	f=drivers/vsoc/vsoc_rproc.c
	cmp -s "$root/$f" "$out/ampsoc_vsoc_rproc.c" ||
		cp "$root/$f" "$out/ampsoc_vsoc_rproc.c"
	vsoc=(AMPSOC_ROOT="$root"
	      KBUILD_EXTRA_SYMBOLS="$(cd "$ampsoc_built" && pwd)/Module.symvers")
else
	rm -f "$out/ampsoc_vsoc_rproc.c"
fi

# ampsoc's kernel echo client, written against mainline's <linux/rpmsg.h>:
# the same source, built against the peer's rpmsg (make bench's kernel
# echo row on mainline).
f=drivers/rpmsg/rpmsg_echo.c
cmp -s "$root/$f" "$out/ampsoc_rpmsg_echo.c" || cp "$root/$f" "$out/ampsoc_rpmsg_echo.c"

# The fake remote processor (tests/kmod/remoteproc), from ampsoc's source.
mkdir -p "$out/fake"
for f in tests/peer/fake/Kbuild tests/kmod/remoteproc/ampsoc_rproc_fake.c; do
	cmp -s "$root/$f" "$out/fake/${f##*/}" || cp "$root/$f" "$out/fake/"
done

log=$out/build.log
set +e
make -C "$kdir" M="$out" "${vsoc[@]}" FAKE_SRC="$root/tests/kmod/remoteproc" modules >"$log" 2>&1
rc=$?
set -e
grep -v '^Skipping BTF generation' "$log" | grep -E '^  (CC|LD) ' || true
if [ "$rc" != 0 ] || grep -v 'Skipping BTF' "$log" | grep -qE 'warning:|error:|WARNING:'; then
	grep -v 'Skipping BTF' "$log" | tail -n 30 >&2
	echo "ampsoc: the peer stack did not build cleanly against $kdir (see $log)" >&2
	exit 1
fi

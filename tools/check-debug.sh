#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-debug's guest side (docs/debug-kernel.md): the scenarios on
# the cached lockdep+KASAN kernel. The modules are built against that
# kernel's tree from a copy of the sources (the tree's own objects stay
# built for Debian's kernel), with their own initramfs and slower timeouts.
# The Makefile builds the host tools first and passes, in the environment:
#   ROOT CACHE DEBUG_BUILD DEBUG_DIR DEBUG_CPU GUEST_KMODS GUEST_PROGS
#   GUEST_FIRMWARE, and from the user T J EXTRA CMD STACK; PEER=1 when a
#   selected scenario boots the mainline stack.
set -euo pipefail
: "${ROOT:?}" "${CACHE:?}" "${DEBUG_BUILD:?}" "${DEBUG_DIR:?}" "${DEBUG_CPU:?}"
# The kernel's own make runs from here, not as a recursive make, so it
# must not look for the calling make's job server.
unset MAKEFLAGS MFLAGS

dk=$("$ROOT/tools/debug-kernel.sh" "$CACHE")
krel=$(make -s -C "$dk" kernelrelease)
[ -d "$dk/modroot/lib/modules/$krel" ] ||
	make -s -C "$dk" modules_install INSTALL_MOD_PATH="$dk/modroot" >/dev/null

mkdir -p "$DEBUG_BUILD/src"
rsync -a --delete --exclude=/build --exclude=/.git "$ROOT/" "$DEBUG_BUILD/src/"
# -g1: line tables only (the debug kernel itself has no debug info), so
# that make fuzz-remote can map coverage to lines; the code is the same.
make -C "$dk" M="$DEBUG_BUILD/src" W=1 KCFLAGS=-g1 modules >"$DEBUG_BUILD/modules.log" 2>&1 ||
	{ tail -n 30 "$DEBUG_BUILD/modules.log"; exit 1; }
AMPSOC=$DEBUG_BUILD/src KVER=$krel KDIR=$dk \
	"$ROOT/tests/third_party/build.sh" --all "$DEBUG_BUILD/third-party"

peer=()
if [ -n "${PEER:-}" ]; then
	"$ROOT/tests/peer/build.sh" "$DEBUG_BUILD/peer" "$dk" "$DEBUG_BUILD/src"
	peer=(--peer "$DEBUG_BUILD/peer")
fi
KVER=$krel "$ROOT/tests/qemu/mkinitramfs.sh" "$DEBUG_BUILD/initramfs.cpio" \
	--modroot "$dk/modroot" --kodir "$DEBUG_BUILD/src" \
	--kmods "${GUEST_KMODS:-}" --progs "${GUEST_PROGS:-}" \
	--firmware "${GUEST_FIRMWARE:-}" --extra "${EXTRA:-}" \
	--test-kos "$(find "$DEBUG_BUILD/third-party" -name '*.ko')" \
	"${peer[@]}"

args=()
[ -n "${J:-}" ] && args+=(--jobs "$J")
[ -n "${T:-}" ] && args+=(--filter "$T")
[ -n "${EXTRA:-}" ] && args+=(--extra "$EXTRA")
[ -n "${CMD:-}" ] && args+=(--cmd "$CMD")
[ -n "${STACK:-}" ] && args+=(--stack "$STACK")
exec "$ROOT/tests/qemu/run.py" --build "$DEBUG_BUILD" --kver "$krel" \
	--kernel "$dk/arch/x86/boot/bzImage" --timeout-scale 6 \
	--cpu "$DEBUG_CPU" --boot-timeout 240 "${args[@]}" "$DEBUG_DIR"

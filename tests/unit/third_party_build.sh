#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test: a third-party driver builds against ampsoc exactly as
# docs/third-party-drivers.md says (tests/third_party/build.sh: the doc's
# Kbuild and Makefile in a directory outside the tree, its command line),
# and the harness catches what it must: the doc's files without
# KBUILD_EXTRA_SYMBOLS (what the docs once said) fail at modpost, the
# Makefile without AMPSOC stops with its one line, and a compiler warning
# fails the build. Needs the tree built (make modules). KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
doc=$root/docs/third-party-drivers.md
build=$root/tests/third_party/build.sh
sample=linux-source:samples/rpmsg/rpmsg_client_sample.c
export KVER=${KVER:-$("$root/tools/kver.sh")}
echo "KTAP version 1"
echo "1..4"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() { # result N NAME OK [LOG]
	if [ "$3" = 1 ]; then
		echo "ok $1 $2"
	else
		[ -n "${4:-}" ] && [ -f "$4" ] && tail -n 12 "$4" | sed 's/^/# /'
		echo "not ok $1 $2"
		fail=1
	fi
}

if [ ! -f "$root/Module.symvers" ]; then
	for i in 1 2 3 4; do echo "not ok $i third_party # the tree is not built: make modules"; done
	exit 1
fi

# 1: the doc as it is
ok=0
if "$build" "$doc" rpmsg "$tmp/doc" "$sample" >"$tmp/1.out" 2>&1; then
	ko=$tmp/doc/rpmsg_client_sample.ko
	deps=$(modinfo -F depends "$ko" 2>/dev/null)
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	[[ ,$deps, == *,ampsoc_rpmsg,* ]] && [[ $vermagic == "$KVER "* ]] && ok=1
	echo "# depends: $deps; vermagic: $vermagic"
fi
sed 's/^/# /' "$tmp/1.out"
result 1 documented_build_is_clean "$ok" "$tmp/doc/build.log"

# 2: without KBUILD_EXTRA_SYMBOLS, modpost does not know ampsoc's exports
grep -v '^KBUILD_EXTRA_SYMBOLS' "$doc" >"$tmp/no-symvers.md"
ok=0
if ! "$build" "$tmp/no-symvers.md" rpmsg "$tmp/nosym" "$sample" >"$tmp/2.out" 2>&1 &&
   grep -q 'modpost: "ampsoc_rpmsg_[a-z_]*" .* undefined' "$tmp/nosym/build.log"; then
	ok=1
fi
result 2 without_extra_symbols_modpost_fails "$ok" "$tmp/2.out"

# 3: the Makefile needs AMPSOC
ok=0
if "$build" --write "$doc" rpmsg "$tmp/noampsoc" &&
   ! make -C "$tmp/noampsoc" KVER="$KVER" >"$tmp/3.out" 2>&1 &&
   grep -q 'AMPSOC= must name the ampsoc tree' "$tmp/3.out"; then
	ok=1
fi
result 3 makefile_needs_ampsoc "$ok" "$tmp/3.out"

# 4: a compiler warning fails the harness (a module of the sample's name)
mkdir -p "$tmp/src"
cat >"$tmp/src/rpmsg_client_sample.c" <<'SRC'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int third_party_unused(void) { return 0; }
MODULE_LICENSE("GPL");
SRC
ok=0
if ! "$build" "$doc" rpmsg "$tmp/warn" "$tmp/src/rpmsg_client_sample.c" >"$tmp/4.out" 2>&1 &&
   grep -q 'third_party_unused.*defined but not used' "$tmp/warn/build.log"; then
	ok=1
fi
result 4 warning_fails_the_build "$ok" "$tmp/4.out"
exit $fail

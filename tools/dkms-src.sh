#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the DKMS source tree of ampsoc: tools/dkms-src.sh DEST VERSION
# (make dkms-src: DEST is /usr/src/ampsoc-VERSION).
#
# DEST gets the top-level Kbuild, include/ and drivers/ (git's files in a
# git checkout, the Kbuild, .c and .h files otherwise: a release tarball
# has no git), and dkms.conf with PACKAGE_VERSION and the module list
# filled in. The list is written here, once, from drivers/*/Kbuild: dkms
# sources dkms.conf many times and then only reads plain assignments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: dkms-src.sh DEST VERSION}
version=${2:?usage: dkms-src.sh DEST VERSION}

cd "$root"
if [ -e .git ] && command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
	list() { git ls-files -z Kbuild dkms.conf include drivers; }
else
	list() {
		find Kbuild dkms.conf include drivers -type f \
			\( -name Kbuild -o -name dkms.conf -o -name '*.[ch]' \) -print0
	}
fi

# The modules of each drivers/<dir>/Kbuild: every word ending in .o on its
# obj-m lines (continuation lines joined).
modules() {
	local kb dir
	for kb in drivers/*/Kbuild; do
		dir=${kb%Kbuild}
		sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$kb" |
			sed -n 's/^obj-m[[:space:]]*[+:]\{0,1\}=//p' | tr ' \t' '\n\n' |
			sed -n "s|^\(.*\)\.o\$|$dir \1|p"
	done
}

entries=$(modules | awk '{
	printf "BUILT_MODULE_NAME[%d]=\"%s\"\n", NR - 1, $2
	printf "BUILT_MODULE_LOCATION[%d]=\"%s\"\n", NR - 1, $1
	printf "DEST_MODULE_LOCATION[%d]=\"/updates/dkms\"\n", NR - 1 }')
if [ -z "$entries" ]; then
	echo "dkms-src: no module in drivers/*/Kbuild" >&2
	exit 1
fi
grep -qx '# @BUILT_MODULES@' dkms.conf || {
	echo "dkms-src: dkms.conf has no '# @BUILT_MODULES@' line" >&2
	exit 1
}

rm -rf "$dest"
mkdir -p "$dest"
list | xargs -0 cp --parents -t "$dest"
awk -v v="$version" -v e="$entries" '
	$0 == "# @BUILT_MODULES@" { print e; next }
	{ gsub(/@PACKAGE_VERSION@/, v); print }' dkms.conf >"$dest/dkms.conf"

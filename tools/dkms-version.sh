#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print ampsoc's version, as DKMS and release tarballs name it:
#  - a tree unpacked from a release tarball (make dist): its VERSION file;
#  - a git checkout: git describe on the v* tags, v0.2 -> 0.2 and
#    v0.2-5-gabc1234 (5 commits later) -> 0.2+5.gabc1234;
#  - a git checkout with no v* tag yet: 0.1+g<abbreviated commit>;
#  - anything else: 0.1.
# Never a name with "selftest" in it: the DKMS self-test owns those
# (tests/unit/dkms_build.sh), so it cannot collide with an install.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)

if [ -f "$root/VERSION" ]; then
	tr -d ' \n' <"$root/VERSION"
	echo
elif [ -e "$root/.git" ] && command -v git >/dev/null &&
     d=$(git -C "$root" describe --tags --match 'v[0-9]*' 2>/dev/null); then
	# v0.2 or v0.2-5-gabc1234
	d=${d#v}
	case $d in
	*-*-g*) base=${d%-*-g*}; rest=${d#"$base"-}; echo "$base+${rest%%-*}.g${rest#*-g}" ;;
	*) echo "$d" ;;
	esac
elif [ -e "$root/.git" ] && command -v git >/dev/null &&
     sha=$(git -C "$root" rev-parse --short HEAD 2>/dev/null); then
	echo "0.1+g$sha"
else
	echo "0.1"
fi

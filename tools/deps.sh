#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a make target needs, and nothing else.
# Usage: tools/deps.sh [group...]   (default group: base; see tools/deps.txt)
# Fast and silent when everything is present. As non-root it prints the
# exact apt-get line instead of trying.
set -eu
here=$(dirname "$0")
groups=${*:-base}

missing=
for g in $groups; do
	pkgs=$(awk -v g="$g" '$1 == g { print $2 }' "$here/deps.txt")
	if [ -z "$pkgs" ]; then
		echo "ampsoc: unknown dependency group '$g'" >&2
		exit 2
	fi
	for p in $pkgs; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || missing="$missing $p"
	done
done
[ -z "$missing" ] && exit 0

missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ "$(id -u)" != 0 ]; then
	echo "ampsoc: missing packages; as root run: apt-get install -y $missing" >&2
	exit 1
fi
echo "ampsoc: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends $missing >/tmp/ampsoc-apt.log 2>&1; then
	apt-get update -q >>/tmp/ampsoc-apt.log 2>&1 || true
	if ! apt-get install -y -q --no-install-recommends $missing >>/tmp/ampsoc-apt.log 2>&1; then
		tail -n 20 /tmp/ampsoc-apt.log >&2
		echo "ampsoc: apt-get install $missing failed (log: /tmp/ampsoc-apt.log)" >&2
		exit 1
	fi
fi

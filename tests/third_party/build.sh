#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a driver the way docs/third-party-drivers.md tells a user to: in a
# fresh directory outside the ampsoc tree, with exactly the Kbuild and
# Makefile a doc shows, by the documented command
#
#	make AMPSOC=<tree> KVER=<release> [KDIR=<kernel tree>]
#
# against the tree's include/ and Module.symvers. It fails when make fails,
# when make printed any warning (compiler or modpost), or when no module
# came out; the modules and build.log go to OUT.
#
#   tests/third_party/build.sh DOC TAG OUT SOURCE...
#   tests/third_party/build.sh --all OUT    every line of tests/third_party/drivers,
#                                           each into OUT/TAG
#   tests/third_party/build.sh --write DOC TAG DIR   only write the blocks
#
# The doc's blocks are the fenced ones whose info string is
# "<language> third-party:TAG FILE": FILE is written with the block's text.
# A SOURCE is a file, or linux-source:PATH for a file of Debian's
# linux-source-6.1 (extracted once into build/third-party/src).
#
# Environment: AMPSOC (default: this tree), KVER (default: tools/kver.sh),
# KDIR (default: the doc's Makefile's). Incremental: nothing is built when
# the doc's blocks, the sources, AMPSOC's include/ and Module.symvers, KVER
# and KDIR are what they were for the modules already in OUT.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
AMPSOC=${AMPSOC:-$root}
KVER=${KVER:-$("$root/tools/kver.sh")}
KDIR=${KDIR:-}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
srccache=$root/build/third-party/src

tmpdirs=()
trap 'rm -rf "${tmpdirs[@]}"' EXIT

die() {
	echo "third-party: $*" >&2
	exit 1
}

# source_file SOURCE: the path of a SOURCE, extracting it if needed.
source_file() {
	local p=${1#linux-source:}
	if [ "$p" = "$1" ]; then
		[ -f "$p" ] || p=$root/$p
		[ -f "$p" ] || die "no source file $1"
		echo "$p"
		return
	fi
	[ -f "$tarball" ] || die "$tarball is missing: apt-get install linux-source-6.1"
	local f=$srccache/$p
	if [ ! -f "$f" ] || [ "$tarball" -nt "$f" ]; then
		mkdir -p "$srccache"
		tar -xJmf "$tarball" -C "$srccache" --strip-components=1 \
			--occurrence=1 "linux-source-6.1/$p" ||
			die "$p is not in $tarball"
	fi
	echo "$f"
}

# blocks DOC TAG DIR: write the doc's third-party:TAG blocks into DIR;
# prints the file names.
blocks() {
	awk -v tag="third-party:$2" -v dir="$3" '
		/^```/ && out == "" {
			n = split(substr($0, 4), w, " ")
			if (n == 3 && w[2] == tag) {
				out = dir "/" w[3]
				printf "" >out
				print w[3]
				next
			}
		}
		/^```/ && out != "" { close(out); out = ""; next }
		out != "" { print >>out }
	' "$1"
}

build_one() {
	local doc=$1 tag=$2 out=$3
	shift 3
	[ -f "$doc" ] || doc=$root/$doc
	[ -f "$doc" ] || die "no doc $1"
	[ -f "$AMPSOC/Module.symvers" ] ||
		die "$AMPSOC/Module.symvers is missing: build the tree first (make)"
	local srcs=() s
	for s in "$@"; do srcs+=("$(source_file "$s")"); done

	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/ampsoc-third-party.XXXXXX")
	tmpdirs+=("$dir")
	case $dir/ in
	"$(cd "$AMPSOC" && pwd)"/*) die "$dir is inside the ampsoc tree" ;;
	esac
	local files
	files=$(blocks "$doc" "$tag" "$dir")
	[ -n "$files" ] || die "$doc has no block tagged third-party:$tag"
	cp "${srcs[@]}" "$dir/"

	local inputs
	inputs=$({ echo "$KVER $KDIR $AMPSOC"
		   cat "$dir"/* "$AMPSOC/Module.symvers"
		   find "$AMPSOC/include" -type f | LC_ALL=C sort | xargs cat; } |
		 sha256sum)
	if [ "$(cat "$out/.inputs" 2>/dev/null)" = "$inputs" ] &&
	   compgen -G "$out/*.ko" >/dev/null; then
		return 0
	fi

	mkdir -p "$out"
	rm -f "$out"/*.ko "$out/.inputs"
	local log=$out/build.log rc=0
	echo "  THIRD-PARTY $tag ($(echo "$files" | tr '\n' ' ')from ${doc#"$root"/})"
	# As a user would run it: not as a sub-make of ours, whose jobserver
	# (make -jN) it does not share and would warn about.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$dir" AMPSOC="$AMPSOC" KVER="$KVER" ${KDIR:+KDIR="$KDIR"} \
		>"$log" 2>&1 || rc=$?
	if [ "$rc" != 0 ] ||
	   grep -v 'Skipping BTF generation' "$log" | grep -qiE 'warning|error'; then
		grep -v 'Skipping BTF generation' "$log" | tail -n 20 | sed 's/^/  | /' >&2
		die "$tag: the documented build failed or warned (make exited $rc; $log)"
	fi
	compgen -G "$dir/*.ko" >/dev/null || die "$tag: the build made no module ($log)"
	cp "$dir"/*.ko "$out/"
	echo "$inputs" >"$out/.inputs"
}

if [ "${1:-}" = --write ]; then
	[ $# = 4 ] || die "usage: $0 --write DOC TAG DIR"
	mkdir -p "$4"
	[ -n "$(blocks "$2" "$3" "$4")" ] || die "$2 has no block tagged third-party:$3"
elif [ "${1:-}" = --all ]; then
	[ $# = 2 ] || die "usage: $0 --all OUT"
	out=$2
	while read -r doc tag srcs; do
		[ -n "$doc" ] || continue
		# shellcheck disable=SC2086
		build_one "$doc" "$tag" "$out/$tag" $srcs
	done < <(grep -v '^#' "$root/tests/third_party/drivers")
else
	[ $# -ge 4 ] || die "usage: $0 DOC TAG OUT SOURCE... | --all OUT"
	build_one "$@"
fi

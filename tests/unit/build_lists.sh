#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test: the build's static lists match the sources they mirror. The
# Makefiles name them statically so that reading them runs nothing; this
# test catches a list that was not updated with its source. KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..1"

# 1: RPROC_BAD_NAMES (tests/fuzz/remoteproc/build.mk) is every BADFW() case
# of tests/kmod/remoteproc/badfw_cases.h, in the header's order.
want=$(sed -n 's/^BADFW(\([a-z0-9_]*\),.*/\1/p' \
	"$root/tests/kmod/remoteproc/badfw_cases.h" | tr '\n' ' ')
got=$(make -s --no-print-directory -C "$root" -f - print-rproc-bad-names <<'MK'
include Makefile
print-rproc-bad-names:
	@echo $(RPROC_BAD_NAMES)
MK
)
if [ -n "$want" ] && [ "$(echo $want)" = "$got" ]; then
	echo "ok 1 rproc_bad_names_match_badfw_cases"
else
	echo "# badfw_cases.h:  $want"
	echo "# RPROC_BAD_NAMES: $got"
	echo "not ok 1 rproc_bad_names_match_badfw_cases"
	exit 1
fi

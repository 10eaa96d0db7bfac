#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: one guest of the coverage-guided remote's campaign (make
#   fuzz-remote, docs/fuzz-remote.md); not a scenario of make check: the
#   driver (tests/fuzz-remote/driver.py) boots it with /ampsoc/fz.conf
#   and /ampsoc/fz-corpus.txt added to the initramfs.
# STRATEGY: boot ampsoc-fuzz-remote on ipu, then the agent mutates the
#   corpus's programs for FZ_SECONDS, printing the programs that reach new
#   edges and the new program counters on this channel for the driver.
# services: socmodel
# load-all: 1
# timeout: 120
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/fz.conf

core_find ipu || bail "no remote processor for core ipu"
check fuzz_fw_boots core_boot ampsoc-fuzz-remote.elf ampsoc-fuzz
fuzz_remote fuzz "$R" "$FZ_SECONDS" /ampsoc/fz-corpus.txt "$FZ_SEED" $FZ_BLIND
rc=$?
if [ "$rc" = 0 ]; then
	ktap_ok campaign
else
	ktap_fail campaign "fuzz_remote exited $rc"
fi
ktap_done

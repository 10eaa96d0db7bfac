#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the saved corpus of the coverage-guided remote
#   (docs/fuzz-remote.md) replays without hurting Linux: every program
#   (raw messages with any header, name-service messages about any name
#   and address, resource-manager requests, used-ring tampering within
#   the vring firewall, crashes, sleeps, floods) runs, a core that a
#   program crashed or whose transport it killed comes back through
#   recovery, the firmware answers at the end, and on a kernel with kcov
#   the rx passes and the resource manager give their coverage to the
#   agent. The console must stay clean (lockdep, KASAN, UBSAN, hung
#   task, kmemleak on the debug kernel).
# STRATEGY: boot ampsoc-fuzz-remote on ipu; fuzz_remote replay sends
#   each program of /lib/firmware/ampsoc-fuzz-remote.corpus to the
#   firmware's control endpoint and waits for its "done" (up to 3 s, else
#   it reports a crash through debugfs and waits for the firmware to
#   answer again); then stop the core.
# services: socmodel
# load-all: 1
# timeout: 150
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find ipu || bail "no remote processor for core ipu"
check fuzz_fw_boots core_boot ampsoc-fuzz-remote.elf ampsoc-fuzz
guest_test fuzz_remote replay "$R" /lib/firmware/ampsoc-fuzz-remote.corpus
check core_stops core_stop
ktap_done

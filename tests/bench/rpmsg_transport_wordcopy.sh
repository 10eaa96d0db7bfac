#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rpmsg_transport again, on a guest CPU without ERMS and
#   FSRM. TCG emulates the "rep movsb" that memcpy() and copy_from_user()
#   use on such CPUs one byte per step, so a 496-byte copy costs about
#   2.5 us, a seventh of a doorbell round trip, where real hardware takes
#   tens of ns. Without those flags the kernel copies word by word, about
#   3x faster here: this run shows how much of each ratio is the
#   emulated copy and how much is the transport.
# STRATEGY: run tests/bench/rpmsg_transport.sh unchanged, its figures
#   prefixed with wordcopy_.
# timeout: 1500
# smp: 2
# cpu-flags: -erms,-fsrm
BENCH_PREFIX=wordcopy_
. /ampsoc/tests/bench/rpmsg_transport.sh

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: Performance states drive real hardware levels (ABI 1.5):
#   the vsoc power controller registers the board's levels, the level the
#   framework aggregates is the level the SoC model runs the domain at, a
#   level the board lacks is refused with -ERANGE, a runtime-suspended
#   device's vote is withdrawn in the model too, a perf_parent_ge child
#   (l4per_sub) never runs above its parent (l4per) on raise or lower, and
#   the energy of the level in use grows. No violation.
# STRATEGY: Load ampsoc_vsoc_perf_test, whose devices vote in ipu, l4per
#   and l4per_sub and read every answer back from the model's telemetry;
#   then check the debugfs board and telemetry list the levels and that
#   the model recorded no violation.
# services: socmodel
# load-all: 1
# timeout: 240
. /ampsoc/lib.sh
. /ampsoc/lib/vsoc.sh

wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"

kmod_test ampsoc_vsoc_perf_test expect_violations=0
check_eq board_lists_ipu_levels 3 awk '$1 == "level" && $2 == "ipu" && $4 == "voltage_uv" { n++ } END { print n + 0 }' "$VSOC/board"
check_eq telemetry_ipu_at_lowest 1 awk '$1 == "level" && $2 == "ipu" && $3 == "current" { print $4 }' "$VSOC/telemetry"
check_eq telemetry_level_energy_lines 12 awk '$1 == "level_energy" { n++ } END { print n + 0 }' "$VSOC/telemetry"
check_eq no_violations 0 awk '$1 == "violations" { print $2 }' "$VSOC/telemetry"
ktap_done

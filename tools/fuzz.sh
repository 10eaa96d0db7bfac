#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target for a time budget with its saved corpus.
# Usage: tools/fuzz.sh SECONDS TARGET...
# A target's seed corpus is tests/fuzz/corpus/<target name>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=$1
shift
fail=0 pass=0
for t in "$@"; do
	name=$(basename "$t")
	corpus=$root/tests/fuzz/corpus/$name
	work=$root/build/fuzz/$name
	mkdir -p "$corpus" "$work"
	echo "fuzz: $name for ${secs}s"
	if (cd "$work" && "$t" -max_total_time="$secs" -print_final_stats=1 \
		"$work" "$corpus" >"$work/log" 2>&1); then
		grep -E 'stat::number_of_executed_units|cov:' "$work/log" | tail -n 2
		pass=$((pass + 1))
	else
		tail -n 30 "$work/log"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

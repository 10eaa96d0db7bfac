#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run each libFuzzer target for a time budget with its saved corpus.
# Usage: tools/fuzz.sh SECONDS TARGET...
#        tools/fuzz.sh --replay TARGET...   (KTAP: each target runs every
#        input of its saved corpus once; what make check runs)
# A target's seed corpus is tests/fuzz/corpus/<target name>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$1" = --replay ]; then
	shift
	echo "KTAP version 1"
	echo "1..$#"
	n=0 bad=0
	for t in "$@"; do
		n=$((n + 1))
		name=$(basename "$t")
		files=$(find "$root/tests/fuzz/corpus/$name" -type f 2>/dev/null | sort || true)
		if [ -z "$files" ]; then
			echo "ok $n $name # SKIP no saved corpus in tests/fuzz/corpus/$name"
		# shellcheck disable=SC2086
		elif out=$("$t" $files 2>&1); then
			echo "ok $n $name"
		else
			echo "$out" | tail -n 20 | sed 's/^/# /'
			echo "not ok $n $name"
			bad=1
		fi
	done
	exit "$bad"
fi
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

# SPDX-License-Identifier: GPL-2.0
# Helpers for the benchmarks (tests/bench, docs/benchmarks.md); source it
# after lib.sh: . /ampsoc/lib/bench.sh
#
# A figure is measured in rounds, each round next to its floor (ABAB: the
# floor, the figure, the floor, the figure...), and reported as the list
# of its rounds; the runner takes min, median and p90 and divides medians.

# bench_rounds: how many rounds (BENCH_ROUNDS of the run; 1 outside make bench).
bench_rounds() {
	_r=$(sed -n 's/^BENCH_ROUNDS=\([0-9][0-9]*\)$/\1/p' /ampsoc/run.conf 2>/dev/null)
	echo "${_r:-1}"
}

# acc VAR VALUE: append VALUE to the comma-separated rounds in VAR. An
# empty VALUE (a measurement that did not happen) becomes "nan", which the
# runner does not count as a round, so a lost round shows in the count.
acc() {
	eval "_a=\${$1}"
	if [ -n "$_a" ]; then
		eval "$1=\"\$_a,${2:-nan}\""
	else
		eval "$1=\"${2:-nan}\""
	fi
}

# bench_floor NAME ROUNDS UNIT FLOOR_NAME FLOOR_ROUNDS [lower|higher]
# Report a figure against a floor: a bound the figure cannot beat (lower
# is better: the floor is at most the figure; higher: at least). A floor
# the figure beats is an error in the table, and fails make bench.
bench_floor() {
	echo "# BENCH name=$1 value=$2 unit=$3 baseline=$4 baseline_value=$5 better=${6:-lower} kind=floor"
}

# bench_na NAME UNIT WHY...: this figure cannot exist on this stack, and why.
bench_na() {
	_n=$1
	_u=$2
	shift 2
	echo "# BENCH name=$_n unit=$_u na=$*"
}

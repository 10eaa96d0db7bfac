# SPDX-License-Identifier: GPL-2.0
# ampsoc scenario library, sourced by every scenario in the guest.
# Standard output is the verdict channel: KTAP v1, numbered here. The test
# number lives in a file so that test points recorded from subshells and
# pipelines count too. A scenario's last line is ktap_done: PID 1
# (tests/qemu/init) writes the success token only when it was reached,
# and ends the document with its plan line (ktap_plan), so a scenario that
# stops early fails. See docs/CONVENTIONS.md.

KTAP_N=/tmp/.ktap_n
KTAP_DONE=/tmp/.ktap_done
KVER=$(uname -r)
[ -f "$KTAP_N" ] || { echo 0 >"$KTAP_N"; echo "KTAP version 1"; }

_ktap_next() {
	n=$(($(cat "$KTAP_N") + 1))
	echo "$n" >"$KTAP_N"
	echo "$n"
}

# ktap_done: the scenario reached its end (its last line). Nothing after
# it may print a test point but PID 1's own (kmemleak_clean).
ktap_done() {
	cat "$KTAP_N" >"$KTAP_DONE"
}

# ktap_plan: the plan line, "1..N" for the N test points printed so far.
# KTAP puts it after the version line when N is known up front; a
# scenario's count depends on what it finds, so it comes last, as TAP
# allows. PID 1 prints it after its kmemleak point.
ktap_plan() {
	echo "1..$(cat "$KTAP_N")"
}

# Print lines of $1 (a file) as KTAP diagnostics.
ktap_diag_file() {
	sed -n '1,40s/^/# /p' "$1"
}

ktap_diag() {
	echo "# $*"
}

ktap_ok() {
	echo "ok $(_ktap_next) $1"
}

# ktap_fail NAME [WHY]
ktap_fail() {
	[ -n "${2:-}" ] && echo "# $1: $2"
	echo "not ok $(_ktap_next) $1"
}

# ktap_skip NAME WHY
ktap_skip() {
	echo "ok $(_ktap_next) $1 # SKIP $2"
}

# ktap_result NAME STATUS [WHY]: ok when STATUS is 0.
ktap_result() {
	if [ "$2" = 0 ]; then ktap_ok "$1"; else ktap_fail "$1" "${3:-}"; fi
}

bail() {
	echo "Bail out! $*"
	exit 1
}

# check NAME CMD...: one test point, ok when CMD exits 0.
check() {
	_name=$1
	shift
	if "$@" >/tmp/.check.out 2>&1; then
		ktap_ok "$_name"
	else
		_rc=$?
		echo "# $_name: '$*' exited $_rc"
		ktap_diag_file /tmp/.check.out
		echo "not ok $(_ktap_next) $_name"
	fi
}

# check_eq NAME EXPECTED CMD...: ok when CMD prints exactly EXPECTED.
check_eq() {
	_name=$1
	_want=$2
	shift 2
	_got=$("$@" 2>&1)
	if [ "$_got" = "$_want" ]; then
		ktap_ok "$_name"
	else
		ktap_fail "$_name" "'$*' printed '$_got', expected '$_want'"
	fi
}

# wait_for SECONDS CMD...: poll until CMD succeeds; non-zero on timeout.
# This waits on a condition; it is not a sleep used to synchronise.
wait_for() {
	_deadline=$(($(date +%s) + $1 + 1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$_deadline" ] && return 1
		usleep 10000
	done
	return 0
}

# _nest FILE: print a nested KTAP document indented one level and tell
# whether it passed (no "not ok", at least one result, no bail out).
_nest() {
	sed 's/^/    /' "$1"
	! grep -Eq '^[[:space:]]*(not ok |Bail out!)' "$1" &&
		grep -Eq '^[[:space:]]*ok [0-9]' "$1"
}

# kmod_test MODULE [PARAM=VALUE...]: load an ampsoc KTAP test module, nest
# its results as one test point, unload it.
kmod_test() {
	_m=$1
	shift
	if ! modprobe "$_m" "$@" >/tmp/.kmod.out 2>&1; then
		ktap_diag_file /tmp/.kmod.out
		ktap_fail "$_m" "modprobe failed"
		return
	fi
	_f=/sys/kernel/debug/ampsoc_ktap/$_m
	if [ ! -r "$_f" ]; then
		rmmod "$_m"
		ktap_fail "$_m" "no results in $_f"
		return
	fi
	cat "$_f" >/tmp/.kmod.ktap
	_nest /tmp/.kmod.ktap
	_st=$?
	if ! rmmod "$_m" >/tmp/.kmod.out 2>&1; then
		ktap_diag_file /tmp/.kmod.out
		_st=1
	fi
	ktap_result "$_m" "$_st"
}

# guest_test PROG [ARGS...]: run a KTAP-printing guest program as one
# nested test point; it passes when it exits 0 and reports no failure.
guest_test() {
	_p=$1
	"$@" >/tmp/.guest.ktap 2>/tmp/.guest.err
	_rc=$?
	_nest /tmp/.guest.ktap
	_st=$?
	[ "$_rc" = 0 ] || { ktap_diag "$_p exited $_rc"; ktap_diag_file /tmp/.guest.err; _st=1; }
	ktap_result "$(basename "$_p")" "$_st"
}

# bench NAME VALUE UNIT BASELINE_NAME BASELINE_VALUE [lower|higher]
# Report one benchmark figure and the baseline measured in the same boot;
# VALUE and BASELINE_VALUE are one number or the rounds, comma-separated
# (lib/bench.sh has bench_floor, rounds and docs/benchmarks.md the method).
bench() {
	echo "# BENCH name=$1 value=$2 unit=$3 baseline=$4 baseline_value=$5 better=${6:-lower}"
}

# bench_count N: a benchmark's iteration count, N; a handful on a smoke
# run of the benchmarks (make bench BENCH_SMOKE=1), which proves that they
# run and report, and measures nothing.
bench_count() {
	if grep -qx 'BENCH_SMOKE=1' /ampsoc/run.conf 2>/dev/null; then
		echo $(($1 < 20 ? $1 : 20))
	else
		echo "$1"
	fi
}

# On a kernel with lockdep (the debug kernel), unloading a module drops its
# lock classes: note them first for the coverage report (tests/qemu/init).
if [ -r /proc/lockdep ]; then
	rmmod() {
		sh /ampsoc/lockdep-classes.sh >>/tmp/.lockdep-classes
		command rmmod "$@"
	}
fi

# vmap_areas: vmalloc areas in use, without those a lazy purge has yet to
# free and without thread stacks (the kernel's workers come and go). A
# leak check compares two readings with -le: what others free meanwhile
# only lowers the second.
vmap_areas() {
	grep -vc -e unpurged -e alloc_thread_stack_node /proc/vmallocinfo
}

# Caches whose frees are deferred past any point a test can wait for:
# vmap_area objects stay until the next lazy purge (vmalloc areas are
# checked on their own, by /proc/vmallocinfo), and the VFS objects that
# drop_caches releases go back through RCU callbacks. On a loaded host a
# reading taken before those callbacks ran was 100-250 objects high in
# these caches alone (lsm_inode_cache +243, vmap_area +108). On
# PREEMPT_RT, where a spinlock does not fit in struct page, each page
# table has its lock in "page->ptl"; the kernel's page tables of the
# vmalloc range stay once made, and lazily freed areas move new ones to
# new addresses (+76 over core_rpmsg_crash_traffic's 3 crashes). ampsoc
# allocates from none of them; a leaked device, endpoint or buffer of
# ours shows in kmalloc-*, skbuff or kernfs caches, which stay counted.
SLAB_LAZY=" vmap_area dentry inode_cache proc_inode_cache lsm_inode_cache \
filp shmem_inode_cache page->ptl "

# _slab_once: active objects in every other cache, after dropping the
# dentry and inode caches and shrinking every cache, which flushes the
# per-CPU slabs whose free objects /proc/slabinfo would count as active.
_slab_once() {
	echo 2 >/proc/sys/vm/drop_caches
	for _c in /sys/kernel/slab/*/shrink; do echo 1 >"$_c"; done 2>/dev/null
	awk -v lazy="$SLAB_LAZY" 'NR > 2 && index(lazy, " " $1 " ") == 0 {
		s += $2 } END { print s }' /proc/slabinfo
}

# slab: the smallest of three readings; pending frees only ever add, and
# a real leak raises every reading.
slab() {
	_m=$(_slab_once)
	for _i in 1 2; do
		_v=$(_slab_once)
		[ "$_v" -lt "$_m" ] && _m=$_v
	done
	echo "$_m"
}

# slab_caches FILE: active objects per cache, one "name count" a line.
slab_caches() {
	awk 'NR > 2 { print $1, $2 }' /proc/slabinfo >"$1"
}

# slab_changes OLD NEW: a diagnostic line per cache whose count changed.
slab_changes() {
	awk 'NR == FNR { a[$1] = $2; next }
	     $2 != a[$1] { print "# slab", $1, a[$1] + 0, "->", $2 }' "$1" "$2"
}

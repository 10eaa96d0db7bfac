#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: while an "inline" coredump waits for userspace to read it
#   (crash handling holds the processor's lock until then, as mainline
#   does), a process touching the processor's sysfs or debugfs files
#   sleeps interruptibly and can be killed, and no task sits in
#   uninterruptible sleep (the hung-task detector would call it a
#   deadlock). Reading and releasing the dump lets recovery finish.
#   Found by fuzz_userspace_core: a pending inline dump left readers of
#   sysfs "firmware" and debugfs "carveout_memories" and the crash worker
#   in D state for devcoredump's five minutes; later, on PREEMPT_RT, a
#   reader of ampsoc's debugfs "load_stats" (and "memcpy_bench" took the
#   lock the same way).
# STRATEGY: fake processor, coredump "inline", start, crash through
#   debugfs; wait for the devcoredump; read sysfs firmware and debugfs
#   carveout_memories, load_stats and memcpy_bench in the background and
#   wait until they sleep; they
#   must be in state S, no task in D; kill them: they exit. Read and
#   release the dump: the processor recovers to running.
# timeout: 180
. /ampsoc/lib.sh

check load_fake modprobe ampsoc_rproc_fake devices=1
R=
for d in /sys/class/remoteproc/remoteproc*; do
	grep -qx ampsoc-rproc-fake.0 "$d/name" && R=$d
done
[ -n "$R" ] || bail "no fake processor"
D=/sys/kernel/debug/remoteproc/${R##*/}

check coredump_inline sh -c "echo inline >$R/coredump"
check start sh -c "echo start >$R/state"
check running wait_for 10 grep -qx running "$R/state"
echo 2 >"$D/crash"
devcd() { ls -d /sys/class/devcoredump/devcd* 2>/dev/null | head -n 1; }
check dump_pending wait_for 10 sh -c '[ -n "$(ls -d /sys/class/devcoredump/devcd* 2>/dev/null)" ]'

cat "$R/firmware" >/dev/null 2>&1 &
p1=$!
cat "$D/carveout_memories" >/dev/null 2>&1 &
p2=$!
cat "$D/load_stats" >/dev/null 2>&1 &
p3=$!
cat "$D/memcpy_bench" >/dev/null 2>&1 &
p4=$!
# A process waiting on a lock is S (interruptible) or D (uninterruptible).
sleeping() {
	for p in "$@"; do
		grep -Eq '^State:[[:space:]]+[SD]' /proc/$p/status || return 1
	done
}
state() { awk '/^State:/ { print $2 }' /proc/$1/status; }
check readers_wait wait_for 10 sleeping $p1 $p2 $p3 $p4
check_eq sysfs_reader_interruptible S state $p1
check_eq debugfs_reader_interruptible S state $p2
check_eq load_stats_reader_interruptible S state $p3
check_eq memcpy_bench_reader_interruptible S state $p4
check_eq no_task_in_d_state "" sh -c "grep -l '^State:[[:space:]]*D' /proc/[0-9]*/status 2>/dev/null"
kill $p1 $p2 $p3 $p4
for p in $p1 $p2 $p3 $p4; do wait $p; done
ktap_ok readers_killed

CD=$(devcd)
check dump_readable sh -c "head -c 4 $CD/data | od -An -tx1 | tr -d ' \n' | grep -qx 7f454c46"
check dump_released sh -c "cat $CD/data >/dev/null && echo 1 >$CD/data"
check recovers wait_for 20 grep -qx running "$R/state"
check stop sh -c "echo stop >$R/state"
check unload rmmod ampsoc_rproc_fake
ktap_done

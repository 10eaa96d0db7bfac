#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: differential: what a user observes of a remote processor is
#   mainline 6.1's. The same script runs on ampsoc's remoteproc and on
#   Linux's own (the peer stack), each time with the same fake processor
#   driver built from one source against that stack's <linux/remoteproc.h>,
#   and its transcript must be the one recorded on mainline
#   (tests/diff/diff_rproc.golden), line for line, but for the differences
#   docs/mainline-differences.md gives a reason for (tests/diff/
#   diff_rproc.allow): every sysfs, debugfs and /dev/remoteprocN write with
#   its errno and the state after it, in every state; the attributes and
#   their modes; the state sequence through crashes with recovery on, off
#   and on request; coredumps off, on and inline, with each devcoredump's
#   ELF layout and segment contents; attach and detach of a processor a
#   boot loader started.
# STRATEGY: load ampsoc_rproc_fake with one portable processor (no vdev
#   buffer carveout, which Debian's kernel cannot declare for mainline;
#   dump segments registered, as mainline dumps nothing otherwise) and one
#   detached one; run diff_abi, which prints "# T KEY = VALUE" lines; the
#   runner compares them (tests/qemu/run.py, "# golden:"). Then unload.
# stacks: ampsoc mainline
# golden: tests/diff/diff_rproc.golden
# timeout: 240
. /ampsoc/lib.sh

case $AMPSOC_STACK in
mainline) framework=remoteproc ;;
*) framework=ampsoc_rproc ;;
esac
check load_fake modprobe ampsoc_rproc_fake devices=1 detached=1 portable=1
check_eq class_is_the_stacks "$framework" \
	sh -c "grep -o '^$framework ' /proc/modules | tr -d ' '"
diff_abi rproc ampsoc-rproc-fake.0 ampsoc-rproc-fake.1 2>/tmp/diff.err
ktap_result transcript_ran $? "$(cat /tmp/diff.err)"
check unload_fake rmmod ampsoc_rproc_fake
check class_empty sh -c '! ls /sys/class/remoteproc | grep -q .'
check unload_framework rmmod "$framework"
ktap_done

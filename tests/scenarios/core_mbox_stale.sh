#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: A remote core whose FIFO from Linux is full when it starts
#   (words a killed run of the core left unread, their doorbells gone with
#   it) still hears Linux: the model rings a core at its start while that
#   FIFO holds words, and Linux rings again on every send a full FIFO
#   refuses, as a level-triggered mailbox interrupt stays asserted
#   (docs/shm-abi.md, Mailboxes). Without either, the core slept forever
#   on a full FIFO while Linux waited for room (the soak_remote deadlock).
#   A send the full FIFO keeps refusing is retried until the channel is
#   freed, and never after (a retry re-armed behind the shutdown once
#   reached the mailbox core with its client gone: a NULL dereference).
# STRATEGY: with $CORE stopped, ampsoc_vsoc_test stale_fifo=$CORE fills its
#   guest->core FIFO to its depth with words every core ignores, then 200
#   times binds the channel, sends one more word from the other CPU (it
#   stays queued and retried) and frees the channel at a varying point of
#   the retry period, waiting five periods after each free; start
#   ampsoc-rpmsg-echo: its echo channel must appear and 100 checked echoes
#   pass, and the FIFO must end drained; stop.
# services: socmodel
# isa: x86_64 armv7m rv32imac
# load-all: 1
# smp: 2
# timeout: 120
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh

core_find $CORE || bail "no remote processor for core $CORE"
check_eq offline_before offline cat "$R/state"
kmod_test ampsoc_vsoc_test stale_fifo=$CORE
ktap_diag_file "$VSOC/mbox_stats"
echo=
echo_chan() {
	echo=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-echo.* 2>/dev/null | head -n 1)
	[ -n "$echo" ]
}
ping() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_dst=$(cat "$echo/dst")
	ampsocctl ept "$_ctrl" stale-test 2000 "$((_dst))" ping 100 "$1"
}
check set_firmware sh -c "echo $(fw rpmsg-echo) >$R/firmware"
check start sh -c "echo start >$R/state"
check echo_channel_appears wait_for 20 echo_chan
check echo_after_stale_fifo ping 64
ktap_diag_file "$VSOC/mbox_stats"
check stop sh -c "echo stop >$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

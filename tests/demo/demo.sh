#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make demo. Until the full story exists, boot the guest and
#   show what ampsoc loaded and what it sees.
# STRATEGY: load every module, print what is loaded and each framework's
#   view, and count each section as a test point.
# load-all: 1
. /ampsoc/lib.sh

section() { echo; echo "== $* =="; }

section "Kernel"
echo "\$ uname -r"; uname -r
section "Loaded ampsoc modules"
echo "\$ lsmod | grep ampsoc"
grep ampsoc /proc/modules | cut -d' ' -f1
check demo_modules_loaded grep -q ampsoc /proc/modules
if [ -r /sys/kernel/debug/ampsoc_pd/pm_genpd_summary ]; then
	section "PM domains"
	cat /sys/kernel/debug/ampsoc_pd/pm_genpd_summary
fi
if [ -d /sys/class/remoteproc ]; then
	section "Remote processors"
	ls /sys/class/remoteproc
fi

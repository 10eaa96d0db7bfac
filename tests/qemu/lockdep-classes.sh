#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a kernel with lockdep: print, one per line, the lock classes whose
# keys are in module memory (above the kernel image), i.e. ampsoc's own.
# Unloading a module drops its classes, so lib.sh's rmmod() notes them in
# /tmp/.lockdep-classes first; init reports both after the scenario.
[ -r /proc/lockdep ] || exit 0
awk '$1 ~ /^ffffffff/ && $1 >= "ffffffffc0000000" {
	sub(/^.*BD: *[0-9]+ [^ ]*: /, ""); print }' /proc/lockdep

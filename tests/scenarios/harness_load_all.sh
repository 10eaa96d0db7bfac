#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: load-all loads what a user installs, no more: every module
#   that drivers/ builds (dkms.conf's set, extra/ampsoc) and nothing else
#   of ampsoc's; test and sample modules (extra/ampsoc-tests) stay out
#   until a scenario loads them.
# STRATEGY: boot with load-all; every extra/ampsoc module must be in
#   /proc/modules, no extra/ampsoc-tests module may be; then one test
#   module loads by name as a scenario would load it.
# load-all: 1
. /ampsoc/lib.sh

M=/lib/modules/$(uname -r)/extra
loaded() { grep -q "^$1 " /proc/modules; }
names() { for f in "$M/$1"/*.ko; do basename "$f" .ko; done; }

check_eq dkms_set_installed ok sh -c "[ -n \"\$(ls $M/ampsoc/*.ko)\" ] && echo ok"
for m in $(names ampsoc); do
	check "loaded_$m" loaded "$m"
done
for m in $(names ampsoc-tests); do
	check "not_loaded_$m" sh -c "! grep -q '^$m ' /proc/modules"
done
check test_module_loads_by_name modprobe ampsoc_rpmsg_lb
check test_module_unloads rmmod ampsoc_rpmsg_lb
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the user's own command (make check CMD='...'), with EXTRA
#   files in the guest, as one test point.
# STRATEGY: load every ampsoc module, run CMD; it passes when CMD exits 0.
# load-all: 1
. /ampsoc/lib.sh
check user_cmd sh -c "$CMD"
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: harness self-test. A differential scenario whose transcript
#   has one line that differs from its golden file, and is not a documented
#   difference, must fail however clean the guest was.
# expect: transcript: selftest\.value = 2, mainline: 1
# golden: tests/harness/diff_mismatch.golden
. /ampsoc/lib.sh
ktap_ok before_transcript
echo "# T selftest.same = a"
echo "# T selftest.value = 2"
ktap_done

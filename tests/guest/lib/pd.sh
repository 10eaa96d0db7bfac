# SPDX-License-Identifier: GPL-2.0
# Helpers for PM-domain scenarios on the fake SoC (ampsoc_pdfake_test);
# source after lib.sh: . /ampsoc/lib/pd.sh

D=/sys/kernel/debug/ampsoc_pd
F=/sys/kernel/debug/ampsoc_pdfake
dev() { echo "/sys/devices/platform/ampsoc-pdfake.$1"; }
hw() { sed -n 's/^hw=\([a-z]*\).*/\1/p' "$F/$1"; }
cnt() { sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$F/$1"; }
is_on() { [ "$(cat $D/$1/current_state)" = on ] && [ "$(hw "$1")" = on ]; }
is_off() {
	case $(cat "$D/$1/current_state") in off-*) [ "$(hw "$1")" = off ] ;; *) false ;; esac
}
all_on() { for d; do is_on "$d" || return 1; done; }
all_off() { for d; do is_off "$d" || return 1; done; }
stat() { sed -n "s/^$2 //p" "$(dev "$1")/stats"; }
ctl() { echo "$2" >"$(dev "$1")/power/control"; }
# delta NAME BEFORE AFTER WANT: one test point on a counter's change.
delta() { check_eq "$1" "$4" echo $(($3 - $2)); }

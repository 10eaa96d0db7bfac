#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: What a power-domain transition costs on the virtual SoC,
#   model included: the time from the power controller's request doorbell
#   to the model's acknowledgement, for power-on and power-off, next to the
#   raw doorbell round trip and the latency the board file gives the domain.
# STRATEGY: Take a timer, set its autosuspend delay to 0 and cycle it with
#   power/control on/auto, each time waiting until its domain is off in the
#   kernel and in the model; then read the power controller's per-domain
#   timings (power_stats, doorbell to acknowledgement, measured in the
#   kernel) and report them with the raw doorbell round trip measured in the
#   same boot as the baseline. The modelled latency is reported too: the
#   difference is what the transport and the model's event loop add.
# services: socmodel
# load-all: 1
# timeout: 600
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

CYCLES=50
VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"
TEL=$VSOC/telemetry

field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"
}
us() {
	awk -v n="$1" 'BEGIN { printf "%.2f", n / 1000 }'
}
domain_off() {
	case $(cat "/sys/kernel/debug/ampsoc_pd/$1/current_state") in off*) ;; *) return 1 ;; esac
	[ "$(awk -v n="$1" '$1 == "domain" && $2 == n { print $4 }' "$TEL")" = off ]
}

TIMER=
for d in /sys/bus/platform/drivers/vsoc-timer/vsoc-timer.*; do
	[ -e "$d/start" ] && TIMER=$d && break
done
[ -n "$TIMER" ] || bail "no timer on this board"
DOM=$(cat "$TIMER/domain")

echo 0 >"$TIMER/power/autosuspend_delay_ms"
check idle_at_start wait_for 10 domain_off "$DOM"
i=0
ok=0
while [ $i -lt $CYCLES ]; do
	echo on >"$TIMER/power/control"
	echo auto >"$TIMER/power/control"
	wait_for 10 domain_off "$DOM" || break
	i=$((i + 1))
done
[ $i = $CYCLES ] && ok=1
check_eq all_cycles_completed 1 echo $ok
grep "^domain $DOM " "$VSOC/power_stats" >/tmp/st
check power_on_counted test "$(field /tmp/st on_count)" -ge $CYCLES

echo 2000 >"$VSOC/iters"
cat "$VSOC/ping" >/tmp/ping
check_eq ping_ok 0 field /tmp/ping status
PING=$(us "$(field /tmp/ping avg_ns)")
ON_LAT=$(awk -v n="$DOM" '$1 == "domain" && $3 == n { print $9 }' "$VSOC/board")
ktap_diag "domain $DOM: modelled power-on latency ${ON_LAT} ns, $CYCLES cycles"
bench vsoc_pd_power_on "$(us "$(field /tmp/st on_avg_ns)")" us vsoc_doorbell_rt "$PING"
bench vsoc_pd_power_off "$(us "$(field /tmp/st off_avg_ns)")" us vsoc_doorbell_rt "$PING"
bench vsoc_pd_modelled_on_latency "$(us "$ON_LAT")" us vsoc_doorbell_rt "$PING"
ktap_done

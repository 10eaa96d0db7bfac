#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: cost of one runtime suspend+resume cycle of a device in an
#   ampsoc PM domain, against the kernel's built-in genpd with the same
#   topology in the same boot: N = 1, 100, 1000, 10000 devices in one
#   domain (all idle but the measured one), the same IRQ-safe (domains
#   and devices), and a chain of 8 domains; the same with the QoS
#   governors and a resume-latency request per device, alone and with a
#   request changed before every cycle (in the domain, or in another one);
#   and a performance-state request among N - 1 others.
# STRATEGY: ampsoc_pdbench_test builds each topology on both frameworks in
#   turn, times get_sync/put_sync cycles (waiting, in the chain, until every
#   domain is off again) and publishes ns per cycle, the time of the put
#   alone (the device's suspend latency) and, for the chains, of the get
#   and the put (what the caller waits for: the parents' background
#   power-off is waited for between cycles, not counted); each figure is
#   reported with the built-in genpd as its baseline, and the ratio as a
#   diagnostic. The governed cases build both at once and interleave
#   bench_rounds rounds; genpd's simple_qos_governor, which 6.1 does not
#   export, is found in /proc/kallsyms.
# timeout: 900
# memory: 1024
. /ampsoc/lib.sh
. /ampsoc/lib/bench.sh

R=/sys/kernel/debug/ampsoc_pdbench/results
RR=/sys/kernel/debug/ampsoc_pdbench/rounds
sizes=1,100,1000,10000
[ "$(bench_count 10000)" = 10000 ] || sizes=1,20
gov=$(awk '$3 == "simple_qos_governor" { print $1; exit }' /proc/kallsyms)
modprobe ampsoc_pdbench_test sizes=$sizes cycles="$(bench_count 2000)" \
	rounds="$(bench_rounds)" qos_gov="0x${gov:-0}" ||
	bail "cannot load ampsoc_pdbench_test"
check "bench_ran" grep -q . $R
while read -r name ours genpd ours_put genpd_put ours_call genpd_call; do
	if [ "$ours" = error ]; then
		ktap_fail "pd_cycle_$name" "error $genpd"
		continue
	fi
	bench "pd_cycle_$name" "$ours" ns/cycle "genpd_cycle_$name" "$genpd" lower
	ktap_diag "$name: ours/built-in = $(awk "BEGIN { printf \"%.3f\", $ours / $genpd }")"
	bench "pd_suspend_$name" "$ours_put" ns "genpd_suspend_$name" "$genpd_put" lower
	# The chain's parents power off in background: what the caller waits
	# for is the get and the put, not the cycle that waits for them.
	case $name in
	depth*) bench "pd_call_$name" "$ours_call" ns "genpd_call_$name" "$genpd_call" lower ;;
	esac
	ktap_ok "pd_cycle_$name"
done <$R
check "bench_governed_ran" grep -q . $RR
while read -r name ours genpd walks; do
	if [ "$ours" = error ]; then
		ktap_fail "pd_$name" "error $genpd"
		continue
	fi
	case $name in
	perf_*) unit=ns/request ;;
	*) unit=ns/cycle ;;
	esac
	bench "pd_$name" "$ours" $unit "genpd_$name" "$genpd" lower
	ktap_diag "$name: ampsoc device-list walks per 1000 = $walks"
	ktap_ok "pd_$name"
done <$RR
check "bench_unloads" rmmod ampsoc_pdbench_test
ktap_done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: remoteproc firmware load throughput for a 1, 8 and 32 MiB
#   image on the ipu core, against a raw memcpy() of the same bytes into
#   the same device memory in the same boot; and the boot latency from
#   "echo start" to the firmware's first trace line.
# STRATEGY: on a board whose ipu memory is 64 MiB (omap4-bigipu.ini), make
#   ampsoc-hello.elf plus one N MiB data segment at 0x10200000 (rproc_bench
#   mkfw, in the guest's rootfs so that other scenarios' initramfs stays
#   small). For each size, once uncounted (the first touch of that
#   device memory), then R times: start it (the firmware must print its
#   hello, so the image really ran), read debugfs load_stats (the kernel's
#   own timing of request_firmware and of the segment copy), stop, then
#   one run of debugfs memcpy_bench with the same address and length
#   (vmalloc source, as the firmware loader's buffer): R rounds
#   (BENCH_ROUNDS), load and memcpy interleaved. Every round is reported:
#   the whole load (request_firmware + copy) and the copy alone, each
#   against the memcpy as its floor. Boot latency: rproc_bench latency times 21 start/stop
#   cycles of ampsoc-hello from the write of "start" to the first byte in
#   trace0 (CLOCK_MONOTONIC, polled); the baseline is how long the "start"
#   write itself took (load, power-on and release from reset).
# services: socmodel board=soc-model/boards/omap4-bigipu.ini
# load-all: 1
# memory: 1024
# timeout: 900
. /ampsoc/lib.sh
. /ampsoc/lib/core.sh
. /ampsoc/lib/bench.sh

core_find ipu || bail "no remote processor for core ipu"
DA=10200000
RUNS=$(bench_rounds)

# field FILE KEY: the value after KEY.
field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$1"
}
# mibs BYTES FILE: MiB/s of each round of FILE (ns a line), comma-separated
mibs() {
	awk -v b="$1" '$1 > 0 { printf "%s%.1f", n++ ? "," : "", (b / 1048576) / ($1 / 1e9) }' "$2"
}

for mib in 1 8 32; do
	fw=ampsoc-bench-${mib}m.elf
	check "mkfw_${mib}m" rproc_bench mkfw /lib/firmware/ampsoc-hello.elf \
		/lib/firmware/$fw $((mib << 20)) $DA
	echo $fw >"$R/firmware"
	# One start and stop first, not counted: the first load of a size is
	# the first touch of its device memory in the boot, a cost no later
	# round and no memcpy pays.
	warm=0
	echo start >"$R/state" &&
		wait_for 10 grep -q "hello from core ipu" "$D/trace0" && warm=1
	echo stop >"$R/state"
	check_eq "warmup_${mib}m" 1 echo $warm
	: >/tmp/whole; : >/tmp/copy; : >/tmp/mc
	for i in $(seq $RUNS); do
		echo start >"$R/state" || break
		wait_for 10 grep -q "hello from core ipu" "$D/trace0" || break
		cat "$D/load_stats" >/tmp/ls
		echo stop >"$R/state"
		req=$(field /tmp/ls request_ns)
		ns=$(field /tmp/ls load_ns)
		fwb=$(field /tmp/ls fw_bytes)
		lb=$(field /tmp/ls load_bytes)
		echo $((req + ns)) >>/tmp/whole
		echo "$ns" >>/tmp/copy
		echo "$DA $((mib << 20))" >"$D/memcpy_bench" || break
		field "$D/memcpy_bench" ns >>/tmp/mc
	done
	check "booted_${mib}m_${RUNS}_times" test "$(wc -l </tmp/whole)" = $RUNS
	check "memcpy_${mib}m_${RUNS}_times" test "$(wc -l </tmp/mc)" = $RUNS
	check_eq "segment_bytes_${mib}m" 1 awk -v b="$lb" -v m=$((mib << 20)) \
		'BEGIN { print (b >= m && b < m + 4194304) }'
	ktap_diag "$mib MiB: fw_bytes $fwb load_bytes $lb whole_ns $(tr '\n' ' ' </tmp/whole)copy_ns $(tr '\n' ' ' </tmp/copy)memcpy_ns $(tr '\n' ' ' </tmp/mc)"
	MC=$(mibs $((mib << 20)) /tmp/mc)
	bench_floor "rproc_fw_load_${mib}m" "$(mibs "$fwb" /tmp/whole)" \
		MiB/s "memcpy_${mib}m" "$MC" higher
	bench_floor "rproc_fw_copy_${mib}m" "$(mibs "$lb" /tmp/copy)" \
		MiB/s "memcpy_${mib}m" "$MC" higher
	rm -f /lib/firmware/$fw
done

echo ampsoc-hello.elf >"$R/firmware"
rproc_bench latency "$R/state" "$D/trace0" 21 >/tmp/lat
check boot_latency test $? = 0
ktap_diag "$(cat /tmp/lat)"
bench rproc_boot_to_first_trace "$(field /tmp/lat first_trace_median_us)" us \
	rproc_start_write "$(field /tmp/lat start_write_median_us)"
check_eq offline_at_end offline cat "$R/state"
check_eq no_violations 0 tele_field violations
ktap_done

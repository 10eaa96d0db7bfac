#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: The physical limits of the virtual SoC's transport, which
#   rpmsg is later compared against: the raw doorbell round trip through the
#   model in both directions, and the raw copy bandwidth to and from shared
#   memory.
# STRATEGY: With all drivers loaded and idle, read the vsoc debugfs
#   measurement files: "ping" (guest -> model -> guest, timed in the guest,
#   answered by the model's event loop), "rt" (model -> guest -> model,
#   timed by the model, answered from the guest's interrupt handler) and
#   "shm_bw" (memcpy to and from an unused remote-core memory). Baselines
#   come from the same boot: "loopback" (the guest rings its own doorbell:
#   QEMU's eventfd and MSI-X path without the model) and a RAM-to-RAM copy.
# services: socmodel
# load-all: 1
# timeout: 600
. /ampsoc/lib.sh

. /ampsoc/lib/vsoc.sh
wait_for 30 vsoc_settled || bail "the vsoc devices did not settle (is the SoC model running?)"

VSOC=$(ls -d /sys/kernel/debug/vsoc/vsoc* 2>/dev/null | head -n 1)
[ -n "$VSOC" ] || bail "no vsoc device bound (is the SoC model running?)"

# field FILE KEY: the value after KEY in a "key value ..." line
field() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"
}
us() {
	awk -v n="$1" 'BEGIN { printf "%.2f", n / 1000 }'
}

echo "$(bench_count 2000)" >"$VSOC/iters"
cat "$VSOC/loopback" >/tmp/lb
cat "$VSOC/ping" >/tmp/ping
cat "$VSOC/rt" >/tmp/rt
check_eq loopback_ok 0 field /tmp/lb status
check_eq ping_ok 0 field /tmp/ping status
check_eq rt_ok 0 field /tmp/rt status
LB=$(us "$(field /tmp/lb avg_ns)")
bench vsoc_doorbell_rt_guest_model_guest "$(us "$(field /tmp/ping avg_ns)")" us \
	vsoc_doorbell_loopback "$LB"
bench vsoc_doorbell_rt_model_guest_model "$(us "$(field /tmp/rt avg_ns)")" us \
	vsoc_doorbell_loopback "$LB"

# The copy needs a memory nobody uses: release the remote cores' memory.
if grep -q '^ampsoc_vsoc_rproc ' /proc/modules; then
	check release_core_memory rmmod ampsoc_vsoc_rproc
fi
echo "$(bench_count 200)" >"$VSOC/iters"
cat "$VSOC/shm_bw" >/tmp/bw
check_eq shm_bw_ok 0 field /tmp/bw status
RAM=$(field /tmp/bw ram_mbps)
bench vsoc_shm_write_bw "$(field /tmp/bw to_shm_mbps)" MB/s vsoc_ram_copy_bw "$RAM" higher
bench vsoc_shm_read_bw "$(field /tmp/bw from_shm_mbps)" MB/s vsoc_ram_copy_bw "$RAM" higher
ktap_done

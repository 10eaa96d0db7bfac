// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg benchmark, kernel side: echo round trip and one-way throughput at
 * 16, 64 and 496-byte payloads from a kernel client, against the loopback
 * remote, next to the transport's own floor measured in the same boot (a
 * raw doorbell round trip and a raw 496-byte slot ring in the same shared
 * region as the vrings and buffers, with the same doorbell and interrupt
 * path). Each figure and its baseline are measured in turn for a few
 * rounds and keep their best round (the host is shared); round trips are
 * each round's median. Each measurement
 * is a KTAP test point (it completed without error); the figures are in
 * /sys/kernel/debug/ampsoc_rpmsg_perf/results as "name value unit" lines,
 * read by tests/bench/rpmsg_transport.sh. Figures are never asserted.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/virtio.h>
#include <ampsoc/ktap.h>
#include <ampsoc/rpmsg.h>

#include "rpmsg_lb.h"

static unsigned int rtt_iters = 2000;
module_param(rtt_iters, uint, 0444);
MODULE_PARM_DESC(rtt_iters, "round trips per payload size");

static unsigned int tput_msgs = 20000;
module_param(tput_msgs, uint, 0444);
MODULE_PARM_DESC(tput_msgs, "messages per throughput run");

static unsigned int rounds = 3;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds per figure and baseline; each keeps its best");

static char results[4096];
static size_t results_len;
static struct dentry *perf_dir;

static struct {
	struct ampsoc_rpmsg_lb *lb;
	struct rpmsg_device *ctrl;
	struct rpmsg_endpoint *ept;
	struct completion echo;
	u64 sink_base;
} p;

static __printf(3, 4) void result(const char *name, u64 value,
				  const char *unit_fmt, ...)
{
	char unit[32];
	va_list ap;

	va_start(ap, unit_fmt);
	vscnprintf(unit, sizeof(unit), unit_fmt, ap);
	va_end(ap);
	results_len += scnprintf(results + results_len,
				 sizeof(results) - results_len, "%s %llu %s\n",
				 name, value, unit);
}

static int echo_cb(struct rpmsg_device *rpdev, void *data, int len,
		   void *priv, u32 src)
{
	complete(&p.echo);
	return 0;
}

static const unsigned int sizes[] = { 16, 64, 496 };

/* Times the sender gave up the CPU (slept or was preempted) so far. */
static unsigned long switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/* Per round trip times of one round, for its median. */
static u32 *samples;

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static u64 samples_median(void)
{
	sort(samples, rtt_iters, sizeof(*samples), cmp_u32, NULL);
	return samples[rtt_iters / 2];
}

static void sample(unsigned int i, u64 t0)
{
	samples[i] = min_t(u64, ktime_get_ns() - t0, U32_MAX);
}

/* Nanoseconds for rtt_iters echoes of @len bytes, or 0 on a failure. */
static u64 echo_run(struct ampsoc_ktap_test *t, unsigned int len)
{
	static u8 buf[496];
	u64 t0 = ktime_get_ns(), t1;
	unsigned int i;

	for (i = 0; i < rtt_iters; i++) {
		t1 = ktime_get_ns();
		reinit_completion(&p.echo);
		if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(p.ept, buf, len,
							   LB_ECHO_BASE), 0))
			return 0;
		if (!KTAP_EXPECT(t, wait_for_completion_timeout(&p.echo, HZ * 10)))
			return 0;
		sample(i, t1);
	}
	return ktime_get_ns() - t0;
}

/* The same for raw doorbell round trips. */
static u64 doorbell_run(struct ampsoc_ktap_test *t)
{
	u64 t0 = ktime_get_ns(), t1;
	unsigned int i;

	for (i = 0; i < rtt_iters; i++) {
		t1 = ktime_get_ns();
		if (!KTAP_EXPECT(t, ampsoc_rpmsg_lb_doorbell_rtt(p.lb, 1)))
			return 0;
		sample(i, t1);
	}
	return ktime_get_ns() - t0;
}

/*
 * The host is shared: each round measures the baseline and then every
 * size, and each figure keeps its best round, so that a figure and its
 * baseline see the same luck. A round's figure is its median round trip:
 * the host stalls the whole guest for milliseconds now and then, which
 * moves a mean by whole microseconds but not a median. The means are
 * reported too.
 */
static void echo_vs_doorbell(struct ampsoc_ktap_test *t)
{
	u64 mean[1 + ARRAY_SIZE(sizes)], med[1 + ARRAY_SIZE(sizes)], ns;
	unsigned int r, s;
	char name[40];

	memset(mean, 0xff, sizeof(mean));
	memset(med, 0xff, sizeof(med));
	for (r = 0; r < rounds; r++) {
		for (s = 0; s <= ARRAY_SIZE(sizes); s++) {
			ns = s ? echo_run(t, sizes[s - 1]) : doorbell_run(t);
			if (!ns)
				return;
			mean[s] = min(mean[s], ns);
			med[s] = min(med[s], samples_median());
		}
	}
	result("doorbell_rtt", med[0], "ns");
	result("doorbell_rtt_mean", div_u64(mean[0], rtt_iters), "ns");
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		snprintf(name, sizeof(name), "kernel_echo_rtt_%u", sizes[s]);
		result(name, med[1 + s], "ns");
		snprintf(name, sizeof(name), "kernel_echo_rtt_mean_%u", sizes[s]);
		result(name, div_u64(mean[1 + s], rtt_iters), "ns");
	}
}

struct oneway {
	u64 ns, kicks, irqs, busy_ns;
	unsigned long switches;
};

/* tput_msgs one-way messages of @len bytes to the sink; false on failure. */
static bool oneway_run(struct ampsoc_ktap_test *t, unsigned int len,
		       struct oneway *o)
{
	struct ampsoc_rpmsg_lb_stats st0, st1;
	static u8 buf[496];
	unsigned long sw = switches();
	unsigned int i;
	u64 t0;

	ampsoc_rpmsg_lb_get_stats(p.lb, &st0);
	t0 = ktime_get_ns();
	for (i = 0; i < tput_msgs; i++)
		if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(p.ept, buf, len,
							   LB_SINK_ADDR), 0))
			return false;
	if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_wait_sink(p.lb, st0.sink_msgs +
							 tput_msgs, 60000), 0))
		return false;
	o->ns = ktime_get_ns() - t0;
	o->switches = switches() - sw;
	ampsoc_rpmsg_lb_get_stats(p.lb, &st1);
	o->kicks = st1.kicks - st0.kicks;
	o->irqs = st1.irqs - st0.irqs;
	o->busy_ns = st1.busy_ns - st0.busy_ns;
	return true;
}

static u64 per_1k(u64 n)
{
	return div_u64(n * 1000, tput_msgs);
}

/* As echo_vs_doorbell(): the raw ring, then every size, best round each. */
static void oneway_vs_raw_ring(struct ampsoc_ktap_test *t)
{
	struct oneway best[ARRAY_SIZE(sizes)], o;
	struct ampsoc_rpmsg_lb_stats st0, st1;
	u64 raw = U64_MAX, raw_busy = 0, ns;
	unsigned long raw_sw = 0, sw;
	u64 raw_kicks = 0;
	unsigned int r, s;
	char name[32];

	if (!tput_msgs) {
		KTAP_SKIP(t, "tput_msgs=0");
		return;
	}
	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		best[s].ns = U64_MAX;
	for (r = 0; r < rounds; r++) {
		sw = switches();
		ampsoc_rpmsg_lb_get_stats(p.lb, &st0);
		ns = ampsoc_rpmsg_lb_raw_ring(p.lb, tput_msgs, 496);
		if (!KTAP_EXPECT(t, ns))
			return;
		ampsoc_rpmsg_lb_get_stats(p.lb, &st1);
		if (ns < raw) {
			raw = ns;
			raw_sw = switches() - sw;
			raw_busy = st1.busy_ns - st0.busy_ns;
			raw_kicks = st1.raw_kicks - st0.raw_kicks;
		}
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			if (!oneway_run(t, sizes[s], &o))
				return;
			if (o.ns < best[s].ns)
				best[s] = o;
		}
	}
	result("raw_ring_tput_496", div64_u64((u64)tput_msgs * NSEC_PER_SEC, raw),
	       "msg/s");
	result("raw_ring_mbps_496",
	       div64_u64((u64)tput_msgs * 496 * NSEC_PER_SEC, raw * 1000) / 1000,
	       "MB/s");
	result("raw_ring_switches_per_1k_496", per_1k(raw_sw), "switches");
	result("raw_ring_kicks_per_1k_496", per_1k(raw_kicks), "kicks");
	result("raw_ring_ns_per_msg_496", div_u64(raw, tput_msgs), "ns");
	result("raw_ring_remote_ns_per_msg_496", div_u64(raw_busy, tput_msgs), "ns");
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		ns = best[s].ns;
		snprintf(name, sizeof(name), "kernel_tput_%u", sizes[s]);
		result(name, div64_u64((u64)tput_msgs * NSEC_PER_SEC, ns), "msg/s");
		snprintf(name, sizeof(name), "kernel_mbps_%u", sizes[s]);
		result(name, div64_u64((u64)tput_msgs * sizes[s] * NSEC_PER_SEC,
				       ns * 1000) / 1000, "MB/s");
		snprintf(name, sizeof(name), "kernel_kicks_per_1k_%u", sizes[s]);
		result(name, per_1k(best[s].kicks), "kicks");
		snprintf(name, sizeof(name), "kernel_irqs_per_1k_%u", sizes[s]);
		result(name, per_1k(best[s].irqs), "irqs");
		snprintf(name, sizeof(name), "kernel_switches_per_1k_%u", sizes[s]);
		result(name, per_1k(best[s].switches), "switches");
		snprintf(name, sizeof(name), "kernel_ns_per_msg_%u", sizes[s]);
		result(name, div_u64(ns, tput_msgs), "ns");
		snprintf(name, sizeof(name), "kernel_remote_ns_per_msg_%u", sizes[s]);
		result(name, div_u64(best[s].busy_ns, tput_msgs), "ns");
	}
}

/*
 * Not a baseline: what copying a payload alone costs here (under TCG a
 * string copy is emulated a byte at a time), to explain per-size costs.
 */
static void copy_cost(struct ampsoc_ktap_test *t)
{
	static u8 src[496];
	unsigned int i, s;
	char name[32];
	u8 *dst;
	u64 t0;

	dst = kmalloc(512, GFP_KERNEL);
	if (!KTAP_EXPECT(t, dst))
		return;
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		t0 = ktime_get_ns();
		for (i = 0; i < tput_msgs; i++) {
			memcpy(dst + 16, src, sizes[s]);
			barrier();
		}
		snprintf(name, sizeof(name), "copy_ns_per_msg_%u", sizes[s]);
		result(name, div_u64(ktime_get_ns() - t0, max(tput_msgs, 1U)), "ns");
	}
	kfree(dst);
}

static int perf_suite_init(struct ampsoc_ktap_test *t)
{
	return p.ept ? 0 : -ENODEV;
}

static const struct ampsoc_ktap_case perf_cases[] = {
	AMPSOC_KTAP_CASE(echo_vs_doorbell),
	AMPSOC_KTAP_CASE(oneway_vs_raw_ring),
	AMPSOC_KTAP_CASE(copy_cost),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "rpmsg_perf", .init = perf_suite_init, .cases = perf_cases },
};

static int results_show(struct seq_file *s, void *unused)
{
	seq_write(s, results, results_len);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(results);

static int __init perf_init(void)
{
	struct ampsoc_rpmsg_lb_config cfg = {
		.features = BIT_ULL(AMPSOC_VIRTIO_RPMSG_F_NS),
		.shm_region = true,
		.raw_ring = true,
	};
	struct rpmsg_channel_info ci = { .name = "rpmsg_ctrl" };
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };

	rounds = max(rounds, 1U);
	rtt_iters = max(rtt_iters, 1U);
	samples = kvmalloc_array(rtt_iters, sizeof(*samples), GFP_KERNEL);
	if (!samples)
		return -ENOMEM;
	init_completion(&p.echo);
	p.lb = ampsoc_rpmsg_lb_create(&cfg);
	if (IS_ERR(p.lb)) {
		kvfree(samples);
		return PTR_ERR(p.lb);
	}
	p.ctrl = ampsoc_rpmsg_find_device(&ampsoc_rpmsg_lb_vdev(p.lb)->dev, &ci);
	if (p.ctrl)
		p.ept = ampsoc_rpmsg_create_ept(p.ctrl, echo_cb, NULL, any);
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	perf_dir = debugfs_create_dir("ampsoc_rpmsg_perf", NULL);
	debugfs_create_file("results", 0444, perf_dir, NULL, &results_fops);
	return 0;
}
module_init(perf_init);

static void __exit perf_exit(void)
{
	debugfs_remove_recursive(perf_dir);
	ampsoc_rpmsg_destroy_ept(p.ept);
	if (p.ctrl)
		put_device(&p.ctrl->dev);
	ampsoc_rpmsg_lb_destroy(p.lb);
	kvfree(samples);
	ampsoc_ktap_done();
}
module_exit(perf_exit);

MODULE_DESCRIPTION("ampsoc rpmsg benchmark (kernel client)");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg benchmark, kernel side: echo round trip and one-way throughput at
 * 16, 64 and 496-byte payloads from a kernel client, against the loopback
 * remote, next to the transport's own floor measured in the same boot (a
 * raw doorbell round trip and a raw 496-byte slot ring over the same kind
 * of memory, doorbell and interrupt path). Each measurement is a KTAP test
 * point (it completed without error); the figures are in
 * /sys/kernel/debug/ampsoc_rpmsg_perf/results as "name value unit" lines,
 * read by tests/bench/rpmsg_transport.sh. Figures are never asserted.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
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

static char results[2048];
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

static void doorbell_rtt(struct ampsoc_ktap_test *t)
{
	u64 ns = ampsoc_rpmsg_lb_doorbell_rtt(p.lb, rtt_iters);

	if (KTAP_EXPECT(t, ns))
		result("doorbell_rtt", div_u64(ns, rtt_iters), "ns");
}

static void kernel_echo_rtt(struct ampsoc_ktap_test *t)
{
	static const unsigned int sizes[] = { 16, 64, 496 };
	static u8 buf[496];
	unsigned int i, s;
	char name[32];
	u64 t0;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		t0 = ktime_get_ns();
		for (i = 0; i < rtt_iters; i++) {
			reinit_completion(&p.echo);
			if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(p.ept, buf, sizes[s],
								   LB_ECHO_BASE), 0))
				return;
			if (!KTAP_EXPECT(t, wait_for_completion_timeout(&p.echo,
									HZ * 10)))
				return;
		}
		snprintf(name, sizeof(name), "kernel_echo_rtt_%u", sizes[s]);
		result(name, div_u64(ktime_get_ns() - t0, rtt_iters), "ns");
	}
}

static void raw_ring_tput(struct ampsoc_ktap_test *t)
{
	u64 ns = ampsoc_rpmsg_lb_raw_ring(p.lb, tput_msgs, 496);

	if (!KTAP_EXPECT(t, ns))
		return;
	result("raw_ring_tput_496", div64_u64((u64)tput_msgs * NSEC_PER_SEC, ns),
	       "msg/s");
	result("raw_ring_mbps_496",
	       div64_u64((u64)tput_msgs * 496 * NSEC_PER_SEC, ns * 1000) / 1000,
	       "MB/s");
}

static void kernel_oneway_tput(struct ampsoc_ktap_test *t)
{
	static const unsigned int sizes[] = { 16, 64, 496 };
	struct ampsoc_rpmsg_lb_stats st;
	static u8 buf[496];
	unsigned int i, s;
	char name[32];
	u64 t0, ns;

	if (!tput_msgs) {
		KTAP_SKIP(t, "tput_msgs=0");
		return;
	}
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		ampsoc_rpmsg_lb_get_stats(p.lb, &st);
		t0 = ktime_get_ns();
		for (i = 0; i < tput_msgs; i++)
			if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(p.ept, buf, sizes[s],
								   LB_SINK_ADDR), 0))
				return;
		if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_wait_sink(p.lb, st.sink_msgs +
								 tput_msgs, 60000), 0))
			return;
		ns = ktime_get_ns() - t0;
		snprintf(name, sizeof(name), "kernel_tput_%u", sizes[s]);
		result(name, div64_u64((u64)tput_msgs * NSEC_PER_SEC, ns), "msg/s");
		snprintf(name, sizeof(name), "kernel_mbps_%u", sizes[s]);
		result(name, div64_u64((u64)tput_msgs * sizes[s] * NSEC_PER_SEC,
				       ns * 1000) / 1000, "MB/s");
	}
}

static int perf_suite_init(struct ampsoc_ktap_test *t)
{
	return p.ept ? 0 : -ENODEV;
}

static const struct ampsoc_ktap_case perf_cases[] = {
	AMPSOC_KTAP_CASE(doorbell_rtt),
	AMPSOC_KTAP_CASE(kernel_echo_rtt),
	AMPSOC_KTAP_CASE(raw_ring_tput),
	AMPSOC_KTAP_CASE(kernel_oneway_tput),
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
	};
	struct rpmsg_channel_info ci = { .name = "rpmsg_ctrl" };
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };

	init_completion(&p.echo);
	p.lb = ampsoc_rpmsg_lb_create(&cfg);
	if (IS_ERR(p.lb))
		return PTR_ERR(p.lb);
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
	ampsoc_ktap_done();
}
module_exit(perf_exit);

MODULE_DESCRIPTION("ampsoc rpmsg benchmark (kernel client)");
MODULE_LICENSE("GPL");

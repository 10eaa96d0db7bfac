// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc in-kernel tests, run against a live SoC model:
 *  - transport: the board, doorbell round trips both ways and the
 *    guest-to-guest loopback;
 *  - clocks: every gate and rate change, checked in the model's telemetry;
 *  - power: runtime PM of every peripheral, checked in the model's
 *    telemetry (the domain and its parents really on, then really off,
 *    counters moved by exactly one);
 *  - mailbox: a send lands in the FIFO, a receive reaches the client, a
 *    corrupted FIFO is refused;
 *  - faults (with fail_domain= / stuck_domain=): a failing power-on is the
 *    error of the consumer's runtime resume, a stuck domain times out, and
 *    the next access works again once the fault is on another domain;
 *  - model: the number of violations is what the scenario expects.
 */
#include <linux/clk.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/crc32.h>
#include <linux/clk-provider.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/mailbox_client.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>
#include <ampsoc/ktap.h>

#include "vsoc_test_common.h"

static char *fail_domain = "";
module_param(fail_domain, charp, 0444);
MODULE_PARM_DESC(fail_domain, "domain whose power-on the model fails (fault injection)");

static char *stuck_domain = "";
module_param(stuck_domain, charp, 0444);
MODULE_PARM_DESC(stuck_domain, "domain whose requests the model never completes");

static int expect_violations;
module_param(expect_violations, int, 0444);
MODULE_PARM_DESC(expect_violations, "violations the model should have recorded");

static unsigned int roundtrips = 200;
module_param(roundtrips, uint, 0444);
MODULE_PARM_DESC(roundtrips, "doorbell round trips per direction");

static char *stale_fifo = "";
module_param(stale_fifo, charp, 0444);
MODULE_PARM_DESC(stale_fifo, "only fill this stopped core's FIFO from Linux (core_mbox_stale)");

static struct vsoc *soc;
static u32 garbage_before;

static int vt_domain_index(const char *name)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; name && *name && i < b->nr_domains; i++)
		if (!strcmp(b->domains[i].name, name))
			return i;
	return -1;
}

/* Is @dom the faulty domain or below it? */
static bool vt_domain_faulty(u32 dom)
{
	const struct vsoc_board *b = vsoc_board(soc);
	int f1 = vt_domain_index(fail_domain), f2 = vt_domain_index(stuck_domain);

	for (; dom != VSOC_NONE; dom = b->domains[dom].parent)
		if ((int)dom == f1 || (int)dom == f2)
			return true;
	return false;
}

static int suite_init(struct ampsoc_ktap_test *t)
{
	return soc ? 0 : -ENODEV;
}

/* ---- transport ------------------------------------------------------ */

static void board_is_sane(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	KTAP_EXPECT_EQ(t, b->version >> 16, VSOC_VERSION_MAJOR);
	KTAP_EXPECT(t, b->nr_domains > 0);
	KTAP_EXPECT(t, b->nr_vectors > VSOC_VEC_ECHO_RT);
	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);

		if (!KTAP_EXPECT(t, dev))
			continue;
		/* A consumer of a faulty domain may have been left out. */
		if (vt_domain_faulty(b->periphs[i].domain))
			continue;
		KTAP_EXPECT(t, dev->driver);
		KTAP_EXPECT(t, ampsoc_pd_of_dev(dev) ==
			    ampsoc_pd_find(b->domains[b->periphs[i].domain].name));
	}
}

static void ping_model(struct ampsoc_ktap_test *t)
{
	unsigned int i;
	u64 ns;

	for (i = 0; i < roundtrips; i++)
		if (!KTAP_EXPECT_EQ(t, vsoc_ping(soc, false, &ns), 0))
			return;
}

static void ping_loopback(struct ampsoc_ktap_test *t)
{
	unsigned int i;
	u64 ns;

	for (i = 0; i < roundtrips; i++)
		if (!KTAP_EXPECT_EQ(t, vsoc_ping(soc, true, &ns), 0))
			return;
}

static void model_initiated_roundtrips(struct ampsoc_ktap_test *t)
{
	u64 total = 0;
	u32 done = 0;

	if (!KTAP_EXPECT_EQ(t, vsoc_echo_rt(soc, roundtrips, &total, &done), 0))
		return;
	KTAP_EXPECT_EQ(t, done, roundtrips);
	KTAP_EXPECT(t, total > 0);
}

static void bad_echo_count_refused(struct ampsoc_ktap_test *t)
{
	u64 total;
	u32 done;

	KTAP_EXPECT_EQ(t, vsoc_echo_rt(soc, 0, &total, &done), -EINVAL);
	KTAP_EXPECT_EQ(t, vsoc_kick(soc, vsoc_board(soc)->model_peer,
				    vsoc_board(soc)->nr_vectors), -EINVAL);
}

static const struct ampsoc_ktap_case transport_cases[] = {
	AMPSOC_KTAP_CASE(board_is_sane),
	AMPSOC_KTAP_CASE(ping_model),
	AMPSOC_KTAP_CASE(ping_loopback),
	AMPSOC_KTAP_CASE(model_initiated_roundtrips),
	AMPSOC_KTAP_CASE(bad_echo_count_refused),
	{}
};

/* ---- clocks --------------------------------------------------------- */

/* Wait until no peripheral holds a clock or a domain. */
static bool vt_all_idle(void)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);

		if (dev && dev->driver && !pm_runtime_suspended(dev))
			return false;
	}
	return true;
}

static void clocks_gate_in_model(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	struct vsoc_telemetry *t0, *t1, *t2;
	unsigned int i, tested = 0;

	if (!KTAP_EXPECT(t, vt_wait(vt_all_idle(), VT_WAIT_MS)))
		return;
	for (i = 0; i < b->nr_clocks; i++) {
		const struct vsoc_clock_info *ci = &b->clocks[i];
		struct clk *clk;
		bool was;

		if (!(ci->flags & VSOC_CLK_GATE) || (ci->flags & VSOC_CLK_CRITICAL))
			continue;
		clk = clk_get(NULL, ci->name);
		if (!KTAP_EXPECT(t, !IS_ERR(clk)))
			continue;
		was = __clk_is_enabled(clk);
		t0 = vt_telemetry(soc);
		t1 = NULL;
		t2 = NULL;
		KTAP_EXPECT_EQ(t, clk_prepare_enable(clk), 0);
		KTAP_EXPECT(t, vt_tel_until(soc, t1, le32_to_cpu(t1->clocks[i].state) ==
					    VSOC_CLK_RUNNING));
		clk_disable_unprepare(clk);
		if (!was)
			KTAP_EXPECT(t, vt_tel_until(soc, t2, le32_to_cpu(t2->clocks[i].state) ==
						    VSOC_CLK_GATED));
		else
			t2 = vt_telemetry(soc);
		if (KTAP_EXPECT(t, t0 && t1 && t2)) {
			if (!was) {
				KTAP_EXPECT_EQ(t, le32_to_cpu(t1->clocks[i].ungate_count),
					       le32_to_cpu(t0->clocks[i].ungate_count) + 1);
				KTAP_EXPECT_EQ(t, le32_to_cpu(t2->clocks[i].state),
					       VSOC_CLK_GATED);
				KTAP_EXPECT_EQ(t, le32_to_cpu(t2->clocks[i].gate_count),
					       le32_to_cpu(t1->clocks[i].gate_count) + 1);
			}
		}
		kfree(t0);
		kfree(t1);
		kfree(t2);
		clk_put(clk);
		tested++;
	}
	if (!tested)
		KTAP_SKIP(t, "no gateable clock on this board");
}

static void clock_rate_in_model(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_clocks; i++) {
		const struct vsoc_clock_info *ci = &b->clocks[i];
		unsigned long r0, target;
		struct vsoc_telemetry *t0, *t1;
		struct clk *clk;

		if (!(ci->flags & VSOC_CLK_SET_RATE) || ci->min_rate_hz == ci->max_rate_hz)
			continue;
		clk = clk_get(NULL, ci->name);
		if (!KTAP_EXPECT(t, !IS_ERR(clk)))
			return;
		r0 = clk_get_rate(clk);
		target = r0 == ci->min_rate_hz ? ci->max_rate_hz : ci->min_rate_hz;
		t0 = vt_telemetry(soc);
		t1 = NULL;
		KTAP_EXPECT_EQ(t, clk_set_rate(clk, target), 0);
		KTAP_EXPECT(t, vt_tel_until(soc, t1, le64_to_cpu(t1->clocks[i].rate_hz) ==
					    target));
		KTAP_EXPECT_EQ(t, clk_get_rate(clk), target);
		if (KTAP_EXPECT(t, t0 && t1)) {
			KTAP_EXPECT_EQ(t, le32_to_cpu(t1->clocks[i].rate_count),
				       le32_to_cpu(t0->clocks[i].rate_count) + 1);
		}
		/* Out of range is clamped by the provider, never sent raw. */
		KTAP_EXPECT_EQ(t, clk_set_rate(clk, ci->max_rate_hz + 1), 0);
		KTAP_EXPECT_EQ(t, clk_get_rate(clk), ci->max_rate_hz);
		KTAP_EXPECT_EQ(t, clk_set_rate(clk, r0), 0);
		KTAP_EXPECT_EQ(t, clk_get_rate(clk), r0);
		kfree(t0);
		kfree(t1);
		clk_put(clk);
		return;
	}
	KTAP_SKIP(t, "no clock with a settable rate");
}

static void consumer_clock_lookup(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);
		struct clk *clk;

		if (!dev || b->periphs[i].clock == VSOC_NONE)
			continue;
		clk = clk_get(dev, NULL);
		if (!KTAP_EXPECT(t, !IS_ERR(clk)))
			continue;
		KTAP_EXPECT(t, !strcmp(__clk_get_name(clk),
				       b->clocks[b->periphs[i].clock].name));
		clk_put(clk);
	}
}

static const struct ampsoc_ktap_case clock_cases[] = {
	AMPSOC_KTAP_CASE(consumer_clock_lookup),
	AMPSOC_KTAP_CASE(clocks_gate_in_model),
	AMPSOC_KTAP_CASE(clock_rate_in_model),
	{}
};

/* ---- power ---------------------------------------------------------- */

static char vt_why[128];

static bool vt_domain_has_core(u32 dom)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_cores; i++) {
		u32 d;

		for (d = b->cores[i].domain; d != VSOC_NONE;
		     d = b->domains[d].parent)
			if (d == dom)
				return true;
	}
	return false;
}

/* The kernel's view of a clock (prepared or not) is the model's. */
static void vt_expect_clock_agrees(struct ampsoc_ktap_test *t,
				   const struct vsoc_telemetry *tel, u32 ci)
{
	struct clk *clk = clk_get(NULL, vsoc_board(soc)->clocks[ci].name);

	if (!KTAP_EXPECT(t, !IS_ERR(clk)))
		return;
	KTAP_EXPECT_EQ(t, le32_to_cpu(tel->clocks[ci].state),
		       __clk_is_enabled(clk) ? VSOC_CLK_RUNNING : VSOC_CLK_GATED);
	clk_put(clk);
}

/* The domain, its parents and the clock are on in this snapshot. */
static bool vt_chain_on(const struct vsoc_telemetry *tel, u32 dom, u32 clock)
{
	const struct vsoc_board *b = vsoc_board(soc);

	for (; dom != VSOC_NONE; dom = b->domains[dom].parent)
		if (le32_to_cpu(tel->domains[dom].state) != VSOC_PWR_ON)
			return false;
	return clock == VSOC_NONE ||
	       le32_to_cpu(tel->clocks[clock].state) == VSOC_CLK_RUNNING;
}

static void runtime_pm_drives_model(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i, tested = 0;

	for (i = 0; i < b->nr_periphs; i++) {
		const struct vsoc_periph_info *pi = &b->periphs[i];
		struct device *dev = vt_periph_dev(soc, i);
		struct vsoc_telemetry *t0, *t1, *t2;
		struct ampsoc_pd *pd;
		u32 d, dom = pi->domain;
		bool off;

		if (!dev || !dev->driver || vt_domain_faulty(dom))
			continue;
		pd = ampsoc_pd_of_dev(dev);
		if (!KTAP_EXPECT(t, pd))
			continue;
		/* Start from rest: every device suspended, domains settled. */
		if (!KTAP_EXPECT(t, vt_wait(vt_all_idle(), VT_WAIT_MS)))
			return;
		if (!vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)),
			     VT_WAIT_MS)) {
			ampsoc_ktap_fail(t, "%s", vt_why);
			return;
		}
		t0 = vt_telemetry(soc);
		t1 = NULL;
		KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
		KTAP_EXPECT(t, ampsoc_pd_is_on(pd));
		KTAP_EXPECT(t, vt_tel_until(soc, t1, vt_chain_on(t1, dom, pi->clock)));
		if (t0 && t1) {
			for (d = dom; d != VSOC_NONE; d = b->domains[d].parent)
				KTAP_EXPECT_EQ(t, le32_to_cpu(t1->domains[d].state),
					       VSOC_PWR_ON);
			if (le32_to_cpu(t0->domains[dom].state) == VSOC_PWR_OFF)
				KTAP_EXPECT_EQ(t, le32_to_cpu(t1->domains[dom].on_count),
					       le32_to_cpu(t0->domains[dom].on_count) + 1);
			if (pi->clock != VSOC_NONE)
				KTAP_EXPECT_EQ(t, le32_to_cpu(t1->clocks[pi->clock].state),
					       VSOC_CLK_RUNNING);
		}
		pm_runtime_mark_last_busy(dev);
		pm_runtime_put_autosuspend(dev);
		KTAP_EXPECT(t, vt_wait(pm_runtime_suspended(dev), VT_WAIT_MS));
		/*
		 * The power-off is queued work; the domain goes off unless
		 * another consumer (a core without its driver) keeps it on.
		 */
		off = vt_wait(!ampsoc_pd_is_on(pd), 1000);
		if (!vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)),
			     VT_WAIT_MS))
			ampsoc_ktap_fail(t, "%s", vt_why);
		t2 = NULL;
		if (off && t1)
			KTAP_EXPECT(t, vt_tel_until(soc, t2,
						    le32_to_cpu(t2->domains[dom].off_count) ==
						    le32_to_cpu(t1->domains[dom].off_count) + 1));
		else
			t2 = vt_telemetry(soc);
		if (t2 && pi->clock != VSOC_NONE)
			vt_expect_clock_agrees(t, t2, pi->clock);
		kfree(t0);
		kfree(t1);
		kfree(t2);
		tested++;
	}
	if (!tested)
		KTAP_SKIP(t, "no bound peripheral outside the faulty domains");
}

static void idle_domains_are_off(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	if (!KTAP_EXPECT(t, vt_wait(vt_all_idle(), VT_WAIT_MS)))
		return;
	if (!vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)), VT_WAIT_MS))
		ampsoc_ktap_fail(t, "%s", vt_why);
	for (i = 0; i < b->nr_periphs; i++) {
		u32 dom = b->periphs[i].domain;

		if (b->domains[dom].flags & VSOC_DOMAIN_ALWAYS_ON ||
		    vt_domain_faulty(dom))
			continue;
		/* Domains holding a core stay on while the core is unbound. */
		KTAP_EXPECT(t, vt_wait(vt_model_domain_state(soc, dom) == VSOC_PWR_OFF ||
				       vt_domain_has_core(dom), VT_WAIT_MS));
	}
}

static const struct ampsoc_ktap_case power_cases[] = {
	AMPSOC_KTAP_CASE(runtime_pm_drives_model),
	AMPSOC_KTAP_CASE(idle_domains_are_off),
	{}
};

/* ---- mailbox -------------------------------------------------------- */

#define FIFO(field)	offsetof(struct vsoc_mbox_fifo, field)

struct vt_mbox_client {
	struct mbox_client cl;
	struct completion got;
	u32 msg;
	unsigned int count;
};

static void vt_mbox_rx(struct mbox_client *cl, void *mssg)
{
	struct vt_mbox_client *c = container_of(cl, struct vt_mbox_client, cl);

	c->msg = (u32)(uintptr_t)mssg;
	c->count++;
	complete(&c->got);
}

static int vt_find_mbox(bool to_guest)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_mboxes; i++) {
		bool guest_bound = b->mboxes[i].to == VSOC_MBOX_EP_GUEST;

		if (guest_bound == to_guest)
			return i;
	}
	return -1;
}

static void mbox_send_lands_in_fifo(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	struct vt_mbox_client c = {};
	const struct vsoc_mbox_info *mi;
	struct mbox_chan *chan;
	void __iomem *fifo;
	int i = vt_find_mbox(false);
	u32 head;

	if (i < 0) {
		KTAP_SKIP(t, "no guest->core channel");
		return;
	}
	mi = &b->mboxes[i];
	fifo = vsoc_shm(soc, &mi->fifo);
	if (!KTAP_EXPECT(t, fifo))
		return;
	c.cl.dev = vsoc_find_child(soc, VSOC_DEV_MBOX, 0);
	init_completion(&c.got);
	chan = vsoc_mbox_request_channel(&c.cl, mi->name);
	if (!KTAP_EXPECT(t, !IS_ERR(chan)))
		return;
	KTAP_EXPECT(t, IS_ERR(vsoc_mbox_request_channel(&c.cl, "no-such-channel")));
	head = readl(fifo + FIFO(head));
	KTAP_EXPECT(t, mbox_send_message(chan, (void *)(uintptr_t)0x5a5a0001) >= 0);
	KTAP_EXPECT_EQ(t, readl(fifo + FIFO(head)), head + 1);
	KTAP_EXPECT_EQ(t, readl(fifo + FIFO(msg) +
				(head & (mi->depth - 1)) * sizeof(__le32)),
		       0x5a5a0001);
	mbox_free_channel(chan);
	/* Play the absent core: consume what we sent. */
	writel(readl(fifo + FIFO(head)), fifo + FIFO(tail));
}

static void mbox_receive_reaches_client(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	struct vt_mbox_client c = {};
	const struct vsoc_mbox_info *mi;
	struct mbox_chan *chan;
	void __iomem *fifo;
	int i = vt_find_mbox(true);
	u32 head;

	if (i < 0) {
		KTAP_SKIP(t, "no core->guest channel");
		return;
	}
	mi = &b->mboxes[i];
	fifo = vsoc_shm(soc, &mi->fifo);
	if (!KTAP_EXPECT(t, fifo))
		return;
	c.cl.dev = vsoc_find_child(soc, VSOC_DEV_MBOX, 0);
	c.cl.rx_callback = vt_mbox_rx;
	init_completion(&c.got);
	chan = vsoc_mbox_request_channel(&c.cl, mi->name);
	if (!KTAP_EXPECT(t, !IS_ERR(chan)))
		return;

	/* Play the core: one message, then ring the guest (ourselves). */
	head = readl(fifo + FIFO(head));
	writel(0x0000beef, fifo + FIFO(msg) + (head & (mi->depth - 1)) * sizeof(__le32));
	wmb(); /* the message before the head */
	writel(head + 1, fifo + FIFO(head));
	wmb(); /* the head before the doorbell */
	KTAP_EXPECT_EQ(t, vsoc_kick(soc, b->guest_peer, mi->vector), 0);
	KTAP_EXPECT(t, wait_for_completion_timeout(&c.got, msecs_to_jiffies(VT_WAIT_MS)));
	KTAP_EXPECT_EQ(t, c.msg, 0x0000beef);
	KTAP_EXPECT_EQ(t, readl(fifo + FIFO(tail)), head + 1);

	/* A head too far ahead is corruption: nothing delivered, resynced. */
	c.count = 0;
	writel(head + 1 + mi->depth + 3, fifo + FIFO(head));
	wmb(); /* the head before the doorbell */
	KTAP_EXPECT_EQ(t, vsoc_kick(soc, b->guest_peer, mi->vector), 0);
	KTAP_EXPECT(t, vt_wait(readl(fifo + FIFO(tail)) == head + 1 + mi->depth + 3,
			       VT_WAIT_MS));
	KTAP_EXPECT_EQ(t, c.count, 0);
	mbox_free_channel(chan);
}

/*
 * What a run of a core killed with a full FIFO from Linux leaves behind:
 * depth words it never read, whose doorbells went with it. The next run
 * carries on from the FIFO's tail and must still hear Linux
 * (core_mbox_stale starts it and echoes). The core must be stopped, so
 * that its channel is free and nothing consumes the words.
 */
/* The Linux-to-core mailbox of the core stale_fifo names, or NULL. */
static const struct vsoc_mbox_info *stale_mbox(void)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_cores; i++)
		if (!strcmp(b->cores[i].name, stale_fifo) &&
		    b->cores[i].mbox_tx < b->nr_mboxes)
			return &b->mboxes[b->cores[i].mbox_tx];
	return NULL;
}

static void stale_words_fill_fifo(struct ampsoc_ktap_test *t)
{
	const struct vsoc_mbox_info *mi = stale_mbox();
	struct vt_mbox_client c = {};
	struct mbox_chan *chan;
	void __iomem *fifo;
	u32 tail, want;

	if (!KTAP_EXPECT(t, mi))
		return;
	fifo = vsoc_shm(soc, &mi->fifo);
	if (!KTAP_EXPECT(t, fifo))
		return;
	c.cl.dev = vsoc_find_child(soc, VSOC_DEV_MBOX, 0);
	init_completion(&c.got);
	chan = vsoc_mbox_request_channel(&c.cl, mi->name);
	if (!KTAP_EXPECT(t, !IS_ERR(chan)))
		return;
	tail = readl(fifo + FIFO(tail));
	want = readl(fifo + FIFO(head));
	/* A word every core ignores, as harmless as a stale kick. */
	while (want - tail < mi->depth) {
		/* room for a word: vsoc_rproc_kick() would queue one */
		if (!KTAP_EXPECT(t, !vsoc_mbox_tx_full(chan)))
			break;
		if (!KTAP_EXPECT(t, mbox_send_message(chan, (void *)(uintptr_t)
						      VSOC_MBOX_MSG_PENDING) >= 0))
			break;
		want++;
		if (!KTAP_EXPECT(t, vt_wait(readl(fifo + FIFO(head)) == want,
					    VT_WAIT_MS)))
			break;
	}
	KTAP_EXPECT_EQ(t, readl(fifo + FIFO(head)) - readl(fifo + FIFO(tail)),
		       mi->depth);
	/* no room: a kick rings the doorbell instead of queueing a word */
	KTAP_EXPECT(t, vsoc_mbox_tx_full(chan));
	mbox_free_channel(chan);
}

/* vsoc_mbox.c retries a send its full FIFO refused after this long. */
#define VT_MBOX_RETRY_US	200

struct vt_send_work {
	struct work_struct work;
	struct mbox_chan *chan;
	int ret;
};

static void vt_send_fn(struct work_struct *work)
{
	struct vt_send_work *w = container_of(work, struct vt_send_work, work);

	w->ret = mbox_send_message(w->chan, (void *)(uintptr_t)VSOC_MBOX_MSG_PENDING);
}

/*
 * The FIFO is full (stale_words_fill_fifo): a message sent from another
 * CPU stays queued and is retried there, a timer then an irq_work, every
 * VT_MBOX_RETRY_US. This CPU frees the channel at varying points of that
 * cycle and waits several periods: no retry may run once the channel is
 * free. One did (the irq_work running at the shutdown re-armed the timer),
 * and the mailbox core dereferenced the client it no longer had.
 */
static void stale_free_while_retrying(struct ampsoc_ktap_test *t)
{
	const struct vsoc_mbox_info *mi = stale_mbox();
	struct vt_mbox_client c = {};
	struct vt_send_work w = {};
	unsigned int i, cpu;

	if (!KTAP_EXPECT(t, mi))
		return;
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		KTAP_SKIP(t, "one CPU: the retry cannot run beside the shutdown");
		return;
	}
	c.cl.dev = vsoc_find_child(soc, VSOC_DEV_MBOX, 0);
	init_completion(&c.got);
	INIT_WORK_ONSTACK(&w.work, vt_send_fn);
	for (i = 0; i < 200; i++) {
		w.chan = vsoc_mbox_request_channel(&c.cl, mi->name);
		if (!KTAP_EXPECT(t, !IS_ERR(w.chan)))
			break;
		queue_work_on(cpu, system_highpri_wq, &w.work);
		flush_work(&w.work);
		/* queued behind the full FIFO: a slot index, not an error */
		if (!KTAP_EXPECT(t, w.ret >= 0)) {
			mbox_free_channel(w.chan);
			break;
		}
		udelay((i * 7) % (VT_MBOX_RETRY_US + 50));
		mbox_free_channel(w.chan);
		usleep_range(5 * VT_MBOX_RETRY_US, 10 * VT_MBOX_RETRY_US);
	}
	destroy_work_on_stack(&w.work);
}

static const struct ampsoc_ktap_case stale_cases[] = {
	AMPSOC_KTAP_CASE(stale_words_fill_fifo),
	AMPSOC_KTAP_CASE(stale_free_while_retrying),
	{}
};

static const struct ampsoc_ktap_case mbox_cases[] = {
	AMPSOC_KTAP_CASE(mbox_send_lands_in_fifo),
	AMPSOC_KTAP_CASE(mbox_receive_reaches_client),
	{}
};

/* ---- faults --------------------------------------------------------- */

/*
 * A consumer of our own in a faulty domain: a platform device that joins
 * the domain runtime-suspended (so joining powers nothing on) and whose
 * runtime resume is the power-on request under test.
 */
struct vt_consumer {
	struct platform_device *pdev;
	struct ampsoc_pd *pd;
	int dom;
};

static int vt_consumer_get(struct ampsoc_ktap_test *t, struct vt_consumer *c,
			   const char *domain)
{
	int ret;

	c->dom = vt_domain_index(domain);
	c->pd = c->dom >= 0 ? ampsoc_pd_find(domain) : NULL;
	if (!c->pd)
		return -ENOENT;
	c->pdev = platform_device_register_simple("vsoc-test-consumer",
						  PLATFORM_DEVID_AUTO, NULL, 0);
	if (IS_ERR(c->pdev)) {
		ret = PTR_ERR(c->pdev);
		ampsoc_ktap_fail(t, "cannot create a consumer: %d", ret);
		return ret;
	}
	pm_runtime_enable(&c->pdev->dev);
	ret = ampsoc_pd_add_device(c->pd, &c->pdev->dev);
	if (ret) {
		ampsoc_ktap_fail(t, "cannot join %s: %d", domain, ret);
		pm_runtime_disable(&c->pdev->dev);
		platform_device_unregister(c->pdev);
	}
	return ret;
}

static void vt_consumer_put(struct vt_consumer *c)
{
	struct device *dev = &c->pdev->dev;

	if (!pm_runtime_suspended(dev))
		pm_runtime_put_sync(dev);
	pm_runtime_set_suspended(dev);
	ampsoc_pd_remove_device(dev);
	pm_runtime_disable(dev);
	platform_device_unregister(c->pdev);
}

static void failing_power_on_reaches_consumer(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *t0, *t1;
	struct vt_consumer c;
	struct device *dev;
	int ret;

	if (!*fail_domain) {
		KTAP_SKIP(t, "no fail_domain given");
		return;
	}
	if (vt_consumer_get(t, &c, fail_domain)) {
		KTAP_EXPECT(t, c.pd);
		return;
	}
	dev = &c.pdev->dev;
	/* Everybody else lets the domain go off first. */
	if (!KTAP_EXPECT(t, vt_wait(!ampsoc_pd_is_on(c.pd) &&
				    vt_model_domain_state(soc, c.dom) == VSOC_PWR_OFF,
				    VT_WAIT_MS)))
		goto out;
	t0 = vt_telemetry(soc);
	t1 = NULL;
	ret = pm_runtime_resume_and_get(dev);
	KTAP_EXPECT_EQ(t, ret, -EIO);
	KTAP_EXPECT(t, t0 && vt_tel_until(soc, t1, le32_to_cpu(t1->domains[c.dom].failed_count) >
					  le32_to_cpu(t0->domains[c.dom].failed_count)));
	KTAP_EXPECT(t, pm_runtime_suspended(dev));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(c.pd));
	if (KTAP_EXPECT(t, t0 && t1)) {
		KTAP_EXPECT_EQ(t, le32_to_cpu(t1->domains[c.dom].state), VSOC_PWR_OFF);
		KTAP_EXPECT_EQ(t, le32_to_cpu(t1->domains[c.dom].failed_count),
			       le32_to_cpu(t0->domains[c.dom].failed_count) + 1);
	}
	kfree(t0);
	kfree(t1);
	/* Reported, not latched in the driver: a retry reaches the model. */
	pm_runtime_set_suspended(dev);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), -EIO);
out:
	vt_consumer_put(&c);
}

static void stuck_domain_times_out(struct ampsoc_ktap_test *t)
{
	const struct vsoc_domain_info *di;
	struct vt_consumer c;
	struct device *dev;
	u64 bound_ms;
	ktime_t t0;
	s64 ms;
	int ret;

	if (!*stuck_domain) {
		KTAP_SKIP(t, "no stuck_domain given");
		return;
	}
	if (vt_consumer_get(t, &c, stuck_domain)) {
		KTAP_EXPECT(t, c.pd);
		return;
	}
	dev = &c.pdev->dev;
	di = &vsoc_board(soc)->domains[c.dom];
	bound_ms = div_u64(max(di->on_latency_ns, di->off_latency_ns),
			   NSEC_PER_MSEC) + 2 * VSOC_REQ_TIMEOUT_MS;
	/*
	 * Whatever got stuck first (a power-off of an idle domain, or the
	 * power-on of a consumer at probe) has timed out by now, and the
	 * kernel agrees with the model: the transition never happened.
	 */
	if (!vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)), bound_ms))
		ampsoc_ktap_fail(t, "%s", vt_why);
	if (ampsoc_pd_is_on(c.pd)) {
		/* Stuck on: a consumer needs no request and just works. */
		KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
		goto out;
	}
	t0 = ktime_get();
	ret = pm_runtime_resume_and_get(dev);
	ms = ktime_ms_delta(ktime_get(), t0);
	/* This request times out, or the earlier one still blocks the slot. */
	if (!KTAP_EXPECT(t, ret == -ETIMEDOUT || ret == -EBUSY))
		ampsoc_ktap_fail(t, "resume returned %d", ret);
	KTAP_EXPECT(t, ms <= bound_ms);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(c.pd));
	/* The model is off, or stuck in its transition: never on. */
	KTAP_EXPECT(t, vt_model_domain_state(soc, c.dom) != VSOC_PWR_ON);
	/* Still stuck: refused at once, not another full timeout. */
	pm_runtime_set_suspended(dev);
	t0 = ktime_get();
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), -EBUSY);
	KTAP_EXPECT(t, ktime_ms_delta(ktime_get(), t0) < VSOC_REQ_TIMEOUT_MS);
out:
	vt_consumer_put(&c);
}

static void other_domains_still_work(struct ampsoc_ktap_test *t)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);

		if (!dev || !dev->driver || vt_domain_faulty(b->periphs[i].domain))
			continue;
		KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
		KTAP_EXPECT_EQ(t, vt_model_domain_state(soc, b->periphs[i].domain),
			       VSOC_PWR_ON);
		pm_runtime_put(dev);
		return;
	}
	KTAP_SKIP(t, "no peripheral outside the faulty domains");
}

static const struct ampsoc_ktap_case fault_cases[] = {
	AMPSOC_KTAP_CASE(failing_power_on_reaches_consumer),
	AMPSOC_KTAP_CASE(stuck_domain_times_out),
	AMPSOC_KTAP_CASE(other_domains_still_work),
	{}
};

/* ---- board table validation --------------------------------------- */

/*
 * Damaged copies of the live table go through the same validation as at
 * probe time; each must be refused. The CRC is recomputed after a damage
 * so that the check under test, not the checksum, is what refuses it.
 */
static u8 *vt_tbl;
static size_t vt_tbl_len;
static struct vsoc_board *vt_parsed;

static int table_init(struct ampsoc_ktap_test *t)
{
	struct vsoc_shm_area all = { 0, VSOC_MAX_TABLE_SIZE };
	void __iomem *shm;

	if (!soc)
		return -ENODEV;
	shm = vsoc_shm(soc, &all);
	if (!shm)
		return -ENODEV;
	vt_tbl_len = VSOC_MAX_TABLE_SIZE;
	vt_tbl = kvmalloc(vt_tbl_len, GFP_KERNEL);
	vt_parsed = kzalloc(sizeof(*vt_parsed), GFP_KERNEL);
	if (!vt_tbl || !vt_parsed) {
		kvfree(vt_tbl);
		kfree(vt_parsed);
		return -ENOMEM;
	}
	memcpy_fromio(vt_tbl, shm, vt_tbl_len);
	return 0;
}

static void table_exit(struct ampsoc_ktap_test *t)
{
	kvfree(vt_tbl);
	kfree(vt_parsed);
	vt_tbl = NULL;
	vt_parsed = NULL;
}

static struct vsoc_board_header *vt_hdr(void)
{
	return (struct vsoc_board_header *)vt_tbl;
}

static void *vt_entry(const struct vsoc_array *arr, unsigned int i)
{
	return vt_tbl + le32_to_cpu(arr->offset) + i * le32_to_cpu(arr->stride);
}

static void vt_fix_crc(void)
{
	u32 size = le32_to_cpu(vt_hdr()->size);

	vt_hdr()->checksum = cpu_to_le32(crc32_le(~0U, vt_tbl + VSOC_CSUM_START,
						  size - VSOC_CSUM_START) ^ ~0U);
}

static int vt_parse(void)
{
	const struct vsoc_board *b = vsoc_board(soc);

	return vsoc_board_parse(vsoc_find_child(soc, VSOC_DEV_POWER, 0), vt_tbl,
				vt_tbl_len, b->shm_size, b->guest_peer,
				b->nr_vectors, vt_parsed);
}

static void table_valid_parses(struct ampsoc_ktap_test *t)
{
	KTAP_EXPECT_EQ(t, vt_parse(), 0);
	KTAP_EXPECT(t, !strcmp(vt_parsed->name, vsoc_board(soc)->name));
	KTAP_EXPECT_EQ(t, vt_parsed->nr_domains, vsoc_board(soc)->nr_domains);
	if (vt_parsed->nr_cores)
		KTAP_EXPECT_EQ(t, vt_parsed->cores[0].mem_domain,
			       vsoc_board(soc)->cores[0].mem_domain);
}

static void table_bad_magic(struct ampsoc_ktap_test *t)
{
	vt_hdr()->magic = cpu_to_le32(0x12345678);
	KTAP_EXPECT_EQ(t, vt_parse(), -ENODEV);
}

static void table_bad_checksum(struct ampsoc_ktap_test *t)
{
	vt_tbl[le32_to_cpu(vt_hdr()->size) - 1] ^= 0x40;
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_other_major(struct ampsoc_ktap_test *t)
{
	vt_hdr()->version = cpu_to_le32((VSOC_VERSION_MAJOR + 1) << 16);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_size_too_big(struct ampsoc_ktap_test *t)
{
	vt_hdr()->size = cpu_to_le32(vt_tbl_len + 4);
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_array_outside(struct ampsoc_ktap_test *t)
{
	vt_hdr()->domains.offset = cpu_to_le32(le32_to_cpu(vt_hdr()->size) - 8);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_too_many_domains(struct ampsoc_ktap_test *t)
{
	vt_hdr()->domains.count = cpu_to_le32(VSOC_MAX_DOMAINS + 1);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_name_without_nul(struct ampsoc_ktap_test *t)
{
	struct vsoc_domain_desc *d = vt_entry(&vt_hdr()->domains, 0);

	memset(d->name, 'A', sizeof(d->name));
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_parent_out_of_range(struct ampsoc_ktap_test *t)
{
	struct vsoc_domain_desc *d = vt_entry(&vt_hdr()->domains, 0);

	d->parent = cpu_to_le32(le32_to_cpu(vt_hdr()->domains.count) + 3);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_domain_cycle(struct ampsoc_ktap_test *t)
{
	u32 n = le32_to_cpu(vt_hdr()->domains.count), i, p;
	struct vsoc_domain_desc *d;

	/* A child and its parent become each other's parent. */
	for (i = 0; i < n; i++) {
		d = vt_entry(&vt_hdr()->domains, i);
		p = le32_to_cpu(d->parent);
		if (p != VSOC_NONE && p < n) {
			d = vt_entry(&vt_hdr()->domains, p);
			d->parent = cpu_to_le32(i);
			break;
		}
	}
	if (i == n) {
		/* A flat board: the first domain is its own parent. */
		d = vt_entry(&vt_hdr()->domains, 0);
		d->parent = cpu_to_le32(0);
	}
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_periph_unknown_domain(struct ampsoc_ktap_test *t)
{
	struct vsoc_periph_desc *p;

	if (!le32_to_cpu(vt_hdr()->periphs.count)) {
		KTAP_SKIP(t, "no peripheral");
		return;
	}
	p = vt_entry(&vt_hdr()->periphs, 0);
	p->domain = cpu_to_le32(VSOC_MAX_DOMAINS + 7);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_periph_bad_vector(struct ampsoc_ktap_test *t)
{
	struct vsoc_periph_desc *p;

	if (!le32_to_cpu(vt_hdr()->periphs.count)) {
		KTAP_SKIP(t, "no peripheral");
		return;
	}
	p = vt_entry(&vt_hdr()->periphs, 0);
	p->vector = cpu_to_le32(4096);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_area_outside_shm(struct ampsoc_ktap_test *t)
{
	vt_hdr()->telemetry.offset = cpu_to_le64(vsoc_board(soc)->shm_size - 16);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_overlapping_areas(struct ampsoc_ktap_test *t)
{
	struct vsoc_periph_desc *p;

	if (!le32_to_cpu(vt_hdr()->periphs.count)) {
		KTAP_SKIP(t, "no peripheral");
		return;
	}
	p = vt_entry(&vt_hdr()->periphs, 0);
	p->regs.offset = vt_hdr()->pwr.offset;
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_mbox_bad_depth(struct ampsoc_ktap_test *t)
{
	struct vsoc_mbox_desc *m;

	if (!le32_to_cpu(vt_hdr()->mboxes.count)) {
		KTAP_SKIP(t, "no mailbox");
		return;
	}
	m = vt_entry(&vt_hdr()->mboxes, 0);
	m->depth = cpu_to_le32(3);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_wrong_guest_peer(struct ampsoc_ktap_test *t)
{
	vt_hdr()->guest_peer = cpu_to_le16(vsoc_board(soc)->guest_peer + 1);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

/* ABI 1.5: the first core, whose memory domain a case damages. */
static struct vsoc_core_desc *vt_core0(struct ampsoc_ktap_test *t)
{
	if (!le32_to_cpu(vt_hdr()->cores.count)) {
		KTAP_SKIP(t, "no core");
		return NULL;
	}
	return vt_entry(&vt_hdr()->cores, 0);
}

static void table_core_mem_domain_own(struct ampsoc_ktap_test *t)
{
	struct vsoc_core_desc *c = vt_core0(t);

	if (!c)
		return;
	c->mem_domain = c->domain;
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

static void table_core_mem_domain_out_of_range(struct ampsoc_ktap_test *t)
{
	struct vsoc_core_desc *c = vt_core0(t);

	if (!c)
		return;
	c->mem_domain = vt_hdr()->domains.count;
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), -EINVAL);
}

/* Before 1.5 the word was reserved: not read, whatever it holds. */
static void table_core_mem_domain_before_1_5(struct ampsoc_ktap_test *t)
{
	struct vsoc_core_desc *c = vt_core0(t);

	if (!c)
		return;
	c->mem_domain = cpu_to_le32(0x1234);
	vt_hdr()->version = cpu_to_le32((VSOC_VERSION_MAJOR << 16) | 4);
	vt_fix_crc();
	KTAP_EXPECT_EQ(t, vt_parse(), 0);
	KTAP_EXPECT_EQ(t, vt_parsed->cores[0].mem_domain, VSOC_NONE);
}

static const struct ampsoc_ktap_case table_cases[] = {
	AMPSOC_KTAP_CASE(table_valid_parses),
	AMPSOC_KTAP_CASE(table_bad_magic),
	AMPSOC_KTAP_CASE(table_bad_checksum),
	AMPSOC_KTAP_CASE(table_other_major),
	AMPSOC_KTAP_CASE(table_size_too_big),
	AMPSOC_KTAP_CASE(table_array_outside),
	AMPSOC_KTAP_CASE(table_too_many_domains),
	AMPSOC_KTAP_CASE(table_name_without_nul),
	AMPSOC_KTAP_CASE(table_parent_out_of_range),
	AMPSOC_KTAP_CASE(table_domain_cycle),
	AMPSOC_KTAP_CASE(table_periph_unknown_domain),
	AMPSOC_KTAP_CASE(table_periph_bad_vector),
	AMPSOC_KTAP_CASE(table_area_outside_shm),
	AMPSOC_KTAP_CASE(table_overlapping_areas),
	AMPSOC_KTAP_CASE(table_mbox_bad_depth),
	AMPSOC_KTAP_CASE(table_wrong_guest_peer),
	AMPSOC_KTAP_CASE(table_core_mem_domain_own),
	AMPSOC_KTAP_CASE(table_core_mem_domain_out_of_range),
	AMPSOC_KTAP_CASE(table_core_mem_domain_before_1_5),
	{}
};

/* ---- faults armed around one transition (ABI 1.1) ------------------- */

/*
 * A bound peripheral whose domain only peripherals use (no core, not
 * always-on, not faulty from the start), resting with its domain off.
 */
static struct device *vt_quiet_periph(struct ampsoc_ktap_test *t, u32 *dom)
{
	const struct vsoc_board *b = vsoc_board(soc);
	unsigned int i;

	if (t->skipped)
		return NULL;
	for (i = 0; i < b->nr_periphs; i++) {
		struct device *dev = vt_periph_dev(soc, i);
		u32 d = b->periphs[i].domain;

		if (!dev || !dev->driver || vt_domain_faulty(d) ||
		    vt_domain_has_core(d) ||
		    (b->domains[d].flags & VSOC_DOMAIN_ALWAYS_ON))
			continue;
		if (!KTAP_EXPECT(t, vt_wait(vt_all_idle(), VT_WAIT_MS)) ||
		    !KTAP_EXPECT(t, vt_wait(!ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)) &&
					    vt_model_domain_state(soc, d) == VSOC_PWR_OFF,
					    VT_WAIT_MS)))
			return NULL;
		*dom = d;
		return dev;
	}
	KTAP_SKIP(t, "no peripheral in a domain of its own kind");
	return NULL;
}

static int armed_init(struct ampsoc_ktap_test *t)
{
	if (!soc)
		return -ENODEV;
	if (!vsoc_board(soc)->fault.size)
		KTAP_SKIP(t, "the model has no fault-control slot (ABI 1.0)");
	return 0;
}

static void armed_fail_on_once(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *t0, *t1 = NULL;
	struct device *dev;
	u32 dom;

	dev = vt_quiet_periph(t, &dom);
	if (!dev)
		return;
	t0 = vt_telemetry(soc);
	if (!KTAP_EXPECT(t, t0))
		return;
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET, VSOC_FAULT_FAIL_ON,
					 dom, 1), 0);
	/* The real consumer's runtime resume gets the hardware's error... */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), -EIO);
	KTAP_EXPECT(t, vt_tel_until(soc, t1, le32_to_cpu(t1->domains[dom].failed_count) ==
				    le32_to_cpu(t0->domains[dom].failed_count) + 1));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)));
	/* ...and once the fault is spent, the next access works. */
	pm_runtime_set_suspended(dev);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
	KTAP_EXPECT(t, vt_tel_until(soc, t1, le32_to_cpu(t1->domains[dom].state) ==
				    VSOC_PWR_ON));
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_FAIL_ON, dom, 0);
	kfree(t0);
	kfree(t1);
}

static void armed_stuck_then_released(struct ampsoc_ktap_test *t)
{
	const struct vsoc_domain_info *di;
	struct device *dev;
	u64 bound_ms;
	ktime_t t0;
	u32 dom;

	dev = vt_quiet_periph(t, &dom);
	if (!dev)
		return;
	di = &vsoc_board(soc)->domains[dom];
	bound_ms = div_u64(di->on_latency_ns, NSEC_PER_MSEC) + 2 * VSOC_REQ_TIMEOUT_MS;
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET, VSOC_FAULT_STUCK,
					 dom, 0), 0);
	t0 = ktime_get();
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), -ETIMEDOUT);
	KTAP_EXPECT(t, ktime_ms_delta(ktime_get(), t0) <= bound_ms);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)));
	pm_runtime_set_suspended(dev);
	t0 = ktime_get();
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), -EBUSY);
	KTAP_EXPECT(t, ktime_ms_delta(ktime_get(), t0) < VSOC_REQ_TIMEOUT_MS);
	pm_runtime_set_suspended(dev);
	/* Released: the late completion must not confuse the next request. */
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_STUCK,
					 dom, 0), 0);
	KTAP_EXPECT(t, vt_wait(vt_model_domain_state(soc, dom) != VSOC_PWR_GOING_ON,
			       VT_WAIT_MS));
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
	KTAP_EXPECT_EQ(t, vt_model_domain_state(soc, dom), VSOC_PWR_ON);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	KTAP_EXPECT(t, vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)) &&
			       vt_model_domain_state(soc, dom) == VSOC_PWR_OFF,
			       VT_WAIT_MS));
}

static void armed_lost_doorbells_cost_no_error(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *t0, *t1 = NULL;
	struct device *dev;
	unsigned int i;
	u32 dom;

	dev = vt_quiet_periph(t, &dom);
	if (!dev)
		return;
	t0 = vt_telemetry(soc);
	if (!KTAP_EXPECT(t, t0))
		return;
	/* Completion doorbells (model -> guest) go missing. */
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET, VSOC_FAULT_LOST_DB,
					 0, 4), 0);
	for (i = 0; i < 2; i++) {
		KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
		KTAP_EXPECT(t, ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)));
		pm_runtime_mark_last_busy(dev);
		pm_runtime_put_autosuspend(dev);
		KTAP_EXPECT(t, vt_wait(!ampsoc_pd_is_on(ampsoc_pd_of_dev(dev)),
				       VT_WAIT_MS));
	}
	KTAP_EXPECT(t, vt_tel_until(soc, t1, le32_to_cpu(t1->lost_doorbells) >=
				    le32_to_cpu(t0->lost_doorbells) + 4));
	vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_LOST_DB, 0, 0);
	KTAP_EXPECT(t, vt_wait(vt_domains_agree(soc, vt_why, sizeof(vt_why)),
			       VT_WAIT_MS));
	kfree(t0);
	kfree(t1);
}

static void armed_slow_power_on_waits(struct ampsoc_ktap_test *t)
{
	struct device *dev;
	ktime_t t0;
	u32 dom;

	dev = vt_quiet_periph(t, &dom);
	if (!dev)
		return;
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET, VSOC_FAULT_SLOW_ON,
					 dom, 300 * NSEC_PER_MSEC), 0);
	t0 = ktime_get();
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
	KTAP_EXPECT(t, ktime_ms_delta(ktime_get(), t0) >= 300);
	KTAP_EXPECT_EQ(t, vt_model_domain_state(soc, dom), VSOC_PWR_ON);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_SLOW_ON, dom, 0);
}

/* Requests this module makes wrong on purpose; the model counts them. */
static unsigned int vt_garbage_made;

static void armed_bad_request_refused(struct ampsoc_ktap_test *t)
{
	if (t->skipped)
		return;
	vt_garbage_made++;
	KTAP_EXPECT(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET, VSOC_FAULT_FAIL_ON,
				      VSOC_MAX_DOMAINS + 1, 0) < 0);
}

static const struct ampsoc_ktap_case armed_cases[] = {
	AMPSOC_KTAP_CASE(armed_fail_on_once),
	AMPSOC_KTAP_CASE(armed_stuck_then_released),
	AMPSOC_KTAP_CASE(armed_lost_doorbells_cost_no_error),
	AMPSOC_KTAP_CASE(armed_slow_power_on_waits),
	AMPSOC_KTAP_CASE(armed_bad_request_refused),
	{}
};

/* ---- the model's verdict ------------------------------------------- */

static void violations_as_expected(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *tel = vt_telemetry(soc);

	if (!KTAP_EXPECT(t, tel))
		return;
	KTAP_EXPECT_EQ(t, le32_to_cpu(tel->violations), expect_violations);
	KTAP_EXPECT_EQ(t, le32_to_cpu(tel->garbage), garbage_before + vt_garbage_made);
	kfree(tel);
}

static const struct ampsoc_ktap_case model_cases[] = {
	AMPSOC_KTAP_CASE(violations_as_expected),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "vsoc_transport", .init = suite_init, .cases = transport_cases },
	{ .name = "vsoc_table", .init = table_init, .exit = table_exit,
	  .cases = table_cases },
	{ .name = "vsoc_clock", .init = suite_init, .cases = clock_cases },
	{ .name = "vsoc_power", .init = suite_init, .cases = power_cases },
	{ .name = "vsoc_mbox", .init = suite_init, .cases = mbox_cases },
	{ .name = "vsoc_faults", .init = suite_init, .cases = fault_cases },
	{ .name = "vsoc_armed_faults", .init = armed_init, .cases = armed_cases },
	{ .name = "vsoc_model", .init = suite_init, .cases = model_cases },
};

static const struct ampsoc_ktap_suite stale_suites[] = {
	{ .name = "vsoc_stale_fifo", .init = suite_init, .cases = stale_cases },
};

static int __init vsoc_test_init(void)
{
	soc = vt_find_soc();
	if (soc) {
		struct vsoc_telemetry *tel = vt_telemetry(soc);

		garbage_before = tel ? le32_to_cpu(tel->garbage) : 0;
		kfree(tel);
	}
	if (*stale_fifo)
		ampsoc_ktap_run(stale_suites, ARRAY_SIZE(stale_suites));
	else
		ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(vsoc_test_init);

static void __exit vsoc_test_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(vsoc_test_exit);

MODULE_DESCRIPTION("ampsoc vsoc driver tests against the SoC model");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of the ampsoc rpmsg stack against the loopback remote: bus
 * and endpoints, the virtio transport, name service, flow control,
 * zero-copy, buffer-size negotiation, teardown and a hostile remote.
 * Needs ampsoc_rpmsg, ampsoc_rpmsg_virtio and ampsoc_rpmsg_lb.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/random.h>
#include <linux/virtio.h>
#include <linux/workqueue.h>
#include <ampsoc/ktap.h>
#include <ampsoc/rpmsg.h>

#include "rpmsg_lb.h"

static unsigned int integrity_count = 100000;
module_param(integrity_count, uint, 0444);
MODULE_PARM_DESC(integrity_count, "messages in the integrity test");

static unsigned int race_rounds = 12;
module_param(race_rounds, uint, 0444);
MODULE_PARM_DESC(race_rounds, "remotes the flag race is run against");

static char *suite;
module_param(suite, charp, 0444);
MODULE_PARM_DESC(suite, "run only this suite (all when unset)");

#define NCHAN		32
#define WAIT_MS		20000

/* A driver bound to the test channels "ampsoc-t00".."ampsoc-t31". */
static struct rpmsg_device_id test_ids[NCHAN + 1];
static DEFINE_MUTEX(chan_lock);
static struct rpmsg_device *chans[NCHAN];
static unsigned int nprobed, nremoved;
static DECLARE_WAIT_QUEUE_HEAD(chan_wq);

static int test_probe(struct rpmsg_device *rpdev)
{
	unsigned int i;

	if (sscanf(rpdev->id.name, "ampsoc-t%u", &i) != 1 || i >= NCHAN)
		return -EINVAL;
	mutex_lock(&chan_lock);
	chans[i] = rpdev;
	WRITE_ONCE(nprobed, nprobed + 1);
	mutex_unlock(&chan_lock);
	wake_up(&chan_wq);
	return 0;
}

static void test_remove(struct rpmsg_device *rpdev)
{
	unsigned int i;

	mutex_lock(&chan_lock);
	for (i = 0; i < NCHAN; i++)
		if (chans[i] == rpdev)
			chans[i] = NULL;
	WRITE_ONCE(nremoved, nremoved + 1);
	mutex_unlock(&chan_lock);
	wake_up(&chan_wq);
}

static int test_cb(struct rpmsg_device *rpdev, void *data, int len, void *priv,
		   u32 src)
{
	return 0;
}

static struct rpmsg_driver test_driver = {
	.drv.name = "ampsoc_rpmsg_test",
	.id_table = test_ids,
	.probe = test_probe,
	.remove = test_remove,
	.callback = test_cb,
};

/* Usable in wait conditions: no lock, the writers hold chan_lock. */
static unsigned int count_locked(unsigned int *v)
{
	return READ_ONCE(*v);
}

static struct rpmsg_device *chan_get(unsigned int i)
{
	struct rpmsg_device *r;

	mutex_lock(&chan_lock);
	r = chans[i];
	mutex_unlock(&chan_lock);
	return r;
}

/* Receiver state for one endpoint: checks crc and order of echoes. */
struct rx_state {
	spinlock_t lock;	/* the counters below */
	wait_queue_head_t wq;
	u64 received;
	u64 bad;
	u32 next_seq;
	u32 last_src;
	int last_len;
	u8 last[64];
	void *held;
};

static void rx_init(struct rx_state *rx)
{
	memset(rx, 0, sizeof(*rx));
	spin_lock_init(&rx->lock);
	init_waitqueue_head(&rx->wq);
}

static int rx_cb(struct rpmsg_device *rpdev, void *data, int len, void *priv,
		 u32 src)
{
	struct rx_state *rx = priv;
	const struct lb_tagged *t = data;

	spin_lock(&rx->lock);
	rx->last_src = src;
	rx->last_len = len;
	memcpy(rx->last, data, min_t(int, len, sizeof(rx->last)));
	if (len >= sizeof(*t) && le32_to_cpu(t->magic) == LB_MAGIC) {
		if (le32_to_cpu(t->seq) != rx->next_seq ||
		    ampsoc_rpmsg_lb_crc(t->data, len - sizeof(*t)) !=
		    le32_to_cpu(t->crc))
			rx->bad++;
		rx->next_seq = le32_to_cpu(t->seq) + 1;
	}
	rx->received++;
	spin_unlock(&rx->lock);
	wake_up(&rx->wq);
	return 0;
}

static bool rx_reached(struct rx_state *rx, u64 n)
{
	bool r;

	spin_lock(&rx->lock);
	r = rx->received >= n;
	spin_unlock(&rx->lock);
	return r;
}

static bool rx_wait(struct rx_state *rx, u64 n)
{
	return wait_event_timeout(rx->wq, rx_reached(rx, n),
				  msecs_to_jiffies(WAIT_MS)) > 0;
}

static int make_tagged(u8 *buf, unsigned int len, u32 seq)
{
	struct lb_tagged *t = (void *)buf;
	unsigned int i;

	for (i = sizeof(*t); i < len; i++)
		buf[i] = (u8)(seq * 7 + i);
	t->magic = cpu_to_le32(LB_MAGIC);
	t->seq = cpu_to_le32(seq);
	t->crc = cpu_to_le32(ampsoc_rpmsg_lb_crc(t->data, len - sizeof(*t)));
	return len;
}

/* Poll a condition (no fixed sleeps): true when it held within WAIT_MS. */
#define poll_until(cond)						\
	({								\
		unsigned long __end = jiffies + msecs_to_jiffies(WAIT_MS); \
		bool __ok;						\
		while (!(__ok = (cond)) && time_before(jiffies, __end))	\
			usleep_range(500, 1000);			\
		__ok;							\
	})

static struct ampsoc_rpmsg_lb *lb_new(u64 extra, u32 bufsz, bool shm,
				      const char *services)
{
	struct ampsoc_rpmsg_lb_config cfg = {
		.features = BIT_ULL(AMPSOC_VIRTIO_RPMSG_F_NS) | extra,
		.shm_region = shm,
		.services = services,
		.h2r_buf_size = bufsz,
		.r2h_buf_size = bufsz,
	};

	if (bufsz)
		cfg.features |= BIT_ULL(AMPSOC_VIRTIO_RPMSG_F_BUFSZ);
	return ampsoc_rpmsg_lb_create(&cfg);
}

/* The transport's rpmsg_ctrl channel: a handle for endpoints. */
static struct rpmsg_device *ctrl_of(struct ampsoc_rpmsg_lb *lb)
{
	struct rpmsg_channel_info ci = { .name = "rpmsg_ctrl" };

	return ampsoc_rpmsg_find_device(&ampsoc_rpmsg_lb_vdev(lb)->dev, &ci);
}

static void stats_of(struct rpmsg_device *rpdev, struct ampsoc_rpmsg_stats *s)
{
	memset(s, 0, sizeof(*s));
	ampsoc_rpmsg_get_stats(rpdev, s);
}

struct fixture {
	struct ampsoc_rpmsg_lb *lb;
	struct rpmsg_device *ctrl;
	struct rpmsg_endpoint *ept;
	struct rx_state rx;
};

/*
 * A remote for the races: its thread on the last CPU, Linux's rx path on
 * another, so that a thread of the test bound to the last CPU runs
 * beside Linux's rx path.
 */
static struct ampsoc_rpmsg_lb *lb_new_own_cpu(void)
{
	struct ampsoc_rpmsg_lb_config cfg = {
		.features = BIT_ULL(AMPSOC_VIRTIO_RPMSG_F_NS),
		.shm_region = true,
		.own_cpu = true,
	};

	return ampsoc_rpmsg_lb_create(&cfg);
}

static bool __fixture_up(struct ampsoc_ktap_test *t, struct fixture *f,
			 struct ampsoc_rpmsg_lb *lb)
{
	struct rpmsg_channel_info ci = { .src = RPMSG_ADDR_ANY,
					 .dst = RPMSG_ADDR_ANY };

	memset(f, 0, sizeof(*f));
	rx_init(&f->rx);
	f->lb = lb;
	if (!KTAP_EXPECT(t, !IS_ERR(f->lb))) {
		f->lb = NULL;
		return false;
	}
	f->ctrl = ctrl_of(f->lb);
	if (!KTAP_EXPECT(t, f->ctrl))
		return false;
	f->ept = ampsoc_rpmsg_create_ept(f->ctrl, rx_cb, &f->rx, ci);
	return KTAP_EXPECT(t, f->ept);
}

static bool fixture_up(struct ampsoc_ktap_test *t, struct fixture *f,
		       u64 extra, u32 bufsz, bool shm)
{
	return __fixture_up(t, f, lb_new(extra, bufsz, shm, NULL));
}

static void fixture_down(struct fixture *f)
{
	if (f->ept)
		ampsoc_rpmsg_destroy_ept(f->ept);
	if (f->ctrl)
		put_device(&f->ctrl->dev);
	if (f->lb)
		ampsoc_rpmsg_lb_destroy(f->lb);
}

/* --- bus --- */

static void endpoint_addresses(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };
	struct rpmsg_channel_info fixed = { .src = 77 };
	struct rpmsg_endpoint *a, *b, *c;
	struct fixture f;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	a = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &f.rx, any);
	b = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &f.rx, fixed);
	c = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &f.rx, fixed);
	KTAP_EXPECT(t, a && a->addr >= AMPSOC_RPMSG_RESERVED_ADDRESSES);
	KTAP_EXPECT(t, f.ept->addr >= AMPSOC_RPMSG_RESERVED_ADDRESSES);
	KTAP_EXPECT(t, b && b->addr == 77);
	KTAP_EXPECT(t, !c);
	ampsoc_rpmsg_destroy_ept(b);
	b = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &f.rx, fixed);
	KTAP_EXPECT(t, b && b->addr == 77);
	ampsoc_rpmsg_destroy_ept(b);
	ampsoc_rpmsg_destroy_ept(a);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_get_mtu(f.ept), 496);
out:
	fixture_down(&f);
}

static void rx_dispatch_by_address(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };
	struct rpmsg_endpoint *e2;
	struct ampsoc_rpmsg_stats s;
	struct rx_state rx2;
	struct fixture f;

	rx_init(&rx2);
	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	e2 = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &rx2, any);
	if (!KTAP_EXPECT(t, e2))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_send(f.lb, 0x401, f.ept->addr, "one", 3), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_send(f.lb, 0x402, e2->addr, "two!", 4), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_send(f.lb, 0x403, 0x7777, "lost", 4), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_send(f.lb, 0x402, e2->addr, "sync", 4), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1) && rx_wait(&rx2, 2));
	KTAP_EXPECT_EQ(t, f.rx.received, 1);
	KTAP_EXPECT_EQ(t, f.rx.last_src, 0x401);
	KTAP_EXPECT_EQ(t, f.rx.last_len, 3);
	KTAP_EXPECT_EQ(t, rx2.received, 2);
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.unknown_dst, 1);
	ampsoc_rpmsg_destroy_ept(e2);
out:
	fixture_down(&f);
}

static void send_variants(struct ampsoc_ktap_test *t)
{
	struct fixture f;
	char big[600] = {};

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "a", 1, LB_ECHO_BASE), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1));
	KTAP_EXPECT_EQ(t, f.rx.last_src, LB_ECHO_BASE);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_trysendto(f.ept, "bb", 2, LB_ECHO_BASE + 1), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 2));
	KTAP_EXPECT_EQ(t, f.rx.last_src, LB_ECHO_BASE + 1);
	/* offchannel: the echo goes to the src we wrote, our own address */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_send_offchannel(f.ept, f.ept->addr,
						       LB_ECHO_BASE + 2, "ccc", 3), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_trysend_offchannel(f.ept, f.ept->addr,
							  LB_ECHO_BASE + 2, "dddd", 4), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 4));
	KTAP_EXPECT_EQ(t, f.rx.last_len, 4);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, big, 497, LB_ECHO_BASE), -EMSGSIZE);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, big, 496, LB_ECHO_BASE), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, big, 4, RPMSG_ADDR_ANY), -EINVAL);
	KTAP_EXPECT(t, rx_wait(&f.rx, 5));
out:
	fixture_down(&f);
}

struct sender {
	struct rpmsg_endpoint *ept;
	u32 dst;
	int ret;
	struct completion done;
};

static int sender_fn(void *data)
{
	struct sender *s = data;

	s->ret = ampsoc_rpmsg_sendto(s->ept, "blocked", 7, s->dst);
	complete(&s->done);
	return 0;
}

static void trysend_full_and_blocking(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_stats s0, s1;
	struct sender snd = {};
	struct fixture f;
	unsigned int n = 0;
	__poll_t mask;
	int ret;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	stats_of(f.ctrl, &s0);
	ampsoc_rpmsg_lb_freeze(f.lb, true);
	while ((ret = ampsoc_rpmsg_trysendto(f.ept, "x", 1, LB_SINK_ADDR)) == 0)
		n++;
	KTAP_EXPECT_EQ(t, ret, -ENOMEM);
	KTAP_EXPECT_EQ(t, n, 256);
	mask = ampsoc_rpmsg_poll(f.ept, NULL, NULL);
	KTAP_EXPECT(t, !(mask & EPOLLOUT));
	/* interrupt suppression: one doorbell for the whole burst */
	stats_of(f.ctrl, &s1);
	KTAP_EXPECT(t, s1.kicks - s0.kicks <= 2);
	init_completion(&snd.done);
	snd.ept = f.ept;
	snd.dst = LB_SINK_ADDR;
	if (!KTAP_EXPECT(t, !IS_ERR(kthread_run(sender_fn, &snd, "rpmsg-snd"))))
		goto out;
	ampsoc_rpmsg_lb_freeze(f.lb, false);
	KTAP_EXPECT(t, wait_for_completion_timeout(&snd.done,
						   msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT_EQ(t, snd.ret, 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_wait_sink(f.lb, 257, WAIT_MS), 0);
	KTAP_EXPECT(t, poll_until(ampsoc_rpmsg_poll(f.ept, NULL, NULL) & EPOLLOUT));
out:
	fixture_down(&f);
}

/* --- name service and channels --- */

static void channels_from_announcements(struct ampsoc_ktap_test *t)
{
	unsigned int i, base_p = count_locked(&nprobed), base_r;
	struct ampsoc_rpmsg_lb *lb = lb_new(0, 0, true, NULL);
	struct rpmsg_device *c;
	char name[RPMSG_NAME_SIZE];

	if (!KTAP_EXPECT(t, !IS_ERR(lb)))
		return;
	for (i = 0; i < NCHAN; i++) {
		snprintf(name, sizeof(name), "ampsoc-t%02u", i);
		ampsoc_rpmsg_lb_announce(lb, name, LB_ECHO_BASE + i, false);
	}
	KTAP_EXPECT(t, wait_event_timeout(chan_wq,
					  count_locked(&nprobed) >= base_p + NCHAN,
					  msecs_to_jiffies(WAIT_MS)));
	c = chan_get(5);
	if (KTAP_EXPECT(t, c)) {
		KTAP_EXPECT_EQ(t, c->dst, LB_ECHO_BASE + 5);
		KTAP_EXPECT(t, c->src >= AMPSOC_RPMSG_RESERVED_ADDRESSES);
		KTAP_EXPECT(t, c->ept && c->ept->addr == c->src);
		KTAP_EXPECT(t, !c->announce);
		KTAP_EXPECT(t, strstr(dev_name(&c->dev), ".ampsoc-t05.-1.1029"));
	}
	/* the remote takes half of them away again */
	base_r = count_locked(&nremoved);
	for (i = 0; i < NCHAN; i += 2) {
		snprintf(name, sizeof(name), "ampsoc-t%02u", i);
		ampsoc_rpmsg_lb_announce(lb, name, LB_ECHO_BASE + i, true);
	}
	KTAP_EXPECT(t, wait_event_timeout(chan_wq,
					  count_locked(&nremoved) >= base_r + NCHAN / 2,
					  msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, !chan_get(0) && chan_get(1));
	base_r = count_locked(&nremoved);
	ampsoc_rpmsg_lb_destroy(lb);
	KTAP_EXPECT_EQ(t, count_locked(&nremoved) - base_r, NCHAN / 2);
	for (i = 0; i < NCHAN; i++)
		KTAP_EXPECT(t, !chan_get(i));
}

static void dynamic_channel_cycles(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_lb *lb = lb_new(0, 0, true, NULL);
	unsigned int i, base;

	if (!KTAP_EXPECT(t, !IS_ERR(lb)))
		return;
	for (i = 0; i < 100; i++) {
		base = count_locked(&nprobed);
		ampsoc_rpmsg_lb_announce(lb, "ampsoc-t07", 0x410, false);
		if (!KTAP_EXPECT(t, wait_event_timeout(chan_wq,
						       count_locked(&nprobed) > base,
						       msecs_to_jiffies(WAIT_MS))))
			break;
		base = count_locked(&nremoved);
		ampsoc_rpmsg_lb_announce(lb, "ampsoc-t07", 0x410, true);
		if (!KTAP_EXPECT(t, wait_event_timeout(chan_wq,
						       count_locked(&nremoved) > base,
						       msecs_to_jiffies(WAIT_MS))))
			break;
	}
	KTAP_EXPECT_EQ(t, i, 100);
	ampsoc_rpmsg_lb_destroy(lb);
}

static void local_and_static_channels(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_lb_stats ls;
	struct rpmsg_channel_info ci = { .name = "ampsoc-t09", .src = 0x90,
					 .dst = RPMSG_ADDR_ANY };
	struct rpmsg_channel_info st = { .name = "ampsoc-t10",
					 .src = RPMSG_ADDR_ANY, .dst = 0x420 };
	struct rpmsg_device *c;
	struct fixture f;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	c = ampsoc_rpmsg_create_channel(f.ctrl, &ci);
	if (!KTAP_EXPECT(t, c))
		goto out;
	KTAP_EXPECT(t, c->announce);
	/* the local service was announced to the remote */
	KTAP_EXPECT(t, poll_until(({ ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
				     ls.ns_msgs >= 1; })));
	KTAP_EXPECT_EQ(t, ls.ns_last_addr, 0x90);
	KTAP_EXPECT_EQ(t, ls.ns_last_flags, 0);
	KTAP_EXPECT(t, !strcmp(ls.ns_last_name, "ampsoc-t09"));
	KTAP_EXPECT(t, !ampsoc_rpmsg_create_channel(f.ctrl, &ci));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_release_channel(f.ctrl, &ci), 0);
	KTAP_EXPECT(t, poll_until(({ ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
				     ls.ns_msgs >= 2; })));
	KTAP_EXPECT_EQ(t, ls.ns_last_flags, 1);
	KTAP_EXPECT(t, ampsoc_rpmsg_release_channel(f.ctrl, &ci) != 0);
	/* static channel for a remote that cannot announce */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_add_static_channels(&ampsoc_rpmsg_lb_vdev(f.lb)->dev,
							   &st, 1), 0);
	c = chan_get(10);
	if (KTAP_EXPECT(t, c)) {
		KTAP_EXPECT_EQ(t, c->dst, 0x420);
		KTAP_EXPECT_EQ(t, ampsoc_rpmsg_send(c->ept, "static", 6), 0);
	}
out:
	fixture_down(&f);
}

/*
 * A remote that does not offer VIRTIO_RPMSG_F_NS: address 53 is no
 * endpoint, so its announcement is an unknown destination and creates
 * nothing, and a local channel is created without being announced.
 */
static void ns_not_negotiated(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_lb_config cfg = { .shm_region = true };
	struct rpmsg_channel_info ci = { .name = "ampsoc-t12", .src = 0x91,
					 .dst = RPMSG_ADDR_ANY };
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY,
					  .dst = RPMSG_ADDR_ANY };
	struct ampsoc_rpmsg_lb_stats ls;
	struct ampsoc_rpmsg_stats s;
	struct rpmsg_device *c;
	struct fixture f = {};

	rx_init(&f.rx);
	f.lb = ampsoc_rpmsg_lb_create(&cfg);
	if (!KTAP_EXPECT(t, !IS_ERR(f.lb))) {
		f.lb = NULL;
		return;
	}
	f.ctrl = ctrl_of(f.lb);
	if (!KTAP_EXPECT(t, f.ctrl))
		goto out;
	f.ept = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &f.rx, any);
	if (!KTAP_EXPECT(t, f.ept))
		goto out;
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t11", 0x411, false);
	KTAP_EXPECT(t, poll_until(({ stats_of(f.ctrl, &s); s.unknown_dst >= 1; })));
	KTAP_EXPECT_EQ(t, s.unknown_dst, 1);
	KTAP_EXPECT_EQ(t, s.ns_rejected, 0);
	KTAP_EXPECT(t, !chan_get(11));
	c = ampsoc_rpmsg_create_channel(f.ctrl, &ci);
	if (KTAP_EXPECT(t, c))
		KTAP_EXPECT_EQ(t, ampsoc_rpmsg_release_channel(f.ctrl, &ci), 0);
	/* The remote serves in order: once "sync" is echoed it saw it all. */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "sync", 4, LB_ECHO_BASE), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1));
	ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
	KTAP_EXPECT_EQ(t, ls.ns_msgs, 0);
	KTAP_EXPECT(t, !chan_get(11));
out:
	fixture_down(&f);
}

/*
 * The remote may take back what it announced and nothing else: Linux's
 * own channels are refused and counted. Destroying rpmsg_ns (address 53)
 * from the name service's own callback would wait for that callback
 * forever, with the rx path, removal and rmmod stuck behind it; destroying
 * rpmsg_ctrl (address 0) took /dev/rpmsg_ctrlN away. A local and a static
 * channel are Linux's too, and so are the reserved names; a local channel
 * under the same name and address as the remote's outlives the remote's
 * destroy of its own.
 */
static void ns_refuses_linux_channels(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info local = { .name = "ampsoc-t13", .src = 0x93,
					    .dst = 0x433 };
	struct rpmsg_channel_info stat = { .name = "ampsoc-t14",
					   .src = RPMSG_ADDR_ANY, .dst = 0x434 };
	struct rpmsg_channel_info ns = { .name = "rpmsg_ns",
					 .src = RPMSG_ADDR_ANY,
					 .dst = AMPSOC_RPMSG_NS_ADDR };
	struct rpmsg_channel_info twin = { .name = "ampsoc-t17", .src = 0x97,
					   .dst = 0x437 };
	unsigned int base_p, base_r;
	struct ampsoc_rpmsg_stats s;
	struct rpmsg_device *c;
	struct fixture f;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	if (!KTAP_EXPECT(t, ampsoc_rpmsg_create_channel(f.ctrl, &local)))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_add_static_channels(&ampsoc_rpmsg_lb_vdev(f.lb)->dev,
							   &stat, 1), 0);
	base_p = count_locked(&nprobed);
	base_r = count_locked(&nremoved);
	ampsoc_rpmsg_lb_announce(f.lb, "rpmsg_ns", AMPSOC_RPMSG_NS_ADDR, true);
	ampsoc_rpmsg_lb_announce(f.lb, "rpmsg_ctrl", 0, true);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t13", 0x433, true);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t14", 0x434, true);
	ampsoc_rpmsg_lb_announce(f.lb, "rpmsg_ns", 0x460, false);
	ampsoc_rpmsg_lb_announce(f.lb, "rpmsg_ctrl", 0x461, false);
	/* What the remote announced stays its to take back. */
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t15", 0x435, false);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t15", 0x435, true);
	/* The remote sends in order: "sync" comes after all of them. */
	ampsoc_rpmsg_lb_send(f.lb, LB_ECHO_BASE, f.ept->addr, "sync", 4);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1));
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.ns_rejected, 6);
	KTAP_EXPECT(t, chan_get(13) && chan_get(14));
	KTAP_EXPECT_EQ(t, count_locked(&nprobed) - base_p, 1);
	KTAP_EXPECT_EQ(t, count_locked(&nremoved) - base_r, 1);
	c = ampsoc_rpmsg_find_device(&ampsoc_rpmsg_lb_vdev(f.lb)->dev, &ns);
	if (KTAP_EXPECT(t, c))
		put_device(&c->dev);
	c = ctrl_of(f.lb);
	if (KTAP_EXPECT(t, c))
		put_device(&c->dev);
	/* Linux's channel under the same name and address: the remote's goes. */
	base_p = count_locked(&nprobed);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t17", 0x437, false);
	KTAP_EXPECT(t, wait_event_timeout(chan_wq,
					  count_locked(&nprobed) > base_p,
					  msecs_to_jiffies(WAIT_MS)));
	KTAP_EXPECT(t, ampsoc_rpmsg_create_channel(f.ctrl, &twin));
	base_r = count_locked(&nremoved);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t17", 0x437, true);
	KTAP_EXPECT(t, wait_event_timeout(chan_wq,
					  count_locked(&nremoved) > base_r,
					  msecs_to_jiffies(WAIT_MS)));
	c = ampsoc_rpmsg_find_device(&ampsoc_rpmsg_lb_vdev(f.lb)->dev, &twin);
	if (KTAP_EXPECT(t, c))
		put_device(&c->dev);
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.ns_rejected, 6);
	/* The name service still works. */
	base_p = count_locked(&nprobed);
	ampsoc_rpmsg_lb_announce(f.lb, "ampsoc-t16", 0x436, false);
	KTAP_EXPECT(t, wait_event_timeout(chan_wq,
					  count_locked(&nprobed) > base_p,
					  msecs_to_jiffies(WAIT_MS)));
out:
	/* Removal waits for the rx path: it returns only if that is free. */
	fixture_down(&f);
}

/* --- data --- */

static void integrity_random_sizes(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_lb_stats ls;
	struct fixture f;
	unsigned int i, len;
	u8 *buf;
	int ret = 0;

	if (!integrity_count) {
		KTAP_SKIP(t, "integrity_count=0");
		return;
	}
	buf = kmalloc(512, GFP_KERNEL);
	if (!KTAP_EXPECT(t, buf))
		return;
	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	for (i = 0; i < integrity_count && !ret; i++) {
		len = sizeof(struct lb_tagged) +
			get_random_u32_below(496 - sizeof(struct lb_tagged) + 1);
		make_tagged(buf, len, i);
		ret = ampsoc_rpmsg_sendto(f.ept, buf, len, LB_ECHO_BASE);
	}
	KTAP_EXPECT_EQ(t, ret, 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, integrity_count));
	KTAP_EXPECT_EQ(t, f.rx.received, integrity_count);
	KTAP_EXPECT_EQ(t, f.rx.bad, 0);
	ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
	KTAP_EXPECT_EQ(t, ls.bad_crc, 0);
	KTAP_EXPECT_EQ(t, ls.reordered, 0);
	KTAP_EXPECT_EQ(t, ls.msgs, integrity_count);
out:
	fixture_down(&f);
	kfree(buf);
}

struct worker {
	struct rpmsg_endpoint *ept;
	struct rx_state rx;
	unsigned int n;
	u32 dst;
	int ret;
	struct completion done;
};

static int worker_fn(void *data)
{
	struct worker *w = data;
	u8 buf[128];
	unsigned int i;

	w->ret = 0;
	for (i = 0; i < w->n && !w->ret; i++)
		w->ret = ampsoc_rpmsg_sendto(w->ept, buf,
					     make_tagged(buf, 16 + i % 100, i),
					     w->dst);
	complete(&w->done);
	return 0;
}

static void concurrent_endpoints(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };
	struct ampsoc_rpmsg_lb_stats ls;
	struct worker *w;
	struct fixture f;
	unsigned int i;

	w = kcalloc(NCHAN, sizeof(*w), GFP_KERNEL);
	if (!KTAP_EXPECT(t, w))
		return;
	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	for (i = 0; i < NCHAN; i++) {
		rx_init(&w[i].rx);
		init_completion(&w[i].done);
		w[i].n = 500;
		w[i].dst = LB_ECHO_BASE + i;
		w[i].ept = ampsoc_rpmsg_create_ept(f.ctrl, rx_cb, &w[i].rx, any);
		if (!KTAP_EXPECT(t, w[i].ept))
			goto destroy;
	}
	for (i = 0; i < NCHAN; i++)
		if (IS_ERR(kthread_run(worker_fn, &w[i], "rpmsg-w%u", i)))
			complete(&w[i].done);
	for (i = 0; i < NCHAN; i++) {
		KTAP_EXPECT(t, wait_for_completion_timeout(&w[i].done,
							   msecs_to_jiffies(60000)));
		KTAP_EXPECT_EQ(t, w[i].ret, 0);
		KTAP_EXPECT(t, rx_wait(&w[i].rx, w[i].n));
		KTAP_EXPECT_EQ(t, w[i].rx.bad, 0);
	}
	ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
	KTAP_EXPECT_EQ(t, ls.bad_crc, 0);
	KTAP_EXPECT_EQ(t, ls.reordered, 0);
destroy:
	for (i = 0; i < NCHAN; i++)
		ampsoc_rpmsg_destroy_ept(w[i].ept);
out:
	fixture_down(&f);
	kfree(w);
}

static void remote_removal_mid_traffic(struct ampsoc_ktap_test *t)
{
	struct sender snd[4];
	struct fixture f;
	unsigned long t0;
	unsigned int i, n = 0;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	ampsoc_rpmsg_lb_freeze(f.lb, true);
	while (!ampsoc_rpmsg_trysendto(f.ept, "x", 1, LB_SINK_ADDR))
		n++;
	for (i = 0; i < ARRAY_SIZE(snd); i++) {
		init_completion(&snd[i].done);
		snd[i].ept = f.ept;
		snd[i].dst = LB_SINK_ADDR;
		if (IS_ERR(kthread_run(sender_fn, &snd[i], "rpmsg-b%u", i))) {
			snd[i].ret = -ENODEV;
			complete(&snd[i].done);
		}
	}
	t0 = jiffies;
	put_device(&f.ctrl->dev);
	f.ctrl = NULL;
	ampsoc_rpmsg_lb_destroy(f.lb);
	f.lb = NULL;
	for (i = 0; i < ARRAY_SIZE(snd); i++) {
		KTAP_EXPECT(t, wait_for_completion_timeout(&snd[i].done,
							   msecs_to_jiffies(5000)));
		KTAP_EXPECT_EQ(t, snd[i].ret, -ENODEV);
	}
	/* nobody waited out the 15 s tx timeout */
	KTAP_EXPECT(t, time_before(jiffies, t0 + msecs_to_jiffies(10000)));
	/* the endpoint outlives its remote and fails cleanly */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "x", 1, LB_SINK_ADDR), -ENODEV);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_trysendto(f.ept, "x", 1, LB_SINK_ADDR), -ENODEV);
	KTAP_EXPECT(t, ampsoc_rpmsg_poll(f.ept, NULL, NULL) & EPOLLERR);
	KTAP_EXPECT(t, IS_ERR(ampsoc_rpmsg_get_tx_buffer(f.ept, &i, false)));
out:
	fixture_down(&f);
}

/*
 * rx work queued after removal cancelled it would run on a freed
 * transport. A kprobe on queue_work_on() holds the first rx_work queued
 * by an rx interrupt's pass (one that ended on its budget) for up to a
 * second, until the removal started meanwhile reaches del_vqs, which comes
 * after its cancel_work_sync(): the work must not be queued after that.
 * The burst goes to an address with no endpoint, so that nothing but the
 * device holds the transport.
 */
static struct {
	struct ampsoc_rpmsg_lb *lb;
	atomic_t armed;
	atomic_t held;
	bool late;
} dq;

static int dq_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct work_struct *work = (void *)regs_get_kernel_argument(regs, 2);
	char name[KSYM_SYMBOL_LEN];
	u64 end;

	if (!atomic_read(&dq.armed) || !work || work == current_work())
		return 0;
	sprint_symbol_no_offset(name, (unsigned long)work->func);
	if (strncmp(name, "vrp_rx_work", 11) || atomic_xchg(&dq.armed, 0) != 1)
		return 0;
	/*
	 * A probe handler may run like an NMI (int3): no locks, an NMI-safe
	 * clock, and a bounded wait on a condition.
	 */
	atomic_set(&dq.held, 1);
	end = ktime_get_mono_fast_ns() + NSEC_PER_SEC;
	while (!ampsoc_rpmsg_lb_queues_deleting(dq.lb) &&
	       ktime_get_mono_fast_ns() < end)
		cpu_relax();
	dq.late = ampsoc_rpmsg_lb_queues_deleting(dq.lb);
	return 0;
}

static void remove_while_deferring(struct ampsoc_ktap_test *t)
{
	struct kprobe kp = {
		.symbol_name = "queue_work_on",
		.pre_handler = dq_pre,
	};
	int ret;

	dq.lb = lb_new(0, 0, true, NULL);
	if (!KTAP_EXPECT(t, !IS_ERR(dq.lb)))
		return;
	dq.late = false;
	atomic_set(&dq.held, 0);
	atomic_set(&dq.armed, 1);
	ret = register_kprobe(&kp);
	if (ret) {
		ampsoc_rpmsg_lb_destroy(dq.lb);
		KTAP_SKIP(t, "no kprobe on queue_work_on: %d", ret);
		return;
	}
	/* More than one pass's budget at once. */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_stream(dq.lb, 0x7000, 1000, 16), 0);
	KTAP_EXPECT(t, poll_until(atomic_read(&dq.held)));
	ampsoc_rpmsg_lb_destroy(dq.lb);
	atomic_set(&dq.armed, 0);
	unregister_kprobe(&kp);
	KTAP_EXPECT(t, !dq.late);
}

/* --- beyond mainline --- */

static void buffer_size_negotiation(struct ampsoc_ktap_test *t)
{
	static const struct { u32 offer; int mtu; bool shm; } c[] = {
		{ 2048, 2032, true }, { 700, 496, true }, { 0, 496, true },
		{ 4096, 4080, false },
	};
	u8 *buf = kzalloc(4096, GFP_KERNEL);
	struct fixture f;
	unsigned int i;

	if (!KTAP_EXPECT(t, buf))
		return;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (fixture_up(t, &f, 0, c[i].offer, c[i].shm)) {
			KTAP_EXPECT_EQ(t, ampsoc_rpmsg_get_mtu(f.ept), c[i].mtu);
			KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, buf, c[i].mtu,
							      LB_ECHO_BASE), 0);
			KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, buf, c[i].mtu + 1,
							      LB_ECHO_BASE), -EMSGSIZE);
			KTAP_EXPECT(t, rx_wait(&f.rx, 1));
			KTAP_EXPECT_EQ(t, f.rx.last_len, c[i].mtu);
		}
		fixture_down(&f);
	}
	kfree(buf);
}

static int flow_events;
static int flow_cb(struct rpmsg_device *rpdev, void *priv, bool enable)
{
	WRITE_ONCE(flow_events, flow_events + 1);
	return 0;
}

static void flow_control(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_lb_stats ls;
	struct fixture f;

	flow_events = 0;
	if (!fixture_up(t, &f, BIT_ULL(AMPSOC_VIRTIO_RPMSG_F_FC), 0, true))
		goto out;
	f.ept->flow_cb = flow_cb;
	/* the remote pauses us */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_get_outgoing_flow(f.ept), 1);
	ampsoc_rpmsg_lb_pause(f.lb, f.ept->addr, true);
	KTAP_EXPECT(t, poll_until(!ampsoc_rpmsg_get_outgoing_flow(f.ept)));
	/* the state changes before the callback runs: wait for both */
	KTAP_EXPECT(t, poll_until(READ_ONCE(flow_events) == 1));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_trysendto(f.ept, "x", 1, LB_ECHO_BASE), -EAGAIN);
	KTAP_EXPECT(t, !(ampsoc_rpmsg_poll(f.ept, NULL, NULL) & EPOLLOUT));
	ampsoc_rpmsg_lb_pause(f.lb, f.ept->addr, false);
	KTAP_EXPECT(t, poll_until(ampsoc_rpmsg_get_outgoing_flow(f.ept) == 1));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "x", 1, LB_ECHO_BASE), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1));
	/*
	 * We pause the remote's stream, then let it go. A pause binds the
	 * remote once it has read it (docs/rpmsg.md): a remote already in
	 * the middle of a pass may send up to a pass's worth before it
	 * reads its inbox. So start the stream only after the pause was
	 * read; from then on nothing may come.
	 */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_set_flow_control(f.ept, true, LB_STREAM_ADDR), 0);
	KTAP_EXPECT(t, poll_until(({ ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
				     ls.fc_paused == 1; })));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_stream(f.lb, f.ept->addr, 100, 64), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "y", 1, LB_ECHO_BASE), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 2));
	ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
	KTAP_EXPECT_EQ(t, ls.fc_paused, 1);
	KTAP_EXPECT_EQ(t, ls.stream_sent, 0);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_set_flow_control(f.ept, false, LB_STREAM_ADDR), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 102));
	KTAP_EXPECT_EQ(t, f.rx.bad, 0);
out:
	fixture_down(&f);
}

static void flow_control_not_negotiated(struct ampsoc_ktap_test *t)
{
	struct fixture f;

	if (fixture_up(t, &f, 0, 0, true))
		KTAP_EXPECT_EQ(t, ampsoc_rpmsg_set_flow_control(f.ept, true, 0x400),
			       -EOPNOTSUPP);
	fixture_down(&f);
}

struct zc_state {
	struct rx_state rx;
	struct rpmsg_endpoint *ept;
	void *held[300];
	unsigned int nheld;
	int hold_ret;
};

static int zc_cb(struct rpmsg_device *rpdev, void *data, int len, void *priv,
		 u32 src)
{
	struct zc_state *z = priv;

	if (z->nheld < ARRAY_SIZE(z->held)) {
		z->hold_ret = ampsoc_rpmsg_hold_rx_buffer(z->ept, data);
		if (!z->hold_ret)
			z->held[z->nheld++] = data;
	}
	return rx_cb(rpdev, data, len, &z->rx, src);
}

static void zero_copy(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };
	struct ampsoc_rpmsg_lb_stats ls;
	struct zc_state *z;
	struct fixture f;
	unsigned int i, cap;
	void *p;

	z = kzalloc(sizeof(*z), GFP_KERNEL);
	if (!KTAP_EXPECT(t, z))
		return;
	rx_init(&z->rx);
	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	z->ept = ampsoc_rpmsg_create_ept(f.ctrl, zc_cb, z, any);
	if (!KTAP_EXPECT(t, z->ept))
		goto out;
	/* tx: fill a buffer in place and send it */
	p = ampsoc_rpmsg_get_tx_buffer(z->ept, &cap, true);
	if (KTAP_EXPECT(t, !IS_ERR(p))) {
		KTAP_EXPECT_EQ(t, cap, 496);
		memcpy(p, "zero-copy", 9);
		KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto_nocopy(z->ept, p, 9,
							     LB_ECHO_BASE), 0);
	}
	p = ampsoc_rpmsg_get_tx_buffer(z->ept, &cap, false);
	if (KTAP_EXPECT(t, !IS_ERR(p)))
		ampsoc_rpmsg_release_tx_buffer(z->ept, p);
	KTAP_EXPECT(t, rx_wait(&z->rx, 1));
	KTAP_EXPECT(t, z->nheld == 1 && !memcmp(z->held[0], "zero-copy", 9));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_hold_rx_buffer(z->ept, p), -EINVAL);
	/* hold every rx buffer: the remote must wait for us */
	for (i = 0; i < 299; i++)
		ampsoc_rpmsg_sendto(z->ept, "h", 1, LB_ECHO_BASE);
	KTAP_EXPECT(t, rx_wait(&z->rx, 256));
	ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
	KTAP_EXPECT_EQ(t, z->rx.received, 256);
	for (i = 0; i < z->nheld; i++)
		ampsoc_rpmsg_release_rx_buffer(z->ept, z->held[i]);
	KTAP_EXPECT(t, rx_wait(&z->rx, 300));
	z->nheld = ARRAY_SIZE(z->held);
	ampsoc_rpmsg_destroy_ept(z->ept);
out:
	fixture_down(&f);
	kfree(z);
}

/*
 * A held rx buffer handed to another thread and released at once, racing
 * the end of the callback that held it, must go back to the remote
 * exactly once: after 20000 such messages, every rx buffer is in the ring
 * again, counted by the remote.
 */
struct zr_state {
	struct rpmsg_endpoint *ept;
	void *slot;
	unsigned long received;
	unsigned long held;
	wait_queue_head_t wq;
};

static int zr_cb(struct rpmsg_device *rpdev, void *data, int len, void *priv,
		 u32 src)
{
	struct zr_state *z = priv;
	u64 end = ktime_get_ns() + 5 * NSEC_PER_MSEC;

	/*
	 * One in flight: the releaser, on another CPU, takes the last one
	 * at once and gives this one back while we return.
	 */
	while (READ_ONCE(z->slot) && ktime_get_ns() < end)
		cpu_relax();
	if (!READ_ONCE(z->slot) && !ampsoc_rpmsg_hold_rx_buffer(z->ept, data)) {
		z->held++;
		/* the hold before the releaser sees the buffer */
		smp_store_release(&z->slot, data);
	}
	WRITE_ONCE(z->received, z->received + 1);
	wake_up(&z->wq);
	return 0;
}

static int zr_releaser(void *arg)
{
	struct zr_state *z = arg;
	unsigned int spins = 0;
	void *p;

	while (!kthread_should_stop()) {
		/* pairs with the release in zr_cb() */
		p = smp_load_acquire(&z->slot);
		if (p) {
			ampsoc_rpmsg_release_rx_buffer(z->ept, p);
			/* the release before the callback may hand another */
			smp_store_release(&z->slot, NULL);
		} else if (!(++spins % 64)) {
			cond_resched();
		} else {
			cpu_relax();
		}
	}
	return 0;
}

static void zero_copy_release_race(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info any = { .src = RPMSG_ADDR_ANY };
	const unsigned long n = 20000;
	struct task_struct *rel;
	struct fixture f = {};
	struct zr_state *z;
	unsigned long seen;

	z = kzalloc(sizeof(*z), GFP_KERNEL);
	if (!KTAP_EXPECT(t, z))
		return;
	init_waitqueue_head(&z->wq);
	if (num_online_cpus() < 2) {
		KTAP_SKIP(t, "the releaser needs a CPU of its own");
		goto out;
	}
	if (!__fixture_up(t, &f, lb_new_own_cpu()))
		goto out;
	z->ept = ampsoc_rpmsg_create_ept(f.ctrl, zr_cb, z, any);
	if (!KTAP_EXPECT(t, z->ept))
		goto out;
	rel = kthread_create(zr_releaser, z, "rpmsg-zr");
	if (!KTAP_EXPECT(t, !IS_ERR(rel)))
		goto destroy;
	kthread_bind(rel, cpumask_last(cpu_online_mask));
	wake_up_process(rel);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_stream(f.lb, z->ept->addr, n, 16), 0);
	/*
	 * A stream that stops is the failure, not a slow one: a callback
	 * waits up to 5 ms for a releaser whose vCPU the host may not run,
	 * so on a loaded host the 20000 can take minutes. Fail after 10 s
	 * without a message.
	 */
	do {
		seen = READ_ONCE(z->received);
		if (wait_event_timeout(z->wq, READ_ONCE(z->received) >= n,
				       msecs_to_jiffies(10000)))
			break;
	} while (READ_ONCE(z->received) != seen);
	if (!KTAP_EXPECT(t, READ_ONCE(z->received) >= n)) {
		struct ampsoc_rpmsg_lb_stats ls;

		ampsoc_rpmsg_lb_get_stats(f.lb, &ls);
		ampsoc_ktap_line(4, "# %s: stalled: sent %llu kicks %llu irqs %llu rx_avail %u",
				 t->name, ls.stream_sent, ls.kicks, ls.irqs,
				 ampsoc_rpmsg_lb_rx_avail(f.lb));
	}
	kthread_stop(rel);
	if (z->slot)
		ampsoc_rpmsg_release_rx_buffer(z->ept, z->slot);
	ampsoc_ktap_line(4, "# %s: %lu of %lu messages held and released by another thread",
			 t->name, z->held, z->received);
	/* the race ran often enough: the old code lost all 256 in fewer */
	KTAP_EXPECT(t, z->held >= n / 10);
	KTAP_EXPECT(t, poll_until(ampsoc_rpmsg_lb_rx_avail(f.lb) == 256));
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_rx_avail(f.lb), 256);
destroy:
	ampsoc_rpmsg_destroy_ept(z->ept);
out:
	fixture_down(&f);
	kfree(z);
}

/* --- hostile remote --- */

static void hostile_recoverable(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_stats s;
	static const u8 nonul[40] = { [0 ... 31] = 'A' };
	struct ampsoc_rpmsg_ns_msg ns = {};
	char name[RPMSG_NAME_SIZE];
	struct fixture f;
	unsigned int i;

	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	ampsoc_rpmsg_lb_inject(f.lb, LB_BAD_USED_LEN, f.ept->addr);
	ampsoc_rpmsg_lb_inject(f.lb, LB_BAD_HDR_LEN, f.ept->addr);
	ampsoc_rpmsg_lb_inject(f.lb, LB_BAD_SHORT, f.ept->addr);
	ampsoc_rpmsg_lb_inject(f.lb, LB_BAD_DESC_ADDR, f.ept->addr);
	ampsoc_rpmsg_lb_send(f.lb, 0x400, 0x12345, "who", 3);
	ampsoc_rpmsg_lb_send(f.lb, 0x400, AMPSOC_RPMSG_NS_ADDR, nonul, 40);
	ampsoc_rpmsg_lb_send(f.lb, 0x400, AMPSOC_RPMSG_NS_ADDR, &ns, 20);
	ns.flags = cpu_to_le32(7);
	strscpy(ns.name, "x", sizeof(ns.name));
	ampsoc_rpmsg_lb_send(f.lb, 0x400, AMPSOC_RPMSG_NS_ADDR, &ns, sizeof(ns));
	ampsoc_rpmsg_lb_send(f.lb, 0x400, f.ept->addr, "sync", 4);
	KTAP_EXPECT(t, rx_wait(&f.rx, 1));
	KTAP_EXPECT_EQ(t, f.rx.received, 1);
	KTAP_EXPECT_EQ(t, f.rx.last_len, 4);
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.bad_len, 3);
	KTAP_EXPECT_EQ(t, s.bad_addr, 1);
	KTAP_EXPECT_EQ(t, s.unknown_dst, 1);
	KTAP_EXPECT_EQ(t, s.ns_rejected, 3);
	/* name-service flood: bounded by max_channels (256) */
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "flood-%u", i);
		while (ampsoc_rpmsg_lb_announce(f.lb, name, 0x1000 + i, false) == -ENOBUFS)
			usleep_range(1000, 2000);
	}
	ampsoc_rpmsg_lb_send(f.lb, 0x400, f.ept->addr, "sync", 4);
	KTAP_EXPECT(t, rx_wait(&f.rx, 2));
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.ns_rejected, 3 + 300 - 256);
	/* still healthy */
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "ok", 2, LB_ECHO_BASE), 0);
	KTAP_EXPECT(t, rx_wait(&f.rx, 3));
out:
	fixture_down(&f);
}

static void hostile_ring_corruption(struct ampsoc_ktap_test *t)
{
	static const enum ampsoc_rpmsg_lb_bad kinds[] = {
		LB_BAD_USED_ID, LB_BAD_USED_IDX, LB_BAD_DESC_NEXT,
	};
	struct ampsoc_rpmsg_stats s;
	struct fixture f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (fixture_up(t, &f, 0, 0, true)) {
			ampsoc_rpmsg_lb_inject(f.lb, kinds[i], f.ept->addr);
			KTAP_EXPECT(t, poll_until(({ stats_of(f.ctrl, &s);
						     s.bad_ring >= 1; })));
			KTAP_EXPECT(t, poll_until(ampsoc_rpmsg_sendto(f.ept, "x", 1,
								      LB_ECHO_BASE) == -ENODEV));
			KTAP_EXPECT_EQ(t, f.rx.received, 0);
		}
		fixture_down(&f);
	}
}

/*
 * A remote that rewrites descriptor flags (NEXT, INDIRECT) and used ids
 * from another CPU while it streams to Linux and takes Linux's messages
 * (ampsoc_rpmsg_lb_flagrace()). 6.1's virtio_ring follows NEXT in the
 * descriptor table when it frees a buffer, so a transport that checks the
 * ring and then lets virtio_ring read it again loses the race sooner or
 * later and spins forever with a lock held. Every round must end with the
 * corruption detected: counted, the transport dead, senders refused at
 * once, and the remote removable.
 *
 * Under TCG on a busy host the two vCPUs seldom run at the same instant,
 * so a window of a few hundred instructions between two reads would
 * almost never see the racer's writes. A kprobe holds virtqueue_get_buf()
 * (where a transport built on virtio_ring reads the ring again)
 * race_window_us at its entry while the race runs, as an interrupt or a
 * slower CPU would. This transport never calls it.
 */
static unsigned int race_window_us = 500;
module_param(race_window_us, uint, 0444);
MODULE_PARM_DESC(race_window_us, "how long the flag race holds virtqueue_get_buf()");

static atomic_t race_armed;

static int race_window_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (atomic_read(&race_armed))
		udelay(race_window_us);
	return 0;
}

static void hostile_flag_race(struct ampsoc_ktap_test *t)
{
	struct kprobe kp = {
		.symbol_name = "virtqueue_get_buf",
		.pre_handler = race_window_pre,
	};
	struct ampsoc_rpmsg_stats s;
	unsigned int i, dead = 0;
	bool probed;
	struct fixture f;

	if (num_online_cpus() < 2) {
		KTAP_SKIP(t, "the racer needs a CPU of its own");
		return;
	}
	probed = !register_kprobe(&kp);
	for (i = 0; i < race_rounds; i++) {
		if (__fixture_up(t, &f, lb_new_own_cpu()) &&
		    KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_flagrace(f.lb, true), 0) &&
		    KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_stream(f.lb, f.ept->addr,
							     1000000, 16), 0)) {
			atomic_set(&race_armed, 1);
			/* Linux's tx buffers come back through raced rings too. */
			if (poll_until(ampsoc_rpmsg_trysendto(f.ept, "r", 1,
							      LB_SINK_ADDR) == -ENODEV))
				dead++;
			atomic_set(&race_armed, 0);
			stats_of(f.ctrl, &s);
			KTAP_EXPECT(t, s.bad_ring >= 1);
			KTAP_EXPECT_EQ(t, s.bad_len, 0);
			KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "x", 1,
							      LB_ECHO_BASE), -ENODEV);
		}
		fixture_down(&f);
	}
	if (probed)
		unregister_kprobe(&kp);
	KTAP_EXPECT_EQ(t, dead, race_rounds);
}

/*
 * A used id that is in range but names a tx buffer Linux holds (it took
 * the buffer back and has not sent it again) breaks the tx ring for good.
 * The transport must count it and fail the sender at once, not let it
 * wait out the 15 s timeout.
 */
static void hostile_tx_id_not_a_head(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rpmsg_stats s;
	unsigned int i, n = 0, cap;
	struct virtqueue *vq;
	void *held, *p, **all;
	unsigned long t0;
	struct fixture f = {};
	int ret = 0;

	all = kcalloc(256, sizeof(*all), GFP_KERNEL);
	if (!KTAP_EXPECT(t, all) || !fixture_up(t, &f, 0, 0, true))
		goto out;
	list_for_each_entry(vq, &ampsoc_rpmsg_lb_vdev(f.lb)->vqs, list)
		n = virtqueue_get_vring_size(vq);
	n = min(n, 256u);	/* tx buffers: one per entry, 256 at most */
	/* Use every fresh tx buffer once; the remote consumes them all. */
	for (i = 0; i < n && !ret; i++)
		ret = ampsoc_rpmsg_sendto(f.ept, "fill", 4, LB_SINK_ADDR);
	KTAP_EXPECT_EQ(t, ret, 0);
	if (!KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_wait_sink(f.lb, n, 10000), 0))
		goto out;
	/*
	 * Take every buffer back and keep the first one, the one the first
	 * used entry named: the entry the remote hands back a second time.
	 */
	held = NULL;
	for (i = 0; i < n; i++) {
		p = ampsoc_rpmsg_get_tx_buffer(f.ept, &cap, false);
		if (!KTAP_EXPECT(t, !IS_ERR_OR_NULL(p)))
			goto out;
		all[i] = p;
		if (!held || p < held)
			held = p;
	}
	for (i = 0; i < n; i++)
		if (all[i] != held)
			ampsoc_rpmsg_release_tx_buffer(f.ept, all[i]);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_lb_replay_tx_used(f.lb), 0);
	/* n - 1 sends use the buffers; the next one meets the replay. */
	t0 = jiffies;
	for (i = 0; i < n && !ret; i++)
		ret = ampsoc_rpmsg_sendto(f.ept, "more", 4, LB_SINK_ADDR);
	KTAP_EXPECT_EQ(t, ret, -ENODEV);
	KTAP_EXPECT_EQ(t, i, n);
	KTAP_EXPECT(t, time_before(jiffies, t0 + 5 * HZ));
	stats_of(f.ctrl, &s);
	KTAP_EXPECT_EQ(t, s.bad_ring, 1);
	KTAP_EXPECT_EQ(t, ampsoc_rpmsg_sendto(f.ept, "x", 1, LB_SINK_ADDR),
		       -ENODEV);
	ampsoc_rpmsg_release_tx_buffer(f.ept, held);
out:
	fixture_down(&f);
	kfree(all);
}

/* A poll() in progress, as fs/select.c keeps it: one entry per queue. */
struct poller {
	poll_table pt;
	wait_queue_head_t *head;
	wait_queue_entry_t wait;
};

static void poller_queue(struct file *filp, wait_queue_head_t *head,
			 poll_table *pt)
{
	struct poller *p = container_of(pt, struct poller, pt);

	if (p->head)
		return;
	p->head = head;
	init_waitqueue_entry(&p->wait, current);
	add_wait_queue(head, &p->wait);
}

/*
 * A task sleeping in poll() on an endpoint's file has an entry on the
 * transport's wait queue, and removes it only when its poll() returns,
 * which may be after the remote, the endpoint and the transport are gone
 * and another transport took its memory (fuzz-remote found this: the
 * poller's list_del() found a freshly initialised queue in CI). Here the
 * test is the poller: it polls, lets the remote go and come back, then
 * leaves. With the transport freed under it, that last step is a
 * list_del corruption (or KASAN's use-after-free).
 */
static void poll_outlives_transport(struct ampsoc_ktap_test *t)
{
	struct poller p = {};
	struct fixture f, g;
	__poll_t mask;

	init_poll_funcptr(&p.pt, poller_queue);
	if (!fixture_up(t, &f, 0, 0, true))
		goto out;
	mask = ampsoc_rpmsg_poll(f.ept, NULL, &p.pt);
	KTAP_EXPECT(t, mask & EPOLLOUT);
	if (!KTAP_EXPECT(t, p.head))
		goto out;
	/* the remote goes: endpoint, channel and transport with it */
	fixture_down(&f);
	memset(&f, 0, sizeof(f));
	/* another transport, likely in the same memory */
	if (fixture_up(t, &g, 0, 0, true))
		fixture_down(&g);
	/* our poll() returns now */
	remove_wait_queue(p.head, &p.wait);
	p.head = NULL;
out:
	if (p.head)
		remove_wait_queue(p.head, &p.wait);
	fixture_down(&f);
}

static const struct ampsoc_ktap_case bus_cases[] = {
	AMPSOC_KTAP_CASE(endpoint_addresses),
	AMPSOC_KTAP_CASE(rx_dispatch_by_address),
	AMPSOC_KTAP_CASE(send_variants),
	AMPSOC_KTAP_CASE(trysend_full_and_blocking),
	{}
};

static const struct ampsoc_ktap_case ns_cases[] = {
	AMPSOC_KTAP_CASE(channels_from_announcements),
	AMPSOC_KTAP_CASE(dynamic_channel_cycles),
	AMPSOC_KTAP_CASE(local_and_static_channels),
	AMPSOC_KTAP_CASE(ns_not_negotiated),
	AMPSOC_KTAP_CASE(ns_refuses_linux_channels),
	{}
};

static const struct ampsoc_ktap_case data_cases[] = {
	AMPSOC_KTAP_CASE(integrity_random_sizes),
	AMPSOC_KTAP_CASE(concurrent_endpoints),
	AMPSOC_KTAP_CASE(remote_removal_mid_traffic),
	AMPSOC_KTAP_CASE(remove_while_deferring),
	AMPSOC_KTAP_CASE(poll_outlives_transport),
	{}
};

static const struct ampsoc_ktap_case ext_cases[] = {
	AMPSOC_KTAP_CASE(buffer_size_negotiation),
	AMPSOC_KTAP_CASE(flow_control),
	AMPSOC_KTAP_CASE(flow_control_not_negotiated),
	AMPSOC_KTAP_CASE(zero_copy),
	AMPSOC_KTAP_CASE(zero_copy_release_race),
	{}
};

static const struct ampsoc_ktap_case hostile_cases[] = {
	AMPSOC_KTAP_CASE(hostile_recoverable),
	AMPSOC_KTAP_CASE(hostile_ring_corruption),
	AMPSOC_KTAP_CASE(hostile_tx_id_not_a_head),
	AMPSOC_KTAP_CASE(hostile_flag_race),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(rpmsg_bus, bus_cases),
	AMPSOC_KTAP_SUITE(rpmsg_ns, ns_cases),
	AMPSOC_KTAP_SUITE(rpmsg_data, data_cases),
	AMPSOC_KTAP_SUITE(rpmsg_ext, ext_cases),
	AMPSOC_KTAP_SUITE(rpmsg_hostile, hostile_cases),
};

static int __init rpmsg_test_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < NCHAN; i++)
		snprintf(test_ids[i].name, RPMSG_NAME_SIZE, "ampsoc-t%02u", i);
	ret = ampsoc_rpmsg_register_driver(&test_driver);
	if (ret)
		return ret;
	for (i = 0; suite && i < ARRAY_SIZE(suites); i++)
		if (!strcmp(suites[i].name, suite))
			break;
	if (!suite)
		ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	else if (i < ARRAY_SIZE(suites))
		ampsoc_ktap_run(&suites[i], 1);
	else
		pr_err("no suite %s\n", suite);
	return 0;
}
module_init(rpmsg_test_init);

static void __exit rpmsg_test_exit(void)
{
	ampsoc_rpmsg_unregister_driver(&test_driver);
	ampsoc_ktap_done();
}
module_exit(rpmsg_test_exit);

MODULE_DESCRIPTION("ampsoc rpmsg KTAP tests");
MODULE_LICENSE("GPL");

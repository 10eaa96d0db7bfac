// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the SDK's device-side virtqueue and rpmsg library.
 *
 * This file is both halves of the link: a platform_ port for the library
 * (memory at a fake device address, doorbells counted, a fake clock) and a
 * virtio driver playing Linux's virtio_rpmsg_bus on the same rings, laid
 * out as Linux's vring_init() does. It checks the wire format (16-byte
 * header, 40-byte name-service message at address 53), message integrity,
 * zero copy, kick suppression and every kind of bad input from the driver.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ktap_user.h>
#include <amp/env.h>
#include <amp/log.h>
#include <amp/platform.h>
#include <amp/rpmsg.h>
#include <amp/rsc_table.h>
#include <amp/virtqueue.h>

#define MEM_DA		0x10200000ull
#define MEM_SIZE	0x100000u
#define NUM		64
#define ALIGN		4096
#define VRING0_DA	(MEM_DA + 0x0000)
#define VRING1_DA	(MEM_DA + 0x8000)
#define BUFS_DA		(MEM_DA + 0x10000)
#define BUF		512
#define STRIDE		4096	/* room for negotiated sizes */
#define LINUX_ADDR	0x401

/* ---- the platform port: a simulated core ------------------------------ */

static uint8_t *mem;
static unsigned int kicks, irq_pending, kicks_by_id[2];
static uint64_t now_ns;
static void (*wait_hook)(void);

void *platform_da_to_va(uint64_t da, uint64_t len)
{
	if (da < MEM_DA || len > MEM_SIZE || da - MEM_DA > MEM_SIZE - len)
		return NULL;
	return mem + (da - MEM_DA);
}

/* The simulated core sees no DRAM of Linux's unless a test says so. */
static uint64_t sim_ddr_da, sim_ddr_len;

int platform_ddr(uint64_t *da, uint64_t *len)
{
	if (!sim_ddr_len)
		return -ENODEV;
	*da = sim_ddr_da;
	*len = sim_ddr_len;
	return 0;
}

uint64_t platform_va_to_da(const void *va)
{
	const uint8_t *p = va;

	return p >= mem && p < mem + MEM_SIZE ? MEM_DA + (p - mem) : UINT64_MAX;
}

int platform_notify_vq(uint32_t notifyid)
{
	kicks++;
	if (notifyid < 2)
		kicks_by_id[notifyid]++;
	return 0;
}

int platform_wait_irq(uint64_t timeout_ns)
{
	int n = irq_pending;

	if (wait_hook) {
		void (*hook)(void) = wait_hook;

		wait_hook = NULL;
		hook();
		return 1;
	}
	irq_pending = 0;
	if (!n && timeout_ns != UINT64_MAX)
		now_ns += timeout_ns;
	return n;
}

uint64_t platform_time_ns(void)
{
	return now_ns;
}

void platform_abort(void)
{
	abort();
}

void amp_log(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- the driver side: Linux's virtio_rpmsg_bus ------------------------ */

struct drv_vq {
	struct amp_vring_desc *desc;
	struct amp_vring_avail *avail;
	struct amp_vring_used *used;
	uint16_t avail_idx, last_used;
};

static struct drv_vq dvq[2];	/* 0: Linux rx, 1: Linux tx */
static uint32_t rx_len = BUF;	/* Linux's rx buffers (remote-to-host) */
static bool tx_busy[NUM];
AMP_RSC_VDEV_CFG_TYPE(test_vdev, 2, struct ampsoc_rpmsg_vdev_config);
static struct test_vdev vdev;

static uint64_t buf_da(unsigned int i)
{
	return BUFS_DA + (uint64_t)i * STRIDE;
}

/* Linux's descriptors: device addresses, or physical ones from drv_pa. */
static uint64_t drv_pa;

static uint64_t desc_addr(uint64_t da)
{
	return drv_pa ? drv_pa + (da - BUFS_DA) : da;
}

static void drv_vq_init(struct drv_vq *q, uint64_t da)
{
	uint8_t *p = platform_da_to_va(da, amp_vring_size(NUM, ALIGN));
	size_t avail_end = 16 * NUM + 2 * (3 + NUM);

	memset(p, 0, amp_vring_size(NUM, ALIGN));
	q->desc = (void *)p;
	q->avail = (void *)(p + 16 * NUM);
	q->used = (void *)(p + ((avail_end + ALIGN - 1) & ~(size_t)(ALIGN - 1)));
	q->avail_idx = 0;
	q->last_used = 0;
}

static void drv_publish(struct drv_vq *q, uint16_t head)
{
	q->avail->ring[q->avail_idx % NUM] = head;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	q->avail->idx = ++q->avail_idx;
}

/* Post Linux rx buffer @i (device-writable) into vring 0. */
static void drv_post_rx(unsigned int i)
{
	dvq[0].desc[i].addr = desc_addr(buf_da(i));
	dvq[0].desc[i].len = rx_len;
	dvq[0].desc[i].flags = AMP_VRING_DESC_F_WRITE;
	dvq[0].desc[i].next = 0;
	drv_publish(&dvq[0], i);
}

static void drv_reset(uint32_t gfeatures, bool post_rx)
{
	memset(mem, 0, MEM_SIZE);
	drv_vq_init(&dvq[0], VRING0_DA);
	drv_vq_init(&dvq[1], VRING1_DA);
	memset(tx_busy, 0, sizeof(tx_busy));
	memset(&vdev, 0, sizeof(vdev));
	vdev.type = AMPSOC_RSC_VDEV;
	vdev.id = AMPSOC_VIRTIO_ID_RPMSG;
	vdev.dfeatures = 1;
	vdev.gfeatures = gfeatures;
	vdev.config_len = sizeof(vdev.config);
	vdev.num_of_vrings = 2;
	vdev.vring[0] = (struct ampsoc_rsc_vring){ VRING0_DA, ALIGN, NUM, 0, 0 };
	vdev.vring[1] = (struct ampsoc_rsc_vring){ VRING1_DA, ALIGN, NUM, 1, 0 };
	vdev.status = AMP_VIRTIO_STATUS_ACKNOWLEDGE | AMP_VIRTIO_STATUS_DRIVER |
		      AMP_VIRTIO_STATUS_FEATURES_OK | AMP_VIRTIO_STATUS_DRIVER_OK;
	if (post_rx)
		for (unsigned int i = 0; i < NUM; i++)
			drv_post_rx(i);
	kicks = 0;
	irq_pending = 0;
	memset(kicks_by_id, 0, sizeof(kicks_by_id));
}

/* Return Linux tx buffers the device used. */
static void drv_reclaim_tx(void)
{
	struct drv_vq *q = &dvq[1];

	while (q->used->idx != q->last_used) {
		uint32_t id = q->used->ring[q->last_used % NUM].id;

		if (id < NUM)
			tx_busy[id] = false;
		q->last_used++;
	}
}

/* Send from Linux: a tx buffer (second half of the pool) into vring 1. */
static int drv_send_raw(uint32_t src, uint32_t dst, const void *data,
			uint16_t hdr_len, uint32_t desc_len)
{
	struct rpmsg_hdr *h;
	unsigned int i;

	drv_reclaim_tx();
	for (i = 0; i < NUM && tx_busy[i]; i++)
		;
	if (i == NUM)
		return -ENOMEM;
	tx_busy[i] = true;
	h = platform_da_to_va(buf_da(NUM + i), BUF);
	h->src = src;
	h->dst = dst;
	h->reserved = 0;
	h->len = hdr_len;
	h->flags = 0;
	memcpy(h->data, data, hdr_len <= BUF - 16 ? hdr_len : BUF - 16);
	dvq[1].desc[i].addr = desc_addr(buf_da(NUM + i));
	dvq[1].desc[i].len = desc_len;
	dvq[1].desc[i].flags = 0;
	drv_publish(&dvq[1], i);
	irq_pending++;
	return 0;
}

static int drv_send(uint32_t src, uint32_t dst, const void *data, uint16_t len)
{
	return drv_send_raw(src, dst, data, len, 16 + len);
}

/* Receive in Linux: one used buffer of vring 0, reposted at once. */
static bool drv_recv(struct rpmsg_hdr *hdr, uint8_t *data, uint32_t *used_len)
{
	struct drv_vq *q = &dvq[0];
	const struct rpmsg_hdr *h;
	uint32_t id, len;

	if (q->used->idx == q->last_used)
		return false;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	id = q->used->ring[q->last_used % NUM].id;
	len = q->used->ring[q->last_used % NUM].len;
	q->last_used++;
	if (id >= NUM)
		return false;
	h = platform_da_to_va(buf_da(id), BUF);
	*hdr = *h;
	*used_len = len;
	if (data)
		memcpy(data, h->data, h->len <= BUF - 16 ? h->len : 0);
	drv_post_rx(id);
	return true;
}

/* ---- the device application: an echo endpoint ------------------------- */

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept ept;
static unsigned int cb_calls;
static uint32_t cb_len, cb_src;
static uint8_t cb_data[BUF];
static bool echo, hold;
static void *held_data;

static int echo_cb(struct amp_rpmsg_ept *e, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	cb_calls++;
	cb_len = len;
	cb_src = src;
	memcpy(cb_data, data, len);
	if (hold && !amp_rpmsg_hold_rx(e, data))
		held_data = data;
	if (echo)
		amp_rpmsg_sendto(e, src, data, len, 0);
	return 0;
}

static unsigned int ns_calls;
static char ns_name[32];
static uint32_t ns_addr, ns_flags;

static void ns_cb(struct amp_rpmsg_dev *r, const char *name, uint32_t addr,
		  uint32_t flags, void *priv)
{
	ns_calls++;
	snprintf(ns_name, sizeof(ns_name), "%s", name);
	ns_addr = addr;
	ns_flags = flags;
}

static bool up(uint32_t gfeatures)
{
	drv_reset(gfeatures, true);
	return amp_rpmsg_init(&rdev, &vdev) == 0;
}

/* ---- tests ------------------------------------------------------------ */

static void test_init(void)
{
	bool ok = true;

	ktap_ok(sizeof(struct amp_vring_desc) == 16 &&
		sizeof(struct amp_vring_avail) == 4 &&
		sizeof(struct amp_vring_used_elem) == 8 &&
		sizeof(struct amp_vring_used) == 4 &&
		amp_vring_size(256, 16) == 4624 + 6 + 8 * 256 &&
		amp_vring_size(64, 4096) == 4096 + 6 + 8 * 64 &&
		amp_vring_size(256, 4096) == 8192 + 6 + 8 * 256,
		"vring_layout_matches_linux");

	drv_reset(1, true);
	vdev.status = AMP_VIRTIO_STATUS_ACKNOWLEDGE | AMP_VIRTIO_STATUS_DRIVER;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EAGAIN);
	vdev.status |= AMP_VIRTIO_STATUS_FAILED;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -ENODEV);
	ktap_ok(ok, "init_waits_for_driver_ok");

	ok = true;
	drv_reset(1, true);
	vdev.id = 1;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[1].da = AMPSOC_FW_RSC_ADDR_ANY;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[0].da = MEM_DA + MEM_SIZE - 0x1000;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[0].num = 48;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[0].num = 0;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[0].align = 3;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[1].da += 2;	/* misaligned */
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.vring[1].align = 2;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	drv_reset(1, true);
	vdev.num_of_vrings = 1;
	ok &= KTAP_CHECK(amp_rpmsg_init(&rdev, &vdev) == -EINVAL);
	ktap_ok(ok, "init_rejects_bad_vdev");

	/* wait_ready: Linux becomes ready while the device waits. */
	drv_reset(1, true);
	vdev.status = 0;
	wait_hook = NULL;
	ok = amp_rpmsg_wait_ready(&rdev, &vdev, 50000000) == -ETIMEDOUT;
	ktap_ok(ok && up(1) && amp_rpmsg_mtu(&rdev) == 496, "wait_ready_times_out_then_mtu_496");
}

static void test_ns(void)
{
	struct rpmsg_hdr h;
	struct ampsoc_rpmsg_ns_msg ns;
	struct amp_rpmsg_ept e2;
	uint32_t len;
	bool ok;

	ok = up(1) && amp_rpmsg_ept_create(&rdev, &ept, "rpmsg-echo", AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL) == 0;
	ok &= KTAP_CHECK(ept.addr == 1024 && ept.announced && kicks == 1 &&
			 kicks_by_id[0] == 1);
	ok &= KTAP_CHECK(drv_recv(&h, (uint8_t *)&ns, &len));
	ktap_ok(ok && h.src == 1024 && h.dst == 53 && h.len == 40 && h.flags == 0 &&
		len == 16 + 40 && !strcmp(ns.name, "rpmsg-echo") &&
		ns.addr == 1024 && ns.flags == AMPSOC_RPMSG_NS_CREATE &&
		sizeof(ns) == 40 && sizeof(h) == 16, "ns_announcement_on_the_wire");

	ok = amp_rpmsg_ept_create(&rdev, &e2, "x", 1024, AMPSOC_RPMSG_ADDR_ANY,
				  echo_cb, NULL) == -EEXIST;
	ok &= amp_rpmsg_ept_create(&rdev, &e2, "0123456789012345678901234567890123",
				   AMPSOC_RPMSG_ADDR_ANY, AMPSOC_RPMSG_ADDR_ANY, echo_cb,
				   NULL) == -EINVAL;
	ok &= amp_rpmsg_ept_create(&rdev, &e2, NULL, 53, AMPSOC_RPMSG_ADDR_ANY,
				   echo_cb, NULL) == -EEXIST;
	ok &= amp_rpmsg_ept_create(&rdev, &e2, "second", AMPSOC_RPMSG_ADDR_ANY,
				   AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL) == 0 &&
	      e2.addr == 1025 && drv_recv(&h, (uint8_t *)&ns, &len);
	amp_rpmsg_ept_destroy(&e2);
	ok &= drv_recv(&h, (uint8_t *)&ns, &len) && h.src == 1025 &&
	      ns.addr == 1025 && ns.flags == AMPSOC_RPMSG_NS_DESTROY &&
	      !strcmp(ns.name, "second");
	ktap_ok(ok, "ept_addresses_and_ns_destroy");

	/* Linux's own announcements, good and bad. */
	amp_rpmsg_set_ns_cb(&rdev, ns_cb, NULL);
	memset(&ns, 0, sizeof(ns));
	strcpy(ns.name, "linux-svc");
	ns.addr = 0x402;
	ns_calls = 0;
	drv_send(LINUX_ADDR, 53, &ns, sizeof(ns));
	memset(ns.name, 'A', sizeof(ns.name));
	drv_send(LINUX_ADDR, 53, &ns, sizeof(ns));
	drv_send(LINUX_ADDR, 53, &ns, 39);
	ok = amp_rpmsg_poll(&rdev) == 3;
	ktap_ok(ok && ns_calls == 1 && !strcmp(ns_name, "linux-svc") &&
		ns_addr == 0x402 && ns_flags == 0 && rdev.stats.bad_ns == 2,
		"ns_from_linux_validated");

	ok = up(0) && amp_rpmsg_ept_create(&rdev, &ept, "rpmsg-echo", AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL) == 0;
	ktap_ok(ok && !ept.announced && !drv_recv(&h, NULL, &len) && kicks == 0,
		"no_ns_without_feature");
}

static void test_messages(void)
{
	struct rpmsg_hdr h;
	uint8_t data[BUF], msg[BUF];
	uint32_t len;
	unsigned int sent = 0, got = 0, bad = 0;
	bool ok;

	up(1);
	amp_rpmsg_ept_create(&rdev, &ept, "rpmsg-echo", AMPSOC_RPMSG_ADDR_ANY,
			     AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL);
	drv_recv(&h, NULL, &len);
	echo = false;
	cb_calls = 0;
	ok = drv_send(LINUX_ADDR, 1024, "hello", 5) == 0 && amp_rpmsg_poll(&rdev) == 1;
	drv_reclaim_tx();
	ktap_ok(ok && cb_calls == 1 && cb_len == 5 && !memcmp(cb_data, "hello", 5) &&
		cb_src == LINUX_ADDR && ept.dst == LINUX_ADDR &&
		dvq[1].used->idx == 1 && dvq[1].used->ring[0].len == 0 && !tx_busy[0],
		"rx_dispatch_learns_dst_returns_buffer");

	echo = true;
	ok = drv_send(LINUX_ADDR, 1024, "ping", 4) == 0 && amp_rpmsg_poll(&rdev) == 1;
	ok &= drv_recv(&h, data, &len);
	ktap_ok(ok && h.src == 1024 && h.dst == LINUX_ADDR && h.len == 4 &&
		h.reserved == 0 && h.flags == 0 && len == 20 && !memcmp(data, "ping", 4),
		"echo_reply_header");

	/* Integrity: random sizes up to the MTU, checked in order. */
	srand(7);
	for (unsigned int round = 0; round < 2000; round++) {
		unsigned int burst = 1 + rand() % 8;

		for (unsigned int k = 0; k < burst; k++) {
			uint16_t n = rand() % 497;

			for (uint16_t j = 0; j < n; j++)
				msg[j] = (uint8_t)(sent * 31 + j);
			if (drv_send(LINUX_ADDR, 1024, msg, n))
				break;
			sent++;
		}
		amp_rpmsg_poll(&rdev);
		while (drv_recv(&h, data, &len)) {
			bool good = h.len <= 496 && len == 16u + h.len;

			for (uint16_t j = 0; good && j < h.len; j++)
				good = data[j] == (uint8_t)(got * 31 + j);
			bad += !good;
			got++;
		}
	}
	ktap_diag("%u messages echoed, %u bad, rx %u tx %u", got, bad,
		  rdev.stats.rx, rdev.stats.tx);
	ktap_ok(sent > 5000 && got == sent && bad == 0, "echo_integrity_random_sizes");

	/* Kick suppression: Linux masks tx-complete interrupts on vring 1. */
	echo = false;
	dvq[1].avail->flags = AMP_VRING_AVAIL_F_NO_INTERRUPT;
	kicks = 0;
	drv_send(LINUX_ADDR, 1024, "a", 1);
	amp_rpmsg_poll(&rdev);
	ok = kicks == 0;
	dvq[1].avail->flags = 0;
	kicks_by_id[1] = 0;
	drv_send(LINUX_ADDR, 1024, "b", 1);
	amp_rpmsg_poll(&rdev);
	ok &= kicks == 1 && kicks_by_id[1] == 1;
	dvq[0].avail->flags = AMP_VRING_AVAIL_F_NO_INTERRUPT;
	amp_rpmsg_trysend(&ept, "c", 1);
	ok &= kicks == 1 && drv_recv(&h, NULL, &len);
	dvq[0].avail->flags = 0;
	ktap_ok(ok, "kicks_honour_no_interrupt");
}

static void post_rx0(void)
{
	drv_post_rx(0);
}

static unsigned int kicks_seen_by_hook;

/* Linux returns a buffer only once it was told about the last message. */
static void post_rx1_if_kicked(void)
{
	kicks_seen_by_hook = kicks_by_id[0];
	drv_post_rx(1);
}

static int two_replies_cb(struct amp_rpmsg_ept *e, void *data, uint32_t len,
			  uint32_t src, void *priv)
{
	amp_rpmsg_sendto(e, src, "one", 3, 0);
	wait_hook = post_rx1_if_kicked;
	amp_rpmsg_sendto(e, src, "two", 3, UINT64_MAX);
	return 0;
}

static void test_send_errors(void)
{
	uint8_t big[BUF] = { 0 };
	struct rpmsg_hdr h;
	uint32_t len;
	bool ok = true;

	drv_reset(0, false);
	amp_rpmsg_init(&rdev, &vdev);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 2000, LINUX_ADDR, echo_cb, NULL);
	ok &= KTAP_CHECK(amp_rpmsg_trysend(&ept, "x", 1) == -ENOMEM);
	now_ns = 0;
	ok &= KTAP_CHECK(amp_rpmsg_send(&ept, "x", 1, 1000000) == -ETIMEDOUT);
	ok &= KTAP_CHECK(now_ns >= 1000000);
	ktap_ok(ok, "no_linux_buffer_nomem_or_timeout");

	/* Linux posts a buffer while the sender waits. */
	wait_hook = post_rx0;
	ok = amp_rpmsg_send(&ept, "late", 4, UINT64_MAX) == 0 &&
	     drv_recv(&h, NULL, &len) && h.len == 4 && h.dst == LINUX_ADDR;
	ktap_ok(ok, "blocked_send_completes_when_linux_posts");

	ok = amp_rpmsg_trysend(&ept, big, 497) == -EMSGSIZE;
	ok &= amp_rpmsg_trysendto(&ept, AMPSOC_RPMSG_ADDR_ANY, big, 1) == -ENOTCONN;
	ktap_ok(ok, "oversize_and_unconnected_rejected");

	/* A Linux rx buffer we must not write is skipped and counted. */
	drv_post_rx(1);
	dvq[0].desc[1].flags = 0;
	drv_post_rx(2);
	/* buffer 0 (reposted by drv_recv) first, then 1 is skipped for 2 */
	ok = amp_rpmsg_trysend(&ept, "v", 1) == 0 && amp_rpmsg_trysend(&ept, "w", 1) == 0;
	ok &= drv_recv(&h, NULL, &len) && drv_recv(&h, NULL, &len) &&
	      rdev.txq.errors == 1 && amp_rpmsg_trysend(&ept, "x", 1) == 0;
	ktap_ok(ok, "readonly_linux_rx_buffer_skipped");

	/*
	 * A callback that blocks for a buffer first announces what it sent:
	 * the kick deferred to the end of the batch must not wait behind it.
	 */
	{
		struct amp_rpmsg_ept e3;
		uint32_t l1 = 0, l2 = 0;

		drv_reset(0, false);
		amp_rpmsg_init(&rdev, &vdev);
		amp_rpmsg_ept_create(&rdev, &e3, NULL, 2100, LINUX_ADDR, two_replies_cb, NULL);
		drv_post_rx(0);
		kicks_seen_by_hook = 0;
		drv_send(LINUX_ADDR, 2100, "go", 2);
		ok = amp_rpmsg_poll(&rdev) == 1 && kicks_seen_by_hook == 1 &&
		     drv_recv(&h, NULL, &l1) && drv_recv(&h, NULL, &l2) &&
		     l1 == 19 && l2 == 19;
		ktap_ok(ok, "blocking_send_in_callback_kicks_first");
	}

	/* The misbehaviour helper writes exactly what it is told. */
	{
		struct rpmsg_hdr lie = { .src = 1, .dst = 2, .len = 400 };

		while (drv_recv(&h, NULL, &len))
			;
		ok = amp_rpmsg_send_raw(&rdev, &lie, "abc", 3, 16 + 3, 0) == 0 &&
		     drv_recv(&h, big, &len) && h.src == 1 && h.dst == 2 &&
		     h.len == 400 && len == 19 && !memcmp(big, "abc", 3);
		ktap_ok(ok, "send_raw_writes_the_lie");
	}
}

static void test_zero_copy(void)
{
	struct rpmsg_hdr h;
	uint8_t data[BUF];
	uint32_t size = 0, len;
	void *b1, *b2;
	bool ok;

	up(0);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	b1 = amp_rpmsg_get_tx_buffer(&rdev, &size, 0);
	ok = b1 && size == 496;
	memcpy(b1, "zero", 4);
	ok &= amp_rpmsg_send_nocopy(&ept, LINUX_ADDR, b1, 4) == 0;
	ok &= drv_recv(&h, data, &len) && h.len == 4 && !memcmp(data, "zero", 4) &&
	      h.src == 3000;
	ok &= amp_rpmsg_send_nocopy(&ept, LINUX_ADDR, b1, 4) == -EINVAL;
	b2 = amp_rpmsg_get_tx_buffer(&rdev, &size, 0);
	ok &= b2 && amp_rpmsg_release_tx(&rdev, b2) == 0 &&
	      amp_rpmsg_get_tx_buffer(&rdev, &size, 0) == b2;
	ktap_ok(ok, "zero_copy_tx");

	echo = false;
	hold = true;
	held_data = NULL;
	drv_send(LINUX_ADDR, 3000, "held", 4);
	ok = amp_rpmsg_poll(&rdev) == 1 && held_data && dvq[1].used->idx == 0;
	ok &= !memcmp(held_data, "held", 4);
	ok &= amp_rpmsg_hold_rx(&ept, held_data) == -EINVAL;	/* not in a callback */
	ok &= amp_rpmsg_release_rx(&rdev, data) == -EINVAL;
	ok &= amp_rpmsg_release_rx(&rdev, held_data) == 0 && dvq[1].used->idx == 1;
	ok &= amp_rpmsg_release_rx(&rdev, held_data) == -EINVAL;
	hold = false;
	ktap_ok(ok, "zero_copy_rx_hold_release");
}

static void test_bad_input(void)
{
	bool ok;

	up(0);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	echo = false;
	cb_calls = 0;

	drv_send(LINUX_ADDR, 4242, "who", 3);
	ok = amp_rpmsg_poll(&rdev) == 0 && rdev.stats.no_ept == 1;
	ktap_ok(ok && cb_calls == 0 && dvq[1].used->idx == 1, "unknown_dst_dropped_and_counted");

	drv_send_raw(LINUX_ADDR, 3000, "long", 100, 16 + 4);	/* hdr.len > buffer */
	drv_send_raw(LINUX_ADDR, 3000, "", 0, 8);		/* shorter than a header */
	drv_send_raw(LINUX_ADDR, 3000, "", 0, BUF + 16);	/* longer than a buffer */
	ok = amp_rpmsg_poll(&rdev) == 0 && rdev.stats.bad_buf == 3 && cb_calls == 0;
	ktap_ok(ok && dvq[1].used->idx == 4, "bad_lengths_dropped_and_counted");

	drv_send(LINUX_ADDR, 3000, "out", 3);
	dvq[1].desc[dvq[1].avail->ring[(dvq[1].avail_idx - 1) % NUM]].addr = MEM_DA + MEM_SIZE;
	drv_send(LINUX_ADDR, 3000, "chain", 5);
	dvq[1].desc[dvq[1].avail->ring[(dvq[1].avail_idx - 1) % NUM]].flags = AMP_VRING_DESC_F_NEXT;
	drv_send(LINUX_ADDR, 3000, "fine", 4);
	ok = amp_rpmsg_poll(&rdev) == 1 && cb_calls == 1 && !memcmp(cb_data, "fine", 4);
	ktap_ok(ok && rdev.stats.vq_errors == 2 && dvq[1].used->idx == 7,
		"bad_descriptors_returned_and_counted");

	/* A head index out of range breaks the ring for good. */
	drv_send(LINUX_ADDR, 3000, "x", 1);
	dvq[1].avail->ring[(dvq[1].avail_idx - 1) % NUM] = NUM + 3;
	ok = amp_rpmsg_poll(&rdev) == -EIO && rdev.rxq.broken;
	drv_send(LINUX_ADDR, 3000, "y", 1);
	ok &= amp_rpmsg_poll(&rdev) == -EIO && cb_calls == 1;
	ktap_ok(ok, "head_out_of_range_breaks_ring");

	/* Linux claims more available entries than the ring holds. */
	up(0);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	dvq[1].avail->idx = NUM + 1;
	ok = amp_rpmsg_poll(&rdev) == -EIO && rdev.rxq.broken;
	dvq[0].avail->idx += NUM + 5;
	ok &= amp_rpmsg_trysend(&ept, "z", 1) == -EIO;
	ktap_ok(ok, "avail_index_jump_breaks_ring");
}

static void test_bufsz(void)
{
	struct rpmsg_hdr h;
	uint8_t data[2048];
	uint32_t len;
	bool ok;

	/* Proposed 1024 towards the core, 2048 towards Linux, negotiated. */
	drv_reset(1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ, false);
	vdev.config.h2r_buf_size = 1024;
	vdev.config.r2h_buf_size = 2048;
	rx_len = 2048;
	for (unsigned int i = 0; i < 4; i++)
		drv_post_rx(i);
	ok = amp_rpmsg_init(&rdev, &vdev) == 0 && amp_rpmsg_mtu(&rdev) == 2032 &&
	     rdev.rx_buf_size == 1024;
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	memset(data, 0x3c, sizeof(data));
	ok &= amp_rpmsg_trysend(&ept, data, 2032) == 0 && drv_recv(&h, NULL, &len) &&
	      h.len == 2032 && len == 2048;
	ok &= amp_rpmsg_trysend(&ept, data, 2033) == -EMSGSIZE;
	ktap_ok(ok, "bufsz_negotiated_sizes");

	/* A 1008-byte message from Linux fits; 1009 does not. */
	echo = false;
	cb_calls = 0;
	drv_send_raw(LINUX_ADDR, 3000, data, 400, 1024);
	drv_send_raw(LINUX_ADDR, 3000, data, 400, 1025);
	ok = amp_rpmsg_poll(&rdev) == 1 && cb_calls == 1 && rdev.stats.bad_buf == 1;
	ktap_ok(ok, "bufsz_rx_limit_is_h2r");

	/* Not negotiated, or unsound proposals: mainline's 512. */
	drv_reset(0, false);
	vdev.config.r2h_buf_size = 2048;
	ok = amp_rpmsg_init(&rdev, &vdev) == 0 && amp_rpmsg_mtu(&rdev) == 496;
	drv_reset(1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ, false);
	vdev.config.h2r_buf_size = 1000;
	vdev.config.r2h_buf_size = 1 << 20;
	ok &= amp_rpmsg_init(&rdev, &vdev) == 0 && amp_rpmsg_mtu(&rdev) == 496 &&
	      rdev.rx_buf_size == 512;
	drv_reset(1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ, false);
	vdev.config_len = 4;
	vdev.config.r2h_buf_size = 2048;
	ok &= amp_rpmsg_init(&rdev, &vdev) == 0 && amp_rpmsg_mtu(&rdev) == 496;
	ktap_ok(ok, "bufsz_falls_back_to_512");
	rx_len = BUF;
}

static void test_fc(void)
{
	struct ampsoc_rpmsg_fc_msg fc = { .addr = 3000, .peer = LINUX_ADDR, .flags = 1 };
	struct rpmsg_hdr h;
	uint32_t len;
	uint8_t data[BUF];
	bool ok;

	up(1u << AMPSOC_VIRTIO_RPMSG_F_FC);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	echo = false;
	drv_send(LINUX_ADDR, AMPSOC_RPMSG_FC_ADDR, &fc, sizeof(fc));
	ok = amp_rpmsg_poll(&rdev) == 1 && ept.paused &&
	     amp_rpmsg_trysend(&ept, "x", 1) == -EAGAIN &&
	     amp_rpmsg_send(&ept, "x", 1, 1000) == -EAGAIN;
	fc.flags = 0;
	drv_send(LINUX_ADDR, AMPSOC_RPMSG_FC_ADDR, &fc, sizeof(fc));
	ok &= amp_rpmsg_poll(&rdev) == 1 && !ept.paused &&
	      amp_rpmsg_trysend(&ept, "x", 1) == 0 && drv_recv(&h, NULL, &len);
	ktap_ok(ok, "fc_linux_pauses_and_resumes_an_endpoint");

	fc.flags = 2;
	drv_send(LINUX_ADDR, AMPSOC_RPMSG_FC_ADDR, &fc, sizeof(fc));
	fc.flags = 1;
	fc.addr = 4444;
	drv_send(LINUX_ADDR, AMPSOC_RPMSG_FC_ADDR, &fc, sizeof(fc));
	fc.addr = 3000;
	drv_send(LINUX_ADDR, AMPSOC_RPMSG_FC_ADDR, &fc, sizeof(fc) - 1);
	ok = amp_rpmsg_poll(&rdev) == 3 && rdev.stats.bad_fc == 3 && !ept.paused;
	ktap_ok(ok, "fc_bad_messages_refused");

	ok = amp_rpmsg_set_flow_control(&ept, LINUX_ADDR, true) == 0 &&
	     drv_recv(&h, data, &len) && h.src == 3000 && h.dst == AMPSOC_RPMSG_FC_ADDR &&
	     h.len == 12 && len == 28;
	memcpy(&fc, data, sizeof(fc));
	ok &= fc.addr == LINUX_ADDR && fc.peer == 3000 && fc.flags == AMPSOC_RPMSG_FC_PAUSED;
	ok &= amp_rpmsg_set_flow_control(&ept, AMPSOC_RPMSG_ADDR_ANY, true) == -EINVAL;
	up(0);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	ok &= amp_rpmsg_set_flow_control(&ept, LINUX_ADDR, true) == -EOPNOTSUPP;
	ktap_ok(ok, "fc_core_pauses_linux");
}

static void test_carveout(void)
{
	struct amp_rsc_carveout c = AMP_RSC_CARVEOUT_INIT(BUFS_DA, AMP_RSC_ADDR_ANY,
							  0x80000, 0, "vdev0buffer");
	struct rpmsg_hdr h;
	uint32_t len;
	bool ok;

	drv_reset(0, false);	/* no rx buffers yet: they come by pa */
	amp_rpmsg_init(&rdev, &vdev);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	ok = amp_rpmsg_use_carveout(&rdev, &c) == -ENOENT;
	c.c.pa = 0xc0000000;
	c.c.da = MEM_DA + MEM_SIZE - 0x1000;
	ok &= amp_rpmsg_use_carveout(&rdev, &c) == -EINVAL;
	c.type = AMPSOC_RSC_TRACE;
	c.c.da = BUFS_DA;
	ok &= amp_rpmsg_use_carveout(&rdev, &c) == -EINVAL;
	c.type = AMPSOC_RSC_CARVEOUT;
	ok &= amp_rpmsg_use_carveout(&rdev, &c) == 0;
	ktap_ok(ok, "carveout_checks");

	/* Linux speaks physical addresses inside the carveout: accepted. */
	drv_pa = 0xc0000000;
	echo = true;
	cb_calls = 0;
	drv_post_rx(5);
	drv_send(LINUX_ADDR, 3000, "phys", 4);
	ok = amp_rpmsg_poll(&rdev) == 1 && cb_calls == 1 && !memcmp(cb_data, "phys", 4);
	while (drv_recv(&h, NULL, &len) && h.len != 4)
		;
	ok &= h.len == 4 && h.src == 3000;
	/* Device addresses, or physical ones beyond it, are refused. */
	drv_pa = 0;
	drv_reclaim_tx();
	drv_send(LINUX_ADDR, 3000, "dev", 3);
	drv_pa = 0xc0000000 + 0x80000;
	drv_send(LINUX_ADDR, 3000, "far", 3);
	ok &= amp_rpmsg_poll(&rdev) == 0 && cb_calls == 1 && rdev.stats.vq_errors == 2;
	drv_pa = 0;
	echo = false;
	ktap_ok(ok, "carveout_physical_addresses");
}

/*
 * Linux's DRAM (platform_ddr()): the whole simulated memory, bus address 0
 * at MEM_DA. Vrings inside it mean bus addresses in descriptors.
 */
static void test_ddr(void)
{
	struct rpmsg_hdr h;
	uint32_t len;
	bool ok;

	sim_ddr_da = MEM_DA;
	sim_ddr_len = MEM_SIZE;
	drv_reset(0, false);
	ok = amp_rpmsg_init(&rdev, &vdev) == 0;
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	drv_pa = BUFS_DA - MEM_DA;	/* Linux's bus address of BUFS_DA */
	echo = true;
	cb_calls = 0;
	drv_post_rx(5);
	drv_send(LINUX_ADDR, 3000, "bus", 3);
	ok &= amp_rpmsg_poll(&rdev) == 1 && cb_calls == 1 && !memcmp(cb_data, "bus", 3);
	while (drv_recv(&h, NULL, &len) && h.len != 3)
		;
	ok &= h.len == 3 && h.src == 3000;
	/* A device address is no bus address of the window: refused. */
	drv_pa = 0;
	drv_reclaim_tx();
	drv_send(LINUX_ADDR, 3000, "dev", 3);
	ok &= amp_rpmsg_poll(&rdev) == 0 && cb_calls == 1 && rdev.stats.vq_errors == 1;
	ktap_ok(ok, "ddr_vrings_mean_bus_addresses");

	/* Vrings outside the window: device addresses, as without one. */
	sim_ddr_da = MEM_DA + MEM_SIZE / 2;
	sim_ddr_len = MEM_SIZE / 2;
	drv_reset(0, false);
	ok = amp_rpmsg_init(&rdev, &vdev) == 0;
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	cb_calls = 0;
	drv_post_rx(5);
	drv_send(LINUX_ADDR, 3000, "da", 2);
	ok &= amp_rpmsg_poll(&rdev) == 1 && cb_calls == 1 && rdev.stats.vq_errors == 0;
	echo = false;
	sim_ddr_da = 0;
	sim_ddr_len = 0;
	ktap_ok(ok, "vrings_outside_ddr_mean_device_addresses");
}

static uint16_t flags_at_sleep[2];

static void note_flags(void)
{
	flags_at_sleep[0] = dvq[0].used->flags;
	flags_at_sleep[1] = dvq[1].used->flags;
}

/* One doorbell per burst: quiet while awake, asked for before sleeping. */
static void test_notify_suppression(void)
{
	bool ok;

	up(0);
	amp_rpmsg_ept_create(&rdev, &ept, NULL, 3000, LINUX_ADDR, echo_cb, NULL);
	echo = false;
	cb_calls = 0;
	drv_send(LINUX_ADDR, 3000, "a", 1);
	ok = amp_rpmsg_run_once(&rdev, 1000) == 1 && cb_calls == 1;
	/*
	 * Nothing pending: Linux's messages may ring from before the wait,
	 * its returned rx buffers not (the core has some); quiet after it.
	 */
	flags_at_sleep[0] = 0xffff;
	flags_at_sleep[1] = 0xffff;
	wait_hook = note_flags;
	ok &= amp_rpmsg_run_once(&rdev, 1000) == 0;
	ok &= flags_at_sleep[0] == AMP_VRING_USED_F_NO_NOTIFY && flags_at_sleep[1] == 0;
	ok &= dvq[0].used->flags == AMP_VRING_USED_F_NO_NOTIFY &&
	      dvq[1].used->flags == AMP_VRING_USED_F_NO_NOTIFY;
	/* A message Linux queued without a doorbell (it was told not to ring). */
	dvq[1].avail->ring[dvq[1].avail_idx % NUM] = 7;
	dvq[1].desc[7].addr = buf_da(NUM + 7);
	dvq[1].desc[7].len = 17;
	((struct rpmsg_hdr *)platform_da_to_va(buf_da(NUM + 7), BUF))->len = 1;
	((struct rpmsg_hdr *)platform_da_to_va(buf_da(NUM + 7), BUF))->dst = 3000;
	dvq[1].avail->idx = ++dvq[1].avail_idx;
	wait_hook = NULL;
	irq_pending = 0;
	now_ns = 0;
	ok &= amp_rpmsg_run_once(&rdev, UINT64_MAX) == 1 && cb_calls == 2;
	ktap_ok(ok, "no_notify_while_awake");

	/* Starved of Linux's rx buffers: ask for them before sleeping. */
	while (amp_rpmsg_trysend(&ept, "x", 1) == 0)
		;
	flags_at_sleep[0] = 0xffff;
	wait_hook = note_flags;
	irq_pending = 0;
	ok = amp_rpmsg_run_once(&rdev, 1000) == 0 && flags_at_sleep[0] == 0;
	/* Linux returns one: the send succeeds and the core is quiet again. */
	drv_post_rx(0);
	ok &= amp_rpmsg_trysend(&ept, "y", 1) == 0;
	flags_at_sleep[0] = 0xffff;
	wait_hook = note_flags;
	ok &= amp_rpmsg_run_once(&rdev, 1000) == 0 &&
	      flags_at_sleep[0] == AMP_VRING_USED_F_NO_NOTIFY;
	ktap_ok(ok, "rx_buffer_doorbell_only_while_starved");
}

int main(void)
{
	mem = aligned_alloc(4096, MEM_SIZE);
	if (!mem)
		return 1;
	ktap_plan(37);
	test_init();
	test_ns();
	test_messages();
	test_send_errors();
	test_zero_copy();
	test_bad_input();
	test_bufsz();
	test_fc();
	test_carveout();
	test_ddr();
	test_notify_suppression();
	free(mem);
	return ktap_exit();
}

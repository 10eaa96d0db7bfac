// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-bad-MODE: a remote that attacks Linux's rpmsg on purpose,
 * for the bad-input tests. Built once per mode (BAD_MODE); each announces
 * and serves "ampsoc-echo" like ampsoc-rpmsg-echo, misbehaves once the
 * link is up, then keeps echoing so that a test can check Linux survived
 * and still works. Every misdeed is written to the trace buffer.
 *
 *   badlen   headers claiming more payload than the buffer holds, a used
 *            length beyond the buffer size, and one shorter than a header
 *   badid    a used-ring element whose id is out of range
 *   badidx   a used index more than the ring size ahead
 *   nsbad    name-service messages without a NUL, of the wrong size, with
 *            unknown flags
 *   nsflood  announcements of 1000 services that do not exist
 *   unknown  messages to addresses where Linux has no endpoint
 *   badaddr  three well-formed messages in buffers whose descriptor
 *            address it rewrote to point outside Linux's region (0, the
 *            top of the address space, bit 40 flipped)
 *   nsown    name-service messages about Linux's own channels: destroy
 *            rpmsg_ns (address 53) and rpmsg_ctrl (address 0), announce
 *            channels under those two names
 *   flagrace after a lap of ordinary messages, keeps Linux's rx
 *            descriptor 0 marked chained; then for each message it hands
 *            back, pulses NEXT/INDIRECT on that buffer's descriptor and
 *            flips the used id between the buffer and 0 until Linux gives
 *            a buffer back to the ring (a second at most), until Linux
 *            stops giving buffers back
 *   flood    announces "ampsoc-flood" and, after Linux's first message on
 *            it, sends to Linux as fast as buffers come back, forever
 *            (answering echoes every 64 messages)
 *   chaos    CHAOS_ITEMS messages built from a seeded random generator:
 *            random used lengths, header fields (src, dst, len, flags,
 *            reserved), name-service messages (valid, duplicate, unknown,
 *            malformed), rewritten descriptors, random batch sizes and
 *            return order, random used-ring flags; it predicts how
 *            Linux must classify each item and logs the totals and its
 *            seed, then behaves. A message "ring" on ampsoc-echo makes it
 *            corrupt its used ring once (random kind: index jump, id out
 *            of range, descriptor chained or indirect); "ring0", "ring1",
 *            "ring2" pick the kind.
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#ifndef BAD_MODE
#error "build with -DBAD_MODE='\"mode\"'"
#endif

#define BAD_NUM_BUFS	256
#define BAD_TIMEOUT_NS	1000000000ull
#define BAD_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define BAD_BUF_LEN	0x100000

#define CHAOS_ITEMS	2000
/* Linux's default rpmsg max_channels: announcements beyond are refused. */
#define CHAOS_LINUX_MAX_CHANNELS	256

AMP_RSC_VDEV_TYPE(bad_vdev, 2, 0);

struct bad_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[3];
	struct amp_rsc_trace trace0;
	struct amp_rsc_carveout bufs;
	struct bad_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct bad_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct bad_rsc),
	.offset = {
		offsetof(struct bad_rsc, trace0),
		offsetof(struct bad_rsc, bufs),
		offsetof(struct bad_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	/* Where Linux puts the rpmsg buffers; it writes back their pa. */
	.bufs = AMP_RSC_CARVEOUT_INIT(BAD_BUF_DA, AMP_RSC_ADDR_ANY, BAD_BUF_LEN, 0,
				      "vdev0buffer"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,
				   1u << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, BAD_NUM_BUFS, 0),
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, BAD_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept echo, flood;

/* "ring": a random corruption of the used ring; "ring0".."ring2": that one */
static int chaos_ring_pending = -1;
/* flood: one echo reply waiting for a buffer */
static uint8_t echo_buf[AMPSOC_RPMSG_BUF_SIZE];
static uint32_t echo_len, echo_src;
static bool echo_pending;

static int echo_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	if (!strcmp(BAD_MODE, "chaos") && (len == 4 || len == 5) &&
	    !memcmp(data, "ring", 4)) {
		chaos_ring_pending = len == 5 ? ((char *)data)[4] - '0' : 3;
		return 0;
	}
	/*
	 * Flooding uses up every buffer: keep the reply until flood_forever()
	 * finds one for it rather than dropping it.
	 */
	if (!strcmp(BAD_MODE, "flood") && amp_rpmsg_trysendto(ept, src, data, len) &&
	    !echo_pending && len <= sizeof(echo_buf)) {
		memcpy(echo_buf, data, len);
		echo_len = len;
		echo_src = src;
		echo_pending = true;
		return 0;
	}
	if (strcmp(BAD_MODE, "flood"))
		amp_rpmsg_trysendto(ept, src, data, len);
	return 0;
}

/* Flood: only learns Linux's address (the library does) and counts. */
static int flood_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		    uint32_t src, void *priv)
{
	return 0;
}

static void raw(uint32_t hdr_len, uint32_t used_len, const char *what)
{
	struct rpmsg_hdr hdr = {
		.src = echo.addr, .dst = AMPSOC_RPMSG_RESERVED_ADDRESSES, .len = hdr_len,
	};
	int ret;

	ret = amp_rpmsg_send_raw(&rdev, &hdr, "ampsoc!", 8, used_len, BAD_TIMEOUT_NS);
	amp_log("bad: %s (header len %u, used len %u): %d", what, hdr_len, used_len, ret);
}

static void ns_raw(const void *msg, uint32_t len, const char *what)
{
	int ret = amp_rpmsg_sendto(&echo, AMPSOC_RPMSG_NS_ADDR, msg, len, BAD_TIMEOUT_NS);

	amp_log("bad: %s: %d", what, ret);
}

/* ---- chaos ----------------------------------------------------------- */

/*
 * Each boot draws a seed from the clock (make's CHAOS_SEED=clock, the
 * default); built with CHAOS_SEED=N, every boot uses seed N, which replays
 * a logged run. Either way it is logged.
 */
static uint64_t rng;

/* xorshift64: small, seeded, good enough to pick bad inputs. */
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 32;
}

/*
 * How Linux must classify an item, mirroring its checks in their order.
 * C_NS is a name-service message whose fate depends on the channels Linux
 * has when it reads it: decided in hand-back order, as C_NS_REJ or C_NS_OK.
 */
enum chaos_class {
	C_BAD_ADDR, C_BAD_LEN, C_FC, C_UNKNOWN, C_NS_REJ, C_NS_OK, C_NR,
	C_NS = C_NR
};

static const char *const chaos_class_name[C_NR] = {
	"bad_addr", "bad_len", "fc_rejected", "unknown_dst", "ns_rejected", "ns_ok",
};

static unsigned int tally[C_NR];

/* A table of the channels Linux has for us, as its name service sees them. */
struct chan_table {
	struct {
		char name[AMPSOC_RPMSG_NAME_SIZE];
		uint32_t addr;
	} c[CHAOS_LINUX_MAX_CHANNELS];
	unsigned int n;
};

/*
 * Linux reads a batch's items in the order they are handed back, not in
 * the order they were written: @linux_chans follows that order and makes
 * the prediction; @gen_chans restarts from it at each batch and follows
 * the writing order, only to pick the channels to destroy or re-announce
 * (so that a batch can destroy what it just announced, and the other way
 * round, whatever order Linux then sees).
 */
static struct chan_table linux_chans, gen_chans;
static unsigned int chaos_next;

static int chan_find(const struct chan_table *t, const char *name, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->c[i].addr == addr &&
		    !strncmp(t->c[i].name, name, AMPSOC_RPMSG_NAME_SIZE))
			return i;
	return -1;
}

static void chan_add(struct chan_table *t, const char *name, uint32_t addr)
{
	memcpy(t->c[t->n].name, name, AMPSOC_RPMSG_NAME_SIZE);
	t->c[t->n++].addr = addr;
}

/*
 * Linux's name service on the channels @t: size, NUL, flags and address,
 * duplicate, cap. Updates @t as Linux updates its channels.
 */
static enum chaos_class ns_predict(struct chan_table *t, const void *p,
				   uint32_t len)
{
	struct ampsoc_rpmsg_ns_msg m;
	size_t n;
	int i;

	if (len != sizeof(m))
		return C_NS_REJ;
	memcpy(&m, p, sizeof(m));
	n = strnlen(m.name, sizeof(m.name));
	if (n == sizeof(m.name) || !n)
		return C_NS_REJ;
	if (m.flags > AMPSOC_RPMSG_NS_DESTROY || m.addr == AMPSOC_RPMSG_ADDR_ANY)
		return C_NS_REJ;
	i = chan_find(t, m.name, m.addr);
	if (m.flags == AMPSOC_RPMSG_NS_DESTROY) {
		if (i < 0)
			return C_NS_REJ;
		t->c[i] = t->c[--t->n];
		return C_NS_OK;
	}
	if (i >= 0 || t->n >= CHAOS_LINUX_MAX_CHANNELS)
		return C_NS_REJ;
	chan_add(t, m.name, m.addr);
	return C_NS_OK;
}

/* A name-service message: mostly plausible, often broken on purpose. */
static uint32_t chaos_ns(struct ampsoc_rpmsg_ns_msg *m)
{
	const struct chan_table *t = &gen_chans;
	uint32_t len = sizeof(*m), r = rnd() % 8, k;
	unsigned int i, nmut;

	memset(m, 0, sizeof(*m));
	m->addr = 0x10000 + rnd() % 0x10000;
	if (r < 3 || t->n < 2) {
		snprintf(m->name, sizeof(m->name), "chaos-%u", chaos_next++);
	} else if (r < 5) {
		/* destroy (or, with r == 4, re-announce) a channel of ours */
		k = 1 + rnd() % (t->n - 1);
		memcpy(m->name, t->c[k].name, sizeof(m->name));
		m->addr = t->c[k].addr;
		m->flags = r == 3 ? AMPSOC_RPMSG_NS_DESTROY : AMPSOC_RPMSG_NS_CREATE;
	} else {
		/* destroy something that never existed */
		snprintf(m->name, sizeof(m->name), "chaos-none-%u", rnd() % 1000);
		m->flags = AMPSOC_RPMSG_NS_DESTROY;
	}
	nmut = rnd() % 2 ? 1 + rnd() % 3 : 0;
	for (i = 0; i < nmut; i++) {
		switch (rnd() % 5) {
		case 0:		/* no NUL */
			for (k = 0; k < sizeof(m->name); k++)
				m->name[k] = 1 + rnd() % 255;
			break;
		case 1:		/* empty */
			m->name[0] = 0;
			break;
		case 2:
			m->flags = rnd();
			break;
		case 3:
			m->addr = AMPSOC_RPMSG_ADDR_ANY;
			break;
		default:
			len = rnd() % 80;
			break;
		}
	}
	return len;
}

static uint32_t chaos_dst(void)
{
	switch (rnd() % 10) {
	case 0:
		return AMPSOC_RPMSG_NS_ADDR;
	case 1:
		return AMPSOC_RPMSG_FC_ADDR;	/* flow control is not offered */
	case 2:
		return AMPSOC_RPMSG_ADDR_ANY;
	case 3:
		return 0x80000000u | rnd();
	default:
		/* Linux has no endpoint from 0x10000 up in these tests */
		return 0x10000 + rnd() % 0x7fff0000u;
	}
}

static void rnd_fill(void *p, uint32_t len)
{
	uint8_t *b = p;

	while (len--)
		*b++ = rnd();
}

/* One item of a batch: Linux's buffer, its used length, its fate. */
struct chaos_slot {
	struct amp_vq_buf b;
	uint32_t used;
	enum chaos_class cls;
	enum chaos_class in_order;	/* a C_NS's fate in writing order */
};

/*
 * Fill one of Linux's rx buffers with a random item; return its used length.
 * A name-service item is classified C_NS: ns_settle() decides it.
 */
static uint32_t chaos_item(struct amp_vq_buf *b, enum chaos_class *cls,
			   enum chaos_class *in_order)
{
	struct amp_vring_desc *d = &rdev.txq.desc[b->head];
	uint8_t *p = b->va;
	uint32_t cap = b->len, plen, used, kind = rnd() % 6;
	struct rpmsg_hdr h;
	bool addr_bad = false;

	if (cap < sizeof(h)) {		/* not Linux's rx buffer: give it back */
		*cls = C_BAD_LEN;
		return 0;
	}
	plen = rnd() % (cap - sizeof(h) + 1);
	rnd_fill(p + sizeof(h), plen);
	h.src = rnd();
	h.dst = chaos_dst();
	h.reserved = rnd();
	h.len = plen;
	h.flags = rnd();
	used = sizeof(h) + plen;
	switch (kind) {
	case 0:		/* used length anywhere */
		used = rnd() % 3 ? rnd() % (cap + 64) : rnd();
		break;
	case 1:		/* header length anywhere */
		h.len = rnd();
		break;
	case 2:		/* a name-service message */
		h.dst = AMPSOC_RPMSG_NS_ADDR;
		h.len = chaos_ns((struct ampsoc_rpmsg_ns_msg *)(p + sizeof(h)));
		used = sizeof(h) + h.len;
		if (used > cap)
			used = cap;
		break;
	case 3: {	/* the descriptor's address rewritten */
		uint64_t a = (uint64_t)rnd() << 32 | rnd();

		addr_bad = a != AMP_READ_ONCE(d->addr);
		AMP_WRITE_ONCE(d->addr, a);
		break;
	}
	case 4:		/* descriptor length and harmless flags rewritten */
		AMP_WRITE_ONCE(d->len, rnd());
		AMP_WRITE_ONCE(d->flags, rnd() & ~(AMP_VRING_DESC_F_NEXT |
						   AMP_VRING_DESC_F_INDIRECT));
		break;
	default:	/* every header byte random */
		rnd_fill(&h, sizeof(h));
		used = rnd() % (cap + 32);
		break;
	}
	memcpy(p, &h, sizeof(h));

	if (addr_bad)
		*cls = C_BAD_ADDR;
	else if (used < sizeof(h) || used > cap || h.len > used - sizeof(h))
		*cls = C_BAD_LEN;
	else if (h.dst == AMPSOC_RPMSG_FC_ADDR)
		*cls = C_FC;
	else if (h.dst == AMPSOC_RPMSG_NS_ADDR)
		*cls = C_NS;
	else
		*cls = C_UNKNOWN;
	if (*cls == C_NS)	/* for the channels later items of this batch pick */
		*in_order = ns_predict(&gen_chans, p + sizeof(h), h.len);
	return used;
}

/* Decide a name-service item as Linux will: call in hand-back order. */
static enum chaos_class ns_settle(const struct amp_vq_buf *b)
{
	const uint8_t *p = b->va;
	struct rpmsg_hdr h;

	memcpy(&h, p, sizeof(h));
	return ns_predict(&linux_chans, p + sizeof(h), h.len);
}

/* Take one of Linux's rx buffers, waiting up to a second. */
static int raw_take(struct amp_vq *vq, struct amp_vq_buf *b)
{
	uint64_t end = env_time_ns() + BAD_TIMEOUT_NS, now;
	int ret;

	for (;;) {
		ret = amp_vq_get(vq, b);
		if (ret != -EAGAIN)
			return ret;
		now = env_time_ns();
		if (now >= end)
			return -ETIMEDOUT;
		if (amp_vq_notify(vq, true))
			continue;
		env_wait_event(end - now);
		amp_vq_notify(vq, false);
	}
}

static void chaos_run(void)
{
	struct chaos_slot s[8], ts;
	unsigned int i, n, k, items = 0, batches = 0, reordered = 0;
	int ret = 0;

#ifdef CHAOS_SEED
	rng = CHAOS_SEED;
#else
	rng = env_time_ns() * 0x9e3779b97f4a7c15ull;
#endif
	if (!rng)
		rng = 1;
	amp_log("chaos: seed 0x%llx, %u items", (unsigned long long)rng,
		CHAOS_ITEMS);
	linux_chans.n = 0;
	chan_add(&linux_chans, echo.name, echo.addr);
	gen_chans = linux_chans;
	while (items < CHAOS_ITEMS && !ret) {
		n = 1 + rnd() % 8;
		if (n > CHAOS_ITEMS - items)
			n = CHAOS_ITEMS - items;
		for (i = 0; i < n; i++) {
			ret = raw_take(&rdev.txq, &s[i].b);
			if (ret)
				break;
			s[i].used = chaos_item(&s[i].b, &s[i].cls, &s[i].in_order);
		}
		n = i;
		/* hand them back in a random order */
		for (i = n; i > 1; i--) {
			k = rnd() % i;
			ts = s[k], s[k] = s[i - 1], s[i - 1] = ts;
		}
		for (i = 0; i < n; i++) {
			if (s[i].cls == C_NS) {
				s[i].cls = ns_settle(&s[i].b);
				reordered += s[i].cls != s[i].in_order;
			}
			tally[s[i].cls]++;
		}
		gen_chans = linux_chans;
		for (i = 0; i < n; i++)
			amp_vq_put(&rdev.txq, s[i].b.head, s[i].used);
		/*
		 * The used ring's flags too: Linux may only read bit 0 of them
		 * (whether to kick), and raw_take() asks for kicks again
		 * before it waits for buffers.
		 */
		AMP_WRITE_ONCE(rdev.txq.used->flags, (uint16_t)rnd());
		platform_notify_vq(rdev.txq.notifyid);
		items += n;
		batches++;
	}
	amp_log("chaos: %u items in %u batches: %d", items, batches, ret);
	for (i = 0; i < C_NR; i++)
		amp_log("chaos: expect %s %u", chaos_class_name[i], tally[i]);
	amp_log("chaos: expect channels %u", linux_chans.n);
	/* announcements whose fate the hand-back order changed */
	amp_log("chaos: ns decided by the order %u", reordered);
	amp_log("chaos: done, behaving");
}

/* Write a used element with any 32-bit id. */
static void raw_put_id(struct amp_vq *vq, uint32_t id, uint32_t len)
{
	struct amp_vring_used_elem *e = &vq->used->ring[vq->used_idx & (vq->num - 1)];

	AMP_WRITE_ONCE(e->id, id);
	AMP_WRITE_ONCE(e->len, len);
	env_wmb();
	AMP_WRITE_ONCE(vq->used->idx, ++vq->used_idx);
}

/*
 * Corrupt the used ring of Linux's rx queue once: 0 index jump, 1 id out
 * of range, 2 descriptor made chained or indirect; @kind > 2: at random.
 */
static void chaos_ring(uint32_t kind)
{
	struct amp_vq *vq = &rdev.txq;
	struct amp_vq_buf b;
	uint32_t v;
	int ret = 0;

	if (kind > 2)
		kind = rnd() % 3;
	if (kind == 0) {
		/* far enough that entries Linux has not read yet cannot wrap it */
		v = vq->num + 1 + rnd() % (65536 - 2 * vq->num - 1);
		AMP_WRITE_ONCE(vq->used->idx, (uint16_t)(vq->used_idx + v));
		amp_log("chaos: ring: used index %u ahead", v);
	} else {
		ret = raw_take(vq, &b);
		if (!ret && kind == 1) {
			v = vq->num + rnd() % (0xffffffffu - vq->num);
			raw_put_id(vq, v, 16);
			amp_log("chaos: ring: used id %u of %u", v, vq->num);
		} else if (!ret) {
			v = rnd() % 2 ? AMP_VRING_DESC_F_NEXT : AMP_VRING_DESC_F_INDIRECT;
			AMP_WRITE_ONCE(vq->desc[b.head].flags,
				       AMP_READ_ONCE(vq->desc[b.head].flags) | v);
			amp_vq_put(vq, b.head, 16);
			amp_log("chaos: ring: descriptor %u flags |= %u", b.head, v);
		}
	}
	platform_notify_vq(vq->notifyid);
	amp_log("chaos: ring attack sent: %d", ret);
}

/*
 * A well-formed message in one of Linux's rx buffers, handed back with the
 * descriptor's address rewritten: Linux must not follow it.
 */
static void bad_addrs(void)
{
	static const char msg[] = "ampsoc!";
	struct rpmsg_hdr hdr = {
		.dst = AMPSOC_RPMSG_RESERVED_ADDRESSES, .len = sizeof(msg),
	};
	struct amp_vq *vq = &rdev.txq;
	struct amp_vq_buf b;
	uint64_t a;
	unsigned int i;
	int ret = 0;

	hdr.src = echo.addr;
	for (i = 0; i < 3 && !ret; i++) {
		ret = raw_take(vq, &b);
		if (ret || b.len < sizeof(hdr) + sizeof(msg)) {
			ret = ret ?: -ENOSPC;
			break;
		}
		memcpy(b.va, &hdr, sizeof(hdr));
		memcpy((uint8_t *)b.va + sizeof(hdr), msg, sizeof(msg));
		a = AMP_READ_ONCE(vq->desc[b.head].addr);
		a = i == 0 ? 0 : i == 1 ? ~0xfffull : a ^ 1ull << 40;
		AMP_WRITE_ONCE(vq->desc[b.head].addr, a);
		env_wmb();
		amp_vq_put(vq, b.head, sizeof(hdr) + sizeof(msg));
		platform_notify_vq(vq->notifyid);
		amp_log("bad: descriptor %u address rewritten to %#llx",
			b.head, (unsigned long long)a);
	}
	amp_log("bad: rewritten descriptor addresses done: %d", ret);
}

/*
 * Linux's own channels are not the remote's: it may neither destroy them
 * nor announce channels under their names.
 */
static void ns_own(void)
{
	static const struct {
		const char *name;
		uint32_t addr, flags;
	} own[] = {
		{ "rpmsg_ns", AMPSOC_RPMSG_NS_ADDR, AMPSOC_RPMSG_NS_DESTROY },
		{ "rpmsg_ctrl", 0, AMPSOC_RPMSG_NS_DESTROY },
		{ "rpmsg_ns", 0x1234, AMPSOC_RPMSG_NS_CREATE },
		{ "rpmsg_ctrl", 0x1235, AMPSOC_RPMSG_NS_CREATE },
	};
	struct ampsoc_rpmsg_ns_msg ns;
	unsigned int i;

	for (i = 0; i < AMP_ARRAY_SIZE(own); i++) {
		memset(&ns, 0, sizeof(ns));
		strncpy(ns.name, own[i].name, sizeof(ns.name));
		ns.addr = own[i].addr;
		ns.flags = own[i].flags;
		ns_raw(&ns, sizeof(ns), own[i].flags ? "destroy Linux's own channel" :
		       "announce a channel under Linux's own name");
	}
	amp_log("bad: Linux's own channels named");
}

/* A well-formed message to an address where Linux has nobody, in @b. */
static uint32_t race_msg(struct amp_vq_buf *b)
{
	static const char msg[] = "race";
	struct rpmsg_hdr hdr = {
		.src = echo.addr, .dst = 0x7777, .len = sizeof(msg),
	};

	if (b->len < sizeof(hdr) + sizeof(msg))
		return 0;
	memcpy(b->va, &hdr, sizeof(hdr));
	memcpy((uint8_t *)b->va + sizeof(hdr), msg, sizeof(msg));
	return sizeof(hdr) + sizeof(msg);
}

/*
 * flagrace. 6.1's virtio_ring frees a buffer by following NEXT in the
 * descriptor table from the buffer's descriptor through its private free
 * list, in which every descriptor that went round once leads to
 * descriptor 0, and descriptor 0 to itself. With descriptor 0 kept and
 * chained, a Linux that reads a pulsed NEXT (or the id flipped to 0)
 * after checking the entry spins there for good; one that reads each
 * field once sees the corruption and gives up the transport.
 */
static void flag_race(void)
{
	struct amp_vq *vq = &rdev.txq;
	struct amp_vq_buf b;
	unsigned int sent = 0, i;
	uint16_t avail, slot;
	uint64_t end;
	uint32_t len;
	int ret;

	amp_log("bad: flagrace: start");
	for (;;) {
		ret = raw_take(vq, &b);
		if (ret || (b.head == 0 && sent >= vq->num))
			break;
		amp_vq_put(vq, b.head, race_msg(&b));
		platform_notify_vq(vq->notifyid);
		sent++;
	}
	if (ret) {
		amp_log("bad: flagrace: no buffer after %u messages: %d", sent, ret);
		return;
	}
	AMP_WRITE_ONCE(vq->desc[0].flags,
		       AMP_READ_ONCE(vq->desc[0].flags) | AMP_VRING_DESC_F_NEXT);
	amp_log("bad: flagrace: descriptor 0 kept chained after %u messages", sent);
	while (!ret) {
		ret = raw_take(vq, &b);
		if (ret)
			break;
		len = race_msg(&b);
		avail = AMP_READ_ONCE(vq->avail->idx);
		slot = vq->used_idx & (vq->num - 1);
		amp_vq_put(vq, b.head, len);
		platform_notify_vq(vq->notifyid);
		sent++;
		/* Pulse until Linux gives a buffer back: it read the entry. */
		end = env_time_ns() + BAD_TIMEOUT_NS;
		for (i = 0; AMP_READ_ONCE(vq->avail->idx) == avail; i++) {
			if (!(i % 64) && env_time_ns() >= end) {
				ret = -ETIMEDOUT;
				break;
			}
			AMP_WRITE_ONCE(vq->desc[b.head].flags, AMP_VRING_DESC_F_WRITE |
				       (i % 4 ? 0 : i % 8 ? AMP_VRING_DESC_F_NEXT :
					AMP_VRING_DESC_F_NEXT | AMP_VRING_DESC_F_INDIRECT));
			AMP_WRITE_ONCE(vq->used->ring[slot].id, i % 8 == 5 ? 0 : b.head);
		}
		AMP_WRITE_ONCE(vq->desc[b.head].flags, AMP_VRING_DESC_F_WRITE);
		AMP_WRITE_ONCE(vq->used->ring[slot].id, b.head);
	}
	amp_log("bad: flagrace: Linux stopped giving buffers back after %u messages: %d",
		sent, ret);
}

static void __attribute__((noreturn)) idle_forever(const char *why)
{
	amp_log("ampsoc-rpmsg-bad: %s; idling", why);
	for (;;)
		platform_wait_irq(AMP_FOREVER);
}

static void misbehave(const char *mode)
{
	struct ampsoc_rpmsg_ns_msg ns;
	unsigned int i, n;
	int ret = 0;

	if (!strcmp(mode, "badlen")) {
		raw(400, 16 + 8, "header longer than the buffer used");
		raw(8, 4096, "used length beyond the buffer size");
		raw(8, 4, "used length shorter than a header");
	} else if (!strcmp(mode, "badid")) {
		amp_vq_put(&rdev.txq, rdev.txq.num + 5, 16);
		platform_notify_vq(rdev.txq.notifyid);
		amp_log("bad: used id %u of a %u-entry ring", rdev.txq.num + 5, rdev.txq.num);
	} else if (!strcmp(mode, "badidx")) {
		uint16_t ahead = rdev.txq.used_idx + rdev.txq.num + 3;

		AMP_WRITE_ONCE(rdev.txq.used->idx, ahead);
		platform_notify_vq(rdev.txq.notifyid);
		amp_log("bad: used index %u ahead", rdev.txq.num + 3);
		/*
		 * Serving on would write the next used index over this one
		 * (the private count is still sane), so a Linux slower than
		 * this core's next reply would never see the jump.
		 */
		idle_forever("the used index is left ahead");
	} else if (!strcmp(mode, "nsbad")) {
		memset(&ns, 0, sizeof(ns));
		memset(ns.name, 'A', sizeof(ns.name));
		ns.addr = echo.addr;
		ns_raw(&ns, sizeof(ns), "name without a NUL");
		strncpy(ns.name, "ampsoc-short", sizeof(ns.name));
		ns_raw(&ns, sizeof(ns) - 1, "announcement one byte short");
		ns.flags = 7;
		ns_raw(&ns, sizeof(ns), "unknown flags");
	} else if (!strcmp(mode, "nsflood")) {
		memset(&ns, 0, sizeof(ns));
		for (n = 0; n < 1000 && !ret; n++) {
			snprintf(ns.name, sizeof(ns.name), "ampsoc-flood-%u", n);
			ns.addr = 5000 + n;
			ret = amp_rpmsg_sendto(&echo, AMPSOC_RPMSG_NS_ADDR, &ns, sizeof(ns),
					       BAD_TIMEOUT_NS);
		}
		amp_log("bad: %u announcements of services that do not exist: %d", n, ret);
	} else if (!strcmp(mode, "unknown")) {
		for (i = 0; i < 100 && !ret; i++)
			ret = amp_rpmsg_sendto(&echo, 0x7777 + (i & 1) * 0x10000,
					       "nobody", 6, BAD_TIMEOUT_NS);
		amp_log("bad: %u messages to unknown addresses: %d", i, ret);
	} else if (!strcmp(mode, "badaddr")) {
		bad_addrs();
	} else if (!strcmp(mode, "nsown")) {
		ns_own();
	} else if (!strcmp(mode, "flagrace")) {
		flag_race();
	} else if (!strcmp(mode, "flood")) {
		ret = amp_rpmsg_ept_create(&rdev, &flood, "ampsoc-flood", AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, flood_cb, NULL);
		amp_log("bad: flood service at %u: %d", flood.addr, ret);
	} else if (!strcmp(mode, "chaos")) {
		chaos_run();
	} else {
		amp_log("bad: unknown mode %s", mode);
	}
}

/* Flood mode: once Linux has spoken on ampsoc-flood, never stop sending. */
static void flood_forever(void)
{
	uint64_t seq = 0, refused = 0;
	char msg[64];
	int ret;

	while (flood.dst == AMPSOC_RPMSG_ADDR_ANY)
		amp_rpmsg_run_once(&rdev, AMP_FOREVER);
	amp_log("bad: flooding address %u", flood.dst);
	for (;;) {
		if (echo_pending &&
		    !amp_rpmsg_trysendto(&echo, echo_src, echo_buf, echo_len))
			echo_pending = false;
		snprintf(msg, sizeof(msg), "flood %llu", (unsigned long long)seq);
		ret = amp_rpmsg_trysend(&flood, msg, sizeof(msg));
		if (!ret) {
			/*
			 * Linux may keep up and never run out of buffers:
			 * still serve ampsoc-echo now and then, so that a test
			 * can tell a starved Linux from a deaf remote.
			 */
			if (!(++seq % 64))
				amp_rpmsg_poll(&rdev);
			continue;
		}
		if (ret != -ENOMEM) {
			amp_log("bad: flood stopped after %llu: %d",
				(unsigned long long)seq, ret);
			return;
		}
		if (!refused++)
			amp_log("bad: Linux ran out of buffers after %llu",
				(unsigned long long)seq);
		amp_rpmsg_run_once(&rdev, 10000000);
	}
}

int main(void)
{
	int ret;

	printf("ampsoc-rpmsg-bad: mode %s on core %s\n", BAD_MODE, platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-rpmsg-bad: vdev unusable: %d", ret);
		return 1;
	}
	amp_rpmsg_use_carveout(&rdev, &amp_resource_table.bufs);
	ret = amp_rpmsg_ept_create(&rdev, &echo, "ampsoc-echo", AMPSOC_RPMSG_ADDR_ANY,
				   AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL);
	printf("ampsoc-rpmsg-bad: ampsoc-echo at %u: %d\n", echo.addr, ret);
	misbehave(BAD_MODE);
	if (!strcmp(BAD_MODE, "flood"))
		flood_forever();
	for (;;) {
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (chaos_ring_pending >= 0) {
			chaos_ring(chaos_ring_pending);
			chaos_ring_pending = -1;
		}
		if (ret == -EIO)
			idle_forever("a ring is broken");
	}
}

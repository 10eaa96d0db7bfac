// SPDX-License-Identifier: GPL-2.0
/* rpmsg, device side: see <amp/rpmsg.h>. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <amp/platform.h>
#include <amp/rpmsg.h>
#include <amp/rsc_table.h>

#define HDR_SIZE	sizeof(struct rpmsg_hdr)
#define NS_TIMEOUT_NS	1000000000ull

/* ---- buffers ------------------------------------------------------------ */

static void kick(struct amp_rpmsg_dev *rdev, struct amp_vq *vq)
{
	if (amp_vq_want_kick(vq))
		platform_notify_vq(vq->notifyid);
}

/*
 * Take one of Linux's empty rx buffers for a message: a spare one first.
 * Buffers Linux offers that we cannot use (not writable, too small, outside
 * memory) are counted and kept away from Linux: handing them back would
 * make Linux parse whatever they hold.
 */
static int take_tx(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_slot *slot)
{
	struct amp_vq_buf b;
	int ret;

	if (rdev->nr_spare) {
		*slot = rdev->spare[--rdev->nr_spare];
		return 0;
	}
	for (;;) {
		ret = amp_vq_get(&rdev->txq, &b);
		if (ret == -EINVAL)
			continue;
		rdev->tx_starved = ret == -EAGAIN;
		if (ret)
			return ret;
		if (!b.writable || b.len < rdev->tx_buf_size) {
			rdev->txq.errors++;
			continue;
		}
		slot->va = b.va;
		slot->head = b.head;
		return 0;
	}
}

static uint64_t deadline_of(uint64_t timeout_ns)
{
	uint64_t now = env_time_ns();

	return timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
}

/* take_tx(), waiting for Linux up to @timeout_ns; -ENOMEM if 0. */
static int take_tx_wait(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_slot *slot,
			uint64_t timeout_ns)
{
	uint64_t deadline = 0, now;
	int ret;

	for (;;) {
		ret = take_tx(rdev, slot);
		if (ret != -EAGAIN)
			return ret;
		if (!timeout_ns)
			return -ENOMEM;
		/* Linux returns buffers only for messages it has heard of. */
		if (rdev->tx_pending) {
			rdev->tx_pending = false;
			kick(rdev, &rdev->txq);
		}
		if (!deadline)
			deadline = deadline_of(timeout_ns);
		now = env_time_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		/* Sleep only if Linux will ring when it returns a buffer. */
		if (amp_vq_notify(&rdev->txq, true))
			continue;
		ret = env_wait_event(deadline - now);
		amp_vq_notify(&rdev->txq, false);
		if (ret < 0)
			return ret;
	}
}

static void send_slot(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_slot *slot,
		      uint32_t src, uint32_t dst, uint32_t len)
{
	struct rpmsg_hdr *hdr = slot->va;

	hdr->src = src;
	hdr->dst = dst;
	hdr->reserved = 0;
	hdr->len = len;
	hdr->flags = 0;
	amp_vq_put(&rdev->txq, slot->head, HDR_SIZE + len);
	rdev->stats.tx++;
	/* Replies sent from callbacks are announced once, after the batch. */
	if (rdev->in_poll)
		rdev->tx_pending = true;
	else
		kick(rdev, &rdev->txq);
}

static int send_locked(struct amp_rpmsg_dev *rdev, uint32_t src, uint32_t dst,
		       const void *data, uint32_t len, uint64_t timeout_ns)
{
	struct amp_rpmsg_slot slot;
	int ret;

	if (len > amp_rpmsg_mtu(rdev))
		return -EMSGSIZE;
	if (dst == AMPSOC_RPMSG_ADDR_ANY || src == AMPSOC_RPMSG_ADDR_ANY)
		return -ENOTCONN;
	ret = take_tx_wait(rdev, &slot, timeout_ns);
	if (ret)
		return ret;
	memcpy((uint8_t *)slot.va + HDR_SIZE, data, len);
	send_slot(rdev, &slot, src, dst, len);
	return 0;
}

static struct amp_rpmsg_slot *find_slot(struct amp_rpmsg_slot *slots, const void *data)
{
	for (unsigned int i = 0; i < AMP_RPMSG_MAX_HELD; i++)
		if (slots[i].va && (uint8_t *)slots[i].va + HDR_SIZE == data)
			return &slots[i];
	return NULL;
}

static struct amp_rpmsg_slot *free_slot(struct amp_rpmsg_slot *slots)
{
	for (unsigned int i = 0; i < AMP_RPMSG_MAX_HELD; i++)
		if (!slots[i].va)
			return &slots[i];
	return NULL;
}

/* ---- endpoints ---------------------------------------------------------- */

static struct amp_rpmsg_ept *find_ept(struct amp_rpmsg_dev *rdev, uint32_t addr)
{
	struct amp_rpmsg_ept *e;

	for (e = rdev->epts; e; e = e->next)
		if (e->addr == addr)
			return e;
	return NULL;
}

static uint32_t pick_addr(struct amp_rpmsg_dev *rdev)
{
	uint32_t a = rdev->next_addr;

	/* The list is short; give up after a full turn, which never happens. */
	for (uint32_t n = 0; n < 4096; n++, a++) {
		if (a < AMPSOC_RPMSG_RESERVED_ADDRESSES || a == AMPSOC_RPMSG_ADDR_ANY)
			a = AMPSOC_RPMSG_RESERVED_ADDRESSES;
		if (!find_ept(rdev, a)) {
			rdev->next_addr = a + 1;
			return a;
		}
	}
	return AMPSOC_RPMSG_ADDR_ANY;
}

static int ns_send(struct amp_rpmsg_ept *ept, uint32_t flags)
{
	struct ampsoc_rpmsg_ns_msg msg;

	memset(&msg, 0, sizeof(msg));
	strncpy(msg.name, ept->name, sizeof(msg.name));
	msg.addr = ept->addr;
	msg.flags = flags;
	return send_locked(ept->rdev, ept->addr, AMPSOC_RPMSG_NS_ADDR, &msg,
			   sizeof(msg), NS_TIMEOUT_NS);
}

static int ns_rx(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		 uint32_t src, void *priv)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	struct ampsoc_rpmsg_ns_msg msg;

	if (len != sizeof(msg)) {
		rdev->stats.bad_ns++;
		return -EINVAL;
	}
	memcpy(&msg, data, sizeof(msg));
	if (!memchr(msg.name, 0, sizeof(msg.name)) ||
	    msg.flags > AMPSOC_RPMSG_NS_DESTROY) {
		rdev->stats.bad_ns++;
		return -EINVAL;
	}
	if (rdev->ns_cb)
		rdev->ns_cb(rdev, msg.name, msg.addr, msg.flags, rdev->ns_priv);
	return 0;
}

static int fc_rx(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		 uint32_t src, void *priv)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	struct ampsoc_rpmsg_fc_msg msg;
	struct amp_rpmsg_ept *target;

	if (len != sizeof(msg)) {
		rdev->stats.bad_fc++;
		return -EINVAL;
	}
	memcpy(&msg, data, sizeof(msg));
	env_lock(&rdev->lock);
	target = find_ept(rdev, msg.addr);
	if (!target || target == &rdev->ns_ept || target == &rdev->fc_ept ||
	    (msg.flags & ~AMPSOC_RPMSG_FC_PAUSED)) {
		rdev->stats.bad_fc++;
		env_unlock(&rdev->lock);
		return -EINVAL;
	}
	target->paused = msg.flags & AMPSOC_RPMSG_FC_PAUSED;
	env_unlock(&rdev->lock);
	return 0;
}

static int add_ept(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_ept *ept,
		   const char *name, uint32_t addr, uint32_t dst,
		   amp_rpmsg_cb cb, void *priv)
{
	if (!cb || (name && strnlen(name, AMPSOC_RPMSG_NAME_SIZE) == AMPSOC_RPMSG_NAME_SIZE))
		return -EINVAL;
	if (addr == AMPSOC_RPMSG_ADDR_ANY) {
		addr = pick_addr(rdev);
		if (addr == AMPSOC_RPMSG_ADDR_ANY)
			return -ENOSPC;
	} else if (find_ept(rdev, addr)) {
		return -EEXIST;
	}
	memset(ept->name, 0, sizeof(ept->name));
	if (name)
		memcpy(ept->name, name, strnlen(name, sizeof(ept->name) - 1));
	ept->addr = addr;
	ept->dst = dst;
	ept->cb = cb;
	ept->priv = priv;
	ept->rdev = rdev;
	ept->announced = false;
	ept->paused = false;
	ept->next = rdev->epts;
	rdev->epts = ept;
	return 0;
}

static void unlink_ept(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_ept *ept)
{
	struct amp_rpmsg_ept **p;

	for (p = &rdev->epts; *p; p = &(*p)->next) {
		if (*p == ept) {
			*p = ept->next;
			break;
		}
	}
	ept->next = NULL;
}

int amp_rpmsg_ept_create(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_ept *ept,
			 const char *name, uint32_t addr, uint32_t dst,
			 amp_rpmsg_cb cb, void *priv)
{
	int ret;

	env_lock(&rdev->lock);
	ret = add_ept(rdev, ept, name, addr, dst, cb, priv);
	if (!ret && rdev->ns && ept->name[0]) {
		ret = ns_send(ept, AMPSOC_RPMSG_NS_CREATE);
		if (ret)
			unlink_ept(rdev, ept);	/* all or nothing */
		else
			ept->announced = true;
	}
	env_unlock(&rdev->lock);
	return ret;
}

void amp_rpmsg_ept_destroy(struct amp_rpmsg_ept *ept)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;

	env_lock(&rdev->lock);
	if (ept->announced)
		ns_send(ept, AMPSOC_RPMSG_NS_DESTROY);
	ept->announced = false;
	unlink_ept(rdev, ept);
	env_unlock(&rdev->lock);
}

/* ---- device ------------------------------------------------------------- */

/* A proposed buffer size as Linux takes it: 512 unless it is sound. */
static uint32_t buf_size(uint32_t v)
{
	if (v < AMPSOC_RPMSG_BUF_SIZE || v > AMPSOC_RPMSG_MAX_BUF_SIZE || v % 16)
		return AMPSOC_RPMSG_BUF_SIZE;
	return v;
}

int amp_rpmsg_init(struct amp_rpmsg_dev *rdev, void *vdev)
{
	struct ampsoc_rsc_vdev *v = (void *)((uint8_t *)vdev + sizeof(uint32_t));
	uint64_t ddr_da = 0, ddr_len = 0;
	uint32_t gfeatures;
	uint8_t status;
	bool have_ddr;
	int ret;

	if (amp_rsc_read32(vdev) != AMPSOC_RSC_VDEV || v->id != AMPSOC_VIRTIO_ID_RPMSG ||
	    v->num_of_vrings != 2)
		return -EINVAL;
	status = amp_rsc_read8(&v->status);
	if (status & (AMP_VIRTIO_STATUS_FAILED | AMP_VIRTIO_STATUS_NEEDS_RESET))
		return -ENODEV;
	if (!(status & AMP_VIRTIO_STATUS_DRIVER_OK))
		return -EAGAIN;

	memset(rdev, 0, sizeof(*rdev));
	have_ddr = !platform_ddr(&ddr_da, &ddr_len);
	for (int i = 0; i < 2; i++) {
		struct ampsoc_rsc_vring *r = &v->vring[i];
		struct amp_vq *vq = i ? &rdev->rxq : &rdev->txq;
		uint32_t da = amp_rsc_read32(&r->da);

		if (da == AMPSOC_FW_RSC_ADDR_ANY)
			return -EINVAL;
		ret = amp_vq_init(vq, da, amp_rsc_read32(&r->num),
				  amp_rsc_read32(&r->align),
				  amp_rsc_read32(&r->notifyid));
		if (ret)
			return ret;
		/*
		 * A vring in Linux's DRAM: Linux took it from the DMA API, as
		 * mainline does, and its buffers too, whose descriptors then
		 * carry bus addresses of that DRAM, not device addresses.
		 */
		if (have_ddr && da >= ddr_da && da - ddr_da < ddr_len)
			amp_vq_set_bus_window(vq, 0, ddr_da, ddr_len);
	}
	gfeatures = amp_rsc_read32(&v->gfeatures);
	rdev->vdev = vdev;
	rdev->rx_buf_size = AMPSOC_RPMSG_BUF_SIZE;
	rdev->tx_buf_size = AMPSOC_RPMSG_BUF_SIZE;
	if (gfeatures & (1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ) &&
	    amp_rsc_read32(&v->config_len) >= sizeof(struct ampsoc_rpmsg_vdev_config)) {
		const struct ampsoc_rpmsg_vdev_config *cfg = (const void *)&v->vring[2];

		rdev->rx_buf_size = buf_size(amp_rsc_read32(&cfg->h2r_buf_size));
		rdev->tx_buf_size = buf_size(amp_rsc_read32(&cfg->r2h_buf_size));
	}
	rdev->ns = gfeatures & (1u << AMPSOC_VIRTIO_RPMSG_F_NS);
	rdev->fc = gfeatures & (1u << AMPSOC_VIRTIO_RPMSG_F_FC);
	rdev->next_addr = AMPSOC_RPMSG_RESERVED_ADDRESSES;
	env_lock_init(&rdev->lock);
	if (rdev->ns)
		add_ept(rdev, &rdev->ns_ept, NULL, AMPSOC_RPMSG_NS_ADDR,
			AMPSOC_RPMSG_ADDR_ANY, ns_rx, NULL);
	if (rdev->fc)
		add_ept(rdev, &rdev->fc_ept, NULL, AMPSOC_RPMSG_FC_ADDR,
			AMPSOC_RPMSG_ADDR_ANY, fc_rx, NULL);
	return 0;
}

int amp_rpmsg_use_carveout(struct amp_rpmsg_dev *rdev, const void *carveout)
{
	const struct amp_rsc_carveout *c = carveout;
	uint32_t pa = amp_rsc_read32(&c->c.pa);
	uint32_t da = amp_rsc_read32(&c->c.da);
	uint32_t len = amp_rsc_read32(&c->c.len);

	if (amp_rsc_read32(&c->type) != AMPSOC_RSC_CARVEOUT || !len ||
	    !platform_da_to_va(da, len))
		return -EINVAL;
	if (pa == AMPSOC_FW_RSC_ADDR_ANY)
		return -ENOENT;
	env_lock(&rdev->lock);
	amp_vq_set_bus_window(&rdev->txq, pa, da, len);
	amp_vq_set_bus_window(&rdev->rxq, pa, da, len);
	env_unlock(&rdev->lock);
	return 0;
}

int amp_rpmsg_wait_ready(struct amp_rpmsg_dev *rdev, void *vdev,
			 uint64_t timeout_ns)
{
	uint64_t deadline = deadline_of(timeout_ns), now;
	int ret;

	for (;;) {
		ret = amp_rpmsg_init(rdev, vdev);
		if (ret != -EAGAIN)
			return ret;
		now = env_time_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		/*
		 * Linux kicks once it is ready; poll too, as the status write
		 * itself rings nothing.
		 */
		ret = env_wait_event(deadline - now < 10000000 ? deadline - now : 10000000);
		if (ret < 0)
			return ret;
	}
}

void amp_rpmsg_set_ns_cb(struct amp_rpmsg_dev *rdev, amp_rpmsg_ns_cb cb,
			 void *priv)
{
	env_lock(&rdev->lock);
	rdev->ns_cb = cb;
	rdev->ns_priv = priv;
	env_unlock(&rdev->lock);
}

uint32_t amp_rpmsg_mtu(struct amp_rpmsg_dev *rdev)
{
	return rdev->tx_buf_size - HDR_SIZE;
}

int amp_rpmsg_set_flow_control(struct amp_rpmsg_ept *ept, uint32_t dst,
			       bool pause)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	struct ampsoc_rpmsg_fc_msg msg = {
		.addr = dst,
		.peer = ept->addr,
		.flags = pause ? AMPSOC_RPMSG_FC_PAUSED : 0,
	};
	int ret;

	if (!rdev->fc)
		return -EOPNOTSUPP;
	if (dst == AMPSOC_RPMSG_ADDR_ANY)
		return -EINVAL;
	env_lock(&rdev->lock);
	ret = send_locked(rdev, ept->addr, AMPSOC_RPMSG_FC_ADDR, &msg, sizeof(msg),
			  NS_TIMEOUT_NS);
	env_unlock(&rdev->lock);
	return ret;
}

/* ---- sending ------------------------------------------------------------ */

int amp_rpmsg_sendto(struct amp_rpmsg_ept *ept, uint32_t dst, const void *data,
		     uint32_t len, uint64_t timeout_ns)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	int ret;

	env_lock(&rdev->lock);
	if (ept->paused)
		ret = -EAGAIN;
	else
		ret = send_locked(rdev, ept->addr, dst, data, len, timeout_ns);
	env_unlock(&rdev->lock);
	return ret;
}

int amp_rpmsg_trysendto(struct amp_rpmsg_ept *ept, uint32_t dst,
			const void *data, uint32_t len)
{
	return amp_rpmsg_sendto(ept, dst, data, len, 0);
}

int amp_rpmsg_send(struct amp_rpmsg_ept *ept, const void *data, uint32_t len,
		   uint64_t timeout_ns)
{
	return amp_rpmsg_sendto(ept, ept->dst, data, len, timeout_ns);
}

int amp_rpmsg_trysend(struct amp_rpmsg_ept *ept, const void *data, uint32_t len)
{
	return amp_rpmsg_sendto(ept, ept->dst, data, len, 0);
}

int amp_rpmsg_send_raw(struct amp_rpmsg_dev *rdev, const struct rpmsg_hdr *hdr,
		       const void *data, uint32_t data_len, uint32_t used_len,
		       uint64_t timeout_ns)
{
	struct amp_rpmsg_slot slot;
	int ret;

	env_lock(&rdev->lock);
	ret = take_tx_wait(rdev, &slot, timeout_ns);
	if (!ret) {
		if (data_len > amp_rpmsg_mtu(rdev))
			data_len = amp_rpmsg_mtu(rdev);
		memcpy(slot.va, hdr, HDR_SIZE);
		memcpy((uint8_t *)slot.va + HDR_SIZE, data, data_len);
		amp_vq_put(&rdev->txq, slot.head, used_len);
		rdev->stats.tx++;
		kick(rdev, &rdev->txq);
	}
	env_unlock(&rdev->lock);
	return ret;
}

void *amp_rpmsg_get_tx_buffer(struct amp_rpmsg_dev *rdev, uint32_t *size,
			      uint64_t timeout_ns)
{
	struct amp_rpmsg_slot *out, slot;
	void *data = NULL;

	env_lock(&rdev->lock);
	out = free_slot(rdev->tx_out);
	if (out && !take_tx_wait(rdev, &slot, timeout_ns)) {
		*out = slot;
		data = (uint8_t *)slot.va + HDR_SIZE;
		if (size)
			*size = amp_rpmsg_mtu(rdev);
	}
	env_unlock(&rdev->lock);
	return data;
}

int amp_rpmsg_send_nocopy(struct amp_rpmsg_ept *ept, uint32_t dst, void *data,
			  uint32_t len)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	struct amp_rpmsg_slot *out;
	int ret = 0;

	env_lock(&rdev->lock);
	out = find_slot(rdev->tx_out, data);
	if (!out)
		ret = -EINVAL;
	else if (len > amp_rpmsg_mtu(rdev))
		ret = -EMSGSIZE;
	else if (dst == AMPSOC_RPMSG_ADDR_ANY)
		ret = -ENOTCONN;
	else if (ept->paused)
		ret = -EAGAIN;
	if (!ret) {
		send_slot(rdev, out, ept->addr, dst, len);
		out->va = NULL;
	}
	env_unlock(&rdev->lock);
	return ret;
}

int amp_rpmsg_release_tx(struct amp_rpmsg_dev *rdev, void *data)
{
	struct amp_rpmsg_slot *out;
	int ret = -EINVAL;

	env_lock(&rdev->lock);
	out = find_slot(rdev->tx_out, data);
	if (out) {
		rdev->spare[rdev->nr_spare++] = *out;
		out->va = NULL;
		ret = 0;
	}
	env_unlock(&rdev->lock);
	return ret;
}

/* ---- receiving ---------------------------------------------------------- */

int amp_rpmsg_hold_rx(struct amp_rpmsg_ept *ept, void *data)
{
	struct amp_rpmsg_dev *rdev = ept->rdev;
	struct amp_rpmsg_slot *h;
	int ret = -EINVAL;

	env_lock(&rdev->lock);
	if (rdev->cur_rx.va && (uint8_t *)rdev->cur_rx.va + HDR_SIZE == data &&
	    !rdev->cur_held) {
		h = free_slot(rdev->held);
		ret = -ENOSPC;
		if (h) {
			*h = rdev->cur_rx;
			rdev->cur_held = true;
			ret = 0;
		}
	}
	env_unlock(&rdev->lock);
	return ret;
}

int amp_rpmsg_release_rx(struct amp_rpmsg_dev *rdev, void *data)
{
	struct amp_rpmsg_slot *h;
	int ret = -EINVAL;

	env_lock(&rdev->lock);
	h = find_slot(rdev->held, data);
	if (h) {
		amp_vq_put(&rdev->rxq, h->head, 0);
		h->va = NULL;
		kick(rdev, &rdev->rxq);
		ret = 0;
	}
	env_unlock(&rdev->lock);
	return ret;
}

int amp_rpmsg_poll(struct amp_rpmsg_dev *rdev)
{
	int handled = 0, ret = 0;
	bool returned = false;

	env_lock(&rdev->lock);
	rdev->in_poll = true;
	for (;;) {
		struct rpmsg_hdr hdr;
		struct amp_rpmsg_ept *ept;
		struct amp_vq_buf b;

		ret = amp_vq_get(&rdev->rxq, &b);
		if (ret == -EAGAIN) {
			ret = 0;
			break;
		}
		if (ret == -EIO)
			break;
		returned = true;
		if (ret == -EINVAL) {
			amp_vq_put(&rdev->rxq, b.head, 0);
			continue;
		}
		if (b.len < HDR_SIZE || b.len > rdev->rx_buf_size) {
			rdev->stats.bad_buf++;
			amp_vq_put(&rdev->rxq, b.head, 0);
			continue;
		}
		/* One copy of the header: Linux's later writes do not count. */
		memcpy(&hdr, b.va, HDR_SIZE);
		if (hdr.len > b.len - HDR_SIZE) {
			rdev->stats.bad_buf++;
			amp_vq_put(&rdev->rxq, b.head, 0);
			continue;
		}
		ept = find_ept(rdev, hdr.dst);
		if (!ept) {
			rdev->stats.no_ept++;
			amp_vq_put(&rdev->rxq, b.head, 0);
			continue;
		}
		if (ept->dst == AMPSOC_RPMSG_ADDR_ANY && ept != &rdev->ns_ept &&
		    ept != &rdev->fc_ept)
			ept->dst = hdr.src;
		rdev->cur_rx.va = b.va;
		rdev->cur_rx.head = b.head;
		rdev->cur_held = false;
		/* Callbacks may send, hold, create and destroy endpoints. */
		env_unlock(&rdev->lock);
		ept->cb(ept, (uint8_t *)b.va + HDR_SIZE, hdr.len, hdr.src, ept->priv);
		env_lock(&rdev->lock);
		if (!rdev->cur_held)
			amp_vq_put(&rdev->rxq, b.head, 0);
		rdev->cur_rx.va = NULL;
		rdev->stats.rx++;
		handled++;
	}
	rdev->stats.vq_errors = rdev->txq.errors + rdev->rxq.errors;
	rdev->in_poll = false;
	if (rdev->tx_pending)
		kick(rdev, &rdev->txq);
	rdev->tx_pending = false;
	if (returned)
		kick(rdev, &rdev->rxq);
	env_unlock(&rdev->lock);
	return ret ? ret : handled;
}

int amp_rpmsg_run_once(struct amp_rpmsg_dev *rdev, uint64_t timeout_ns)
{
	bool more;
	int ret;

	ret = amp_rpmsg_poll(rdev);
	if (ret)
		return ret;
	/*
	 * About to sleep: ask Linux for doorbells again, then look once more,
	 * so that a message it queued without ringing is not left waiting.
	 * Awake, we tell Linux not to ring: one doorbell per burst.
	 */
	env_lock(&rdev->lock);
	more = amp_vq_notify(&rdev->rxq, true);
	if (amp_vq_notify(&rdev->txq, rdev->tx_starved))
		more = true;
	env_unlock(&rdev->lock);
	if (!more) {
		ret = env_wait_event(timeout_ns);
		if (ret < 0)
			return ret;
	}
	env_lock(&rdev->lock);
	amp_vq_notify(&rdev->rxq, false);
	amp_vq_notify(&rdev->txq, false);
	env_unlock(&rdev->lock);
	return amp_rpmsg_poll(rdev);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg virtio transport: a virtio driver for device ID 7 that
 * carries rpmsg channels over one rx and one tx virtqueue.
 *
 * Wire format is mainline's: each buffer starts with a 16-byte header
 * (src, dst, reserved, len, flags), name-service messages of 40 bytes go to
 * address 53 when VIRTIO_RPMSG_F_NS (bit 0) is negotiated, and buffers are
 * 512 bytes unless the device offers AMPSOC_VIRTIO_RPMSG_F_BUFSZ with sizes
 * in its config space.
 *
 * The remote is not trusted, and it can write the rings while Linux reads
 * them. The kernel's virtio_ring trusts the descriptor table (6.1's
 * detach_buf_split() follows VRING_DESC_F_NEXT read from it), so this
 * transport drives both split rings itself on the memory of the queues the
 * glue created: it writes descriptors and the avail ring from state it
 * keeps privately (buffer i always travels in descriptor i), never reads
 * the avail ring, reads a descriptor back only to count a tampered one,
 * and fetches every used-ring field once into a private copy that all
 * later decisions use. The virtqueue itself only notifies the remote and
 * delivers its interrupts. A bad entry is counted and dropped; a corrupted
 * ring kills the transport so that every sender gets an error.
 *
 * Buffer memory comes from the virtio device's parent: the shared-memory
 * region it reports with virtio_get_shm_region(AMPSOC_RPMSG_SHM_ID_BUFFERS)
 * when it has one (the remote can see only that region), otherwise
 * dma_alloc_coherent() on the parent. See docs/rpmsg.md.
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/kcov.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/wait.h>

#include "rpmsg_internal.h"

#define VIRTIO_ID_RPMSG_AMPSOC	7
#define MAX_RPMSG_NUM_BUFS	512
#define RPMSG_TX_TIMEOUT	msecs_to_jiffies(15000)

static unsigned int max_channels = 256;
module_param(max_channels, uint, 0644);
MODULE_PARM_DESC(max_channels, "channels per remote; more announcements are rejected");

struct vrp_stats {
	atomic64_t rx, tx, kicks, bad_len, bad_ring, bad_addr, unknown_dst,
		   ns_rejected, fc_rejected, rx_dropped_paused;
};

/**
 * struct vrp_ring - one split virtqueue, driven by the transport
 * @vq: the glue's virtqueue: notifies the remote, delivers its interrupts
 * @desc: descriptor table (shared)
 * @avail: available ring (shared, only ever written)
 * @used: used ring (shared, each field fetched once per use)
 * @vr: virtio_ring's own description of the ring (see vrp_ring_setup())
 * @ring_used: the used ring @vr pointed to before
 * @irq_view: the flags and index virtio_ring's interrupt handler reads
 * @num: entries, a power of two
 * @nbufs: buffers; buffer i always travels in descriptor i
 * @avail_idx: avail->idx as published
 * @last_used: next used entry to take
 * @used_idx: used->idx as last fetched
 * @avail_flags: avail->flags as written
 * @unkicked: buffers posted since the remote was last notified
 * @out: bit i: buffer i is at the remote
 */
struct vrp_ring {
	struct virtqueue *vq;
	vring_desc_t *desc;
	vring_avail_t *avail;
	vring_used_t *used;
	struct vring *vr;
	vring_used_t *ring_used;
	__virtio16 irq_view[2] __aligned(4);
	unsigned int num, nbufs;
	u16 avail_idx, last_used, used_idx, avail_flags;
	unsigned int unkicked;
	unsigned long *out;
};

/**
 * struct virtproc_info - one remote reached through one virtio device
 * @vdev: the virtio device
 * @rx: remote-to-host ring (queue 0)
 * @tx: host-to-remote ring (queue 1)
 * @ref: the structure outlives the device while endpoints point to it
 * @mem: buffer memory (rx buffers first, then tx buffers)
 * @mem_pa: physical address of @mem
 * @mem_dma: DMA handle when @mem came from dma_alloc_coherent()
 * @mem_size: size of @mem
 * @mem_shm: @mem is the parent's shared region (memremap()ed)
 * @rbufs: first rx buffer
 * @sbufs: first tx buffer
 * @num_rbufs: number of rx buffers
 * @num_sbufs: number of tx buffers
 * @rbuf_size: size of an rx buffer, header included
 * @sbuf_size: size of a tx buffer, header included
 * @last_sbuf: tx buffers never used so far start here
 * @sfree: tx buffers taken back or given back unsent
 * @nfree: number of entries in @sfree
 * @svq_lock: protects @tx, @last_sbuf, @sfree and @nfree
 * @rvq_lock: protects @rx, @rx_held and @rx_current
 * @rx_lock: serialises rx processing
 * @rx_work: continues an rx pass that used up its budget, at normal priority
 * @rx_deferred: @rx_work owns the rx ring until it finds it empty
 * @endpoints_lock: protects @endpoints
 * @endpoints: local address to endpoint
 * @sendq: senders waiting for a tx buffer or a resume
 * @sleepers: senders waiting; tx-complete interrupts are on while > 0
 * @live: the rings are set up; interrupts are handled from now on
 * @dead: the device is gone or broken; every operation fails
 * @has_ns: name service negotiated
 * @has_fc: flow control negotiated
 * @rx_held: rx buffers held by zero-copy clients
 * @rx_current: rx buffer whose callback is running
 * @channels: channels created on this device
 * @ns_rpdev: the name-service channel
 * @ctrl_rpdev: the rpmsg_ctrl channel
 * @stats: counters
 * @debugfs: /sys/kernel/debug/ampsoc_rpmsg/<virtio device>/
 * @grave: on vrp_graveyard while a poller keeps the structure
 */
struct virtproc_info {
	struct virtio_device *vdev;
	struct vrp_ring rx, tx;
	struct kref ref;
	void *mem;
	phys_addr_t mem_pa;
	dma_addr_t mem_dma;
	size_t mem_size;
	bool mem_shm;
	void *rbufs, *sbufs;
	unsigned int num_rbufs, num_sbufs;
	unsigned int rbuf_size, sbuf_size;
	unsigned int last_sbuf;
	void **sfree;
	unsigned int nfree;
	spinlock_t svq_lock;		/* tx, last_sbuf, sfree, nfree */
	spinlock_t rvq_lock;		/* rx, rx_held, rx_current */
	struct mutex rx_lock;		/* one rx pass at a time */
	struct work_struct rx_work;
	bool rx_deferred;
	struct mutex endpoints_lock;	/* endpoints */
	struct idr endpoints;
	wait_queue_head_t sendq;
	atomic_t sleepers;
	bool live;
	bool dead;
	bool has_ns, has_fc;
	unsigned long *rx_held;
	void *rx_current;
	atomic_t channels;
	struct rpmsg_device *ns_rpdev, *ctrl_rpdev;
	struct vrp_stats stats;
	struct dentry *debugfs;
	struct list_head grave;
};

static struct dentry *vrp_debugfs_root;

/*
 * The remote fuzzer's kcov handle (kcov_common_handle() of the task that
 * wrote it to debugfs "kcov_handle"), 0 when off: rx passes, which run on
 * the remote's behalf, collect coverage for it.
 */
static u64 vrp_kcov_handle;

struct virtio_rpmsg_channel {
	struct rpmsg_device rpdev;
	struct virtproc_info *vrp;
	bool counted;
	bool remote;
};

struct vrp_endpoint {
	struct rpmsg_endpoint ept;
	struct virtproc_info *vrp;
	bool remote_paused;
};

#define to_virtio_rpmsg_channel(_rpdev) \
	container_of(_rpdev, struct virtio_rpmsg_channel, rpdev)
#define to_vrp_ept(_ept) container_of(_ept, struct vrp_endpoint, ept)

static const struct ampsoc_rpmsg_device_ops virtio_rpmsg_ops;
static const struct ampsoc_rpmsg_endpoint_ops virtio_endpoint_ops;

static void vrp_free(struct virtproc_info *vrp)
{
	idr_destroy(&vrp->endpoints);
	bitmap_free(vrp->rx_held);
	bitmap_free(vrp->rx.out);
	bitmap_free(vrp->tx.out);
	kfree(vrp->sfree);
	kfree(vrp);
}

/*
 * poll() on an endpoint's file waits on @sendq too, and the entry it adds
 * there stays until that poll() returns, whenever the endpoint itself
 * went. So the last reference frees the structure only once @sendq is
 * empty; until then it waits on vrp_graveyard, and the reaper wakes its
 * pollers, which find their endpoint gone and return, and frees it after
 * them. The wake-up carries POLLFREE, on which an epoll set drops its
 * entry at once (and reads the queue under RCU: hence the grace period
 * before the free). No entry can be added by then: only an endpoint,
 * which held a reference, could.
 */
static LIST_HEAD(vrp_graveyard);
static DEFINE_SPINLOCK(vrp_graveyard_lock);
static void vrp_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(vrp_reaper, vrp_reap);

static void vrp_sendq_free_wake(struct virtproc_info *vrp)
{
	__wake_up(&vrp->sendq, TASK_NORMAL, 0, poll_to_key(EPOLLHUP | POLLFREE));
}

static bool vrp_sendq_empty(struct virtproc_info *vrp)
{
	unsigned long flags;
	bool empty;

	spin_lock_irqsave(&vrp->sendq.lock, flags);
	empty = list_empty(&vrp->sendq.head);
	spin_unlock_irqrestore(&vrp->sendq.lock, flags);
	return empty;
}

/* Free what no poller holds any more; true if some are still held. */
static bool vrp_reap_once(void)
{
	struct virtproc_info *vrp, *n;
	unsigned long flags;
	LIST_HEAD(done);
	bool left;

	spin_lock_irqsave(&vrp_graveyard_lock, flags);
	list_for_each_entry_safe(vrp, n, &vrp_graveyard, grave) {
		if (vrp_sendq_empty(vrp))
			list_move(&vrp->grave, &done);
		else
			vrp_sendq_free_wake(vrp);
	}
	left = !list_empty(&vrp_graveyard);
	spin_unlock_irqrestore(&vrp_graveyard_lock, flags);
	if (!list_empty(&done))
		synchronize_rcu();
	list_for_each_entry_safe(vrp, n, &done, grave)
		vrp_free(vrp);
	return left;
}

static void vrp_reap(struct work_struct *work)
{
	if (vrp_reap_once())
		schedule_delayed_work(&vrp_reaper, msecs_to_jiffies(100));
}

static void vrp_release(struct kref *ref)
{
	struct virtproc_info *vrp = container_of(ref, struct virtproc_info, ref);
	unsigned long flags;

	if (vrp_sendq_empty(vrp)) {
		vrp_free(vrp);
		return;
	}
	spin_lock_irqsave(&vrp_graveyard_lock, flags);
	list_add_tail(&vrp->grave, &vrp_graveyard);
	spin_unlock_irqrestore(&vrp_graveyard_lock, flags);
	vrp_sendq_free_wake(vrp);
	schedule_delayed_work(&vrp_reaper, 1);
}

static bool vrp_dead(struct virtproc_info *vrp)
{
	return READ_ONCE(vrp->dead);
}

static void vrp_set_dead(struct virtproc_info *vrp, const char *why)
{
	if (!xchg(&vrp->dead, true) && why)
		dev_err(&vrp->vdev->dev, "remote disabled: %s\n", why);
	wake_up_all(&vrp->sendq);
}

/* Buffer bookkeeping: the remote sees physical addresses of @mem. */
static bool vrp_buf_ok(struct virtproc_info *vrp, void *buf, bool rx)
{
	void *base = rx ? vrp->rbufs : vrp->sbufs;
	unsigned int size = rx ? vrp->rbuf_size : vrp->sbuf_size;
	unsigned int num = rx ? vrp->num_rbufs : vrp->num_sbufs;
	unsigned long off;

	if (buf < base)
		return false;
	off = buf - base;
	return off / size < num && !(off % size);
}

static phys_addr_t vrp_buf_pa(struct virtproc_info *vrp, void *buf)
{
	return vrp->mem_pa + (buf - vrp->mem);
}

static void *vrp_rbuf(struct virtproc_info *vrp, unsigned int id)
{
	return vrp->rbufs + (size_t)id * vrp->rbuf_size;
}

static void *vrp_sbuf(struct virtproc_info *vrp, unsigned int id)
{
	return vrp->sbufs + (size_t)id * vrp->sbuf_size;
}

/* --- the split rings, as the driver side of the virtio spec --- */

/*
 * Take over the ring of @vq. virtio_ring delivers an interrupt only when
 * its own last used index differs from used->idx; this transport consumes
 * the ring itself, so virtio_ring's index stays 0, and a remote that rang
 * with used->idx at a multiple of 65536 would go unheard. Its view of the
 * used ring is pointed at @irq_view, whose index is never 0, so that every
 * interrupt reaches the callback, which looks at the real ring itself.
 * virtio_ring reads nothing else of a ring that it neither adds to nor
 * takes from (it never reads this view's flags: it does not kick for us).
 * Checked here through virtqueue_poll(), which reads the same index.
 */
static int vrp_ring_setup(struct virtproc_info *vrp, struct vrp_ring *r,
			  struct virtqueue *vq, unsigned int nbufs)
{
	struct virtio_device *vdev = vrp->vdev;
	const struct vring *vr = virtqueue_get_vring(vq);
	bool quiet;

	BUILD_BUG_ON(offsetof(struct vring_used, idx) != sizeof(__virtio16));
	r->vq = vq;
	r->num = vr->num;
	r->desc = vr->desc;
	r->avail = vr->avail;
	r->used = vr->used;
	r->nbufs = nbufs;
	r->out = bitmap_zalloc(nbufs, GFP_KERNEL);
	if (!r->out)
		return -ENOMEM;

	r->vr = (struct vring *)vr;
	r->ring_used = vr->used;
	WRITE_ONCE(r->vr->used, (vring_used_t *)r->irq_view);
	quiet = !virtqueue_poll(vq, 0);
	WRITE_ONCE(r->irq_view[1], cpu_to_virtio16(vdev, 1));
	if (quiet && virtqueue_poll(vq, 0))
		return 0;
	WRITE_ONCE(r->vr->used, r->ring_used);
	r->vr = NULL;
	dev_err(&vdev->dev, "%s: virtio_ring does not read its ring where expected\n",
		vq->name);
	return -EOPNOTSUPP;
}

/* Give virtio_ring its own view back, before the queue is deleted. */
static void vrp_ring_restore(struct vrp_ring *r)
{
	if (r->vr)
		WRITE_ONCE(r->vr->used, r->ring_used);
	r->vr = NULL;
}

/*
 * Post buffer @id (@len bytes at @pa) in descriptor @id and publish it.
 * The descriptor is written whole each time: what the remote may have
 * changed in it is its own business, never read back for anything but a
 * check. Caller holds the ring's lock; @id is not at the remote.
 */
static void vrp_ring_post(struct virtproc_info *vrp, struct vrp_ring *r,
			  unsigned int id, phys_addr_t pa, u32 len, u16 flags)
{
	struct virtio_device *vdev = vrp->vdev;
	struct vring_desc *d = &r->desc[id];

	d->addr = cpu_to_virtio64(vdev, pa);
	d->len = cpu_to_virtio32(vdev, len);
	d->flags = cpu_to_virtio16(vdev, flags);
	d->next = 0;
	r->avail->ring[r->avail_idx & (r->num - 1)] = cpu_to_virtio16(vdev, id);
	__set_bit(id, r->out);
	r->avail_idx++;
	r->unkicked++;
	/* The descriptor and the entry before the index that publishes them. */
	virtio_wmb(false);
	WRITE_ONCE(r->avail->idx, cpu_to_virtio16(vdev, r->avail_idx));
}

/*
 * Whether to notify the remote now: something was posted since the last
 * time, and used->flags (fetched once) does not say it is awake anyway.
 */
static bool vrp_ring_kick_prepare(struct virtproc_info *vrp, struct vrp_ring *r)
{
	u16 flags;

	if (!r->unkicked)
		return false;
	r->unkicked = 0;
	/* The new avail index before the remote's flags: pairs with its mb. */
	virtio_mb(false);
	flags = virtio16_to_cpu(vrp->vdev, READ_ONCE(r->used->flags));
	return !(flags & VRING_USED_F_NO_NOTIFY);
}

static void vrp_ring_irq_off(struct virtproc_info *vrp, struct vrp_ring *r)
{
	if (r->avail_flags & VRING_AVAIL_F_NO_INTERRUPT)
		return;
	r->avail_flags |= VRING_AVAIL_F_NO_INTERRUPT;
	WRITE_ONCE(r->avail->flags, cpu_to_virtio16(vrp->vdev, r->avail_flags));
}

/*
 * Ask for interrupts again. Returns false when used entries are waiting
 * (the remote may have used them before it saw the flag): take them first.
 */
static bool vrp_ring_irq_on(struct virtproc_info *vrp, struct vrp_ring *r)
{
	u16 idx;

	if (r->avail_flags & VRING_AVAIL_F_NO_INTERRUPT) {
		r->avail_flags &= ~VRING_AVAIL_F_NO_INTERRUPT;
		WRITE_ONCE(r->avail->flags,
			   cpu_to_virtio16(vrp->vdev, r->avail_flags));
	}
	/* The flag before the index: pairs with the remote's mb. */
	virtio_mb(false);
	idx = virtio16_to_cpu(vrp->vdev, READ_ONCE(r->used->idx));
	return idx == r->last_used;
}

/*
 * Take the next used entry. Its fields are fetched once each: *@id is the
 * buffer, outstanding at the remote until now, and *@len (when not NULL)
 * the length the remote wrote. Returns 1, 0 when there is none, or -EIO
 * when the remote corrupted the ring: an index beyond the buffers it has,
 * or an id that is not one of them (out of range, never posted, or given
 * back already). Caller holds the ring's lock.
 */
static int vrp_ring_take(struct virtproc_info *vrp, struct vrp_ring *r,
			 unsigned int *id, u32 *len)
{
	struct virtio_device *vdev = vrp->vdev;
	u16 last = r->last_used, idx = r->used_idx, out;
	struct vring_used_elem *e;
	u32 v;

	if (idx == last) {
		idx = virtio16_to_cpu(vdev, READ_ONCE(r->used->idx));
		if (idx == last)
			return 0;
		out = r->avail_idx - last;
		if ((u16)(idx - last) > out) {
			atomic64_inc(&vrp->stats.bad_ring);
			dev_err(&vdev->dev, "%s: used index %u beyond the %u buffers the remote has (last %u)\n",
				r->vq->name, idx, out, last);
			return -EIO;
		}
		r->used_idx = idx;
		/* The entries after the index that published them. */
		virtio_rmb(false);
	}
	e = &r->used->ring[last & (r->num - 1)];
	v = virtio32_to_cpu(vdev, READ_ONCE(e->id));
	if (v >= r->nbufs || !__test_and_clear_bit(v, r->out)) {
		atomic64_inc(&vrp->stats.bad_ring);
		dev_err(&vdev->dev, "%s: used id %u is not a buffer the remote has\n",
			r->vq->name, v);
		return -EIO;
	}
	*id = v;
	if (len)
		*len = virtio32_to_cpu(vdev, READ_ONCE(e->len));
	r->last_used = last + 1;
	return 1;
}

/*
 * A descriptor is only ever read back here, once, to count a remote that
 * rewrote it: Linux goes on using its own buffer @pa whatever it says.
 * Returns 0, -EFAULT for a rewritten address (bad_addr), -EIO for a
 * descriptor made chained or indirect, which this wire format never uses
 * (bad_ring: the remote corrupts its rings).
 */
static int vrp_ring_check_desc(struct virtproc_info *vrp, struct vrp_ring *r,
			       unsigned int id, phys_addr_t pa)
{
	struct virtio_device *vdev = vrp->vdev;
	struct vring_desc *d = &r->desc[id];
	u16 flags = virtio16_to_cpu(vdev, READ_ONCE(d->flags));
	u64 addr = virtio64_to_cpu(vdev, READ_ONCE(d->addr));

	if (flags & (VRING_DESC_F_NEXT | VRING_DESC_F_INDIRECT)) {
		atomic64_inc(&vrp->stats.bad_ring);
		dev_err(&vdev->dev, "%s: descriptor %u was made chained or indirect\n",
			r->vq->name, id);
		return -EIO;
	}
	if (addr != pa) {
		atomic64_inc(&vrp->stats.bad_addr);
		return -EFAULT;
	}
	return 0;
}

/* Notify the remote of @r if it wants it. Caller holds the ring's lock. */
static void vrp_ring_kick(struct virtproc_info *vrp, struct vrp_ring *r)
{
	/* The platform's notify must not sleep: it runs under the lock. */
	if (vrp_ring_kick_prepare(vrp, r)) {
		virtqueue_notify(r->vq);
		atomic64_inc(&vrp->stats.kicks);
	}
}

/* used tx buffers taken back per pass over the used ring */
#define VRP_TX_RECLAIM	32

/*
 * Take used tx buffers back onto the free stack, VRP_TX_RECLAIM at most:
 * one pass over the ring for a batch of senders instead of one per send.
 * The used length is not even read: the remote owes us nothing there.
 * Caller holds svq_lock. Returns 0, or -EIO when the ring is corrupted;
 * the device must then be marked dead.
 */
static int vrp_reclaim_tx(struct virtproc_info *vrp)
{
	unsigned int n, id;
	void *buf;
	int ret;

	for (n = 0; n < VRP_TX_RECLAIM; n++) {
		ret = vrp_ring_take(vrp, &vrp->tx, &id, NULL);
		if (ret <= 0)
			return ret;
		buf = vrp_sbuf(vrp, id);
		/* A rewritten address is counted; the buffer is ours. */
		if (vrp_ring_check_desc(vrp, &vrp->tx, id,
					vrp_buf_pa(vrp, buf)) == -EIO)
			return -EIO;
		/* room: every buffer is on the stack, in flight or never used */
		vrp->sfree[vrp->nfree++] = buf;
	}
	return 0;
}

/* A returned or reclaimed tx buffer, or one never used; NULL if none. */
static void *get_a_tx_buf(struct virtproc_info *vrp)
{
	void *buf = NULL;
	int ret;

	spin_lock(&vrp->svq_lock);
	if (vrp_dead(vrp))
		goto out;
	if (!vrp->nfree && vrp->last_sbuf < vrp->num_sbufs) {
		buf = vrp_sbuf(vrp, vrp->last_sbuf++);
		goto out;
	}
	ret = vrp->nfree ? 0 : vrp_reclaim_tx(vrp);
	if (ret) {
		spin_unlock(&vrp->svq_lock);
		vrp_set_dead(vrp, "tx ring corrupted");
		return NULL;
	}
	if (vrp->nfree)
		buf = vrp->sfree[--vrp->nfree];
out:
	spin_unlock(&vrp->svq_lock);
	return buf;
}

/*
 * Every ring operation runs under svq_lock or rvq_lock after checking
 * that the device is alive, so that remove can delete the queues once it
 * has marked the device dead and passed through both locks.
 */
/*
 * The count and the interrupt state change together under svq_lock:
 * otherwise the last sleeper leaving could turn interrupts off after a
 * new first sleeper turned them on, and that sender would wait for the
 * full timeout.
 */
static void rpmsg_upref_sleepers(struct virtproc_info *vrp)
{
	spin_lock(&vrp->svq_lock);
	if (atomic_inc_return(&vrp->sleepers) == 1 && !vrp_dead(vrp))
		vrp_ring_irq_on(vrp, &vrp->tx);
	spin_unlock(&vrp->svq_lock);
}

static void rpmsg_downref_sleepers(struct virtproc_info *vrp)
{
	spin_lock(&vrp->svq_lock);
	if (atomic_dec_and_test(&vrp->sleepers) && !vrp_dead(vrp))
		vrp_ring_irq_off(vrp, &vrp->tx);
	spin_unlock(&vrp->svq_lock);
}

static void *vrp_wait_tx_buf(struct virtproc_info *vrp, bool wait, int *err)
{
	void *buf = get_a_tx_buf(vrp);
	long ret;

	*err = 0;
	if (buf)
		return buf;
	if (vrp_dead(vrp)) {
		*err = -ENODEV;
		return NULL;
	}
	if (!wait) {
		*err = -ENOMEM;
		return NULL;
	}
	rpmsg_upref_sleepers(vrp);
	ret = wait_event_interruptible_timeout(vrp->sendq,
					       (buf = get_a_tx_buf(vrp)) ||
					       vrp_dead(vrp),
					       RPMSG_TX_TIMEOUT);
	rpmsg_downref_sleepers(vrp);
	if (buf)
		return buf;
	if (vrp_dead(vrp))
		*err = -ENODEV;
	else if (!ret)
		*err = -ETIMEDOUT;
	else
		*err = -ERESTARTSYS;
	return NULL;
}

/* Post a filled tx buffer and kick unless the remote said it is awake. */
static int vrp_post_tx(struct virtproc_info *vrp, void *buf, unsigned int len)
{
	unsigned int id = (buf - vrp->sbufs) / vrp->sbuf_size;

	spin_lock(&vrp->svq_lock);
	if (vrp_dead(vrp)) {
		spin_unlock(&vrp->svq_lock);
		return -ENODEV;
	}
	/* A client sending a buffer it gave away already */
	if (WARN_ON_ONCE(test_bit(id, vrp->tx.out))) {
		spin_unlock(&vrp->svq_lock);
		return -EINVAL;
	}
	vrp_ring_post(vrp, &vrp->tx, id, vrp_buf_pa(vrp, buf), len, 0);
	vrp_ring_kick(vrp, &vrp->tx);
	spin_unlock(&vrp->svq_lock);
	atomic64_inc(&vrp->stats.tx);
	return 0;
}

/* A buffer taken but not sent goes back on the local free stack. */
static void vrp_return_tx_buf(struct virtproc_info *vrp, void *buf)
{
	spin_lock(&vrp->svq_lock);
	if (!WARN_ON_ONCE(vrp->nfree >= vrp->num_sbufs))
		vrp->sfree[vrp->nfree++] = buf;
	spin_unlock(&vrp->svq_lock);
}

static bool vrp_ept_may_send(struct vrp_endpoint *vept)
{
	return !READ_ONCE(vept->remote_paused) || vrp_dead(vept->vrp);
}

static int vrp_wait_flow(struct vrp_endpoint *vept, bool wait)
{
	long ret;

	if (vrp_ept_may_send(vept))
		return 0;
	if (!wait)
		return -EAGAIN;
	ret = wait_event_interruptible_timeout(vept->vrp->sendq,
					       vrp_ept_may_send(vept),
					       RPMSG_TX_TIMEOUT);
	if (!ret)
		return -ETIMEDOUT;
	return ret < 0 ? ret : 0;
}

static int vrp_send_raw(struct virtproc_info *vrp, u32 src, u32 dst,
			const void *data, int len, bool wait)
{
	struct rpmsg_hdr *msg;
	int err;

	if (src == RPMSG_ADDR_ANY || dst == RPMSG_ADDR_ANY)
		return -EINVAL;
	if (len < 0 || len > vrp->sbuf_size - sizeof(*msg))
		return -EMSGSIZE;
	msg = vrp_wait_tx_buf(vrp, wait, &err);
	if (!msg)
		return err;
	msg->src = cpu_to_le32(src);
	msg->dst = cpu_to_le32(dst);
	msg->reserved = 0;
	msg->len = cpu_to_le16(len);
	msg->flags = 0;
	memcpy(msg->data, data, len);
	err = vrp_post_tx(vrp, msg, sizeof(*msg) + len);
	if (err)
		vrp_return_tx_buf(vrp, msg);
	return err;
}

static int virtio_rpmsg_send(struct rpmsg_endpoint *ept, u32 src, u32 dst,
			     void *data, int len, bool wait)
{
	struct vrp_endpoint *vept = to_vrp_ept(ept);
	struct virtproc_info *vrp = vept->vrp;
	int err;

	if (vrp_dead(vrp))
		return -ENODEV;
	err = vrp_wait_flow(vept, wait);
	if (err)
		return err;
	if (vrp_dead(vrp))
		return -ENODEV;
	return vrp_send_raw(vrp, src, dst, data, len, wait);
}

static void *virtio_rpmsg_get_tx(struct rpmsg_endpoint *ept,
				 unsigned int *len, bool wait)
{
	struct virtproc_info *vrp = to_vrp_ept(ept)->vrp;
	struct rpmsg_hdr *msg;
	int err;

	msg = vrp_wait_tx_buf(vrp, wait, &err);
	if (!msg)
		return ERR_PTR(err);
	*len = vrp->sbuf_size - sizeof(*msg);
	return msg->data;
}

static struct rpmsg_hdr *vrp_tx_payload_hdr(struct virtproc_info *vrp,
					    void *data)
{
	struct rpmsg_hdr *msg = container_of(data, struct rpmsg_hdr, data[0]);

	return vrp_buf_ok(vrp, msg, false) ? msg : NULL;
}

static int virtio_rpmsg_send_nocopy(struct rpmsg_endpoint *ept, void *data,
				    int len, u32 dst)
{
	struct vrp_endpoint *vept = to_vrp_ept(ept);
	struct virtproc_info *vrp = vept->vrp;
	struct rpmsg_hdr *msg = vrp_tx_payload_hdr(vrp, data);

	if (!msg)
		return -EINVAL;
	if (dst == RPMSG_ADDR_ANY)
		return -EINVAL;
	if (len < 0 || len > vrp->sbuf_size - sizeof(*msg))
		return -EMSGSIZE;
	if (vrp_dead(vrp))
		return -ENODEV;
	if (!vrp_ept_may_send(vept))
		return -EAGAIN;
	msg->src = cpu_to_le32(ept->addr);
	msg->dst = cpu_to_le32(dst);
	msg->reserved = 0;
	msg->len = cpu_to_le16(len);
	msg->flags = 0;
	return vrp_post_tx(vrp, msg, sizeof(*msg) + len);
}

static void virtio_rpmsg_release_tx(struct rpmsg_endpoint *ept, void *data)
{
	struct virtproc_info *vrp = to_vrp_ept(ept)->vrp;
	struct rpmsg_hdr *msg = vrp_tx_payload_hdr(vrp, data);

	if (msg && !vrp_dead(vrp))
		vrp_return_tx_buf(vrp, msg);
}

static __poll_t virtio_rpmsg_poll(struct rpmsg_endpoint *ept,
				  struct file *filp, poll_table *wait)
{
	struct vrp_endpoint *vept = to_vrp_ept(ept);
	struct virtproc_info *vrp = vept->vrp;
	__poll_t mask = 0;

	poll_wait(filp, &vrp->sendq, wait);
	if (!vrp_ept_may_send(vept))
		return 0;
	spin_lock(&vrp->svq_lock);
	if (vrp_dead(vrp)) {
		spin_unlock(&vrp->svq_lock);
		return EPOLLERR | EPOLLHUP;
	}
	/* A fresh or returned buffer, a used one, or arm the interrupt. */
	if (vrp->nfree || vrp->last_sbuf < vrp->num_sbufs ||
	    !vrp_ring_irq_on(vrp, &vrp->tx))
		mask |= EPOLLOUT | EPOLLWRNORM;
	spin_unlock(&vrp->svq_lock);
	return mask;
}

static ssize_t virtio_rpmsg_get_mtu(struct rpmsg_endpoint *ept)
{
	return to_vrp_ept(ept)->vrp->sbuf_size - sizeof(struct rpmsg_hdr);
}

static int virtio_rpmsg_set_flow_control(struct rpmsg_endpoint *ept,
					 bool pause, u32 dst)
{
	struct virtproc_info *vrp = to_vrp_ept(ept)->vrp;
	struct ampsoc_rpmsg_fc_msg fc = {
		.addr = cpu_to_le32(dst),
		.peer = cpu_to_le32(ept->addr),
		.flags = cpu_to_le32(pause ? AMPSOC_RPMSG_FC_PAUSED : 0),
	};

	if (vrp_dead(vrp))
		return -ENODEV;
	if (!vrp->has_fc)
		return -EOPNOTSUPP;
	if (dst == RPMSG_ADDR_ANY)
		return -EINVAL;
	return vrp_send_raw(vrp, ept->addr, AMPSOC_RPMSG_FC_ADDR, &fc,
			    sizeof(fc), true);
}

static int virtio_rpmsg_get_outgoing_flow(struct rpmsg_endpoint *ept)
{
	struct vrp_endpoint *vept = to_vrp_ept(ept);

	if (vrp_dead(vept->vrp))
		return -ENODEV;
	return !READ_ONCE(vept->remote_paused);
}

/* rx buffers */
static unsigned int vrp_rbuf_id(struct virtproc_info *vrp, void *buf)
{
	return (buf - vrp->rbufs) / vrp->rbuf_size;
}

/* Post rx buffer @buf. Caller holds rvq_lock; the device is alive. */
static void vrp_post_rx(struct virtproc_info *vrp, void *buf)
{
	vrp_ring_post(vrp, &vrp->rx, vrp_rbuf_id(vrp, buf),
		      vrp_buf_pa(vrp, buf), vrp->rbuf_size, VRING_DESC_F_WRITE);
}

/* Give @buf back to the remote and tell it so, if it wants to hear. */
static void vrp_recycle_rx(struct virtproc_info *vrp, void *buf)
{
	spin_lock(&vrp->rvq_lock);
	if (!vrp_dead(vrp)) {
		vrp_post_rx(vrp, buf);
		vrp_ring_kick(vrp, &vrp->rx);
	}
	spin_unlock(&vrp->rvq_lock);
}

/*
 * Zero-copy rx. Under rvq_lock, bit i of rx_held says that a client holds
 * rx buffer i, and rx_current which buffer's callback is running. While
 * rx_current is the buffer, the receive loop owns it: a release only
 * clears the bit and the loop gives it back when the callback is done.
 * Otherwise the release gives it back itself. So a buffer handed to
 * another thread and released at any moment goes back exactly once.
 */
static int virtio_rpmsg_hold_rx(struct rpmsg_endpoint *ept, void *data)
{
	struct virtproc_info *vrp = to_vrp_ept(ept)->vrp;
	struct rpmsg_hdr *msg = container_of(data, struct rpmsg_hdr, data[0]);
	int ret = -EINVAL;

	spin_lock(&vrp->rvq_lock);
	if (vrp->rx_current && msg == vrp->rx_current) {
		__set_bit(vrp_rbuf_id(vrp, msg), vrp->rx_held);
		ret = 0;
	}
	spin_unlock(&vrp->rvq_lock);
	return ret;
}

static void virtio_rpmsg_release_rx(struct rpmsg_endpoint *ept, void *data)
{
	struct virtproc_info *vrp = to_vrp_ept(ept)->vrp;
	struct rpmsg_hdr *msg = container_of(data, struct rpmsg_hdr, data[0]);
	bool give_back;

	if (!vrp_buf_ok(vrp, msg, true)) {
		dev_err(&vrp->vdev->dev, "release of a foreign rx buffer\n");
		return;
	}
	spin_lock(&vrp->rvq_lock);
	give_back = __test_and_clear_bit(vrp_rbuf_id(vrp, msg), vrp->rx_held) &&
		    msg != vrp->rx_current;
	spin_unlock(&vrp->rvq_lock);
	if (give_back)
		vrp_recycle_rx(vrp, msg);
}

/* endpoints */
static void __ept_release(struct kref *kref)
{
	struct rpmsg_endpoint *ept = container_of(kref, struct rpmsg_endpoint,
						  refcount);
	struct vrp_endpoint *vept = to_vrp_ept(ept);

	kref_put(&vept->vrp->ref, vrp_release);
	kfree(vept);
}

static struct rpmsg_endpoint *
__rpmsg_create_ept(struct virtproc_info *vrp, struct rpmsg_device *rpdev,
		   rpmsg_rx_cb_t cb, void *priv, u32 addr)
{
	struct vrp_endpoint *vept;
	struct rpmsg_endpoint *ept;
	int id_min, id_max, id;

	if (vrp_dead(vrp))
		return NULL;
	vept = kzalloc(sizeof(*vept), GFP_KERNEL);
	if (!vept)
		return NULL;
	ept = &vept->ept;
	kref_init(&ept->refcount);
	mutex_init(&ept->cb_lock);
	ept->rpdev = rpdev;
	ept->cb = cb;
	ept->priv = priv;
	ept->ops = &virtio_endpoint_ops;
	vept->vrp = vrp;

	if (addr == RPMSG_ADDR_ANY) {
		id_min = AMPSOC_RPMSG_RESERVED_ADDRESSES;
		id_max = 0;
	} else {
		if (addr > INT_MAX)
			goto free;
		id_min = addr;
		id_max = addr + 1;
	}

	mutex_lock(&vrp->endpoints_lock);
	id = idr_alloc(&vrp->endpoints, ept, id_min, id_max, GFP_KERNEL);
	if (id < 0) {
		mutex_unlock(&vrp->endpoints_lock);
		dev_err(&vrp->vdev->dev, "idr_alloc failed: %d\n", id);
		goto free;
	}
	ept->addr = id;
	kref_get(&vrp->ref);
	mutex_unlock(&vrp->endpoints_lock);
	return ept;

free:
	kfree(vept);
	return NULL;
}

static void __rpmsg_destroy_ept(struct virtproc_info *vrp,
				struct rpmsg_endpoint *ept)
{
	mutex_lock(&vrp->endpoints_lock);
	if (idr_find(&vrp->endpoints, ept->addr) == ept)
		idr_remove(&vrp->endpoints, ept->addr);
	mutex_unlock(&vrp->endpoints_lock);

	/*
	 * Wait for a running callback and stop later ones. A callback may
	 * destroy other endpoints (the name service removing a channel), so
	 * destruction nests one level inside a running callback's cb_lock.
	 */
	mutex_lock_nested(&ept->cb_lock, SINGLE_DEPTH_NESTING);
	ept->cb = NULL;
	ept->flow_cb = NULL;
	mutex_unlock(&ept->cb_lock);

	kref_put(&ept->refcount, __ept_release);
}

static void virtio_rpmsg_destroy_ept(struct rpmsg_endpoint *ept)
{
	__rpmsg_destroy_ept(to_vrp_ept(ept)->vrp, ept);
}

static struct rpmsg_endpoint *
virtio_rpmsg_create_ept(struct rpmsg_device *rpdev, rpmsg_rx_cb_t cb,
			void *priv, struct rpmsg_channel_info chinfo)
{
	struct virtio_rpmsg_channel *vch = to_virtio_rpmsg_channel(rpdev);

	return __rpmsg_create_ept(vch->vrp, rpdev, cb, priv, chinfo.src);
}

static int virtio_rpmsg_announce(struct rpmsg_device *rpdev, u32 flags)
{
	struct virtio_rpmsg_channel *vch = to_virtio_rpmsg_channel(rpdev);
	struct virtproc_info *vrp = vch->vrp;
	struct ampsoc_rpmsg_ns_msg nsm = {};

	if (!rpdev->announce || !rpdev->ept || !vrp->has_ns)
		return 0;
	if (vrp_dead(vrp))
		return flags == AMPSOC_RPMSG_NS_DESTROY ? 0 : -ENODEV;
	strscpy_pad(nsm.name, rpdev->id.name, sizeof(nsm.name));
	nsm.addr = cpu_to_le32(rpdev->ept->addr);
	nsm.flags = cpu_to_le32(flags);
	return vrp_send_raw(vrp, rpdev->ept->addr, AMPSOC_RPMSG_NS_ADDR, &nsm,
			    sizeof(nsm), true);
}

static int virtio_rpmsg_announce_create(struct rpmsg_device *rpdev)
{
	return virtio_rpmsg_announce(rpdev, AMPSOC_RPMSG_NS_CREATE);
}

static int virtio_rpmsg_announce_destroy(struct rpmsg_device *rpdev)
{
	return virtio_rpmsg_announce(rpdev, AMPSOC_RPMSG_NS_DESTROY);
}

static void virtio_rpmsg_release_device(struct device *dev)
{
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);
	struct virtio_rpmsg_channel *vch = to_virtio_rpmsg_channel(rpdev);

	if (vch->counted)
		atomic_dec(&vch->vrp->channels);
	kfree(rpdev->driver_override);
	kref_put(&vch->vrp->ref, vrp_release);
	kfree(vch);
}

static struct virtio_rpmsg_channel *vrp_alloc_channel(struct virtproc_info *vrp)
{
	struct virtio_rpmsg_channel *vch = kzalloc(sizeof(*vch), GFP_KERNEL);

	if (!vch)
		return NULL;
	vch->vrp = vrp;
	kref_get(&vrp->ref);
	vch->rpdev.ops = &virtio_rpmsg_ops;
	vch->rpdev.little_endian = true;
	vch->rpdev.dev.parent = &vrp->vdev->dev;
	vch->rpdev.dev.release = virtio_rpmsg_release_device;
	return vch;
}

static struct rpmsg_device *__rpmsg_create_channel(struct virtproc_info *vrp,
						   struct rpmsg_channel_info *ci,
						   bool remote)
{
	struct virtio_rpmsg_channel *vch;
	struct rpmsg_device *tmp;
	int err;

	if (vrp_dead(vrp))
		return NULL;
	if (strnlen(ci->name, RPMSG_NAME_SIZE) == RPMSG_NAME_SIZE || !ci->name[0])
		return NULL;
	tmp = ampsoc_rpmsg_find_device(&vrp->vdev->dev, ci);
	if (tmp) {
		put_device(&tmp->dev);
		dev_err_ratelimited(&vrp->vdev->dev, "channel %s:%x:%x already exists\n",
				    ci->name, ci->src, ci->dst);
		return NULL;
	}
	if (atomic_inc_return(&vrp->channels) > max_channels) {
		atomic_dec(&vrp->channels);
		dev_err_ratelimited(&vrp->vdev->dev,
				    "channel limit %u reached, %s rejected\n",
				    max_channels, ci->name);
		return NULL;
	}
	vch = vrp_alloc_channel(vrp);
	if (!vch) {
		atomic_dec(&vrp->channels);
		return NULL;
	}
	vch->counted = true;
	vch->remote = remote;
	vch->rpdev.src = ci->src;
	vch->rpdev.dst = ci->dst;
	vch->rpdev.announce = ci->src != RPMSG_ADDR_ANY;
	strscpy(vch->rpdev.id.name, ci->name, RPMSG_NAME_SIZE);

	err = ampsoc_rpmsg_register_device(&vch->rpdev);
	if (err)
		return NULL;
	return &vch->rpdev;
}

static struct rpmsg_device *virtio_rpmsg_create_channel(struct rpmsg_device *rpdev,
							struct rpmsg_channel_info *ci)
{
	return __rpmsg_create_channel(to_virtio_rpmsg_channel(rpdev)->vrp, ci,
				      false);
}

static int virtio_rpmsg_release_channel(struct rpmsg_device *rpdev,
					struct rpmsg_channel_info *ci)
{
	struct virtproc_info *vrp = to_virtio_rpmsg_channel(rpdev)->vrp;

	/* -EINVAL when no channel matches, as mainline's */
	return ampsoc_rpmsg_unregister_device(&vrp->vdev->dev, ci);
}

static struct rpmsg_device *virtio_rpmsg_remote_create(struct rpmsg_device *rpdev,
						       struct rpmsg_channel_info *ci)
{
	return __rpmsg_create_channel(to_virtio_rpmsg_channel(rpdev)->vrp, ci,
				      true);
}

/* A channel of this transport with @data's name and remote address. */
static int vrp_channel_match(struct device *dev, void *data)
{
	struct rpmsg_channel_info *ci = data;
	struct rpmsg_device *rpdev;

	if (dev->release != virtio_rpmsg_release_device)
		return 0;
	rpdev = to_rpmsg_device(dev);
	return rpdev->dst == ci->dst &&
	       !strncmp(rpdev->id.name, ci->name, RPMSG_NAME_SIZE);
}

/* The same, among the channels the remote announced. */
static int vrp_remote_channel_match(struct device *dev, void *data)
{
	return vrp_channel_match(dev, data) &&
	       to_virtio_rpmsg_channel(to_rpmsg_device(dev))->remote;
}

/*
 * The remote may remove what it announced and nothing else: Linux's own
 * channels (rpmsg_ns, rpmsg_ctrl, local and static channels) are not its
 * to take away, even under the same name and address as one of its own.
 * Removing the name-service channel from its own callback would wait for
 * that callback forever.
 */
static int virtio_rpmsg_remote_release(struct rpmsg_device *rpdev,
				       struct rpmsg_channel_info *ci)
{
	struct virtproc_info *vrp = to_virtio_rpmsg_channel(rpdev)->vrp;
	struct device *dev;

	dev = device_find_child(&vrp->vdev->dev, ci, vrp_remote_channel_match);
	if (dev) {
		device_unregister(dev);
		put_device(dev);
		return 0;
	}
	dev = device_find_child(&vrp->vdev->dev, ci, vrp_channel_match);
	put_device(dev);
	return dev ? -EPERM : -ENXIO;
}

static int virtio_rpmsg_get_stats(struct rpmsg_device *rpdev,
				  struct ampsoc_rpmsg_stats *s)
{
	struct vrp_stats *v = &to_virtio_rpmsg_channel(rpdev)->vrp->stats;

	s->rx = atomic64_read(&v->rx);
	s->tx = atomic64_read(&v->tx);
	s->kicks = atomic64_read(&v->kicks);
	s->bad_len = atomic64_read(&v->bad_len);
	s->bad_ring = atomic64_read(&v->bad_ring);
	s->bad_addr = atomic64_read(&v->bad_addr);
	s->unknown_dst = atomic64_read(&v->unknown_dst);
	s->ns_rejected = atomic64_read(&v->ns_rejected);
	s->fc_rejected = atomic64_read(&v->fc_rejected);
	s->rx_dropped_paused = atomic64_read(&v->rx_dropped_paused);
	return 0;
}

static int vrp_stats_show(struct seq_file *sf, void *unused)
{
	struct virtproc_info *vrp = sf->private;
	struct vrp_stats *v = &vrp->stats;

	seq_printf(sf, "rx %lld\ntx %lld\nkicks %lld\nbad_len %lld\nbad_ring %lld\n"
		   "bad_addr %lld\nunknown_dst %lld\nns_rejected %lld\n"
		   "fc_rejected %lld\nchannels %d\nbuf_size %u/%u\ndead %d\n",
		   atomic64_read(&v->rx), atomic64_read(&v->tx),
		   atomic64_read(&v->kicks), atomic64_read(&v->bad_len),
		   atomic64_read(&v->bad_ring), atomic64_read(&v->bad_addr),
		   atomic64_read(&v->unknown_dst), atomic64_read(&v->ns_rejected),
		   atomic64_read(&v->fc_rejected), atomic_read(&vrp->channels),
		   vrp->rbuf_size, vrp->sbuf_size, vrp_dead(vrp));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vrp_stats);

/*
 * One ring as both sides see it: what Linux published and what it took
 * (its own copies), and the remote's used->flags and used->idx read now.
 * A stalled conversation shows here which side owes the other a
 * notification. Caller holds the ring's lock.
 */
static void vrp_ring_show(struct seq_file *sf, struct virtproc_info *vrp,
			  struct vrp_ring *r, const char *name)
{
	struct virtio_device *vdev = vrp->vdev;

	seq_printf(sf, "%s avail_idx %u avail_flags %#x used_idx %u used_flags %#x last_used %u unkicked %u out %u\n",
		   name, r->avail_idx, r->avail_flags,
		   virtio16_to_cpu(vdev, READ_ONCE(r->used->idx)),
		   virtio16_to_cpu(vdev, READ_ONCE(r->used->flags)),
		   r->last_used, r->unkicked,
		   bitmap_weight(r->out, r->nbufs));
}

static int vrp_rings_show(struct seq_file *sf, void *unused)
{
	struct virtproc_info *vrp = sf->private;

	spin_lock(&vrp->rvq_lock);
	vrp_ring_show(sf, vrp, &vrp->rx, "rx");
	spin_unlock(&vrp->rvq_lock);
	spin_lock(&vrp->svq_lock);
	vrp_ring_show(sf, vrp, &vrp->tx, "tx");
	spin_unlock(&vrp->svq_lock);
	seq_printf(sf, "rx_deferred %d\n", READ_ONCE(vrp->rx_deferred));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vrp_rings);

static void virtio_rpmsg_ns_reject(struct rpmsg_device *rpdev)
{
	atomic64_inc(&to_virtio_rpmsg_channel(rpdev)->vrp->stats.ns_rejected);
}

static const struct ampsoc_rpmsg_device_ops virtio_rpmsg_ops = {
	.ns_reject = virtio_rpmsg_ns_reject,
	.create_channel = virtio_rpmsg_create_channel,
	.release_channel = virtio_rpmsg_release_channel,
	.remote_create = virtio_rpmsg_remote_create,
	.remote_release = virtio_rpmsg_remote_release,
	.create_ept = virtio_rpmsg_create_ept,
	.announce_create = virtio_rpmsg_announce_create,
	.announce_destroy = virtio_rpmsg_announce_destroy,
	.get_stats = virtio_rpmsg_get_stats,
};

static const struct ampsoc_rpmsg_endpoint_ops virtio_endpoint_ops = {
	.destroy_ept = virtio_rpmsg_destroy_ept,
	.send = virtio_rpmsg_send,
	.poll = virtio_rpmsg_poll,
	.get_mtu = virtio_rpmsg_get_mtu,
	.set_flow_control = virtio_rpmsg_set_flow_control,
	.get_outgoing_flow = virtio_rpmsg_get_outgoing_flow,
	.hold_rx = virtio_rpmsg_hold_rx,
	.release_rx = virtio_rpmsg_release_rx,
	.get_tx = virtio_rpmsg_get_tx,
	.send_nocopy = virtio_rpmsg_send_nocopy,
	.release_tx = virtio_rpmsg_release_tx,
};

static void vrp_handle_fc(struct virtproc_info *vrp, void *data, unsigned int len)
{
	struct ampsoc_rpmsg_fc_msg *msg = data;
	struct rpmsg_endpoint *ept;
	rpmsg_flowcontrol_cb_t cb;
	u32 flags;
	bool paused;

	if (!vrp->has_fc || len != sizeof(*msg)) {
		atomic64_inc(&vrp->stats.fc_rejected);
		return;
	}
	flags = le32_to_cpu(READ_ONCE(msg->flags));
	if (flags & ~AMPSOC_RPMSG_FC_PAUSED) {
		atomic64_inc(&vrp->stats.fc_rejected);
		return;
	}
	paused = flags & AMPSOC_RPMSG_FC_PAUSED;
	mutex_lock(&vrp->endpoints_lock);
	ept = idr_find(&vrp->endpoints, le32_to_cpu(READ_ONCE(msg->addr)));
	if (ept)
		kref_get(&ept->refcount);
	mutex_unlock(&vrp->endpoints_lock);
	if (!ept) {
		atomic64_inc(&vrp->stats.fc_rejected);
		return;
	}
	WRITE_ONCE(to_vrp_ept(ept)->remote_paused, paused);
	if (!paused)
		wake_up_all(&vrp->sendq);
	mutex_lock(&ept->cb_lock);
	cb = ept->flow_cb;
	if (cb)
		cb(ept->rpdev, ept->priv, !paused);
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, __ept_release);
}

/*
 * Handle rx buffer @msg, @len bytes long by the remote's word (one read of
 * the used entry); @msg is rx_current meanwhile, so a callback may hold it.
 */
static void rpmsg_recv_single(struct virtproc_info *vrp, struct rpmsg_hdr *msg,
			      unsigned int len)
{
	struct rpmsg_endpoint *ept;
	unsigned int mlen;
	u32 src, dst;

	if (len < sizeof(*msg) || len > vrp->rbuf_size) {
		atomic64_inc(&vrp->stats.bad_len);
		dev_err_ratelimited(&vrp->vdev->dev, "bad used length %u\n", len);
		return;
	}
	mlen = le16_to_cpu(READ_ONCE(msg->len));
	if (mlen > len - sizeof(*msg)) {
		atomic64_inc(&vrp->stats.bad_len);
		dev_err_ratelimited(&vrp->vdev->dev,
				    "bad message length %u (used %u)\n", mlen, len);
		return;
	}
	src = le32_to_cpu(READ_ONCE(msg->src));
	dst = le32_to_cpu(READ_ONCE(msg->dst));

	if (dst == AMPSOC_RPMSG_FC_ADDR) {
		vrp_handle_fc(vrp, msg->data, mlen);
		return;
	}

	mutex_lock(&vrp->endpoints_lock);
	ept = dst > INT_MAX ? NULL : idr_find(&vrp->endpoints, dst);
	if (ept)
		kref_get(&ept->refcount);
	mutex_unlock(&vrp->endpoints_lock);
	if (!ept) {
		atomic64_inc(&vrp->stats.unknown_dst);
		dev_dbg(&vrp->vdev->dev, "msg to unknown address 0x%x\n", dst);
		return;
	}

	mutex_lock(&ept->cb_lock);
	if (ept->cb) {
		ept->cb(ept->rpdev, msg->data, mlen, ept->priv, src);
		atomic64_inc(&vrp->stats.rx);
	}
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, __ept_release);
}

/* rx buffers given back to the remote per doorbell while it keeps sending */
#define VRP_RX_KICK_BATCH	16
/* used rx entries one pass takes before it yields (see rpmsg_recv_done()) */
#define VRP_RX_BUDGET		64

/*
 * Coverage of what the remote makes Linux do, for a fuzzer that asked for
 * it. Not in a task that collects its own coverage: kcov refuses (with a
 * warning) to start a remote section there.
 */
static bool vrp_kcov_start(void)
{
	u64 handle = READ_ONCE(vrp_kcov_handle);

	if (!handle)
		return false;
#ifdef CONFIG_KCOV
	if (in_task() && READ_ONCE(current->kcov_mode))
		return false;
#endif
	kcov_remote_start_common(handle);
	return true;
}

/*
 * Done with rx buffer @id: give it back unless a client holds it (a
 * release from now on gives it back itself), and ring the remote for
 * every VRP_RX_KICK_BATCH buffers. Caller holds rvq_lock.
 */
static void vrp_rx_done_with(struct virtproc_info *vrp, unsigned int id)
{
	vrp->rx_current = NULL;
	if (vrp_dead(vrp))
		return;
	if (!test_bit(id, vrp->rx_held))
		vrp_post_rx(vrp, vrp_rbuf(vrp, id));
	if (vrp->rx.unkicked >= VRP_RX_KICK_BATCH)
		vrp_ring_kick(vrp, &vrp->rx);
}

/* Returns true when the pass stopped on its budget with entries left. */
static bool vrp_rx_pass(struct virtproc_info *vrp)
{
	struct vrp_ring *r = &vrp->rx;
	unsigned int id, done = 0, seen = 0;
	bool more = false, kcov = vrp_kcov_start();
	void *buf;
	u32 len;
	int ret;

	mutex_lock(&vrp->rx_lock);
	for (;;) {
		if (vrp_dead(vrp))
			break;
		if (++seen > VRP_RX_BUDGET) {
			/* The remote's interrupts stay off until the ring is empty. */
			more = true;
			break;
		}
		/*
		 * A flooding remote refills the ring as fast as this loop
		 * drains it, so the loop may never end by itself: let the CPU
		 * go now and then, or RCU and everything else on it starve.
		 */
		cond_resched();
		spin_lock(&vrp->rvq_lock);
		if (vrp_dead(vrp)) {
			spin_unlock(&vrp->rvq_lock);
			break;
		}
		vrp_ring_irq_off(vrp, r);
		ret = vrp_ring_take(vrp, r, &id, &len);
		if (ret == 0) {
			/* Re-arm and look again: the remote may just have added one. */
			if (vrp_ring_irq_on(vrp, r)) {
				spin_unlock(&vrp->rvq_lock);
				break;
			}
			spin_unlock(&vrp->rvq_lock);
			continue;
		}
		buf = NULL;
		if (ret > 0) {
			buf = vrp_rbuf(vrp, id);
			ret = vrp_ring_check_desc(vrp, r, id, vrp_buf_pa(vrp, buf));
			vrp->rx_current = buf;
		}
		spin_unlock(&vrp->rvq_lock);
		if (ret == -EIO) {
			vrp_set_dead(vrp, "rx ring corrupted");
			break;
		}
		if (ret == -EFAULT) {
			/* The remote wrote somewhere else; drop what we hold. */
			dev_err_ratelimited(&vrp->vdev->dev,
					    "rx descriptor address rewritten\n");
		} else {
			rpmsg_recv_single(vrp, buf, len);
			done++;
		}
		spin_lock(&vrp->rvq_lock);
		vrp_rx_done_with(vrp, id);
		spin_unlock(&vrp->rvq_lock);
	}
	spin_lock(&vrp->rvq_lock);
	if (!vrp_dead(vrp))
		vrp_ring_kick(vrp, r);
	spin_unlock(&vrp->rvq_lock);
	mutex_unlock(&vrp->rx_lock);
	if (kcov)
		kcov_remote_stop();
	dev_dbg(&vrp->vdev->dev, "received %u messages\n", done);
	return more;
}

/*
 * Hand the rx ring to rx_work. Never once the device is dead: remove
 * passes through rvq_lock after marking it dead and then cancels the work
 * for good, so nothing can queue it on a freed transport.
 */
static void vrp_rx_defer(struct virtproc_info *vrp)
{
	spin_lock(&vrp->rvq_lock);
	if (!vrp_dead(vrp)) {
		WRITE_ONCE(vrp->rx_deferred, true);
		queue_work(system_wq, &vrp->rx_work);
	}
	spin_unlock(&vrp->rvq_lock);
}

/* Has the remote used an rx buffer that no pass took yet? */
static bool vrp_rx_pending(struct virtproc_info *vrp)
{
	bool pending;

	spin_lock(&vrp->rvq_lock);
	pending = !vrp_dead(vrp) &&
		  (vrp->rx.used_idx != vrp->rx.last_used ||
		   virtio16_to_cpu(vrp->vdev, READ_ONCE(vrp->rx.used->idx)) !=
		   vrp->rx.last_used);
	spin_unlock(&vrp->rvq_lock);
	return pending;
}

static void rpmsg_recv_done(struct virtqueue *rvq);

static void vrp_rx_work(struct work_struct *work)
{
	struct virtproc_info *vrp = container_of(work, struct virtproc_info,
						 rx_work);

	if (vrp_rx_pass(vrp)) {
		vrp_rx_defer(vrp);
		return;
	}
	WRITE_ONCE(vrp->rx_deferred, false);
	/*
	 * An interrupt raised since the pass found the ring empty returned
	 * at once, seeing this work in charge: look once more. Pairs with
	 * the barrier in rpmsg_recv_done().
	 */
	smp_mb();
	if (vrp_rx_pending(vrp))
		rpmsg_recv_done(vrp->rx.vq);
}

/*
 * The rx interrupt. The platform runs it at high priority, which suits a
 * few messages; a remote that keeps the ring full would keep this CPU's
 * userspace from running, readers of its messages included. So a pass
 * takes at most VRP_RX_BUDGET entries here and leaves the rest, with the
 * remote's interrupts still off, to rx_work at normal priority, as NAPI
 * does for network interfaces. Interrupts that a misbehaving remote
 * raises anyway meanwhile find rx_work in charge and return.
 */
static void rpmsg_recv_done(struct virtqueue *rvq)
{
	struct virtproc_info *vrp = rvq->vdev->priv;

	/*
	 * An interrupt before the rings are set up: nothing to look at.
	 * Pairs with the release in rpmsg_probe().
	 */
	if (!vrp || !smp_load_acquire(&vrp->live))
		return;
	/* The used entries before rx_deferred: see vrp_rx_work(). */
	smp_mb();
	if (READ_ONCE(vrp->rx_deferred))
		return;
	if (vrp_rx_pass(vrp))
		vrp_rx_defer(vrp);
}

/* The remote consumed tx buffers: senders may go on. Any context. */
static void rpmsg_xmit_done(struct virtqueue *svq)
{
	struct virtproc_info *vrp = svq->vdev->priv;

	/* pairs with the release in rpmsg_probe(): the rings are set up */
	if (vrp && smp_load_acquire(&vrp->live))
		wake_up_interruptible_all(&vrp->sendq);
}

static int vrp_alloc_buffers(struct virtproc_info *vrp)
{
	struct virtio_device *vdev = vrp->vdev;
	struct device *parent = vdev->dev.parent;
	struct virtio_shm_region shm;
	size_t rsize = (size_t)vrp->num_rbufs * vrp->rbuf_size;
	size_t size = PAGE_ALIGN(rsize + (size_t)vrp->num_sbufs * vrp->sbuf_size);

	vrp->mem_size = size;
	if (virtio_get_shm_region(vdev, &shm, AMPSOC_RPMSG_SHM_ID_BUFFERS)) {
		if (shm.len < size || !PAGE_ALIGNED(shm.addr) ||
		    !pfn_valid(PHYS_PFN(shm.addr)) ||
		    !pfn_valid(PHYS_PFN(shm.addr + size - 1))) {
			dev_err(&vdev->dev,
				"shared region %pa+%llx cannot hold %zu bytes of buffers\n",
				&shm.addr, shm.len, size);
			return -ENOSPC;
		}
		vrp->mem = memremap(shm.addr, size, MEMREMAP_WB);
		if (!vrp->mem)
			return -ENOMEM;
		vrp->mem_pa = shm.addr;
		vrp->mem_shm = true;
	} else {
		if (!parent)
			return -ENODEV;
		vrp->mem = dma_alloc_coherent(parent, size, &vrp->mem_dma,
					      GFP_KERNEL);
		if (!vrp->mem)
			return -ENOMEM;
		if (is_vmalloc_addr(vrp->mem)) {
			dev_err(&vdev->dev, "coherent memory is not linear\n");
			dma_free_coherent(parent, size, vrp->mem, vrp->mem_dma);
			return -EINVAL;
		}
		vrp->mem_pa = virt_to_phys(vrp->mem);
	}
	memset(vrp->mem, 0, size);
	vrp->rbufs = vrp->mem;
	vrp->sbufs = vrp->mem + rsize;
	return 0;
}

static void vrp_free_buffers(struct virtproc_info *vrp)
{
	if (!vrp->mem)
		return;
	if (vrp->mem_shm)
		memunmap(vrp->mem);
	else
		dma_free_coherent(vrp->vdev->dev.parent, vrp->mem_size,
				  vrp->mem, vrp->mem_dma);
	vrp->mem = NULL;
}

static unsigned int vrp_cfg_size(struct virtio_device *vdev, bool h2r)
{
	u32 v;

	if (h2r)
		virtio_cread_le(vdev, struct ampsoc_rpmsg_vdev_config,
				h2r_buf_size, &v);
	else
		virtio_cread_le(vdev, struct ampsoc_rpmsg_vdev_config,
				r2h_buf_size, &v);
	if (!v)
		return AMPSOC_RPMSG_BUF_SIZE;
	if (v < AMPSOC_RPMSG_BUF_SIZE || v > AMPSOC_RPMSG_MAX_BUF_SIZE ||
	    v % 16) {
		dev_warn(&vdev->dev, "bad proposed buffer size %u, using %u\n",
			 v, AMPSOC_RPMSG_BUF_SIZE);
		return AMPSOC_RPMSG_BUF_SIZE;
	}
	return v;
}

static struct rpmsg_device *vrp_add_fixed(struct virtproc_info *vrp,
					  const char *drv, u32 addr)
{
	struct virtio_rpmsg_channel *vch = vrp_alloc_channel(vrp);
	int err;

	if (!vch)
		return ERR_PTR(-ENOMEM);
	vch->rpdev.src = addr;
	vch->rpdev.dst = addr;
	err = ampsoc_rpmsg_register_device_override(&vch->rpdev, drv);
	return err ? ERR_PTR(err) : &vch->rpdev;
}

/*
 * The rings carry one descriptor per buffer and no event indices: refuse
 * the ring features that would change the layout or the notification
 * rules (the device learns it from the features Linux writes back).
 */
static int rpmsg_validate(struct virtio_device *vdev)
{
	__virtio_clear_bit(vdev, VIRTIO_RING_F_EVENT_IDX);
	__virtio_clear_bit(vdev, VIRTIO_RING_F_INDIRECT_DESC);
	__virtio_clear_bit(vdev, VIRTIO_F_RING_PACKED);
	return 0;
}

static int vrp_setup_rings(struct virtproc_info *vrp)
{
	struct virtio_device *vdev = vrp->vdev;
	vq_callback_t *vq_cbs[] = { rpmsg_recv_done, rpmsg_xmit_done };
	static const char * const names[] = { "input", "output" };
	struct virtqueue *vqs[2];
	unsigned int num, total;
	int err;

	err = virtio_find_vqs(vdev, 2, vqs, vq_cbs, names, NULL);
	if (err)
		return err;
	num = virtqueue_get_vring_size(vqs[0]);
	if (num != virtqueue_get_vring_size(vqs[1]) || !is_power_of_2(num)) {
		dev_err(&vdev->dev, "rings of %u and %u entries: not one power of two\n",
			num, virtqueue_get_vring_size(vqs[1]));
		err = -EINVAL;
		goto del_vqs;
	}
	total = num < MAX_RPMSG_NUM_BUFS / 2 ? num * 2 : MAX_RPMSG_NUM_BUFS;
	vrp->num_rbufs = total / 2;
	vrp->num_sbufs = total / 2;
	err = vrp_ring_setup(vrp, &vrp->rx, vqs[0], vrp->num_rbufs);
	if (!err)
		err = vrp_ring_setup(vrp, &vrp->tx, vqs[1], vrp->num_sbufs);
	if (!err)
		return 0;
	vrp_ring_restore(&vrp->rx);
del_vqs:
	vdev->config->del_vqs(vdev);
	return err;
}

static void vrp_del_rings(struct virtproc_info *vrp)
{
	vrp_ring_restore(&vrp->rx);
	vrp_ring_restore(&vrp->tx);
	vrp->vdev->config->del_vqs(vrp->vdev);
}

static int rpmsg_probe(struct virtio_device *vdev)
{
	struct virtproc_info *vrp;
	unsigned int i;
	int err;

	vrp = kzalloc(sizeof(*vrp), GFP_KERNEL);
	if (!vrp)
		return -ENOMEM;
	vrp->vdev = vdev;
	kref_init(&vrp->ref);
	idr_init(&vrp->endpoints);
	mutex_init(&vrp->endpoints_lock);
	mutex_init(&vrp->rx_lock);
	INIT_WORK(&vrp->rx_work, vrp_rx_work);
	spin_lock_init(&vrp->svq_lock);
	spin_lock_init(&vrp->rvq_lock);
	init_waitqueue_head(&vrp->sendq);
	/* Interrupts may come from now on; they wait for vrp->live. */
	vdev->priv = vrp;

	err = vrp_setup_rings(vrp);
	if (err)
		goto free_vrp;
	vrp->rbuf_size = AMPSOC_RPMSG_BUF_SIZE;
	vrp->sbuf_size = AMPSOC_RPMSG_BUF_SIZE;
	if (virtio_has_feature(vdev, AMPSOC_VIRTIO_RPMSG_F_BUFSZ)) {
		vrp->sbuf_size = vrp_cfg_size(vdev, true);
		vrp->rbuf_size = vrp_cfg_size(vdev, false);
	}
	vrp->has_ns = virtio_has_feature(vdev, AMPSOC_VIRTIO_RPMSG_F_NS);
	vrp->has_fc = virtio_has_feature(vdev, AMPSOC_VIRTIO_RPMSG_F_FC);

	vrp->rx_held = bitmap_zalloc(vrp->num_rbufs, GFP_KERNEL);
	vrp->sfree = kcalloc(vrp->num_sbufs, sizeof(void *), GFP_KERNEL);
	if (!vrp->rx_held || !vrp->sfree) {
		err = -ENOMEM;
		goto del_vqs;
	}
	err = vrp_alloc_buffers(vrp);
	if (err)
		goto del_vqs;

	for (i = 0; i < vrp->num_rbufs; i++)
		vrp_post_rx(vrp, vrp_rbuf(vrp, i));
	/* No tx-complete interrupts unless a sender waits. */
	vrp_ring_irq_off(vrp, &vrp->tx);

	vrp->ctrl_rpdev = vrp_add_fixed(vrp, "rpmsg_ctrl", 0);
	if (IS_ERR(vrp->ctrl_rpdev)) {
		err = PTR_ERR(vrp->ctrl_rpdev);
		vrp->ctrl_rpdev = NULL;
		goto free_bufs;
	}
	if (vrp->has_ns) {
		vrp->ns_rpdev = vrp_add_fixed(vrp, "rpmsg_ns",
					      AMPSOC_RPMSG_NS_ADDR);
		if (IS_ERR(vrp->ns_rpdev)) {
			err = PTR_ERR(vrp->ns_rpdev);
			vrp->ns_rpdev = NULL;
			goto del_children;
		}
	}

	/*
	 * What the platform declared for a remote that cannot announce,
	 * before the remote may send to those channels.
	 */
	ampsoc_rpmsg_create_declared_channels(&vdev->dev);

	/* The rings before interrupts look at them (rpmsg_recv_done()). */
	smp_store_release(&vrp->live, true);
	virtio_device_ready(vdev);
	spin_lock(&vrp->rvq_lock);
	vrp_ring_kick(vrp, &vrp->rx);
	spin_unlock(&vrp->rvq_lock);
	/*
	 * Interrupts raised before DRIVER_OK may be lost: look at the rx
	 * ring once in case an early remote already used buffers.
	 */
	rpmsg_recv_done(vrp->rx.vq);

	vrp->debugfs = debugfs_create_dir(dev_name(&vdev->dev), vrp_debugfs_root);
	debugfs_create_file("stats", 0444, vrp->debugfs, vrp, &vrp_stats_fops);
	debugfs_create_file("rings", 0400, vrp->debugfs, vrp, &vrp_rings_fops);

	dev_info(&vdev->dev, "rpmsg host is online: %u+%u buffers of %u/%u bytes%s%s\n",
		 vrp->num_rbufs, vrp->num_sbufs, vrp->rbuf_size, vrp->sbuf_size,
		 vrp->has_ns ? ", ns" : "", vrp->has_fc ? ", fc" : "");
	return 0;

del_children:
	vrp_set_dead(vrp, NULL);
	ampsoc_rpmsg_remove_children(&vdev->dev);
free_bufs:
	vrp_set_dead(vrp, NULL);
	virtio_reset_device(vdev);
	vrp_del_rings(vrp);
	vrp_free_buffers(vrp);
	vdev->priv = NULL;
	kref_put(&vrp->ref, vrp_release);
	return err;
del_vqs:
	vrp_del_rings(vrp);
free_vrp:
	vdev->priv = NULL;
	kref_put(&vrp->ref, vrp_release);
	return err;
}

static void rpmsg_remove(struct virtio_device *vdev)
{
	struct virtproc_info *vrp = vdev->priv;

	debugfs_remove_recursive(vrp->debugfs);
	/* Fail every sender now so that nothing waits for the timeout. */
	vrp_set_dead(vrp, NULL);
	/*
	 * Whoever was inside a ring operation is out after these, and
	 * nothing queues rx_work any more (vrp_rx_defer()).
	 */
	spin_lock(&vrp->svq_lock);
	spin_unlock(&vrp->svq_lock);
	spin_lock(&vrp->rvq_lock);
	spin_unlock(&vrp->rvq_lock);
	/* Let a running rx pass finish; later ones see the device dead. */
	mutex_lock(&vrp->rx_lock);
	mutex_unlock(&vrp->rx_lock);
	cancel_work_sync(&vrp->rx_work);

	ampsoc_rpmsg_remove_children(&vdev->dev);

	virtio_reset_device(vdev);
	/* Interrupt handlers still running finish before this returns. */
	vrp_del_rings(vrp);
	vrp_free_buffers(vrp);
	vdev->priv = NULL;
	kref_put(&vrp->ref, vrp_release);
}

static const struct virtio_device_id id_table[] = {
	{ VIRTIO_ID_RPMSG_AMPSOC, VIRTIO_DEV_ANY_ID },
	{ 0 },
};
MODULE_DEVICE_TABLE(virtio, id_table);

static unsigned int features[] = {
	AMPSOC_VIRTIO_RPMSG_F_NS,
	AMPSOC_VIRTIO_RPMSG_F_BUFSZ,
	AMPSOC_VIRTIO_RPMSG_F_FC,
};

static struct virtio_driver virtio_ipc_driver = {
	.feature_table = features,
	.feature_table_size = ARRAY_SIZE(features),
	.driver.name = KBUILD_MODNAME,
	.driver.owner = THIS_MODULE,
	.id_table = id_table,
	.validate = rpmsg_validate,
	.probe = rpmsg_probe,
	.remove = rpmsg_remove,
};

/*
 * debugfs kcov_handle: writing a non-zero number stores the writer's
 * kcov_common_handle() (set by its KCOV_REMOTE_ENABLE), 0 turns
 * collection off.
 */
static int vrp_kcov_get(void *data, u64 *val)
{
	*val = READ_ONCE(vrp_kcov_handle);
	return 0;
}

static int vrp_kcov_set(void *data, u64 val)
{
	WRITE_ONCE(vrp_kcov_handle, val ? kcov_common_handle() : 0);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vrp_kcov_fops, vrp_kcov_get, vrp_kcov_set, "%llu\n");

static int __init virtio_rpmsg_init(void)
{
	int ret;

	vrp_debugfs_root = debugfs_create_dir("ampsoc_rpmsg", NULL);
	debugfs_create_file_unsafe("kcov_handle", 0600, vrp_debugfs_root, NULL,
				   &vrp_kcov_fops);
	ret = register_virtio_driver(&virtio_ipc_driver);
	if (ret)
		debugfs_remove_recursive(vrp_debugfs_root);
	return ret;
}
module_init(virtio_rpmsg_init);

static void __exit virtio_rpmsg_exit(void)
{
	unregister_virtio_driver(&virtio_ipc_driver);
	debugfs_remove_recursive(vrp_debugfs_root);
	cancel_delayed_work_sync(&vrp_reaper);
	/*
	 * A task stopped inside poll(), or an epoll set, may still hold a
	 * transport's wait queue: leave that memory to it rather than free
	 * it under it.
	 */
	if (vrp_reap_once())
		pr_warn("ampsoc_rpmsg_virtio: unloaded with pollers left on a transport; its memory stays\n");
}
module_exit(virtio_rpmsg_exit);

MODULE_DESCRIPTION("ampsoc virtio-based remote processor messaging bus");
MODULE_LICENSE("GPL");

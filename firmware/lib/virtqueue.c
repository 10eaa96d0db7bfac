// SPDX-License-Identifier: GPL-2.0
/* Virtio split rings, device side: see <amp/virtqueue.h>. */
#include <errno.h>
#include <stddef.h>

#include <amp/env.h>
#include <amp/platform.h>
#include <amp/virtqueue.h>

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int amp_vq_init(struct amp_vq *vq, uint64_t da, uint32_t num, uint32_t align,
		uint32_t notifyid)
{
	uint8_t *base;
	uint64_t avail_end;

	/* The descriptor table is 16-byte aligned, the used ring 4-byte. */
	if (!is_pow2(num) || num > AMP_VQ_MAX_NUM || !is_pow2(align) ||
	    align < 4 || align > (1u << 16) || (da & 15))
		return -EINVAL;
	base = platform_da_to_va(da, amp_vring_size(num, align));
	if (!base)
		return -EINVAL;
	avail_end = 16ull * num + 2 * (3 + (uint64_t)num);
	vq->desc = (void *)base;
	vq->avail = (void *)(base + 16ull * num);
	vq->used = (void *)(base + ((avail_end + align - 1) & ~((uint64_t)align - 1)));
	vq->num = num;
	/* Linux zeroes a ring before DRIVER_OK: both sides start at 0. */
	vq->last_avail = 0;
	vq->used_idx = 0;
	vq->notifyid = notifyid;
	vq->broken = false;
	vq->errors = 0;
	vq->bus_base = 0;
	vq->da_base = 0;
	vq->bus_size = 0;
	return 0;
}

void amp_vq_set_bus_window(struct amp_vq *vq, uint64_t bus, uint64_t da,
			   uint64_t size)
{
	vq->bus_base = bus;
	vq->da_base = da;
	vq->bus_size = size;
}

/* The core's address of a descriptor's buffer, or UINT64_MAX. */
static uint64_t buf_da(struct amp_vq *vq, uint64_t addr, uint32_t len)
{
	uint64_t off;

	if (!vq->bus_size)
		return addr;
	off = addr - vq->bus_base;
	if (addr < vq->bus_base || off > vq->bus_size || len > vq->bus_size - off)
		return UINT64_MAX;
	return vq->da_base + off;
}

bool amp_vq_has_avail(struct amp_vq *vq)
{
	return !vq->broken && AMP_READ_ONCE(vq->avail->idx) != vq->last_avail;
}

int amp_vq_get(struct amp_vq *vq, struct amp_vq_buf *buf)
{
	struct amp_vring_desc d;
	uint16_t avail_idx, head;

	if (vq->broken)
		return -EIO;
	avail_idx = AMP_READ_ONCE(vq->avail->idx);
	if (avail_idx == vq->last_avail)
		return -EAGAIN;
	if ((uint16_t)(avail_idx - vq->last_avail) > vq->num) {
		vq->broken = true;
		vq->errors++;
		return -EIO;
	}
	env_rmb();	/* read the entry after the index that published it */
	head = AMP_READ_ONCE(vq->avail->ring[vq->last_avail & (vq->num - 1)]);
	if (head >= vq->num) {
		vq->broken = true;
		vq->errors++;
		return -EIO;
	}
	vq->last_avail++;
	/* One copy: Linux may rewrite the descriptor while we look at it. */
	d.addr = AMP_READ_ONCE(vq->desc[head].addr);
	d.len = AMP_READ_ONCE(vq->desc[head].len);
	d.flags = AMP_READ_ONCE(vq->desc[head].flags);
	buf->head = head;
	buf->len = d.len;
	buf->writable = d.flags & AMP_VRING_DESC_F_WRITE;
	buf->va = NULL;
	if (!(d.flags & (AMP_VRING_DESC_F_NEXT | AMP_VRING_DESC_F_INDIRECT)) && d.len) {
		uint64_t da = buf_da(vq, d.addr, d.len);

		if (da != UINT64_MAX)
			buf->va = platform_da_to_va(da, d.len);
	}
	if (!buf->va) {
		vq->errors++;
		return -EINVAL;
	}
	return 0;
}

void amp_vq_put(struct amp_vq *vq, uint16_t head, uint32_t len)
{
	struct amp_vring_used_elem *e;

	if (vq->broken)
		return;
	e = &vq->used->ring[vq->used_idx & (vq->num - 1)];
	AMP_WRITE_ONCE(e->id, head);
	AMP_WRITE_ONCE(e->len, len);
	env_wmb();	/* the entry before the index that publishes it */
	AMP_WRITE_ONCE(vq->used->idx, ++vq->used_idx);
}

bool amp_vq_notify(struct amp_vq *vq, bool on)
{
	if (vq->broken)
		return false;
	AMP_WRITE_ONCE(vq->used->flags, on ? 0 : AMP_VRING_USED_F_NO_NOTIFY);
	if (!on)
		return false;
	env_mb();	/* the flag before Linux's index, as Linux does in reverse */
	return amp_vq_has_avail(vq);
}

bool amp_vq_want_kick(struct amp_vq *vq)
{
	env_mb();	/* our used->idx store before reading Linux's flags */
	return !vq->broken &&
	       !(AMP_READ_ONCE(vq->avail->flags) & AMP_VRING_AVAIL_F_NO_INTERRUPT);
}

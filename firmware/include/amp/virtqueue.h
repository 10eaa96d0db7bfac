/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Virtio split rings, device side: the half of virtio that Linux does not
 * implement. Layout per the virtio 1.x "legacy interface" split ring that
 * Linux's remoteproc uses (vring_init() with the resource table's align):
 * descriptor table, then the available ring, then, at the next @align
 * boundary, the used ring. Little-endian (x86).
 *
 * Everything in the rings is written by Linux and untrusted: indices are
 * checked against the ring size, descriptors are copied before they are
 * checked, and buffer addresses are translated through platform_da_to_va().
 * A ring that breaks the rules is marked broken and left alone.
 */
#ifndef _AMP_VIRTQUEUE_H
#define _AMP_VIRTQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#define AMP_VRING_DESC_F_NEXT		1
#define AMP_VRING_DESC_F_WRITE		2
#define AMP_VRING_DESC_F_INDIRECT	4
#define AMP_VRING_AVAIL_F_NO_INTERRUPT	1
#define AMP_VRING_USED_F_NO_NOTIFY	1

/* Largest ring this library accepts (Linux's rpmsg uses up to 256). */
#define AMP_VQ_MAX_NUM			1024

struct amp_vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct amp_vring_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];
};

struct amp_vring_used_elem {
	uint32_t id;
	uint32_t len;
};

struct amp_vring_used {
	uint16_t flags;
	uint16_t idx;
	struct amp_vring_used_elem ring[];
};

/*
 * Shared-memory accesses the compiler must neither merge, split, repeat
 * nor drop (the kernel's READ_ONCE/WRITE_ONCE). A 32-bit core has no
 * 64-bit atomic access: a 64-bit field (a descriptor's address, published
 * by an index written after it, and copied once) is read as two words.
 */
#if __SIZEOF_POINTER__ == 8
#define AMP_READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define AMP_WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#else
static inline uint64_t amp_read_once(const void *p, unsigned int size)
{
	const uint32_t *w = p;

	switch (size) {
	case 1:
		return __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED);
	case 2:
		return __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
	case 4:
		return __atomic_load_n(w, __ATOMIC_RELAXED);
	default:
		return __atomic_load_n(&w[0], __ATOMIC_RELAXED) |
		       (uint64_t)__atomic_load_n(&w[1], __ATOMIC_RELAXED) << 32;
	}
}

static inline void amp_write_once(void *p, uint64_t v, unsigned int size)
{
	uint32_t *w = p;

	switch (size) {
	case 1:
		__atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_RELAXED);
		break;
	case 2:
		__atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_RELAXED);
		break;
	case 4:
		__atomic_store_n(w, (uint32_t)v, __ATOMIC_RELAXED);
		break;
	default:
		__atomic_store_n(&w[0], (uint32_t)v, __ATOMIC_RELAXED);
		__atomic_store_n(&w[1], (uint32_t)(v >> 32), __ATOMIC_RELAXED);
	}
}

#define AMP_READ_ONCE(x)	((__typeof__(x))amp_read_once(&(x), sizeof(x)))
#define AMP_WRITE_ONCE(x, v)	amp_write_once(&(x), (v), sizeof(x))
#endif

/* Bytes of a ring of @num entries with the used ring at @align. */
static inline uint64_t amp_vring_size(uint32_t num, uint32_t align)
{
	uint64_t sz = 16ull * num + 2 * (3 + (uint64_t)num);

	sz = (sz + align - 1) & ~((uint64_t)align - 1);
	return sz + 2 * 3 + 8ull * num;
}

/**
 * struct amp_vq - the device side of one split ring
 * @desc: descriptor table
 * @avail: available ring (written by Linux)
 * @used: used ring (written by us)
 * @num: ring size (a power of two)
 * @last_avail: next available entry to take
 * @used_idx: our copy of used->idx
 * @notifyid: the ring's notifyid from the resource table
 * @broken: Linux broke the ring protocol; the queue is dead
 * @errors: bad entries seen (bad index, address, flags)
 * @bus_base: with @bus_size, buffer addresses in descriptors are bus
 *	(physical) addresses in [@bus_base, @bus_base + @bus_size), seen by
 *	the core at @da_base; without, they are device addresses
 * @da_base: see @bus_base
 * @bus_size: see @bus_base; 0 for device addresses
 */
struct amp_vq {
	struct amp_vring_desc *desc;
	struct amp_vring_avail *avail;
	struct amp_vring_used *used;
	uint16_t num;
	uint16_t last_avail;
	uint16_t used_idx;
	uint32_t notifyid;
	bool broken;
	uint32_t errors;
	uint64_t bus_base;
	uint64_t da_base;
	uint64_t bus_size;
};

/**
 * struct amp_vq_buf - one buffer taken from the available ring
 * @head: descriptor index, to hand back with amp_vq_put()
 * @va: where it is
 * @len: its length
 * @writable: Linux lets the device write it (rx buffers of Linux)
 */
struct amp_vq_buf {
	uint16_t head;
	void *va;
	uint32_t len;
	bool writable;
};

/*
 * Set up @vq over the ring at device address @da. Returns 0, or -EINVAL if
 * @num is not a power of two up to AMP_VQ_MAX_NUM, @align not a power of
 * two from 4 to 64 KiB, @da not 16-byte aligned, or the ring not inside the
 * core's memory.
 */
int amp_vq_init(struct amp_vq *vq, uint64_t da, uint32_t num, uint32_t align,
		uint32_t notifyid);

/*
 * Descriptors of @vq carry bus addresses: [@bus, @bus + @size) is the core's
 * [@da, @da + @size). Anything outside is refused.
 */
void amp_vq_set_bus_window(struct amp_vq *vq, uint64_t bus, uint64_t da,
			   uint64_t size);

/* Whether Linux has made buffers available that we did not take yet. */
bool amp_vq_has_avail(struct amp_vq *vq);

/*
 * Take the next available buffer. Returns 0; -EAGAIN if there is none;
 * -EIO if the ring is broken; -EINVAL if this entry was bad (a chained or
 * indirect descriptor, or an address outside the core's memory): it is
 * counted and @buf->head says which it was; the caller decides whether to
 * hand it back, and may try the next one.
 */
int amp_vq_get(struct amp_vq *vq, struct amp_vq_buf *buf);

/* Hand buffer @head back to Linux with @len bytes written. */
void amp_vq_put(struct amp_vq *vq, uint16_t head, uint32_t len);

/*
 * Ask Linux for doorbells on @vq (@on) or tell it not to bother while we
 * are awake anyway (VRING_USED_F_NO_NOTIFY). Turning them on returns
 * whether buffers arrived meanwhile: check before sleeping.
 */
bool amp_vq_notify(struct amp_vq *vq, bool on);

/* Whether Linux wants an interrupt for what we put since the last kick. */
bool amp_vq_want_kick(struct amp_vq *vq);

#endif /* _AMP_VIRTQUEUE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc remoteproc core: registration, refcounted boot and shutdown,
 * firmware loading, resource handling, crash recovery and runtime PM.
 *
 * Locking: rproc->lock serialises every state change and is held across
 * the platform's start/stop callbacks and the subdevices' callbacks, as in
 * mainline. It is never taken from the kick or interrupt paths.
 */
#include <linux/debugfs.h>
#include <linux/firmware.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/virtio_ring.h>

#include "ampsoc_rproc_internal.h"

#define ARP_MAX_DEVICES		64
#define ARP_CARVEOUT_ALIGN	4096

static DEFINE_IDA(arp_ida);
static struct workqueue_struct *arp_wq;

static const char * const arp_state_names[] = {
	[AMPSOC_RPROC_OFFLINE] = "offline",
	[AMPSOC_RPROC_SUSPENDED] = "suspended",
	[AMPSOC_RPROC_RUNNING] = "running",
	[AMPSOC_RPROC_CRASHED] = "crashed",
	[AMPSOC_RPROC_ATTACHED] = "attached",
	[AMPSOC_RPROC_DETACHED] = "detached",
};

static const char * const arp_crash_names[] = {
	[AMPSOC_RPROC_MMUFAULT] = "mmufault",
	[AMPSOC_RPROC_WATCHDOG] = "watchdog",
	[AMPSOC_RPROC_FATAL_ERROR] = "fatal error",
};

/**
 * ampsoc_rproc_state_name() - mainline's name of a state
 * @state: the state
 *
 * Context: Any context.
 * Return: the string shown in the "state" attribute; "invalid" for an
 * unknown value.
 */
const char *ampsoc_rproc_state_name(enum ampsoc_rproc_state state)
{
	if ((unsigned int)state < ARRAY_SIZE(arp_state_names))
		return arp_state_names[state];
	return "invalid";
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_state_name);

static __printf(3, 4) int arp_reject(struct ampsoc_rproc *rproc, int err,
				     const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	dev_err(&rproc->dev, "firmware %s rejected: %pV (%d)\n",
		rproc->firmware, &vaf, err);
	va_end(ap);
	return err;
}

/* ---- device memory ---------------------------------------------------- */

static struct arp_mem *arp_mem_find(struct ampsoc_rproc *rproc, u64 da,
				    u64 len)
{
	struct arp_mem *m;

	list_for_each_entry(m, &rproc->mems, node)
		if (da >= m->da && len <= m->len && da - m->da <= m->len - len)
			return m;
	return NULL;
}

static bool arp_mem_busy(struct ampsoc_rproc *rproc, u64 da, u64 len,
			 bool ignore_segs, u64 *next)
{
	struct arp_alloc *a;

	list_for_each_entry(a, &rproc->allocs, node) {
		if (ignore_segs && a->is_seg)
			continue;
		if (da < a->da + a->len && a->da < da + len) {
			if (next)
				*next = a->da + a->len;
			return true;
		}
	}
	return false;
}

static int arp_mem_track(struct ampsoc_rproc *rproc, u64 da, u64 len,
			 bool is_seg)
{
	struct arp_alloc *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return -ENOMEM;
	a->da = da;
	a->len = len;
	a->is_seg = is_seg;
	list_add_tail(&a->node, &rproc->allocs);
	return 0;
}

static phys_addr_t arp_mem_pa(struct arp_mem *m, u64 da)
{
	if (m->pa == AMPSOC_RPROC_NO_PA)
		return AMPSOC_RPROC_NO_PA;
	return m->pa + (da - m->da);
}

/*
 * Claim [da, da + len) at a fixed device address: it must lie in declared
 * memory (or be translated by ops->da_to_va) and not overlap another
 * carveout or vring. Returns the kernel address or an ERR_PTR.
 */
static void *arp_mem_claim(struct ampsoc_rproc *rproc, u64 da, u64 len,
			   phys_addr_t *pa)
{
	struct arp_mem *m = arp_mem_find(rproc, da, len);
	void *va;
	int ret;

	*pa = AMPSOC_RPROC_NO_PA;
	if (!m) {
		va = rproc->ops->da_to_va ?
		     rproc->ops->da_to_va(rproc, da, len) : NULL;
		return va ?: ERR_PTR(-ENOMEM);
	}
	mutex_lock(&rproc->mem_lock);
	if (arp_mem_busy(rproc, da, len, true, NULL))
		ret = -EBUSY;
	else
		ret = arp_mem_track(rproc, da, len, false);
	mutex_unlock(&rproc->mem_lock);
	if (ret)
		return ERR_PTR(ret);
	*pa = arp_mem_pa(m, da);
	return m->va + (da - m->da);
}

static void *arp_mem_alloc_locked(struct ampsoc_rproc *rproc, u64 *da,
				  size_t len, size_t align, phys_addr_t *pa)
{
	struct arp_mem *m;

	if (!len)
		return NULL;
	list_for_each_entry(m, &rproc->mems, node) {
		u64 cand = ALIGN(m->da, align);
		u64 next;

		while (cand >= m->da && cand - m->da < m->len &&
		       len <= m->len - (cand - m->da)) {
			if (!arp_mem_busy(rproc, cand, len, false, &next)) {
				if (arp_mem_track(rproc, cand, len, false))
					return NULL;
				*da = cand;
				*pa = arp_mem_pa(m, cand);
				return m->va + (cand - m->da);
			}
			cand = ALIGN(next, align);
		}
	}
	return NULL;
}

/**
 * arp_mem_alloc() - allocate free device memory
 * @rproc: the processor
 * @da: set to the device address of the allocation
 * @len: bytes needed
 * @align: alignment of the device address (a power of two)
 * @pa: set to the physical address, or AMPSOC_RPROC_NO_PA
 *
 * First fit over the declared memory, avoiding firmware segments, carveouts
 * and vrings.
 *
 * Context: Process context; takes rproc->mem_lock.
 * Return: the kernel address, or NULL if nothing fits.
 */
void *arp_mem_alloc(struct ampsoc_rproc *rproc, u64 *da, size_t len,
		    size_t align, phys_addr_t *pa)
{
	void *va;

	mutex_lock(&rproc->mem_lock);
	va = arp_mem_alloc_locked(rproc, da, len, align, pa);
	mutex_unlock(&rproc->mem_lock);
	return va;
}

/**
 * arp_mem_release() - release an allocation made by arp_mem_alloc()
 * @rproc: the processor
 * @da: its device address
 *
 * Context: Process context; takes rproc->mem_lock.
 */
void arp_mem_release(struct ampsoc_rproc *rproc, u64 da)
{
	struct arp_alloc *a;

	mutex_lock(&rproc->mem_lock);
	list_for_each_entry(a, &rproc->allocs, node) {
		if (!a->is_seg && a->da == da) {
			list_del(&a->node);
			kfree(a);
			break;
		}
	}
	mutex_unlock(&rproc->mem_lock);
}

/**
 * ampsoc_rproc_da_to_va() - translate a device address
 * @rproc: the processor
 * @da: device address
 * @len: length of the range that must be mapped contiguously
 *
 * Looks in the memory declared with ampsoc_rproc_add_mem(), then asks the
 * platform's da_to_va operation.
 *
 * Context: Any context.
 * Return: the kernel address of @da, or NULL if [@da, @da + @len) is not
 * entirely mapped.
 */
void *ampsoc_rproc_da_to_va(struct ampsoc_rproc *rproc, u64 da, size_t len)
{
	struct arp_mem *m = arp_mem_find(rproc, da, len);

	if (m)
		return m->va + (da - m->da);
	if (rproc->ops->da_to_va)
		return rproc->ops->da_to_va(rproc, da, len);
	return NULL;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_da_to_va);

/**
 * ampsoc_rproc_add_mem() - declare device memory of a processor
 * @rproc: the processor, not yet registered
 * @name: a name for debugfs
 * @da: the address the processor sees
 * @pa: the physical address Linux sees, or ~0 if it has none
 * @va: the kernel mapping
 * @len: size in bytes
 *
 * Firmware segments, carveouts, vrings and trace buffers must lie in
 * declared memory (or in what &ampsoc_rproc_ops.da_to_va translates).
 *
 * Context: Process context, before ampsoc_rproc_add().
 * Return: 0, -EINVAL for an empty or overlapping range, -ENOMEM.
 */
int ampsoc_rproc_add_mem(struct ampsoc_rproc *rproc, const char *name,
			 u64 da, phys_addr_t pa, void *va, size_t len)
{
	struct arp_mem *m;
	u64 end;

	if (!len || !va || check_add_overflow(da, (u64)len, &end))
		return -EINVAL;
	list_for_each_entry(m, &rproc->mems, node)
		if (da < m->da + m->len && m->da < end)
			return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	strscpy(m->name, name, sizeof(m->name));
	m->da = da;
	m->pa = pa;
	m->va = va;
	m->len = len;
	list_add_tail(&m->node, &rproc->mems);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add_mem);

/* ---- subdevices -------------------------------------------------------- */

/**
 * ampsoc_rproc_add_subdev() - add a subdevice
 * @rproc: the processor
 * @subdev: the subdevice, started after the processor on every boot
 *
 * Context: Process context. Not while the processor is being booted.
 * Return: nothing; adding cannot fail.
 */
void ampsoc_rproc_add_subdev(struct ampsoc_rproc *rproc,
			     struct ampsoc_rproc_subdev *subdev)
{
	mutex_lock(&rproc->lock);
	list_add_tail(&subdev->node, &rproc->subdevs);
	mutex_unlock(&rproc->lock);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add_subdev);

/**
 * ampsoc_rproc_remove_subdev() - remove a subdevice
 * @rproc: the processor
 * @subdev: a subdevice added with ampsoc_rproc_add_subdev()
 *
 * Context: Process context.
 * Return: nothing; removing cannot fail.
 */
void ampsoc_rproc_remove_subdev(struct ampsoc_rproc *rproc,
				struct ampsoc_rproc_subdev *subdev)
{
	mutex_lock(&rproc->lock);
	list_del(&subdev->node);
	mutex_unlock(&rproc->lock);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_remove_subdev);

static void arp_subdevs_unprepare(struct ampsoc_rproc *rproc,
				  struct ampsoc_rproc_subdev *from)
{
	struct ampsoc_rproc_subdev *sd = from;

	list_for_each_entry_continue_reverse(sd, &rproc->subdevs, node)
		if (sd->unprepare)
			sd->unprepare(sd);
}

static void arp_subdevs_stop(struct ampsoc_rproc *rproc,
			     struct ampsoc_rproc_subdev *from, bool crashed)
{
	struct ampsoc_rproc_subdev *sd = from;

	list_for_each_entry_continue_reverse(sd, &rproc->subdevs, node)
		if (sd->stop)
			sd->stop(sd, crashed);
}

static int arp_start_locked(struct ampsoc_rproc *rproc)
{
	/* The list head posing as an entry: "from the end" for the helpers. */
	struct ampsoc_rproc_subdev *head =
		list_entry(&rproc->subdevs, struct ampsoc_rproc_subdev, node);
	struct ampsoc_rproc_subdev *sd;
	int ret;

	lockdep_assert_held(&rproc->lock);

	list_for_each_entry(sd, &rproc->subdevs, node) {
		ret = sd->prepare ? sd->prepare(sd) : 0;
		if (ret) {
			dev_err(&rproc->dev, "subdevice prepare failed: %d\n",
				ret);
			arp_subdevs_unprepare(rproc, sd);
			return ret;
		}
	}

	ret = rproc->ops->start(rproc);
	if (ret) {
		dev_err(&rproc->dev, "can't start %s: %d\n", rproc->name, ret);
		arp_subdevs_unprepare(rproc, head);
		return ret;
	}

	list_for_each_entry(sd, &rproc->subdevs, node) {
		ret = sd->start ? sd->start(sd) : 0;
		if (ret) {
			dev_err(&rproc->dev, "subdevice start failed: %d\n",
				ret);
			arp_subdevs_stop(rproc, sd, false);
			rproc->ops->stop(rproc);
			arp_subdevs_unprepare(rproc, head);
			return ret;
		}
	}
	return 0;
}

static void arp_stop_locked(struct ampsoc_rproc *rproc, bool crashed)
{
	struct ampsoc_rproc_subdev *head =
		list_entry(&rproc->subdevs, struct ampsoc_rproc_subdev, node);
	int ret;

	lockdep_assert_held(&rproc->lock);

	arp_subdevs_stop(rproc, head, crashed);
	ret = rproc->ops->stop(rproc);
	if (ret)
		dev_warn(&rproc->dev, "stop of %s failed: %d\n", rproc->name,
			 ret);
	arp_subdevs_unprepare(rproc, head);
}

/* ---- resources --------------------------------------------------------- */

static void arp_resource_cleanup(struct ampsoc_rproc *rproc)
{
	struct arp_carveout *c, *cn;
	struct arp_trace *t, *tn;
	struct arp_rvdev *v, *vn;
	struct arp_dump_seg *d, *dn;
	struct arp_alloc *a, *an;
	LIST_HEAD(dead);

	lockdep_assert_held(&rproc->lock);

	list_for_each_entry_safe(t, tn, &rproc->traces, node) {
		debugfs_remove(t->file);
		list_del(&t->node);
		kfree(t);
	}
	list_for_each_entry_safe(v, vn, &rproc->rvdevs, node) {
		unsigned int i;

		list_del(&v->subdev.node);
		arp_rvdev_cleanup(v);
		for (i = 0; i < v->num_vrings; i++)
			if (v->vring[i].notifyid >= 0)
				idr_remove(&rproc->notifyids,
					   v->vring[i].notifyid);
		list_del(&v->node);
		list_add(&v->node, &dead);
	}
	/* ampsoc_rproc_vq_interrupt() may still look at them */
	if (!list_empty(&dead))
		synchronize_srcu(&rproc->vq_srcu);
	list_for_each_entry_safe(v, vn, &dead, node)
		kfree(v);
	list_for_each_entry_safe(c, cn, &rproc->carveouts, node) {
		list_del(&c->node);
		kfree(c);
	}
	list_for_each_entry_safe(d, dn, &rproc->dump_segments, node) {
		list_del(&d->node);
		kfree(d);
	}
	mutex_lock(&rproc->mem_lock);
	list_for_each_entry_safe(a, an, &rproc->allocs, node) {
		list_del(&a->node);
		kfree(a);
	}
	mutex_unlock(&rproc->mem_lock);
	rproc->num_traces = 0;
	rproc->num_vdevs = 0;
	rproc->table_ptr = NULL;
	rproc->table_sz = 0;
	rproc->loaded_table = NULL;
	kfree(rproc->cached_table);
	rproc->cached_table = NULL;
	kfree(rproc->fw_info);
	rproc->fw_info = NULL;
}

static u32 arp_pa32(phys_addr_t pa)
{
	if (pa == AMPSOC_RPROC_NO_PA || (u64)pa >= AMPSOC_FW_RSC_ADDR_ANY)
		return AMPSOC_FW_RSC_ADDR_ANY;
	return (u32)pa;
}

static int arp_handle_carveout(struct ampsoc_rproc *rproc,
			       struct ampsoc_rsc_carveout *rsc)
{
	struct arp_carveout *c;
	phys_addr_t pa;
	u64 da = rsc->da;
	void *va;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	memcpy(c->name, rsc->name, AMPSOC_RSC_NAME_LEN);

	if (rsc->da == AMPSOC_FW_RSC_ADDR_ANY) {
		va = arp_mem_alloc(rproc, &da, rsc->len, ARP_CARVEOUT_ALIGN,
				   &pa);
		ret = va ? 0 : -ENOMEM;
	} else {
		va = arp_mem_claim(rproc, da, rsc->len, &pa);
		ret = PTR_ERR_OR_ZERO(va);
	}
	if (ret) {
		if (ret == -EBUSY)
			arp_reject(rproc, ret,
				   "carveout '%s' at 0x%llx overlaps another carveout",
				   c->name, da);
		else
			arp_reject(rproc, ret,
				   "carveout '%s' (0x%x bytes at 0x%x) does not fit in device memory",
				   c->name, rsc->len, rsc->da);
		kfree(c);
		return ret;
	}
	memset(va, 0, rsc->len);
	c->da = da;
	c->pa = pa;
	c->va = va;
	c->len = rsc->len;
	list_add_tail(&c->node, &rproc->carveouts);
	rsc->da = (u32)da;
	rsc->pa = arp_pa32(pa);
	ret = ampsoc_rproc_coredump_add_segment(rproc, da, rsc->len);
	return ret;
}

static int arp_handle_trace(struct ampsoc_rproc *rproc,
			    struct ampsoc_rsc_trace *rsc)
{
	struct arp_trace *t;
	void *va = ampsoc_rproc_da_to_va(rproc, rsc->da, rsc->len);

	if (!va)
		return arp_reject(rproc, -EINVAL,
				  "trace buffer at 0x%x (0x%x bytes) is outside device memory",
				  rsc->da, rsc->len);
	/* Keep allocations away from it; carveouts may cover it. */
	if (arp_mem_find(rproc, rsc->da, rsc->len)) {
		int ret;

		mutex_lock(&rproc->mem_lock);
		ret = arp_mem_track(rproc, rsc->da, rsc->len, true);
		mutex_unlock(&rproc->mem_lock);
		if (ret)
			return ret;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->rproc = rproc;
	memcpy(t->name, rsc->name, AMPSOC_RSC_NAME_LEN);
	t->index = rproc->num_traces++;
	t->da = rsc->da;
	t->va = va;
	t->len = rsc->len;
	list_add_tail(&t->node, &rproc->traces);
	arp_debugfs_add_trace(rproc, t);
	return 0;
}

static int arp_handle_vdev(struct ampsoc_rproc *rproc,
			   struct ampsoc_rsc_vdev *rsc, u32 offset)
{
	struct arp_rvdev *rvdev;
	unsigned int i;
	int ret;

	rvdev = kzalloc(sizeof(*rvdev), GFP_KERNEL);
	if (!rvdev)
		return -ENOMEM;
	rvdev->rproc = rproc;
	rvdev->index = rproc->num_vdevs++;
	rvdev->rsc_offset = offset;
	rvdev->id = rsc->id;
	rvdev->dfeatures = rsc->dfeatures;
	rvdev->config_len = rsc->config_len;
	rvdev->num_vrings = rsc->num_of_vrings;
	INIT_LIST_HEAD(&rvdev->bufs);
	for (i = 0; i < AMPSOC_RSC_MAX_VRINGS; i++)
		rvdev->vring[i].notifyid = -1;
	list_add_tail(&rvdev->node, &rproc->rvdevs);
	INIT_LIST_HEAD(&rvdev->subdev.node);

	for (i = 0; i < rvdev->num_vrings; i++) {
		struct ampsoc_rsc_vring *r = &rsc->vring[i];
		struct arp_vring *vr = &rvdev->vring[i];
		phys_addr_t pa;
		u64 da = r->da;
		void *va;

		vr->num = r->num;
		vr->align = r->align;
		vr->size = PAGE_ALIGN(vring_size(r->num, r->align));
		if (r->da == AMPSOC_FW_RSC_ADDR_ANY) {
			va = arp_mem_alloc(rproc, &da, vr->size,
					   max_t(size_t, r->align, PAGE_SIZE),
					   &pa);
			ret = va ? 0 : -ENOMEM;
		} else {
			va = arp_mem_claim(rproc, da, vr->size, &pa);
			ret = PTR_ERR_OR_ZERO(va);
		}
		if (ret)
			return arp_reject(rproc, ret,
					  "vdev %u vring %u (%zu bytes at 0x%x) does not fit in device memory",
					  rvdev->index, i, vr->size, r->da);
		memset(va, 0, vr->size);
		vr->va = va;
		vr->da = da;
		ret = idr_alloc(&rproc->notifyids, rvdev, 0, 0, GFP_KERNEL);
		if (ret < 0)
			return ret;
		vr->notifyid = ret;
		r->da = (u32)da;
		r->pa = arp_pa32(pa);
		r->notifyid = ret;
	}
	ret = arp_rvdev_setup(rproc, rvdev);
	if (ret)
		return ret;
	list_add_tail(&rvdev->subdev.node, &rproc->subdevs);
	return 0;
}

/* Traces first (their memory is reserved), then carveouts, then the rest. */
static unsigned int arp_rsc_pass(u32 type)
{
	switch (type) {
	case AMPSOC_RSC_TRACE:
		return 0;
	case AMPSOC_RSC_CARVEOUT:
		return 1;
	default:
		return 2;
	}
}

static int arp_handle_resources(struct ampsoc_rproc *rproc, unsigned int pass)
{
	struct ampsoc_rsc_table *table = rproc->cached_table;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < table->num && !ret; i++) {
		u32 off = table->offset[i];
		struct ampsoc_rsc_hdr *hdr = (void *)table + off;
		void *rsc = hdr->data;
		int avail = rproc->table_sz - off - sizeof(*hdr);

		if (arp_rsc_pass(hdr->type) != pass)
			continue;
		switch (hdr->type) {
		case AMPSOC_RSC_CARVEOUT:
			ret = arp_handle_carveout(rproc, rsc);
			break;
		case AMPSOC_RSC_DEVMEM:
			/* Without an IOMMU there is nothing to map (as mainline). */
			dev_dbg(&rproc->dev, "devmem entry %u ignored\n", i);
			break;
		case AMPSOC_RSC_TRACE:
			ret = arp_handle_trace(rproc, rsc);
			break;
		case AMPSOC_RSC_VDEV:
			ret = arp_handle_vdev(rproc, rsc, off);
			break;
		default:
			if (!rproc->ops->handle_rsc) {
				dev_warn(&rproc->dev,
					 "vendor resource type %u ignored\n",
					 hdr->type);
				break;
			}
			ret = rproc->ops->handle_rsc(rproc, hdr->type, rsc,
						     off + sizeof(*hdr), avail);
			if (ret == AMPSOC_RSC_IGNORED) {
				dev_warn(&rproc->dev,
					 "vendor resource type %u not handled\n",
					 hdr->type);
				ret = 0;
			} else if (ret < 0) {
				arp_reject(rproc, ret,
					   "vendor resource type %u refused",
					   hdr->type);
			}
			break;
		}
	}
	return ret;
}

static int arp_check_segments(struct ampsoc_rproc *rproc,
			      const struct ampsoc_fw_info *info)
{
	unsigned int i;
	int ret;

	for (i = 0; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *s = &info->segs[i];

		if (s->memsz > SIZE_MAX ||
		    !ampsoc_rproc_da_to_va(rproc, s->da, s->memsz))
			return arp_reject(rproc, -EINVAL,
					  "segment 0x%llx+0x%llx is outside device memory",
					  s->da, s->memsz);
		if (arp_mem_find(rproc, s->da, s->memsz)) {
			mutex_lock(&rproc->mem_lock);
			ret = arp_mem_track(rproc, s->da, s->memsz, true);
			mutex_unlock(&rproc->mem_lock);
			if (ret)
				return ret;
		}
		ret = ampsoc_rproc_coredump_add_segment(rproc, s->da, s->memsz);
		if (ret)
			return ret;
	}
	return 0;
}

static int arp_load_segments(struct ampsoc_rproc *rproc,
			     const struct firmware *fw,
			     const struct ampsoc_fw_info *info)
{
	unsigned int i;
	ktime_t t0;
	int ret = 0;

	t0 = ktime_get();
	rproc->load_bytes = 0;
	if (rproc->ops->load) {
		ret = rproc->ops->load(rproc, fw);
		goto out;
	}
	for (i = 0; i < info->num_segs; i++) {
		const struct ampsoc_fw_seg *s = &info->segs[i];
		void *va = ampsoc_rproc_da_to_va(rproc, s->da, s->memsz);

		/* Checked by arp_check_segments(); the map cannot shrink. */
		if (WARN_ON(!va))
			return -EINVAL;
		memcpy(va, fw->data + s->offset, s->filesz);
		memset(va + s->filesz, 0, s->memsz - s->filesz);
		rproc->load_bytes += s->memsz;
	}
out:
	/* Figures for debugfs load_stats (benchmarks). */
	rproc->load_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	return ret;
}

static int arp_fw_boot(struct ampsoc_rproc *rproc, const struct firmware *fw)
{
	struct ampsoc_fw_expect expect = {
		.elf_class = rproc->elf_class,
		.machine = rproc->elf_machine,
	};
	struct ampsoc_fw_info *info;
	char err[AMPSOC_FW_ERR_LEN];
	int ret;

	lockdep_assert_held(&rproc->lock);

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	rproc->fw_info = info;

	ret = ampsoc_fw_parse_elf(fw->data, fw->size, &expect, info, err,
				  sizeof(err));
	if (ret) {
		arp_reject(rproc, ret, "%s", err);
		goto fail;
	}
	ret = arp_check_segments(rproc, info);
	if (ret)
		goto fail;

	if (info->has_rsc) {
		rproc->table_sz = info->rsc_size;
		rproc->cached_table = kmemdup(fw->data + info->rsc_offset,
					      info->rsc_size, GFP_KERNEL);
		if (!rproc->cached_table) {
			ret = -ENOMEM;
			goto fail;
		}
		ret = ampsoc_fw_check_rsc(rproc->cached_table, rproc->table_sz,
					  err, sizeof(err));
		if (ret) {
			arp_reject(rproc, ret, "%s", err);
			goto fail;
		}
		rproc->table_ptr = rproc->cached_table;
	}

	if (rproc->ops->parse_fw) {
		ret = rproc->ops->parse_fw(rproc, fw);
		if (ret) {
			arp_reject(rproc, ret, "refused by the platform");
			goto fail;
		}
	}
	if (rproc->cached_table) {
		unsigned int pass;

		for (pass = 0; pass < 3 && !ret; pass++)
			ret = arp_handle_resources(rproc, pass);
		if (ret)
			goto fail;
	}

	ret = arp_load_segments(rproc, fw, info);
	if (ret) {
		arp_reject(rproc, ret, "loading failed");
		goto fail;
	}
	if (rproc->cached_table) {
		rproc->loaded_table = ampsoc_rproc_da_to_va(rproc, info->rsc_da,
							    rproc->table_sz);
		/* The parser checked that the section lies in a segment. */
		if (WARN_ON(!rproc->loaded_table)) {
			ret = -EINVAL;
			goto fail;
		}
		memcpy(rproc->loaded_table, rproc->cached_table,
		       rproc->table_sz);
		rproc->table_ptr = rproc->loaded_table;
	}

	rproc->bootaddr = info->entry;
	ret = arp_start_locked(rproc);
	if (ret)
		goto fail;
	rproc->state = AMPSOC_RPROC_RUNNING;
	dev_info(&rproc->dev, "remote processor %s is now up\n", rproc->name);
	return 0;

fail:
	arp_resource_cleanup(rproc);
	return ret;
}

static bool arp_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || len > NAME_MAX || name[0] == '/')
		return false;
	for (i = 0; i < len; i++)
		if (name[i] <= ' ' || name[i] > '~')
			return false;
	/* No ".." path component. */
	for (i = 0; i + 1 < len; i++)
		if (name[i] == '.' && name[i + 1] == '.' &&
		    (i == 0 || name[i - 1] == '/') &&
		    (i + 2 == len || name[i + 2] == '/'))
			return false;
	return true;
}

static int arp_request_and_boot(struct ampsoc_rproc *rproc)
{
	const struct firmware *fw;
	ktime_t t0;
	int ret;

	t0 = ktime_get();
	ret = firmware_request_nowarn(&fw, rproc->firmware, &rproc->dev);
	if (ret) {
		dev_err(&rproc->dev, "request_firmware %s failed: %d\n",
			rproc->firmware, ret);
		return ret;
	}
	rproc->load_request_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	rproc->load_fw_bytes = fw->size;
	ret = arp_fw_boot(rproc, fw);
	release_firmware(fw);
	return ret;
}

/*
 * Take a runtime-PM reference on the platform device: its PM domain and the
 * domain's parents power on first. A platform without runtime PM (never
 * enabled) is always powered; the usage count is kept balanced either way.
 */
static int arp_pm_get(struct ampsoc_rproc *rproc)
{
	struct device *parent = rproc->dev.parent;
	int ret;

	ret = pm_runtime_get_sync(parent);
	if (ret == -EACCES && !pm_runtime_enabled(parent))
		return 0;
	if (ret < 0) {
		pm_runtime_put_noidle(parent);
		dev_err(&rproc->dev, "can't power up %s: %d\n", rproc->name,
			ret);
		return ret;
	}
	return 0;
}

/* Synchronous, so that the domain is off when shutdown returns. */
static void arp_pm_put(struct ampsoc_rproc *rproc)
{
	pm_runtime_put_sync(rproc->dev.parent);
}

/**
 * ampsoc_rproc_boot() - boot a remote processor, or take another reference
 * @rproc: the processor
 *
 * The first call loads the firmware (see ampsoc_rproc_set_firmware()),
 * takes a runtime-PM reference on the platform device, which powers its PM
 * domain on, handles the resource table and starts the processor. Later
 * calls only count users.
 *
 * Context: Process context; sleeps.
 * Return: 0, -ENODEV once the processor is being removed, -EINTR, or the
 * errno of the failed step (the processor is then left offline).
 */
int ampsoc_rproc_boot(struct ampsoc_rproc *rproc)
{
	int ret;

	if (!rproc)
		return -EINVAL;
	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret)
		return ret;
	if (rproc->deleting) {
		ret = -ENODEV;
		goto out;
	}
	if (rproc->power) {
		rproc->power++;
		goto out;
	}
	dev_info(&rproc->dev, "powering up %s\n", rproc->name);
	ret = arp_pm_get(rproc);
	if (ret)
		goto out;
	ret = arp_request_and_boot(rproc);
	if (ret) {
		arp_pm_put(rproc);
		goto out;
	}
	rproc->power = 1;
out:
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_boot);

static void arp_power_off_locked(struct ampsoc_rproc *rproc)
{
	lockdep_assert_held(&rproc->lock);

	arp_stop_locked(rproc, rproc->state == AMPSOC_RPROC_CRASHED);
	arp_resource_cleanup(rproc);
	rproc->state = AMPSOC_RPROC_OFFLINE;
	rproc->power = 0;
	arp_pm_put(rproc);
	dev_info(&rproc->dev, "stopped remote processor %s\n", rproc->name);
}

/**
 * ampsoc_rproc_shutdown() - drop a reference taken by ampsoc_rproc_boot()
 * @rproc: the processor
 *
 * The last reference stops the subdevices and the processor, releases its
 * resources and its runtime-PM reference. A crashed processor may be shut
 * down too.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL if the processor is not running or crashed, -EINTR.
 */
int ampsoc_rproc_shutdown(struct ampsoc_rproc *rproc)
{
	int ret;

	if (!rproc)
		return -EINVAL;
	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret)
		return ret;
	if (!rproc->power || (rproc->state != AMPSOC_RPROC_RUNNING &&
			      rproc->state != AMPSOC_RPROC_CRASHED)) {
		ret = -EINVAL;
		goto out;
	}
	if (--rproc->power)
		goto out;
	arp_power_off_locked(rproc);
out:
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_shutdown);

/**
 * ampsoc_rproc_get() - become a user of a remote processor
 * @rproc: the processor
 *
 * Pins the processor and its platform driver, then boots the processor if
 * this is its first user (the seed's rproc_get()).
 *
 * Context: Process context; sleeps.
 * Return: 0 or the errno of ampsoc_rproc_boot(); on error nothing is held.
 */
int ampsoc_rproc_get(struct ampsoc_rproc *rproc)
{
	struct device_driver *drv;
	int ret;

	if (!rproc)
		return -EINVAL;
	get_device(&rproc->dev);
	drv = rproc->dev.parent->driver;
	if (drv && !try_module_get(drv->owner)) {
		put_device(&rproc->dev);
		return -ENODEV;
	}
	ret = ampsoc_rproc_boot(rproc);
	if (ret) {
		if (drv)
			module_put(drv->owner);
		put_device(&rproc->dev);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_get);

/**
 * ampsoc_rproc_put() - stop being a user of a remote processor
 * @rproc: a processor obtained with ampsoc_rproc_get()
 *
 * The last user powers the processor down (the seed's rproc_put()).
 *
 * Context: Process context; sleeps.
 * Return: nothing; a failed shutdown is logged.
 */
void ampsoc_rproc_put(struct ampsoc_rproc *rproc)
{
	struct device_driver *drv = rproc->dev.parent->driver;

	ampsoc_rproc_shutdown(rproc);
	if (drv)
		module_put(drv->owner);
	put_device(&rproc->dev);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_put);

/**
 * ampsoc_rproc_set_firmware() - choose the firmware file
 * @rproc: the processor
 * @name: a file name relative to /lib/firmware; a trailing newline is
 *	ignored
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL for an empty name, an absolute name, a ".." component,
 * spaces or control characters, -EBUSY unless the processor is offline,
 * -ENOMEM, -EINTR if a signal came while waiting for the processor's lock.
 */
int ampsoc_rproc_set_firmware(struct ampsoc_rproc *rproc, const char *name)
{
	size_t len = strcspn(name, "\n");
	char *copy;
	int ret = 0;

	if (!arp_name_ok(name, len) || name[len + (name[len] == '\n')]) {
		dev_err(&rproc->dev, "invalid firmware name\n");
		return -EINVAL;
	}
	copy = kstrndup(name, len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	if (mutex_lock_interruptible(&rproc->lock)) {
		kfree(copy);
		return -EINTR;
	}
	if (rproc->state != AMPSOC_RPROC_OFFLINE || rproc->power) {
		ret = -EBUSY;
		kfree(copy);
	} else {
		kfree(rproc->firmware);
		rproc->firmware = copy;
	}
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_set_firmware);

/* ---- crashes and recovery ---------------------------------------------- */

/**
 * arp_recover_locked() - stop, reload and restart a crashed processor
 * @rproc: the processor
 *
 * Subdevices are stopped with crashed=true (rpmsg channels go away) and
 * started again after the new boot. If the reboot fails the processor is
 * powered off and every user reference is dropped.
 *
 * Context: Process context, rproc->lock held.
 * Return: 0 or the errno of the failed reboot.
 */
int arp_recover_locked(struct ampsoc_rproc *rproc)
{
	int ret;

	lockdep_assert_held(&rproc->lock);

	if (rproc->state != AMPSOC_RPROC_CRASHED)
		return -EINVAL;
	dev_info(&rproc->dev, "recovering %s\n", rproc->name);
	arp_stop_locked(rproc, true);
	arp_resource_cleanup(rproc);
	ret = arp_request_and_boot(rproc);
	if (ret) {
		dev_err(&rproc->dev, "recovery of %s failed: %d\n",
			rproc->name, ret);
		rproc->state = AMPSOC_RPROC_OFFLINE;
		rproc->power = 0;
		arp_pm_put(rproc);
		return ret;
	}
	dev_info(&rproc->dev, "recovery of %s done\n", rproc->name);
	return 0;
}

/**
 * ampsoc_rproc_trigger_recovery() - recover a crashed processor now
 * @rproc: the processor
 *
 * Used by the "recover" command of the recovery attributes; works even if
 * automatic recovery is disabled.
 *
 * Context: Process context; sleeps.
 * Return: 0, -EINVAL if the processor has not crashed, or the errno of the
 * failed reboot.
 */
int ampsoc_rproc_trigger_recovery(struct ampsoc_rproc *rproc)
{
	int ret;

	ret = mutex_lock_interruptible(&rproc->lock);
	if (ret)
		return ret;
	ret = rproc->deleting ? -ENODEV : arp_recover_locked(rproc);
	mutex_unlock(&rproc->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_trigger_recovery);

static void arp_crash_work(struct work_struct *work)
{
	struct ampsoc_rproc *rproc =
		container_of(work, struct ampsoc_rproc, crash_work);

	mutex_lock(&rproc->lock);
	if (rproc->deleting || rproc->state != AMPSOC_RPROC_RUNNING)
		goto out;
	rproc->state = AMPSOC_RPROC_CRASHED;
	rproc->crash_cnt++;
	dev_err(&rproc->dev, "crash detected in %s: type %s\n", rproc->name,
		arp_crash_names[rproc->crash_type]);
	arp_coredump(rproc);
	if (!rproc->recovery_disabled)
		arp_recover_locked(rproc);
out:
	mutex_unlock(&rproc->lock);
	put_device(&rproc->dev);
}

/**
 * ampsoc_rproc_report_crash() - report a crash of the remote processor
 * @rproc: the processor
 * @type: what happened
 *
 * The crash is handled from a workqueue: the state becomes "crashed", a
 * coredump is taken if enabled and, unless recovery is disabled, the
 * processor is stopped, reloaded and restarted. Reports while a crash is
 * being handled, or while the processor is not running, are ignored.
 *
 * Context: Any context, including hard interrupts.
 * Return: nothing; the outcome shows in the state and the log.
 */
void ampsoc_rproc_report_crash(struct ampsoc_rproc *rproc,
			       enum ampsoc_rproc_crash_type type)
{
	if (!rproc)
		return;
	if ((unsigned int)type >= ARRAY_SIZE(arp_crash_names))
		type = AMPSOC_RPROC_FATAL_ERROR;
	rproc->crash_type = type;
	get_device(&rproc->dev);
	if (!queue_work(arp_wq, &rproc->crash_work))
		put_device(&rproc->dev);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_report_crash);

/* ---- registration ------------------------------------------------------ */

static void arp_boot_work(struct work_struct *work)
{
	struct ampsoc_rproc *rproc =
		container_of(work, struct ampsoc_rproc, boot_work);

	ampsoc_rproc_boot(rproc);
}

static void arp_dev_release(struct device *dev)
{
	struct ampsoc_rproc *rproc = container_of(dev, struct ampsoc_rproc, dev);
	struct arp_mem *m, *mn;

	list_for_each_entry_safe(m, mn, &rproc->mems, node) {
		list_del(&m->node);
		kfree(m);
	}
	idr_destroy(&rproc->notifyids);
	cleanup_srcu_struct(&rproc->vq_srcu);
	if (rproc->index >= 0)
		ida_free(&arp_ida, rproc->index);
	kfree(rproc->firmware);
	kfree_const(rproc->name);
	kfree(rproc);
}

/**
 * ampsoc_rproc_alloc() - allocate a remote processor
 * @parent: the platform device; its runtime PM powers the processor
 * @name: a human-readable name
 * @ops: platform operations; start and stop are required
 * @firmware: default firmware name, or NULL for "rproc-<name>-fw"
 * @len: bytes of private data, reachable through &ampsoc_rproc.priv
 *
 * Context: Process context.
 * Return: the processor, to be registered with ampsoc_rproc_add() and
 * released with ampsoc_rproc_free(), or NULL.
 */
struct ampsoc_rproc *ampsoc_rproc_alloc(struct device *parent,
					const char *name,
					const struct ampsoc_rproc_ops *ops,
					const char *firmware, size_t len)
{
	struct ampsoc_rproc *rproc;

	if (!parent || !name || !ops || !ops->start || !ops->stop)
		return NULL;
	rproc = kzalloc(ALIGN(sizeof(*rproc), 16) + len, GFP_KERNEL);
	if (!rproc)
		return NULL;
	rproc->priv = (void *)rproc + ALIGN(sizeof(*rproc), 16);
	rproc->ops = ops;
	mutex_init(&rproc->lock);
	mutex_init(&rproc->mem_lock);
	INIT_LIST_HEAD(&rproc->mems);
	INIT_LIST_HEAD(&rproc->allocs);
	INIT_LIST_HEAD(&rproc->carveouts);
	INIT_LIST_HEAD(&rproc->traces);
	INIT_LIST_HEAD(&rproc->rvdevs);
	INIT_LIST_HEAD(&rproc->subdevs);
	INIT_LIST_HEAD(&rproc->dump_segments);
	idr_init(&rproc->notifyids);
	INIT_WORK(&rproc->crash_work, arp_crash_work);
	INIT_WORK(&rproc->boot_work, arp_boot_work);
	init_completion(&rproc->dump_done);
	rproc->dump_conf = AMPSOC_RPROC_COREDUMP_ENABLED;
	rproc->state = AMPSOC_RPROC_OFFLINE;
	if (init_srcu_struct(&rproc->vq_srcu)) {
		kfree(rproc);
		return NULL;
	}

	device_initialize(&rproc->dev);
	rproc->dev.parent = parent;
	rproc->dev.class = &ampsoc_rproc_class;
	rproc->dev.release = arp_dev_release;
	rproc->index = ida_alloc_max(&arp_ida, ARP_MAX_DEVICES - 1,
				     GFP_KERNEL);
	rproc->name = kstrdup_const(name, GFP_KERNEL);
	rproc->firmware = firmware ? kstrdup(firmware, GFP_KERNEL) :
				     kasprintf(GFP_KERNEL, "rproc-%s-fw", name);
	if (rproc->index < 0 || !rproc->name || !rproc->firmware ||
	    dev_set_name(&rproc->dev, "remoteproc%d", rproc->index)) {
		put_device(&rproc->dev);
		return NULL;
	}
	arp_cdev_prepare(rproc);
	return rproc;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_alloc);

/**
 * ampsoc_rproc_free() - release a processor from ampsoc_rproc_alloc()
 * @rproc: the processor, never registered or already deleted
 *
 * Context: Process context.
 * Return: nothing.
 */
void ampsoc_rproc_free(struct ampsoc_rproc *rproc)
{
	if (rproc)
		put_device(&rproc->dev);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_free);

/**
 * ampsoc_rproc_add() - register a remote processor
 * @rproc: the processor
 *
 * Creates /sys/class/remoteproc/remoteprocN, /dev/remoteprocN and the
 * debugfs directory. With auto_boot set the processor boots in the
 * background.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ampsoc_rproc_add(struct ampsoc_rproc *rproc)
{
	int ret;

	ret = arp_cdev_add(rproc);
	if (ret) {
		dev_err(rproc->dev.parent, "can't register %s: %d\n",
			dev_name(&rproc->dev), ret);
		return ret;
	}
	rproc->registered = true;
	arp_debugfs_add(rproc);
	dev_info(&rproc->dev, "%s is available\n", rproc->name);
	if (rproc->auto_boot)
		queue_work(arp_wq, &rproc->boot_work);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_add);

/**
 * ampsoc_rproc_del() - unregister a remote processor
 * @rproc: a processor registered with ampsoc_rproc_add()
 *
 * Stops the processor whatever its number of users; later boots fail with
 * -ENODEV. Free it with ampsoc_rproc_free() afterwards.
 *
 * Context: Process context; sleeps.
 * Return: nothing; the processor is stopped whatever happens.
 */
void ampsoc_rproc_del(struct ampsoc_rproc *rproc)
{
	if (!rproc || !rproc->registered)
		return;
	cancel_work_sync(&rproc->boot_work);
	mutex_lock(&rproc->lock);
	rproc->deleting = true;
	mutex_unlock(&rproc->lock);
	if (cancel_work_sync(&rproc->crash_work))
		put_device(&rproc->dev);

	mutex_lock(&rproc->lock);
	if (rproc->state != AMPSOC_RPROC_OFFLINE)
		arp_power_off_locked(rproc);
	mutex_unlock(&rproc->lock);

	arp_debugfs_remove(rproc);
	arp_cdev_del(rproc);
	rproc->registered = false;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_del);

static int __init arp_init(void)
{
	int ret;

	arp_wq = alloc_workqueue("ampsoc_rproc", WQ_UNBOUND | WQ_FREEZABLE, 0);
	if (!arp_wq)
		return -ENOMEM;
	ret = class_register(&ampsoc_rproc_class);
	if (ret)
		goto err_wq;
	ret = arp_cdev_init();
	if (ret)
		goto err_class;
	arp_debugfs_init();
	return 0;

err_class:
	class_unregister(&ampsoc_rproc_class);
err_wq:
	destroy_workqueue(arp_wq);
	return ret;
}
module_init(arp_init);

static void __exit arp_exit(void)
{
	arp_debugfs_exit();
	arp_cdev_exit();
	class_unregister(&ampsoc_rproc_class);
	destroy_workqueue(arp_wq);
	ida_destroy(&arp_ida);
}
module_exit(arp_exit);

MODULE_DESCRIPTION("ampsoc remote processor framework");
MODULE_LICENSE("GPL");

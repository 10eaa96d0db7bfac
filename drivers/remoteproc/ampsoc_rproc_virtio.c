// SPDX-License-Identifier: GPL-2.0
/*
 * Each vdev resource becomes a device on the kernel's own virtio bus while
 * the processor runs: its vrings live in device memory at the addresses
 * written back into the resource table, its config space, status and
 * negotiated features are the vdev entry of the loaded table, notifications
 * go out through ops->kick and come in through ampsoc_rproc_vq_interrupt().
 * It is a subdevice, so a crash unregisters it and recovery registers it
 * again: virtio drivers (rpmsg) see remove and probe.
 */
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "ampsoc_rproc_internal.h"

struct arp_vdev_dev {
	struct virtio_device vdev;
	struct ampsoc_rproc *rproc;
	struct arp_rvdev *rvdev;
};

struct arp_vdev_buf {
	struct list_head node;
	void *va;
	u64 da;
};

static const struct virtio_config_ops arp_virtio_ops;

static struct arp_vdev_dev *to_vd(struct virtio_device *vdev)
{
	return container_of(vdev, struct arp_vdev_dev, vdev);
}

/**
 * arp_rvdev_rsc() - the vdev entry of the resource table in use
 * @rvdev: the vdev
 *
 * Context: Any context, while the processor's resources exist.
 * Return: the entry; its size was validated when the firmware was loaded.
 */
struct ampsoc_rsc_vdev *arp_rvdev_rsc(struct arp_rvdev *rvdev)
{
	return rvdev->rproc->table_ptr + rvdev->rsc_offset +
	       sizeof(struct ampsoc_rsc_hdr);
}

static u8 *arp_config(struct arp_rvdev *rvdev)
{
	return (u8 *)arp_rvdev_rsc(rvdev) + sizeof(struct ampsoc_rsc_vdev) +
	       rvdev->num_vrings * sizeof(struct ampsoc_rsc_vring);
}

static bool arp_config_range_ok(struct arp_rvdev *rvdev, unsigned int off,
				unsigned int len)
{
	if (off > rvdev->config_len || len > rvdev->config_len - off) {
		dev_err(&rvdev->rproc->dev,
			"vdev %u config access 0x%x+0x%x beyond 0x%x bytes\n",
			rvdev->index, off, len, rvdev->config_len);
		return false;
	}
	return true;
}

static void arp_vd_get(struct virtio_device *vdev, unsigned int off,
		       void *buf, unsigned int len)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;

	if (arp_config_range_ok(rvdev, off, len))
		memcpy(buf, arp_config(rvdev) + off, len);
	else
		memset(buf, 0, len);
}

static void arp_vd_set(struct virtio_device *vdev, unsigned int off,
		       const void *buf, unsigned int len)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;

	if (arp_config_range_ok(rvdev, off, len))
		memcpy(arp_config(rvdev) + off, buf, len);
}

static u8 arp_vd_get_status(struct virtio_device *vdev)
{
	return READ_ONCE(arp_rvdev_rsc(to_vd(vdev)->rvdev)->status);
}

static void arp_vd_set_status(struct virtio_device *vdev, u8 status)
{
	WRITE_ONCE(arp_rvdev_rsc(to_vd(vdev)->rvdev)->status, status);
}

static void arp_vd_reset(struct virtio_device *vdev)
{
	WRITE_ONCE(arp_rvdev_rsc(to_vd(vdev)->rvdev)->status, 0);
}

/*
 * The resource table has 32 feature bits. VIRTIO_F_VERSION_1 (bit 32) is
 * offered on little-endian hosts, where the legacy native byte order the
 * firmware already uses is little-endian: the wire format is the same
 * whether or not the driver takes it.
 */
static u64 arp_vd_get_features(struct virtio_device *vdev)
{
	u64 features = to_vd(vdev)->rvdev->dfeatures;

	if (!IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		features |= BIT_ULL(VIRTIO_F_VERSION_1);
	return features;
}

static int arp_vd_finalize_features(struct virtio_device *vdev)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;

	vring_transport_features(vdev);
	if (vdev->features >> 32 & ~(u64)BIT(VIRTIO_F_VERSION_1 - 32))
		return -EINVAL;
	arp_rvdev_rsc(rvdev)->gfeatures = (u32)vdev->features;
	return 0;
}

static bool arp_vq_notify(struct virtqueue *vq)
{
	struct arp_vring *vr = vq->priv;
	struct arp_vdev_dev *vd = to_vd(vq->vdev);
	struct ampsoc_rproc *rproc = vd->rproc;

	if (!rproc->ops->kick)
		return false;
	rproc->ops->kick(rproc, vr->notifyid);
	return true;
}

static void arp_vd_del_vqs(struct virtio_device *vdev)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;
	struct ampsoc_rproc *rproc = rvdev->rproc;
	struct virtqueue *vq, *n;

	list_for_each_entry(vq, &vdev->vqs, list)
		WRITE_ONCE(((struct arp_vring *)vq->priv)->vq, NULL);
	/* no ampsoc_rproc_vq_interrupt() uses them any more */
	synchronize_srcu(&rproc->vq_srcu);
	list_for_each_entry_safe(vq, n, &vdev->vqs, list)
		vring_del_virtqueue(vq);
}

static int arp_vd_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
			   struct virtqueue *vqs[], vq_callback_t *callbacks[],
			   const char * const names[], const bool *ctx,
			   struct irq_affinity *desc)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;
	struct ampsoc_rproc *rproc = rvdev->rproc;
	unsigned int i, idx = 0;

	for (i = 0; i < nvqs; i++) {
		struct arp_vring *vr;
		struct virtqueue *vq;

		if (!names[i]) {
			vqs[i] = NULL;
			continue;
		}
		if (idx >= rvdev->num_vrings) {
			dev_err(&rproc->dev, "vdev %u has only %u vrings\n",
				rvdev->index, rvdev->num_vrings);
			arp_vd_del_vqs(vdev);
			return -EINVAL;
		}
		vr = &rvdev->vring[idx];
		memset(vr->va, 0, vr->size);
		vq = vring_new_virtqueue(idx, vr->num, vr->align, vdev, false,
					 ctx ? ctx[i] : false, vr->va,
					 arp_vq_notify, callbacks[i], names[i]);
		if (!vq) {
			dev_err(&rproc->dev, "can't create vq %u of vdev %u\n",
				idx, rvdev->index);
			arp_vd_del_vqs(vdev);
			return -ENOMEM;
		}
		vq->priv = vr;
		WRITE_ONCE(vr->vq, vq);
		vqs[i] = vq;
		idx++;
	}
	return 0;
}

/*
 * Shared memory region 0: buffers for the virtio driver (rpmsg's), with a
 * physical address the driver can put in descriptors. A carveout named
 * "vdev<N>buffer" (mainline's name for such memory) is used as it is;
 * otherwise one buffer of 512 bytes per vring entry is allocated from the
 * processor's memory on first use. Memory without a physical address
 * (vmalloc'd) cannot be offered.
 */
static bool arp_vd_get_shm_region(struct virtio_device *vdev,
				  struct virtio_shm_region *region, u8 id)
{
	struct arp_rvdev *rvdev = to_vd(vdev)->rvdev;
	struct ampsoc_rproc *rproc = rvdev->rproc;
	struct arp_carveout *c;
	char name[AMPSOC_RSC_NAME_LEN];
	size_t len = 0;
	unsigned int i;

	if (id != 0)
		return false;
	if (!rvdev->shm_va) {
		snprintf(name, sizeof(name), "vdev%ubuffer", rvdev->index);
		list_for_each_entry(c, &rproc->carveouts, node) {
			if (!strcmp(c->name, name)) {
				rvdev->shm_va = c->va;
				rvdev->shm_da = c->da;
				rvdev->shm_pa = c->pa;
				rvdev->shm_len = c->len;
				break;
			}
		}
	}
	if (!rvdev->shm_va) {
		for (i = 0; i < rvdev->num_vrings; i++)
			len += rvdev->vring[i].num * 512;
		len = PAGE_ALIGN(len);
		rvdev->shm_va = arp_mem_alloc(rproc, &rvdev->shm_da, len,
					      PAGE_SIZE, &rvdev->shm_pa);
		if (!rvdev->shm_va)
			return false;
		rvdev->shm_len = len;
		rvdev->shm_owned = true;
		memset(rvdev->shm_va, 0, len);
	}
	if (rvdev->shm_pa == AMPSOC_RPROC_NO_PA)
		return false;
	region->addr = rvdev->shm_pa;
	region->len = rvdev->shm_len;
	return true;
}

static const char *arp_vd_bus_name(struct virtio_device *vdev)
{
	return dev_name(&to_vd(vdev)->rproc->dev);
}

static const struct virtio_config_ops arp_virtio_ops = {
	.get = arp_vd_get,
	.set = arp_vd_set,
	.get_status = arp_vd_get_status,
	.set_status = arp_vd_set_status,
	.reset = arp_vd_reset,
	.find_vqs = arp_vd_find_vqs,
	.del_vqs = arp_vd_del_vqs,
	.get_features = arp_vd_get_features,
	.finalize_features = arp_vd_finalize_features,
	.bus_name = arp_vd_bus_name,
	.get_shm_region = arp_vd_get_shm_region,
};

/**
 * ampsoc_rproc_vq_interrupt() - the remote processor kicked a vring
 * @rproc: the processor
 * @notifyid: the notify id of the vring, as written in the resource table
 *
 * Runs the virtqueue's callback in the caller's context: a virtio driver
 * whose callback sleeps (rpmsg's receive queue) needs the platform to call
 * this from a threaded interrupt handler or a work item. Only SRCU is held,
 * so the callback may block, and may kick.
 *
 * Context: Any context; the callback's needs decide.
 * Return: IRQ_HANDLED if a virtqueue had work, IRQ_NONE otherwise
 * (including for an unknown @notifyid, which the remote controls).
 */
irqreturn_t ampsoc_rproc_vq_interrupt(struct ampsoc_rproc *rproc,
				      int notifyid)
{
	irqreturn_t ret = IRQ_NONE;
	struct arp_rvdev *rvdev;
	unsigned int i;
	int idx;

	idx = srcu_read_lock(&rproc->vq_srcu);
	/* idr nodes are freed by RCU; the vdev itself by vq_srcu */
	rcu_read_lock();
	rvdev = idr_find(&rproc->notifyids, notifyid);
	rcu_read_unlock();
	for (i = 0; rvdev && i < rvdev->num_vrings; i++) {
		struct arp_vring *vr = &rvdev->vring[i];
		struct virtqueue *vq = READ_ONCE(vr->vq);

		if (vr->notifyid == notifyid && vq)
			ret = vring_interrupt(0, vq);
	}
	srcu_read_unlock(&rproc->vq_srcu, idx);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_vq_interrupt);

/**
 * ampsoc_rproc_from_vdev() - the processor behind a virtio device
 * @vdev: a virtio device
 *
 * Context: Any context.
 * Return: the processor, or NULL if @vdev does not come from remoteproc.
 */
struct ampsoc_rproc *ampsoc_rproc_from_vdev(struct virtio_device *vdev)
{
	if (vdev->config != &arp_virtio_ops)
		return NULL;
	return to_vd(vdev)->rproc;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_from_vdev);

/**
 * ampsoc_rproc_vdev_alloc() - allocate shared buffers for a virtio driver
 * @vdev: a virtio device from remoteproc
 * @size: bytes needed
 * @da: set to the address the remote processor uses
 * @pa: set to the physical address, or ~0 if the memory has none
 *
 * The memory comes from the processor's declared memory, outside the
 * firmware, carveouts and vrings, and is zeroed. It is released with
 * ampsoc_rproc_vdev_free() or when the processor stops.
 *
 * Context: Process context; may be called from the virtio driver's probe.
 * Return: the kernel address, or NULL if nothing fits.
 */
void *ampsoc_rproc_vdev_alloc(struct virtio_device *vdev, size_t size,
			      u64 *da, phys_addr_t *pa)
{
	struct arp_rvdev *rvdev;
	struct arp_vdev_buf *b;

	if (vdev->config != &arp_virtio_ops)
		return NULL;
	rvdev = to_vd(vdev)->rvdev;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->va = arp_mem_alloc(rvdev->rproc, &b->da, PAGE_ALIGN(size),
			      PAGE_SIZE, pa);
	if (!b->va) {
		dev_err(&rvdev->rproc->dev,
			"no device memory for %zu bytes of vdev %u buffers\n",
			size, rvdev->index);
		kfree(b);
		return NULL;
	}
	memset(b->va, 0, size);
	*da = b->da;
	list_add_tail(&b->node, &rvdev->bufs);
	return b->va;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_vdev_alloc);

/**
 * ampsoc_rproc_vdev_free() - free buffers from ampsoc_rproc_vdev_alloc()
 * @vdev: the virtio device
 * @va: the address ampsoc_rproc_vdev_alloc() returned
 *
 * Context: Process context.
 * Return: nothing; freeing an unknown address warns.
 */
void ampsoc_rproc_vdev_free(struct virtio_device *vdev, void *va)
{
	struct arp_rvdev *rvdev;
	struct arp_vdev_buf *b;

	if (vdev->config != &arp_virtio_ops || !va)
		return;
	rvdev = to_vd(vdev)->rvdev;
	list_for_each_entry(b, &rvdev->bufs, node) {
		if (b->va == va) {
			arp_mem_release(rvdev->rproc, b->da);
			list_del(&b->node);
			kfree(b);
			return;
		}
	}
	WARN(1, "%s: %p was not allocated for this vdev\n", __func__, va);
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_vdev_free);

static void arp_vd_release(struct device *dev)
{
	kfree(to_vd(dev_to_virtio(dev)));
}

static int arp_rvdev_start(struct ampsoc_rproc_subdev *subdev)
{
	struct arp_rvdev *rvdev = container_of(subdev, struct arp_rvdev,
					       subdev);
	struct ampsoc_rproc *rproc = rvdev->rproc;
	struct arp_vdev_dev *vd;
	int ret;

	vd = kzalloc(sizeof(*vd), GFP_KERNEL);
	if (!vd)
		return -ENOMEM;
	vd->rproc = rproc;
	vd->rvdev = rvdev;
	vd->vdev.id.device = rvdev->id;
	vd->vdev.config = &arp_virtio_ops;
	vd->vdev.dev.parent = &rproc->dev;
	vd->vdev.dev.release = arp_vd_release;
	rvdev->vd = vd;
	ret = register_virtio_device(&vd->vdev);
	if (ret) {
		dev_err(&rproc->dev, "can't register vdev %u: %d\n",
			rvdev->index, ret);
		put_device(&vd->vdev.dev);
		rvdev->vd = NULL;
		return ret;
	}
	dev_info(&rproc->dev, "registered %s (type %u)\n",
		 dev_name(&vd->vdev.dev), rvdev->id);
	return 0;
}

static void arp_rvdev_stop(struct ampsoc_rproc_subdev *subdev, bool crashed)
{
	struct arp_rvdev *rvdev = container_of(subdev, struct arp_rvdev,
					       subdev);

	if (!rvdev->vd)
		return;
	unregister_virtio_device(&rvdev->vd->vdev);
	rvdev->vd = NULL;
}

/**
 * arp_rvdev_setup() - prepare a vdev's subdevice callbacks
 * @rproc: the processor
 * @rvdev: the vdev, with its vrings allocated
 *
 * Context: Process context, rproc->lock held.
 * Return: 0 (the virtio device itself is registered on start).
 */
int arp_rvdev_setup(struct ampsoc_rproc *rproc, struct arp_rvdev *rvdev)
{
	rvdev->subdev.start = arp_rvdev_start;
	rvdev->subdev.stop = arp_rvdev_stop;
	return 0;
}

/**
 * arp_rvdev_cleanup() - release what a vdev's virtio driver left behind
 * @rvdev: the vdev, already stopped
 *
 * Context: Process context, rproc->lock held.
 */
void arp_rvdev_cleanup(struct arp_rvdev *rvdev)
{
	struct arp_vdev_buf *b, *n;

	list_for_each_entry_safe(b, n, &rvdev->bufs, node) {
		arp_mem_release(rvdev->rproc, b->da);
		list_del(&b->node);
		kfree(b);
	}
	if (rvdev->shm_owned)
		arp_mem_release(rvdev->rproc, rvdev->shm_da);
	rvdev->shm_va = NULL;
	rvdev->shm_owned = false;
}

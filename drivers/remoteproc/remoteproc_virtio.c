// SPDX-License-Identifier: GPL-2.0
/*
 * vdev resources, as mainline 6.1's remoteproc_virtio.c handles them: each
 * becomes a struct rproc_vdev whose vrings are carveouts named
 * "vdev<N>vring<M>" (registered by the driver, or allocated) with notify
 * ids written back into the table, and a subdevice that registers a virtio
 * device on the kernel's own virtio bus while the processor runs. The
 * virtio device hangs from an intermediate device "rproc-virtio.<id>.auto"
 * below remoteprocN, as mainline's, which inherits the platform device's
 * DMA configuration; unlike mainline's it is not a platform device, so
 * that mainline's own "rproc-virtio" driver, when loaded beside ampsoc,
 * never binds to it.
 *
 * ampsoc differences (docs/mainline-differences.md): the rpmsg buffer
 * memory a "vdev<N>buffer" carveout describes is offered as virtio shared
 * memory region 0 instead of dma_declare_coherent_memory() (which Debian's
 * kernel does not have), and declared memory offers a region without one;
 * virtqueue interrupts hold SRCU so that teardown cannot free a vring
 * under them, and the vdev's ring count and config size are the ones
 * checked at boot, whatever the remote writes later.
 */
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/of_reserved_mem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "remoteproc_internal.h"

/* One 512-byte buffer per vring entry when memory is allocated for them. */
#define AMPSOC_RPROC_VDEV_BUF_SIZE	512

static DEFINE_IDA(ampsoc_rproc_vdev_ida);
static const struct virtio_config_ops ampsoc_rproc_virtio_ops;

static struct ampsoc_rproc_rvdev *vdev_to_ampsoc_rproc_rvdev(struct virtio_device *vdev)
{
	return container_of(vdev->dev.parent, struct ampsoc_rproc_rvdev, dev);
}

static struct rproc_vdev *vdev_to_rvdev(struct virtio_device *vdev)
{
	return &vdev_to_ampsoc_rproc_rvdev(vdev)->rvdev;
}

static struct fw_rsc_vdev *ampsoc_rproc_rsc(struct rproc_vdev *rvdev)
{
	return (void *)rvdev->rproc->table_ptr + rvdev->rsc_offset;
}

static bool ampsoc_rproc_virtio_notify(struct virtqueue *vq)
{
	struct rproc_vring *rvring = vq->priv;
	struct rproc *rproc = rvring->rvdev->rproc;

	rproc->ops->kick(rproc, rvring->notifyid);
	return true;
}

/**
 * ampsoc_rproc_vq_interrupt() - the remote kicked a vring (rproc_vq_interrupt)
 * @rproc: the processor
 * @notifyid: the vring's notify id, as written in the resource table
 *
 * Runs the virtqueue's callback in the caller's context. Only SRCU is held
 * around it, so the callback may block (rpmsg's does): call this from a
 * threaded interrupt handler or a work item.
 *
 * Context: Any context the virtqueue's callback allows.
 * Return: IRQ_HANDLED if the virtqueue had work, IRQ_NONE otherwise
 * (including an unknown @notifyid, which the remote controls).
 */
irqreturn_t ampsoc_rproc_vq_interrupt(struct rproc *rproc, int notifyid)
{
	struct rproc_vring *rvring;
	struct virtqueue *vq = NULL;
	irqreturn_t ret = IRQ_NONE;
	int idx;

	idx = srcu_read_lock(&rproc->ampsoc->vq_srcu);
	rcu_read_lock();
	rvring = idr_find(&rproc->notifyids, notifyid);
	if (rvring)
		vq = READ_ONCE(rvring->vq);
	rcu_read_unlock();
	if (vq)
		ret = vring_interrupt(0, vq);
	srcu_read_unlock(&rproc->ampsoc->vq_srcu, idx);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rproc_vq_interrupt);

static struct virtqueue *ampsoc_rproc_find_vq(struct virtio_device *vdev,
					      unsigned int id,
				     void (*callback)(struct virtqueue *vq),
				     const char *name, bool ctx)
{
	struct rproc_vdev *rvdev = vdev_to_rvdev(vdev);
	struct rproc *rproc = rvdev->rproc;
	struct rproc_mem_entry *mem;
	struct rproc_vring *rvring;
	struct virtqueue *vq;
	char cname[32];

	if (id >= ARRAY_SIZE(rvdev->vring))
		return ERR_PTR(-EINVAL);
	if (!name)
		return NULL;
	snprintf(cname, sizeof(cname), "vdev%dvring%d", rvdev->index, id);
	mem = ampsoc_rproc_find_carveout(rproc, cname);
	if (!mem || !mem->va)
		return ERR_PTR(-ENOMEM);
	rvring = &rvdev->vring[id];
	memset(mem->va, 0, vring_size(rvring->num, rvring->align));
	/* A real device on the other side: no weak barriers. */
	vq = vring_new_virtqueue(id, rvring->num, rvring->align, vdev, false,
				 ctx, mem->va, ampsoc_rproc_virtio_notify, callback,
				 name);
	if (!vq) {
		dev_err(&rproc->dev, "vring_new_virtqueue %s failed\n", name);
		return ERR_PTR(-ENOMEM);
	}
	vq->num_max = rvring->num;
	vq->priv = rvring;
	rvring->va = mem->va;
	WRITE_ONCE(rvring->vq, vq);
	/* The remote learns the ring's address now, as with mainline. */
	ampsoc_rproc_rsc(rvdev)->vring[id].da = mem->da;
	return vq;
}

static void ampsoc_rproc_del_vqs(struct virtio_device *vdev)
{
	struct rproc *rproc = vdev_to_rvdev(vdev)->rproc;
	struct virtqueue *vq, *n;

	list_for_each_entry(vq, &vdev->vqs, list)
		WRITE_ONCE(((struct rproc_vring *)vq->priv)->vq, NULL);
	/* no ampsoc_rproc_vq_interrupt() uses them any more */
	synchronize_srcu(&rproc->ampsoc->vq_srcu);
	list_for_each_entry_safe(vq, n, &vdev->vqs, list)
		vring_del_virtqueue(vq);
}

static int ampsoc_rproc_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
				 struct virtqueue *vqs[], vq_callback_t *callbacks[],
			const char * const names[], const bool *ctx,
			struct irq_affinity *desc)
{
	unsigned int i, queue_idx = 0;

	for (i = 0; i < nvqs; i++) {
		if (!names[i]) {
			vqs[i] = NULL;
			continue;
		}
		vqs[i] = ampsoc_rproc_find_vq(vdev, queue_idx++, callbacks[i], names[i],
					      ctx ? ctx[i] : false);
		if (IS_ERR(vqs[i])) {
			int ret = PTR_ERR(vqs[i]);

			ampsoc_rproc_del_vqs(vdev);
			return ret;
		}
	}
	return 0;
}

static u8 ampsoc_rproc_get_status(struct virtio_device *vdev)
{
	return READ_ONCE(ampsoc_rproc_rsc(vdev_to_rvdev(vdev))->status);
}

static void ampsoc_rproc_set_status(struct virtio_device *vdev, u8 status)
{
	WRITE_ONCE(ampsoc_rproc_rsc(vdev_to_rvdev(vdev))->status, status);
}

static void ampsoc_rproc_reset(struct virtio_device *vdev)
{
	WRITE_ONCE(ampsoc_rproc_rsc(vdev_to_rvdev(vdev))->status, 0);
}

/* The vdev's 32 feature bits, as the table gives them. */
static u64 ampsoc_rproc_get_features(struct virtio_device *vdev)
{
	return ampsoc_rproc_rsc(vdev_to_rvdev(vdev))->dfeatures;
}

static int ampsoc_rproc_finalize_features(struct virtio_device *vdev)
{
	vring_transport_features(vdev);
	/* Rings live in preallocated memory: split rings only. */
	__virtio_clear_bit(vdev, VIRTIO_F_RING_PACKED);
	if ((u32)vdev->features != vdev->features)
		return -EINVAL;
	ampsoc_rproc_rsc(vdev_to_rvdev(vdev))->gfeatures = vdev->features;
	return 0;
}

/* The config space after the vrings, its size as checked at boot. */
static u8 *ampsoc_rproc_config(struct virtio_device *vdev, unsigned int off,
			       unsigned int len)
{
	struct ampsoc_rproc_rvdev *a = vdev_to_ampsoc_rproc_rvdev(vdev);
	struct fw_rsc_vdev *rsc = ampsoc_rproc_rsc(&a->rvdev);

	if (off > a->config_len || len > a->config_len - off) {
		dev_err(&vdev->dev, "config access 0x%x+0x%x out of bounds\n",
			off, len);
		return NULL;
	}
	return (u8 *)&rsc->vring[a->num_vrings] + off;
}

static void ampsoc_rproc_get(struct virtio_device *vdev, unsigned int off, void *buf,
			     unsigned int len)
{
	u8 *cfg = ampsoc_rproc_config(vdev, off, len);

	if (cfg)
		memcpy(buf, cfg, len);
	else
		memset(buf, 0, len);
}

static void ampsoc_rproc_set(struct virtio_device *vdev, unsigned int off,
			     const void *buf, unsigned int len)
{
	u8 *cfg = ampsoc_rproc_config(vdev, off, len);

	if (cfg)
		memcpy(cfg, buf, len);
}

/* Physically contiguous memory: its physical address, or NO_PA. */
static phys_addr_t ampsoc_rproc_contiguous_pa(void *va, dma_addr_t dma, size_t len)
{
	phys_addr_t pa;
	size_t off;

	if (!va)
		return dma;
	if (!is_vmalloc_addr(va))
		return virt_addr_valid(va) ? virt_to_phys(va) :
					     AMPSOC_RPROC_NO_PA;
	pa = ampsoc_rproc_va_to_pa(va);
	for (off = PAGE_SIZE - offset_in_page(va); off < len; off += PAGE_SIZE)
		if (ampsoc_rproc_va_to_pa(va + off) != pa + off)
			return AMPSOC_RPROC_NO_PA;
	return pa;
}

/*
 * Shared memory region 0: the memory rpmsg's buffers must live in, with a
 * physical address for the descriptors. Mainline gives a "vdev<N>buffer"
 * carveout to dma_declare_coherent_memory(); ampsoc offers it here. Without
 * one, declared memory gives one 512-byte buffer per vring entry, and with
 * no declared memory either there is no region and the driver allocates
 * from the DMA API on the intermediate device, as mainline's does.
 */
static bool ampsoc_rproc_get_shm_region(struct virtio_device *vdev,
					struct virtio_shm_region *region, u8 id)
{
	struct ampsoc_rproc_rvdev *a = vdev_to_ampsoc_rproc_rvdev(vdev);
	struct rproc *rproc = a->rvdev.rproc;
	struct rproc_mem_entry *mem;
	char name[32];
	size_t len = 0;
	unsigned int i;

	if (id != 0)
		return false;
	if (!a->shm_len) {
		snprintf(name, sizeof(name), "vdev%dbuffer", a->rvdev.index);
		mem = ampsoc_rproc_find_carveout(rproc, name);
		if (mem && (mem->va || mem->dma)) {
			a->shm_pa = ampsoc_rproc_contiguous_pa(mem->va, mem->dma,
							       mem->len);
			a->shm_len = mem->len;
		} else if (!mem && !ampsoc_rproc_pool_empty(rproc)) {
			for (i = 0; i < a->num_vrings; i++)
				len += a->rvdev.vring[i].num * AMPSOC_RPROC_VDEV_BUF_SIZE;
			len = PAGE_ALIGN(len);
			a->shm_va = ampsoc_rproc_pool_alloc(rproc, &a->shm_da, len,
							    PAGE_SIZE, &a->shm_pa);
			if (!a->shm_va)
				return false;
			memset(a->shm_va, 0, len);
			a->shm_len = len;
		}
	}
	if (!a->shm_len || a->shm_pa == AMPSOC_RPROC_NO_PA)
		return false;
	region->addr = a->shm_pa;
	region->len = a->shm_len;
	return true;
}

static const struct virtio_config_ops ampsoc_rproc_virtio_ops = {
	.get = ampsoc_rproc_get,
	.set = ampsoc_rproc_set,
	.get_status = ampsoc_rproc_get_status,
	.set_status = ampsoc_rproc_set_status,
	.reset = ampsoc_rproc_reset,
	.find_vqs = ampsoc_rproc_find_vqs,
	.del_vqs = ampsoc_rproc_del_vqs,
	.get_features = ampsoc_rproc_get_features,
	.finalize_features = ampsoc_rproc_finalize_features,
	.get_shm_region = ampsoc_rproc_get_shm_region,
};

static void ampsoc_rproc_virtio_dev_release(struct device *dev)
{
	struct virtio_device *vdev = dev_to_virtio(dev);
	struct device *parent = vdev->dev.parent;

	kfree(vdev);
	put_device(parent);
}

static int ampsoc_rproc_vdev_start(struct rproc_subdev *subdev)
{
	struct rproc_vdev *rvdev = container_of(subdev, struct rproc_vdev,
						subdev);
	struct ampsoc_rproc_rvdev *a = to_ampsoc_rproc_rvdev(rvdev);
	struct rproc *rproc = rvdev->rproc;
	struct device *dev = &a->dev;
	struct rproc_mem_entry *mem;
	struct virtio_device *vdev;
	char name[32];
	int ret;

	if (!rproc->ops->kick) {
		dev_err(&rproc->dev, ".kick method not defined for %s\n",
			rproc->name);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "vdev%dbuffer", rvdev->index);
	mem = ampsoc_rproc_find_carveout(rproc, name);
	if (mem && mem->of_resm_idx != -1) {
		/* Reserved memory needs a device tree: fails without one. */
		ret = of_reserved_mem_device_init_by_idx(dev,
							 rproc->dev.parent->of_node,
							 mem->of_resm_idx);
		if (ret) {
			dev_err(&rproc->dev, "%s: can't associate reserved memory\n",
				dev_name(dev));
			return ret;
		}
	}
	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return -ENOMEM;
	vdev->id.device = rvdev->id;
	vdev->config = &ampsoc_rproc_virtio_ops;
	vdev->dev.parent = dev;
	vdev->dev.release = ampsoc_rproc_virtio_dev_release;
	/* The virtio device keeps its parent, with the vrings, alive. */
	get_device(dev);
	ret = register_virtio_device(vdev);
	if (ret) {
		put_device(&vdev->dev);
		dev_err(&rproc->dev, "failed to register vdev: %d\n", ret);
		return ret;
	}
	a->vdev = vdev;
	dev_info(&rproc->dev, "%s: registered %s (type %d)\n", dev_name(dev),
		 dev_name(&vdev->dev), rvdev->id);
	return 0;
}

static void ampsoc_rproc_vdev_stop(struct rproc_subdev *subdev, bool crashed)
{
	struct rproc_vdev *rvdev = container_of(subdev, struct rproc_vdev,
						subdev);
	struct ampsoc_rproc_rvdev *a = to_ampsoc_rproc_rvdev(rvdev);

	if (!a->vdev)
		return;
	unregister_virtio_device(a->vdev);
	a->vdev = NULL;
}

static void ampsoc_rproc_rvdev_release(struct device *dev)
{
	struct ampsoc_rproc_rvdev *a = container_of(dev, struct ampsoc_rproc_rvdev, dev);

	kfree(dev->dma_range_map);
	ida_free(&ampsoc_rproc_vdev_ida, a->dev_id);
	kfree(a);
}

/* The intermediate device takes the platform device's DMA configuration. */
static int ampsoc_rproc_rvdev_dma(struct device *dev, struct device *from)
{
	const struct bus_dma_region *map = from->dma_range_map, *r;
	int n = 0;

	if (map) {
		for (r = map; r->size; r++)
			n++;
		dev->dma_range_map = kmemdup(map, array_size(n + 1, sizeof(*map)),
					     GFP_KERNEL);
		if (!dev->dma_range_map)
			return -ENOMEM;
	}
	set_dma_ops(dev, get_dma_ops(from));
	if (dma_coerce_mask_and_coherent(dev, dma_get_mask(from)))
		dev_warn(dev, "Failed to set DMA mask %llx. Trying to continue...\n",
			 dma_get_mask(from));
	return 0;
}

static int ampsoc_rproc_alloc_vring(struct rproc_vdev *rvdev, struct fw_rsc_vdev *rsc,
				    int i)
{
	struct rproc *rproc = rvdev->rproc;
	struct rproc_vring *rvring = &rvdev->vring[i];
	struct rproc_mem_entry *mem;
	char name[32];
	size_t size;
	int ret;

	size = PAGE_ALIGN(vring_size(rvring->num, rvring->align));
	snprintf(name, sizeof(name), "vdev%dvring%d", rvdev->index, i);
	mem = ampsoc_rproc_find_carveout(rproc, name);
	if (mem) {
		if (ampsoc_rproc_check_carveout_da(rproc, mem, rsc->vring[i].da, size))
			return -ENOMEM;
	} else {
		mem = ampsoc_rproc_mem_entry_init(&rproc->dev, NULL, 0, size,
						  rsc->vring[i].da,
						  ampsoc_rproc_alloc_vring_carveout,
						  ampsoc_rproc_release_carveout, "%s",
						  name);
		if (!mem)
			return -ENOMEM;
		mem->priv = rvring;
		ampsoc_rproc_add_carveout(rproc, mem);
	}
	ret = idr_alloc(&rproc->notifyids, rvring, 0, 0, GFP_KERNEL);
	if (ret < 0)
		return ret;
	rvring->notifyid = ret;
	rproc->max_notifyid = max(rproc->max_notifyid, ret);
	rsc->vring[i].notifyid = ret;
	return 0;
}

static void ampsoc_rproc_free_vring(struct rproc_vring *rvring)
{
	struct rproc *rproc = rvring->rvdev->rproc;
	int idx = rvring - rvring->rvdev->vring;
	struct fw_rsc_vdev *rsc;

	if (rvring->notifyid < 0)
		return;
	idr_remove(&rproc->notifyids, rvring->notifyid);
	rvring->notifyid = -1;
	/* The cached copy of the table, if any, forgets the ring. */
	if (rproc->table_ptr) {
		rsc = ampsoc_rproc_rsc(rvring->rvdev);
		rsc->vring[idx].da = 0;
		rsc->vring[idx].notifyid = -1;
	}
}

/**
 * ampsoc_rproc_handle_vdev() - handle a vdev resource (mainline's rproc_handle_vdev)
 * @rproc: the processor
 * @ptr: the resource
 * @offset: its offset in the table
 * @avail: bytes available from @ptr
 *
 * Context: Process context, rproc->lock held.
 * Return: 0, -EINVAL for a malformed entry, -ENOMEM, or an errno of the
 * vring setup (reason recorded).
 */
int ampsoc_rproc_handle_vdev(struct rproc *rproc, void *ptr, int offset, int avail)
{
	struct fw_rsc_vdev *rsc = ptr;
	struct rproc_vdev *rvdev;
	struct ampsoc_rproc_rvdev *a;
	unsigned int i, n;
	int ret;

	if (avail < (int)sizeof(*rsc)) {
		ampsoc_rproc_reason(rproc, "vdev resource is truncated");
		return -EINVAL;
	}
	n = rsc->num_of_vrings;
	if (size_add(struct_size(rsc, vring, n), rsc->config_len) > avail) {
		ampsoc_rproc_reason(rproc, "vdev resource is truncated");
		return -EINVAL;
	}
	if (rsc->reserved[0] || rsc->reserved[1]) {
		ampsoc_rproc_reason(rproc, "vdev resource has non-zero reserved bytes");
		return -EINVAL;
	}
	if (n > RVDEV_NUM_VRINGS) {
		ampsoc_rproc_reason(rproc, "vdev resource has %u vrings", n);
		return -EINVAL;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->dev_id = ida_alloc(&ampsoc_rproc_vdev_ida, GFP_KERNEL);
	if (a->dev_id < 0) {
		ret = a->dev_id;
		kfree(a);
		return ret;
	}
	rvdev = &a->rvdev;
	rvdev->id = rsc->id;
	rvdev->rproc = rproc;
	rvdev->index = rproc->nb_vdev++;
	rvdev->rsc_offset = offset;
	a->num_vrings = n;
	a->config_len = rsc->config_len;
	for (i = 0; i < RVDEV_NUM_VRINGS; i++) {
		rvdev->vring[i].rvdev = rvdev;
		rvdev->vring[i].notifyid = -1;
	}
	device_initialize(&a->dev);
	a->dev.parent = &rproc->dev;
	a->dev.release = ampsoc_rproc_rvdev_release;
	ret = dev_set_name(&a->dev, "rproc-virtio.%d.auto", a->dev_id);
	if (!ret)
		ret = ampsoc_rproc_rvdev_dma(&a->dev, rproc->dev.parent);
	if (ret)
		goto err_put;

	for (i = 0; i < n; i++) {
		if (!rsc->vring[i].num || !rsc->vring[i].align) {
			ampsoc_rproc_reason(rproc, "vdev %u vring %u has size %u and alignment %u",
					    rvdev->index, i, rsc->vring[i].num,
				   rsc->vring[i].align);
			ret = -EINVAL;
			goto err_put;
		}
		rvdev->vring[i].num = rsc->vring[i].num;
		rvdev->vring[i].align = rsc->vring[i].align;
	}
	for (i = 0; i < n; i++) {
		ret = ampsoc_rproc_alloc_vring(rvdev, rsc, i);
		if (ret)
			goto err_vrings;
	}
	ret = device_add(&a->dev);
	if (ret)
		goto err_vrings;
	list_add_tail(&rvdev->node, &rproc->rvdevs);
	rvdev->subdev.start = ampsoc_rproc_vdev_start;
	rvdev->subdev.stop = ampsoc_rproc_vdev_stop;
	ampsoc_rproc_add_subdev(rproc, &rvdev->subdev);
	return 0;

err_vrings:
	for (i = 0; i < n; i++)
		ampsoc_rproc_free_vring(&rvdev->vring[i]);
err_put:
	put_device(&a->dev);
	return ret;
}

/**
 * ampsoc_rproc_remove_rvdev() - release a vdev (mainline's rproc_virtio_remove)
 * @rvdev: the vdev, its virtio device already unregistered
 *
 * Context: Process context, rproc->lock held.
 */
void ampsoc_rproc_remove_rvdev(struct rproc_vdev *rvdev)
{
	struct ampsoc_rproc_rvdev *a = to_ampsoc_rproc_rvdev(rvdev);
	struct rproc *rproc = rvdev->rproc;
	unsigned int i;

	for (i = 0; i < RVDEV_NUM_VRINGS; i++)
		ampsoc_rproc_free_vring(&rvdev->vring[i]);
	ampsoc_rproc_remove_subdev(rproc, &rvdev->subdev);
	list_del(&rvdev->node);
	/* ampsoc_rproc_vq_interrupt() may still look at the vrings */
	synchronize_srcu(&rproc->ampsoc->vq_srcu);
	if (a->shm_va)
		ampsoc_rproc_pool_release(rproc, a->shm_da);
	device_unregister(&a->dev);
}

/**
 * ampsoc_rproc_virtio_exit() - module exit of the virtio glue
 *
 * Context: Module exit.
 */
void ampsoc_rproc_virtio_exit(void)
{
	ida_destroy(&ampsoc_rproc_vdev_ida);
}

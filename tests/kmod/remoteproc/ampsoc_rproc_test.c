// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of the ampsoc remoteproc framework on fake remote processors
 * (ampsoc_rproc_fake), with the firmware images of
 * tests/fuzz/remoteproc/rproc_fwgen.c from /lib/firmware.
 *
 * Every case gets a fresh processor in a fresh pair of PM domains (a child
 * domain under a parent), so the cases are independent.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/elf.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vmalloc.h>
#include <linux/scatterlist.h>

#include <ampsoc/ktap.h>
#include <ampsoc/pm_domain.h>

#include "fake.h"

#define TEST_DEV_ID	100

struct tsub {
	struct ampsoc_rproc_subdev sd;
	int prepared, started, stopped, unprepared;
	bool last_crashed;
	char log[64];
};

struct tctx {
	struct platform_device *pdev;
	struct ampsoc_rproc_fake *fake;
	struct ampsoc_rproc *rproc;
	struct ampsoc_pd parent, child;
	int parent_on, child_on, order, parent_on_at, child_on_at;
	struct tsub sub;
	bool sub_added;
};

static struct tctx *pd_to_ctx(struct ampsoc_pd *pd, bool is_parent)
{
	return is_parent ? container_of(pd, struct tctx, parent) :
			   container_of(pd, struct tctx, child);
}

static int parent_power_on(struct ampsoc_pd *pd)
{
	struct tctx *c = pd_to_ctx(pd, true);

	c->parent_on = 1;
	c->parent_on_at = ++c->order;
	return 0;
}

static int parent_power_off(struct ampsoc_pd *pd)
{
	pd_to_ctx(pd, true)->parent_on = 0;
	return 0;
}

static int child_power_on(struct ampsoc_pd *pd)
{
	struct tctx *c = pd_to_ctx(pd, false);

	c->child_on = 1;
	c->child_on_at = ++c->order;
	return 0;
}

static int child_power_off(struct ampsoc_pd *pd)
{
	pd_to_ctx(pd, false)->child_on = 0;
	return 0;
}

static void tsub_log(struct tsub *s, char ch)
{
	size_t n = strlen(s->log);

	if (n + 1 < sizeof(s->log))
		s->log[n] = ch;
}

static int tsub_prepare(struct ampsoc_rproc_subdev *sd)
{
	struct tsub *s = container_of(sd, struct tsub, sd);

	s->prepared++;
	tsub_log(s, 'p');
	return 0;
}

static int tsub_start(struct ampsoc_rproc_subdev *sd)
{
	struct tsub *s = container_of(sd, struct tsub, sd);

	s->started++;
	tsub_log(s, 's');
	return 0;
}

static void tsub_stop(struct ampsoc_rproc_subdev *sd, bool crashed)
{
	struct tsub *s = container_of(sd, struct tsub, sd);

	s->stopped++;
	s->last_crashed = crashed;
	tsub_log(s, crashed ? 'C' : 'S');
}

static void tsub_unprepare(struct ampsoc_rproc_subdev *sd)
{
	struct tsub *s = container_of(sd, struct tsub, sd);

	s->unprepared++;
	tsub_log(s, 'u');
}

static int ctx_init(struct ampsoc_ktap_test *t)
{
	static const struct ampsoc_rproc_fake_pdata pdata = {
		.elf_class = ELFCLASS64,
		.machine = EM_X86_64,
	};
	struct tctx *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	t->priv = c;
	c->parent.name = "rproc_test_parent";
	c->parent.power_on = parent_power_on;
	c->parent.power_off = parent_power_off;
	c->child.name = "rproc_test_child";
	c->child.power_on = child_power_on;
	c->child.power_off = child_power_off;
	ret = ampsoc_pd_init(&c->parent, NULL, true);
	if (ret)
		goto err_free;
	ret = ampsoc_pd_init(&c->child, NULL, true);
	if (ret)
		goto err_parent;
	ret = ampsoc_pd_add_subdomain(&c->parent, &c->child);
	if (ret)
		goto err_child;

	c->pdev = platform_device_alloc(AMPSOC_RPROC_FAKE_DRV, TEST_DEV_ID);
	if (!c->pdev) {
		ret = -ENOMEM;
		goto err_sub;
	}
	ret = platform_device_add_data(c->pdev, &pdata, sizeof(pdata));
	if (ret)
		goto err_put;
	/* Keep the driver away until the device is in its domain. */
	c->pdev->driver_override = kstrdup("none", GFP_KERNEL);
	ret = platform_device_add(c->pdev);
	if (ret)
		goto err_put;
	ret = ampsoc_pd_add_device(&c->child, &c->pdev->dev);
	if (ret)
		goto err_del;
	kfree(c->pdev->driver_override);
	c->pdev->driver_override = NULL;
	ret = device_attach(&c->pdev->dev);
	if (ret != 1) {
		ret = ret < 0 ? ret : -ENODEV;
		goto err_pd_dev;
	}
	c->fake = platform_get_drvdata(c->pdev);
	c->rproc = c->fake->rproc;
	/*
	 * The domains came on when the device was added (runtime PM was not
	 * enabled yet); one runtime resume/suspend cycle lets them go off.
	 */
	pm_runtime_get_sync(&c->pdev->dev);
	pm_runtime_put_sync(&c->pdev->dev);
	flush_work(&c->parent.power_off_work);
	c->order = 0;
	c->parent_on_at = 0;
	c->child_on_at = 0;

	c->sub.sd.prepare = tsub_prepare;
	c->sub.sd.start = tsub_start;
	c->sub.sd.stop = tsub_stop;
	c->sub.sd.unprepare = tsub_unprepare;
	ampsoc_rproc_add_subdev(c->rproc, &c->sub.sd);
	c->sub_added = true;
	return 0;

err_pd_dev:
	ampsoc_pd_remove_device(&c->pdev->dev);
err_del:
	platform_device_unregister(c->pdev);
	goto err_sub;
err_put:
	platform_device_put(c->pdev);
err_sub:
	ampsoc_pd_remove_subdomain(&c->parent, &c->child);
err_child:
	ampsoc_pd_remove(&c->child);
err_parent:
	ampsoc_pd_remove(&c->parent);
err_free:
	kfree(c);
	t->priv = NULL;
	return ret;
}

static void ctx_exit(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!c)
		return;
	if (c->sub_added)
		ampsoc_rproc_remove_subdev(c->rproc, &c->sub.sd);
	device_release_driver(&c->pdev->dev);
	ampsoc_pd_remove_device(&c->pdev->dev);
	platform_device_unregister(c->pdev);
	ampsoc_pd_remove_subdomain(&c->parent, &c->child);
	if (ampsoc_pd_remove(&c->child))
		ampsoc_ktap_fail(t, "child domain not removable");
	if (ampsoc_pd_remove(&c->parent))
		ampsoc_ktap_fail(t, "parent domain not removable");
	kfree(c);
}

static void *mem_at(struct tctx *c, u64 da)
{
	return c->fake->mem + (da - FWGEN_MEM_DA);
}

static bool runtime_suspended(struct tctx *c)
{
	return pm_runtime_suspended(&c->pdev->dev) && !c->fake->powered;
}

/* ---- boot ----------------------------------------------------------- */

static void boot_and_shutdown(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT(t, c->fake->running);
	KTAP_EXPECT_EQ(t, c->rproc->bootaddr, FWGEN_TEXT_DA);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	KTAP_EXPECT(t, !c->fake->running);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), -EINVAL);
}

static void segments_loaded(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const u8 *text = mem_at(c, FWGEN_TEXT_DA);
	unsigned int i, bad = 0;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, !memcmp(text, FWGEN_TEXT_MAGIC, 8));
	for (i = 8; i < 0x100; i++)
		bad += text[i] != (u8)(i * 7 + 1);
	KTAP_EXPECT_EQ(t, bad, 0);
	/* memsz beyond filesz is zeroed (memory was 0xa5) */
	for (bad = 0, i = 0x100; i < 0x1000; i++)
		bad += text[i] != 0;
	KTAP_EXPECT_EQ(t, bad, 0);
	/* beyond the segments and carveouts memory is untouched */
	KTAP_EXPECT_EQ(t, *(u8 *)mem_at(c, FWGEN_MEM_DA + FWGEN_MEM_SIZE - 1),
		       0xa5);
	ampsoc_rproc_shutdown(c->rproc);
}

static const void *find_rsc(const struct ampsoc_rsc_table *tb, u32 type,
			    unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < tb->num; i++) {
		const struct ampsoc_rsc_hdr *h = (const void *)tb + tb->offset[i];

		if (h->type == type && !nth--)
			return h->data;
	}
	return NULL;
}

static void addresses_written_back(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct ampsoc_rsc_table *tb = mem_at(c, FWGEN_DATA_DA);
	const struct ampsoc_rsc_carveout *heap;
	const struct ampsoc_rsc_vdev *vd;
	unsigned int i;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, c->rproc->table_ptr == tb);
	heap = find_rsc(tb, AMPSOC_RSC_CARVEOUT, 1);
	vd = find_rsc(tb, AMPSOC_RSC_VDEV, 0);
	if (!KTAP_EXPECT(t, heap && vd))
		return;
	KTAP_EXPECT(t, heap->da != AMPSOC_FW_RSC_ADDR_ANY);
	KTAP_EXPECT(t, heap->da >= FWGEN_MEM_DA);
	KTAP_EXPECT(t, heap->da + heap->len <= FWGEN_MEM_DA + FWGEN_MEM_SIZE);
	/* allocations stay clear of the segments */
	KTAP_EXPECT(t, heap->da >= FWGEN_DATA_DA + 0x1000);
	/* vmalloc memory has no physical address to give */
	KTAP_EXPECT_EQ(t, heap->pa, AMPSOC_FW_RSC_ADDR_ANY);
	for (i = 0; i < vd->num_of_vrings; i++) {
		const struct ampsoc_rsc_vring *r = &vd->vring[i];

		KTAP_EXPECT(t, r->da != AMPSOC_FW_RSC_ADDR_ANY);
		bool clear = r->da + 0x2000 <= heap->da ||
			     heap->da + heap->len <= r->da;

		KTAP_EXPECT(t, r->da >= FWGEN_MEM_DA);
		KTAP_EXPECT(t, r->da < FWGEN_MEM_DA + FWGEN_MEM_SIZE);
		KTAP_EXPECT(t, clear);
		KTAP_EXPECT_EQ(t, r->notifyid, i);
	}
	KTAP_EXPECT(t, vd->vring[0].da != vd->vring[1].da);
	ampsoc_rproc_shutdown(c->rproc);
}

static void trace_buffer_written(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const char *trace = mem_at(c, FWGEN_TRACE_DA);

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, strnstr(trace, "booted ampsoc-rproc-fake.elf at 0x10000000 (boot 1)",
			       FWGEN_TRACE_LEN));
	ampsoc_rproc_shutdown(c->rproc);
}

static void refcount_nested(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
}

static void get_put_first_and_last(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_get(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_get(c->rproc), 0))
		return;
	ampsoc_rproc_put(c->rproc);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	ampsoc_rproc_put(c->rproc);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
}

static void subdevices_follow(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, !strcmp(c->sub.log, "ps"));
	ampsoc_rproc_shutdown(c->rproc);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psSu"));
	KTAP_EXPECT(t, !c->sub.last_crashed);
}

static void start_failure_unwinds(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->fake->fail_start = EIO;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), -EIO);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "pu"));
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	c->fake->fail_start = 0;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
}

static void elf32_on_any_processor(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc,
						    FWGEN_GOOD32_NAME), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), -ENOEXEC);
	c->rproc->elf_class = 0;
	c->rproc->elf_machine = 0;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	ampsoc_rproc_shutdown(c->rproc);
}

/* Children of a processor on the virtio bus: all, and those with id @want. */
struct vfind {
	u32 want;
	struct virtio_device *vdev;
	int count;
	int total;
};

static int find_virtio(struct device *dev, void *data)
{
	struct vfind *f = data;

	if (!is_virtio_device(dev))
		return 0;
	f->total++;
	if (dev_to_virtio(dev)->id.device == f->want) {
		f->vdev = dev_to_virtio(dev);
		f->count++;
	}
	return 0;
}

/* A virtio driver for the test firmware's second vdev. */
static struct {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	int probes;
	int removes;
	bool cb_irqs_disabled;
	struct completion cb;
} tv;

static void tv_callback(struct virtqueue *vq)
{
	tv.cb_irqs_disabled = irqs_disabled();
	complete(&tv.cb);
}

static int tv_probe(struct virtio_device *vdev)
{
	static const char * const names[] = { "test" };
	vq_callback_t *cbs[] = { tv_callback };
	struct virtqueue *vqs[1];
	int ret;

	ret = virtio_find_vqs(vdev, 1, vqs, cbs, names, NULL);
	if (ret)
		return ret;
	tv.vq = vqs[0];
	tv.vdev = vdev;
	tv.probes++;
	virtio_device_ready(vdev);
	return 0;
}

static void tv_remove(struct virtio_device *vdev)
{
	virtio_reset_device(vdev);
	vdev->config->del_vqs(vdev);
	tv.vq = NULL;
	tv.vdev = NULL;
	tv.removes++;
}

static const struct virtio_device_id tv_ids[] = {
	{ FWGEN_TEST_VDEV_ID, VIRTIO_DEV_ANY_ID },
	{ 0 },
};

static bool tv_registered;

static struct virtio_driver tv_driver = {
	.driver.name = "ampsoc_rproc_test_vdev",
	.id_table = tv_ids,
	.probe = tv_probe,
	.remove = tv_remove,
};

static void vdev_becomes_virtio_device(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct vfind f = { .want = FWGEN_VDEV_ID };
	u8 cfg[8];

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	device_for_each_child(&c->rproc->dev, &f, find_virtio);
	KTAP_EXPECT_EQ(t, f.total, 2);
	if (!KTAP_EXPECT_EQ(t, f.count, 1))
		return;
	KTAP_EXPECT_EQ(t, f.vdev->id.device, FWGEN_VDEV_ID);
	KTAP_EXPECT(t, ampsoc_rproc_from_vdev(f.vdev) == c->rproc);
	/* dfeatures, plus VIRTIO_F_VERSION_1 on this little-endian host */
	KTAP_EXPECT_EQ(t, f.vdev->config->get_features(f.vdev),
		       1 | BIT_ULL(VIRTIO_F_VERSION_1));
	f.vdev->config->get(f.vdev, 0, cfg, sizeof(cfg));
	KTAP_EXPECT(t, cfg[0] == 1 && cfg[7] == 8);
	/* an access beyond the config space reads zeros, never beyond */
	f.vdev->config->get(f.vdev, 4, cfg, sizeof(cfg));
	KTAP_EXPECT(t, cfg[0] == 0);
	/* an unknown notify id (the remote controls it) is ignored */
	KTAP_EXPECT_EQ(t, ampsoc_rproc_vq_interrupt(c->rproc, 1234), IRQ_NONE);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_vq_interrupt(c->rproc, 0), IRQ_NONE);
	ampsoc_rproc_shutdown(c->rproc);
	f.total = 0;
	device_for_each_child(&c->rproc->dev, &f, find_virtio);
	KTAP_EXPECT_EQ(t, f.total, 0);
}

static void vdev_buffers_in_device_memory(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct vfind f = { .want = FWGEN_VDEV_ID };
	struct virtio_shm_region region;
	phys_addr_t pa;
	void *a, *b;
	u64 da, db;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	device_for_each_child(&c->rproc->dev, &f, find_virtio);
	if (!KTAP_EXPECT_EQ(t, f.count, 1))
		return;
	a = ampsoc_rproc_vdev_alloc(f.vdev, 0x10000, &da, &pa);
	b = ampsoc_rproc_vdev_alloc(f.vdev, 0x10000, &db, &pa);
	KTAP_EXPECT(t, a && b);
	KTAP_EXPECT(t, a == mem_at(c, da) && b == mem_at(c, db));
	KTAP_EXPECT(t, da + 0x10000 <= db || db + 0x10000 <= da);
	KTAP_EXPECT(t, !ampsoc_rproc_vdev_alloc(f.vdev, 2 * FWGEN_MEM_SIZE,
						&da, &pa));
	/* vmalloc'd memory has no physical address to offer as a region */
	KTAP_EXPECT(t, !virtio_get_shm_region(f.vdev, &region, 0));
	ampsoc_rproc_vdev_free(f.vdev, a);
	/* b is released with the processor's resources */
	ampsoc_rproc_shutdown(c->rproc);
}

/*
 * One buffer through a virtqueue, with the test playing the remote: the
 * kick reaches the platform with the vring's notify id, the descriptor
 * holds the buffer, and a used entry plus ampsoc_rproc_vq_interrupt() run
 * the driver's callback and hand the buffer back.
 */
static void virtio_datapath(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct ampsoc_rsc_vdev *rsc;
	struct scatterlist sg;
	struct vring vr;
	unsigned int len = 0, kicks;
	u16 head;
	void *buf;
	u64 bda;
	phys_addr_t pa;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	rsc = find_rsc(c->rproc->table_ptr, AMPSOC_RSC_VDEV, 1);
	if (!KTAP_EXPECT(t, tv.vq && rsc))
		goto out;
	KTAP_EXPECT(t, rsc->status & VIRTIO_CONFIG_S_DRIVER_OK);
	buf = ampsoc_rproc_vdev_alloc(tv.vdev, 256, &bda, &pa);
	if (!KTAP_EXPECT(t, buf))
		goto out;
	sg_init_table(&sg, 1);
	sg_set_page(&sg, vmalloc_to_page(buf), 64, offset_in_page(buf));
	KTAP_EXPECT_EQ(t, virtqueue_add_inbuf(tv.vq, &sg, 1, buf, GFP_KERNEL),
		       0);
	kicks = atomic_read(&c->fake->kicks);
	KTAP_EXPECT(t, virtqueue_kick(tv.vq));
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->kicks), kicks + 1);
	KTAP_EXPECT_EQ(t, c->fake->last_kick, rsc->vring[0].notifyid);

	vring_init(&vr, FWGEN_TEST_VRING_NUM, mem_at(c, rsc->vring[0].da),
		   rsc->vring[0].align);
	KTAP_EXPECT_EQ(t, virtio16_to_cpu(tv.vdev, vr.avail->idx), 1);
	head = virtio16_to_cpu(tv.vdev, vr.avail->ring[0]);
	if (!KTAP_EXPECT(t, head < FWGEN_TEST_VRING_NUM))
		goto out_buf;
	KTAP_EXPECT_EQ(t, virtio64_to_cpu(tv.vdev, vr.desc[head].addr),
		       page_to_phys(vmalloc_to_page(buf)) + offset_in_page(buf));
	KTAP_EXPECT_EQ(t, virtio32_to_cpu(tv.vdev, vr.desc[head].len), 64);
	KTAP_EXPECT(t, virtio16_to_cpu(tv.vdev, vr.desc[head].flags) &
		       VRING_DESC_F_WRITE);

	vr.used->ring[0].id = cpu_to_virtio32(tv.vdev, head);
	vr.used->ring[0].len = cpu_to_virtio32(tv.vdev, 48);
	/* the entry before the index, as a remote must publish it */
	smp_wmb();
	vr.used->idx = cpu_to_virtio16(tv.vdev, 1);
	reinit_completion(&tv.cb);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_vq_interrupt(c->rproc,
						    rsc->vring[0].notifyid),
		       IRQ_HANDLED);
	KTAP_EXPECT(t, completion_done(&tv.cb));
	/* the callback ran in our (process) context, no spinlock held */
	KTAP_EXPECT(t, !tv.cb_irqs_disabled);
	KTAP_EXPECT(t, virtqueue_get_buf(tv.vq, &len) == buf);
	KTAP_EXPECT_EQ(t, len, 48);
	/* nothing more used: the interrupt is not ours */
	KTAP_EXPECT_EQ(t, ampsoc_rproc_vq_interrupt(c->rproc,
						    rsc->vring[0].notifyid),
		       IRQ_NONE);
out_buf:
	ampsoc_rproc_vdev_free(tv.vdev, buf);
out:
	ampsoc_rproc_shutdown(c->rproc);
	KTAP_EXPECT(t, !tv.vq);
}

/* ---- runtime PM and PM domains ---------------------------------------- */

static void domain_on_exactly_while_running(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on && !c->parent_on);
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, c->fake->powered_at_start);
	KTAP_EXPECT(t, c->child_on && c->parent_on);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&c->child));
	/* parents first */
	KTAP_EXPECT(t, c->parent_on_at < c->child_on_at);
	KTAP_EXPECT(t, pm_runtime_active(&c->pdev->dev));
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	flush_work(&c->parent.power_off_work);
	KTAP_EXPECT(t, !c->parent_on);
}

/* ---- bad input -------------------------------------------------------- */

static void run_bad(struct ampsoc_ktap_test *t, const char *name, int err)
{
	struct tctx *c = t->priv;
	int ret;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc, name), 0))
		return;
	ret = ampsoc_rproc_boot(c->rproc);
	KTAP_EXPECT_EQ(t, ret, err);
	if (!ret)
		ampsoc_rproc_shutdown(c->rproc);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	KTAP_EXPECT(t, !c->rproc->table_ptr && !c->rproc->cached_table);
	/* a correct firmware boots afterwards */
	ret = ampsoc_rproc_set_firmware(c->rproc, FWGEN_GOOD64_NAME);
	if (!KTAP_EXPECT_EQ(t, ret, 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
}

#define BADFW(name, e, stage)						\
	static void rejects_##name(struct ampsoc_ktap_test *t)		\
	{								\
		run_bad(t, "ampsoc-rproc-bad-" #name ".elf", -(e));	\
	}
#include "badfw_cases.h"
#undef BADFW

static void missing_firmware(struct ampsoc_ktap_test *t)
{
	run_bad(t, "ampsoc-rproc-no-such-file.elf", -ENOENT);
}

static void firmware_names_checked(struct ampsoc_ktap_test *t)
{
	static const char * const bad[] = {
		"", "\n", "../etc/shadow", "a/../b", "a/..", "..", "/lib/x",
		"two words", "tab\there", "ctl\x01", "x\ny",
	};
	struct tctx *c = t->priv;
	unsigned int i;
	char *long_name;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (ampsoc_rproc_set_firmware(c->rproc, bad[i]) != -EINVAL)
			ampsoc_ktap_fail(t, "name %u accepted", i);
	long_name = kmalloc(NAME_MAX + 2, GFP_KERNEL);
	if (!KTAP_EXPECT(t, long_name))
		return;
	memset(long_name, 'a', NAME_MAX + 1);
	long_name[NAME_MAX + 1] = '\0';
	KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc, long_name),
		       -EINVAL);
	kfree(long_name);
	KTAP_EXPECT(t, !strcmp(c->rproc->firmware, FWGEN_GOOD64_NAME));
	KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc, "sub/x..y.elf\n"),
		       0);
	KTAP_EXPECT(t, !strcmp(c->rproc->firmware, "sub/x..y.elf"));
	KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc,
						    FWGEN_GOOD64_NAME), 0);
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_set_firmware(c->rproc, "other.elf"),
		       -EBUSY);
	ampsoc_rproc_shutdown(c->rproc);
}

/* ---- crashes ---------------------------------------------------------- */

static void crash_recovers(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct vfind f = { .want = FWGEN_TEST_VDEV_ID };
	int probes, removes;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	probes = tv.probes;
	removes = tv.removes;
	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_work);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 2);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	/* subdevices were told it crashed, then restarted */
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psCups"));
	KTAP_EXPECT(t, c->sub.last_crashed);
	/* the virtio devices were removed and new ones registered */
	device_for_each_child(&c->rproc->dev, &f, find_virtio);
	KTAP_EXPECT_EQ(t, f.total, 2);
	KTAP_EXPECT_EQ(t, tv.removes, removes + 1);
	KTAP_EXPECT_EQ(t, tv.probes, probes + 1);
	KTAP_EXPECT(t, tv.vq);
	KTAP_EXPECT(t, strnstr(mem_at(c, FWGEN_TRACE_DA), "(boot 2)",
			       FWGEN_TRACE_LEN));
	/* power stays on through recovery; the user's reference survives */
	KTAP_EXPECT(t, c->child_on);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
}

static void recovery_disabled_stays_crashed(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->rproc->recovery_disabled = true;
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_MMUFAULT);
	flush_work(&c->rproc->crash_work);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_CRASHED);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 0);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "ps"));
	/* a second report while crashed is ignored */
	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_work);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	/* explicit recovery works even when automatic recovery is off */
	KTAP_EXPECT_EQ(t, ampsoc_rproc_trigger_recovery(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_trigger_recovery(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
}

static void shutdown_while_crashed(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->rproc->recovery_disabled = true;
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_FATAL_ERROR);
	flush_work(&c->rproc->crash_work);
	if (!KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_CRASHED))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psCu"));
	KTAP_EXPECT(t, runtime_suspended(c));
}

static void crash_while_offline_ignored(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_work);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 0);
}

static void failed_recovery_powers_off(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0))
		return;
	c->fake->fail_start = EIO;
	ampsoc_rproc_report_crash(c->rproc, AMPSOC_RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_work);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), -EINVAL);
	c->fake->fail_start = 0;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(c->rproc), 0);
}

/* ---- concurrency ------------------------------------------------------ */

#define USERS		4
#define USER_LOOPS	50

struct rp_user {
	struct tctx *c;
	struct completion done;
	int errors;
};

static int user_fn(void *data)
{
	struct rp_user *u = data;
	int i;

	for (i = 0; i < USER_LOOPS; i++) {
		if (ampsoc_rproc_get(u->c->rproc)) {
			u->errors++;
			continue;
		}
		/* while we hold it, it runs */
		if (READ_ONCE(u->c->rproc->state) != AMPSOC_RPROC_RUNNING ||
		    !READ_ONCE(u->c->fake->running))
			u->errors++;
		ampsoc_rproc_put(u->c->rproc);
	}
	complete(&u->done);
	return 0;
}

static void concurrent_users(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct rp_user *u;
	int i, errors = 0;

	u = kcalloc(USERS, sizeof(*u), GFP_KERNEL);
	if (!KTAP_EXPECT(t, u))
		return;
	for (i = 0; i < USERS; i++) {
		struct task_struct *k;

		u[i].c = c;
		init_completion(&u[i].done);
		k = kthread_run(user_fn, &u[i], "rproc_user%d", i);
		if (IS_ERR(k)) {
			u[i].errors = 1;
			complete(&u[i].done);
		}
	}
	for (i = 0; i < USERS; i++) {
		wait_for_completion(&u[i].done);
		errors += u[i].errors;
	}
	kfree(u);
	KTAP_EXPECT_EQ(t, errors, 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, c->rproc->power, 0);
	KTAP_EXPECT(t, atomic_read(&c->fake->starts) >= 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts),
		       atomic_read(&c->fake->stops));
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
}

/* ---- platform variants (no PM domain) -------------------------------- */

static struct platform_device *bare_fake(const struct ampsoc_rproc_fake_pdata *pd)
{
	struct platform_device *p;

	p = platform_device_register_data(NULL, AMPSOC_RPROC_FAKE_DRV,
					  TEST_DEV_ID + 1, pd, sizeof(*pd));
	if (IS_ERR(p))
		return NULL;
	if (!p->dev.driver) {
		platform_device_unregister(p);
		return NULL;
	}
	return p;
}

static void auto_boot_boots(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = {
		.elf_class = ELFCLASS64, .machine = EM_X86_64, .auto_boot = true,
	};
	struct platform_device *p = bare_fake(&pd);
	struct ampsoc_rproc_fake *fake;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	flush_work(&fake->rproc->boot_work);
	KTAP_EXPECT_EQ(t, fake->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(fake->rproc), 0);
	platform_device_unregister(p);
}

static void no_runtime_pm_still_boots(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .no_runtime_pm = true };
	struct platform_device *p = bare_fake(&pd);
	struct ampsoc_rproc_fake *fake;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	KTAP_EXPECT(t, !pm_runtime_enabled(&p->dev));
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(fake->rproc), 0);
	KTAP_EXPECT_EQ(t, fake->rproc->state, AMPSOC_RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(fake->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&p->dev.power.usage_count), 0);
	platform_device_unregister(p);
}

static void removal_while_running(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { 0 };
	struct platform_device *p = bare_fake(&pd);
	struct ampsoc_rproc_fake *fake;
	struct ampsoc_rproc *rproc;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	rproc = fake->rproc;
	/* keep the processor's memory (and fake, its private data) alive */
	get_device(&rproc->dev);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(rproc), 0);
	platform_device_unregister(p);
	/* stopped despite two users; later boots are refused */
	KTAP_EXPECT_EQ(t, rproc->state, AMPSOC_RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->stops), 1);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(rproc), -ENODEV);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(rproc), -EINVAL);
	put_device(&rproc->dev);
}

/* Physically contiguous memory: real addresses and an rpmsg buffer region. */
static void contiguous_memory_regions(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .contiguous = true };
	struct platform_device *p = bare_fake(&pd);
	struct vfind f = { .want = FWGEN_VDEV_ID };
	const struct ampsoc_rsc_carveout *heap;
	struct virtio_shm_region r = { 0 }, r2 = { 0 };
	struct ampsoc_rproc_fake *fake;
	phys_addr_t base;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	base = fake->mem_pa;
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_boot(fake->rproc), 0))
		goto out;
	heap = find_rsc(fake->rproc->table_ptr, AMPSOC_RSC_CARVEOUT, 1);
	KTAP_EXPECT(t, heap && heap->pa == base + (heap->da - FWGEN_MEM_DA));
	device_for_each_child(&fake->rproc->dev, &f, find_virtio);
	if (KTAP_EXPECT_EQ(t, f.count, 1)) {
		KTAP_EXPECT(t, virtio_get_shm_region(f.vdev, &r, 0));
		KTAP_EXPECT(t, r.addr >= base &&
			    r.addr + r.len <= base + fake->mem_size);
		KTAP_EXPECT_EQ(t, r.addr % PAGE_SIZE, 0);
		/* one 512-byte buffer per entry of its two 16-entry vrings */
		KTAP_EXPECT_EQ(t, r.len, 2 * FWGEN_VRING_NUM * 512);
		KTAP_EXPECT(t, virtio_get_shm_region(f.vdev, &r2, 0));
		KTAP_EXPECT(t, r2.addr == r.addr && r2.len == r.len);
		KTAP_EXPECT(t, !virtio_get_shm_region(f.vdev, &r2, 1));
	}
	KTAP_EXPECT_EQ(t, ampsoc_rproc_shutdown(fake->rproc), 0);
out:
	platform_device_unregister(p);
}

static const struct ampsoc_ktap_case platform_cases[] = {
	AMPSOC_KTAP_CASE(auto_boot_boots),
	AMPSOC_KTAP_CASE(contiguous_memory_regions),
	AMPSOC_KTAP_CASE(no_runtime_pm_still_boots),
	AMPSOC_KTAP_CASE(removal_while_running),
	{}
};

static const struct ampsoc_ktap_case boot_cases[] = {
	AMPSOC_KTAP_CASE(boot_and_shutdown),
	AMPSOC_KTAP_CASE(segments_loaded),
	AMPSOC_KTAP_CASE(addresses_written_back),
	AMPSOC_KTAP_CASE(trace_buffer_written),
	AMPSOC_KTAP_CASE(refcount_nested),
	AMPSOC_KTAP_CASE(get_put_first_and_last),
	AMPSOC_KTAP_CASE(subdevices_follow),
	AMPSOC_KTAP_CASE(start_failure_unwinds),
	AMPSOC_KTAP_CASE(elf32_on_any_processor),
	AMPSOC_KTAP_CASE(vdev_becomes_virtio_device),
	AMPSOC_KTAP_CASE(vdev_buffers_in_device_memory),
	AMPSOC_KTAP_CASE(virtio_datapath),
	AMPSOC_KTAP_CASE(domain_on_exactly_while_running),
	AMPSOC_KTAP_CASE(concurrent_users),
	{}
};

static const struct ampsoc_ktap_case badfw_cases[] = {
#define BADFW(name, e, stage) AMPSOC_KTAP_CASE(rejects_##name),
#include "badfw_cases.h"
#undef BADFW
	AMPSOC_KTAP_CASE(missing_firmware),
	AMPSOC_KTAP_CASE(firmware_names_checked),
	{}
};

static const struct ampsoc_ktap_case crash_cases[] = {
	AMPSOC_KTAP_CASE(crash_recovers),
	AMPSOC_KTAP_CASE(recovery_disabled_stays_crashed),
	AMPSOC_KTAP_CASE(shutdown_while_crashed),
	AMPSOC_KTAP_CASE(crash_while_offline_ignored),
	AMPSOC_KTAP_CASE(failed_recovery_powers_off),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "rproc_boot", .init = ctx_init, .exit = ctx_exit,
	  .cases = boot_cases },
	{ .name = "rproc_bad_firmware", .init = ctx_init, .exit = ctx_exit,
	  .cases = badfw_cases },
	{ .name = "rproc_crash", .init = ctx_init, .exit = ctx_exit,
	  .cases = crash_cases },
	{ .name = "rproc_platform", .cases = platform_cases },
};

static int __init rproc_test_init(void)
{
	/* The fake driver must be registered before the devices appear. */
	request_module("ampsoc_rproc_fake");
	init_completion(&tv.cb);
	tv_registered = !register_virtio_driver(&tv_driver);
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(rproc_test_init);

static void __exit rproc_test_exit(void)
{
	if (tv_registered)
		unregister_virtio_driver(&tv_driver);
	ampsoc_ktap_done();
}
module_exit(rproc_test_exit);

MODULE_DESCRIPTION("ampsoc remoteproc KTAP tests");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: ampsoc_rproc_fake");

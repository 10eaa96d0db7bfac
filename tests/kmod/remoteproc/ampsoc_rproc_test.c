// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of the ampsoc remoteproc framework against mainline 6.1's
 * contract, on fake remote processors (ampsoc_rproc_fake, a driver written
 * with mainline's API only, built through include/compat) and the firmware
 * images of tests/fuzz/remoteproc/rproc_fwgen.c from /lib/firmware. Where
 * ampsoc deliberately differs (docs/mainline-differences.md), the case
 * says so and pins ampsoc's behaviour.
 *
 * Every case of a suite gets a fresh processor in a fresh pair of PM
 * domains (a child domain under a parent), so the cases are independent.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/elf.h>
#include <linux/firmware.h>
#include <linux/kernfs.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/vmalloc.h>

#include <ampsoc/ktap.h>
#include <ampsoc/pm_domain.h>

#include "fake.h"

#define TEST_DEV_ID	100
#define WAIT_MS		10000

struct tsub {
	struct rproc_subdev sd;
	int fail_start;
	char log[64];
};

struct tctx {
	struct platform_device *pdev;
	struct ampsoc_rproc_fake *fake;
	struct rproc *rproc;
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

static int tsub_prepare(struct rproc_subdev *sd)
{
	tsub_log(container_of(sd, struct tsub, sd), 'p');
	return 0;
}

static int tsub_start(struct rproc_subdev *sd)
{
	struct tsub *s = container_of(sd, struct tsub, sd);

	if (s->fail_start)
		return -s->fail_start;
	tsub_log(s, 's');
	return 0;
}

static void tsub_stop(struct rproc_subdev *sd, bool crashed)
{
	tsub_log(container_of(sd, struct tsub, sd), crashed ? 'C' : 'S');
}

static void tsub_unprepare(struct rproc_subdev *sd)
{
	tsub_log(container_of(sd, struct tsub, sd), 'u');
}

static void tsub_init(struct tsub *s)
{
	memset(s, 0, sizeof(*s));
	s->sd.prepare = tsub_prepare;
	s->sd.start = tsub_start;
	s->sd.stop = tsub_stop;
	s->sd.unprepare = tsub_unprepare;
}

static int ctx_init_with(struct ampsoc_ktap_test *t,
			 const struct ampsoc_rproc_fake_pdata *pdata)
{
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
	ret = platform_device_add_data(c->pdev, pdata, sizeof(*pdata));
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

	tsub_init(&c->sub);
	rproc_add_subdev(c->rproc, &c->sub.sd);
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

/* The driver registers the carveouts by name, mainline's way. */
static int ctx_init(struct ampsoc_ktap_test *t)
{
	static const struct ampsoc_rproc_fake_pdata pdata = {
		.elf_class = ELFCLASS64,
		.machine = EM_X86_64,
	};

	return ctx_init_with(t, &pdata);
}

/* No carveouts: its memory is declared with ampsoc_rproc_add_mem(). */
static int ctx_init_pool(struct ampsoc_ktap_test *t)
{
	static const struct ampsoc_rproc_fake_pdata pdata = {
		.elf_class = ELFCLASS64,
		.machine = EM_X86_64,
		.no_carveouts = true,
	};
	struct tctx *c;
	int ret = ctx_init_with(t, &pdata);

	if (ret)
		return ret;
	c = t->priv;
	return ampsoc_rproc_add_mem(c->rproc, "ram", FWGEN_MEM_DA,
				    c->fake->mem_pa, c->fake->mem,
				    c->fake->mem_size);
}

/* Started by a boot loader: registered detached. */
static int ctx_init_detached(struct ampsoc_ktap_test *t)
{
	static const struct ampsoc_rproc_fake_pdata pdata = {
		.detached = true,
	};

	return ctx_init_with(t, &pdata);
}

static void ctx_exit(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!c)
		return;
	if (c->sub_added)
		rproc_remove_subdev(c->rproc, &c->sub.sd);
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

static const void *find_rsc(const struct resource_table *tb, u32 type,
			    unsigned int nth)
{
	unsigned int i;

	for (i = 0; tb && i < tb->num; i++) {
		const struct fw_rsc_hdr *h = (const void *)tb + tb->offset[i];

		if (h->type == type && !nth--)
			return h->data;
	}
	return NULL;
}

/* Children of a processor's rproc-virtio devices on the virtio bus. */
struct vfind {
	u32 want;
	struct virtio_device *vdev;
	int count;
	int total;
	int parents;
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

static int find_rvdev(struct device *dev, void *data)
{
	struct vfind *f = data;

	if (!strncmp(dev_name(dev), "rproc-virtio.", 13)) {
		f->parents++;
		device_for_each_child(dev, f, find_virtio);
	}
	return 0;
}

static void virtio_of(struct rproc *rproc, struct vfind *f)
{
	f->vdev = NULL;
	f->count = 0;
	f->total = 0;
	f->parents = 0;
	device_for_each_child(&rproc->dev, f, find_rvdev);
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

/* ---- boot ----------------------------------------------------------- */

static void boot_and_shutdown(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->prepares), 1);
	KTAP_EXPECT(t, c->fake->running);
	KTAP_EXPECT_EQ(t, c->rproc->bootaddr, FWGEN_TEXT_DA);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 1);
	KTAP_EXPECT(t, !c->fake->running);
	/* the framework forgot every carveout, the driver's too */
	KTAP_EXPECT(t, list_empty(&c->rproc->carveouts));
	KTAP_EXPECT(t, !c->rproc->table_ptr && !c->rproc->cached_table);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), -EINVAL);
}

static void segments_loaded(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const u8 *text = mem_at(c, FWGEN_TEXT_DA);
	unsigned int i, bad = 0;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, !memcmp(text, FWGEN_TEXT_MAGIC, 8));
	for (i = 8; i < 0x100; i++)
		bad += text[i] != (u8)(i * 7 + 1);
	KTAP_EXPECT_EQ(t, bad, 0);
	/* memsz beyond filesz is zeroed (memory was 0xa5) */
	for (bad = 0, i = 0x100; i < 0x1000; i++)
		bad += text[i] != 0;
	KTAP_EXPECT_EQ(t, bad, 0);
	/* the driver's carveouts are not zeroed, as mainline */
	KTAP_EXPECT_EQ(t, *(u8 *)mem_at(c, FWGEN_MEM_DA + FAKE_HEAP_OFF), 0xa5);
	KTAP_EXPECT_EQ(t, *(u8 *)mem_at(c, FWGEN_MEM_DA + FWGEN_MEM_SIZE - 1),
		       0xa5);
	rproc_shutdown(c->rproc);
}

/* Carveout resources take the driver's carveouts of the same name. */
static void carveouts_matched_by_name(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct resource_table *tb = mem_at(c, FWGEN_DATA_DA);
	const struct fw_rsc_carveout *text, *heap;
	void *heap_va = mem_at(c, FWGEN_MEM_DA + FAKE_HEAP_OFF);

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	/* the loaded copy of the table is the one in effect */
	KTAP_EXPECT(t, c->rproc->table_ptr == tb);
	text = find_rsc(tb, RSC_CARVEOUT, 0);
	heap = find_rsc(tb, RSC_CARVEOUT, 1);
	if (!KTAP_EXPECT(t, text && heap))
		goto out;
	KTAP_EXPECT_EQ(t, text->da, FWGEN_TEXT_DA);
	KTAP_EXPECT_EQ(t, text->len, FAKE_TEXT_LEN);
	/* "anywhere" in the table: the registered carveout's address */
	KTAP_EXPECT_EQ(t, heap->da, FWGEN_MEM_DA + FAKE_HEAP_OFF);
	KTAP_EXPECT_EQ(t, heap->len, FAKE_HEAP_LEN);
	/* pa as mainline computes it: rproc_va_to_pa() of the carveout */
	KTAP_EXPECT_EQ(t, heap->pa, (u32)rproc_va_to_pa(heap_va));
	KTAP_EXPECT(t, rproc_da_to_va(c->rproc, heap->da, heap->len, NULL) ==
		    heap_va);
out:
	rproc_shutdown(c->rproc);
}

/*
 * Vrings: notify ids in table order, written back at once; the ring's
 * address only when a virtio driver creates its virtqueue, as mainline.
 */
static void vrings_written_back(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct fw_rsc_vdev *v0, *v1;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	v0 = find_rsc(c->rproc->table_ptr, RSC_VDEV, 0);
	v1 = find_rsc(c->rproc->table_ptr, RSC_VDEV, 1);
	if (!KTAP_EXPECT(t, v0 && v1))
		goto out;
	KTAP_EXPECT_EQ(t, v0->vring[0].notifyid, 0);
	KTAP_EXPECT_EQ(t, v0->vring[1].notifyid, 1);
	KTAP_EXPECT_EQ(t, v1->vring[0].notifyid, 2);
	KTAP_EXPECT_EQ(t, c->rproc->max_notifyid, 2);
	KTAP_EXPECT_EQ(t, c->rproc->nb_vdev, 2);
	/* the test driver bound vdev 1: its ring is the registered one */
	KTAP_EXPECT(t, tv.vq);
	KTAP_EXPECT_EQ(t, v1->vring[0].da,
		       FWGEN_MEM_DA + FAKE_VRING_OFF + 2 * FAKE_VRING_LEN);
	/* the vring pa is the firmware's, never written */
	KTAP_EXPECT_EQ(t, v1->vring[0].pa, (u32)FW_RSC_ADDR_ANY);
out:
	rproc_shutdown(c->rproc);
}

static void trace_buffer_written(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const char *trace = mem_at(c, FWGEN_TRACE_DA);

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, strnstr(trace, "booted ampsoc-rproc-fake.elf at 0x10000000 (boot 1)",
			       FWGEN_TRACE_LEN));
	KTAP_EXPECT_EQ(t, c->rproc->num_traces, 1);
	rproc_shutdown(c->rproc);
}

static void refcount_nested(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 3);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
}

static void subdevices_follow(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, !strcmp(c->sub.log, "ps"));
	rproc_shutdown(c->rproc);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psSu"));
}

/* A subdevice that fails to start: those started are stopped as crashed. */
static void subdevice_start_failure(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct tsub bad;

	tsub_init(&bad);
	bad.fail_start = EIO;
	rproc_add_subdev(c->rproc, &bad.sd);
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), -EIO);
	rproc_remove_subdev(c->rproc, &bad.sd);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	/* vdev subdevices come after it; the first one was unrolled */
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psCu"));
	KTAP_EXPECT(t, !strcmp(bad.log, "pu"));
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	KTAP_EXPECT(t, runtime_suspended(c));
}

static void start_failure_unwinds(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->fake->fail_start = EIO;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), -EIO);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 0);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "pu"));
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->prepares), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 1);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	c->fake->fail_start = 0;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/* A failed prepare is not unprepared, as mainline. */
static void prepare_failure(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->fake->fail_prepare = ENODEV;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), -ENODEV);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	c->fake->fail_prepare = 0;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/* A stop that fails keeps the reference and the state, as mainline. */
static void stop_failure_keeps_running(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	c->fake->fail_stop = EIO;
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), -EIO);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 1);
	KTAP_EXPECT(t, !runtime_suspended(c));
	c->fake->fail_stop = 0;
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT(t, runtime_suspended(c));
}

/* ampsoc: a class or machine set for coredumps also filters images. */
static void elf32_on_any_processor(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, FWGEN_GOOD32_NAME), 0);
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), -ENOEXEC);
	c->rproc->elf_class = ELFCLASSNONE;
	c->rproc->elf_machine = EM_NONE;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	rproc_shutdown(c->rproc);
}

static void detach_needs_attached(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), -EINVAL);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	rproc_shutdown(c->rproc);
}

static void vdev_becomes_virtio_device(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct vfind f = { .want = FWGEN_VDEV_ID };
	u8 cfg[8];

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	virtio_of(c->rproc, &f);
	/* one rproc-virtio device per vdev, each with its virtio device */
	KTAP_EXPECT_EQ(t, f.parents, 2);
	KTAP_EXPECT_EQ(t, f.total, 2);
	if (!KTAP_EXPECT_EQ(t, f.count, 1))
		goto out;
	KTAP_EXPECT(t, rproc_get_by_child(&f.vdev->dev) == c->rproc);
	/* dfeatures only, as mainline */
	KTAP_EXPECT_EQ(t, f.vdev->config->get_features(f.vdev), 1);
	f.vdev->config->get(f.vdev, 0, cfg, sizeof(cfg));
	KTAP_EXPECT(t, cfg[0] == 1 && cfg[7] == 8);
	/* an access beyond the config space reads zeros, never beyond */
	f.vdev->config->get(f.vdev, 4, cfg, sizeof(cfg));
	KTAP_EXPECT(t, cfg[0] == 0);
	/* an unknown notify id (the remote controls it) is ignored */
	KTAP_EXPECT_EQ(t, rproc_vq_interrupt(c->rproc, 1234), IRQ_NONE);
	KTAP_EXPECT_EQ(t, rproc_vq_interrupt(c->rproc, 0), IRQ_NONE);
out:
	rproc_shutdown(c->rproc);
	virtio_of(c->rproc, &f);
	KTAP_EXPECT_EQ(t, f.parents, 0);
	KTAP_EXPECT_EQ(t, f.total, 0);
}

/*
 * One buffer through a virtqueue, with the test playing the remote: the
 * kick reaches the platform with the vring's notify id, the descriptor
 * holds the buffer, and a used entry plus rproc_vq_interrupt() run the
 * driver's callback and hand the buffer back.
 */
static void virtio_datapath(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct fw_rsc_vdev *rsc;
	struct scatterlist sg;
	struct vring vr;
	unsigned int len = 0, kicks;
	u16 head;
	void *buf;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	rsc = find_rsc(c->rproc->table_ptr, RSC_VDEV, 1);
	buf = kzalloc(256, GFP_KERNEL);
	if (!KTAP_EXPECT(t, tv.vq && rsc && buf))
		goto out;
	KTAP_EXPECT(t, rsc->status & VIRTIO_CONFIG_S_DRIVER_OK);
	sg_init_one(&sg, buf, 64);
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
		goto out;
	KTAP_EXPECT_EQ(t, virtio64_to_cpu(tv.vdev, vr.desc[head].addr),
		       virt_to_phys(buf));
	KTAP_EXPECT_EQ(t, virtio32_to_cpu(tv.vdev, vr.desc[head].len), 64);
	KTAP_EXPECT(t, virtio16_to_cpu(tv.vdev, vr.desc[head].flags) &
		       VRING_DESC_F_WRITE);

	vr.used->ring[0].id = cpu_to_virtio32(tv.vdev, head);
	vr.used->ring[0].len = cpu_to_virtio32(tv.vdev, 48);
	/* the entry before the index, as a remote must publish it */
	smp_wmb();
	vr.used->idx = cpu_to_virtio16(tv.vdev, 1);
	reinit_completion(&tv.cb);
	KTAP_EXPECT_EQ(t, rproc_vq_interrupt(c->rproc, rsc->vring[0].notifyid),
		       IRQ_HANDLED);
	KTAP_EXPECT(t, completion_done(&tv.cb));
	/* the callback ran in our (process) context, no spinlock held */
	KTAP_EXPECT(t, !tv.cb_irqs_disabled);
	KTAP_EXPECT(t, virtqueue_get_buf(tv.vq, &len) == buf);
	KTAP_EXPECT_EQ(t, len, 48);
	/* nothing more used: the interrupt is not ours */
	KTAP_EXPECT_EQ(t, rproc_vq_interrupt(c->rproc, rsc->vring[0].notifyid),
		       IRQ_NONE);
out:
	rproc_shutdown(c->rproc);
	kfree(buf);
	KTAP_EXPECT(t, !tv.vq);
}

/* ---- runtime PM and PM domains (ampsoc) ------------------------------ */

static void domain_on_exactly_while_running(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on && !c->parent_on);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, c->fake->powered_at_start);
	KTAP_EXPECT(t, c->child_on && c->parent_on);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&c->child));
	/* parents first */
	KTAP_EXPECT(t, c->parent_on_at < c->child_on_at);
	KTAP_EXPECT(t, pm_runtime_active(&c->pdev->dev));
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	flush_work(&c->parent.power_off_work);
	KTAP_EXPECT(t, !c->parent_on);
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
		if (rproc_boot(u->c->rproc)) {
			u->errors++;
			continue;
		}
		/* while we hold it, it runs */
		if (READ_ONCE(u->c->rproc->state) != RPROC_RUNNING ||
		    !READ_ONCE(u->c->fake->running))
			u->errors++;
		if (rproc_shutdown(u->c->rproc))
			u->errors++;
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
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 0);
	KTAP_EXPECT(t, atomic_read(&c->fake->starts) >= 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts),
		       atomic_read(&c->fake->stops));
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
}

/* ---- bad input -------------------------------------------------------- */

static void run_bad(struct ampsoc_ktap_test *t, const char *name, int err)
{
	struct tctx *c = t->priv;
	int ret;

	if (!KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, name), 0))
		return;
	ret = rproc_boot(c->rproc);
	KTAP_EXPECT_EQ(t, ret, err);
	if (!ret)
		rproc_shutdown(c->rproc);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, !c->child_on);
	KTAP_EXPECT(t, !c->rproc->table_ptr && !c->rproc->cached_table);
	KTAP_EXPECT(t, list_empty(&c->rproc->carveouts));
	/* a prepared device was unprepared */
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->prepares),
		       atomic_read(&c->fake->unprepares));
	/* a correct firmware boots afterwards */
	ret = rproc_set_firmware(c->rproc, FWGEN_GOOD64_NAME);
	if (!KTAP_EXPECT_EQ(t, ret, 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/* Declared memory (ampsoc): the errnos of badfw_cases.h. */
#define BADFW(name, e, stage)						\
	static void pool_rejects_##name(struct ampsoc_ktap_test *t)	\
	{								\
		run_bad(t, "ampsoc-rproc-bad-" #name ".elf", -(e));	\
	}
#include "badfw_cases.h"
#undef BADFW

/*
 * Carveouts registered by name (mainline): a request that does not fit the
 * registered carveout of its name is refused with -ENOMEM, as mainline's
 * rproc_check_carveout_da() refusal; there is no allocator to find the
 * overlap of two fixed carveouts (-EBUSY with declared memory).
 */
static int named_errno(const char *name, int e)
{
	if (!strcmp(name, "rsc_carveouts_overlap"))
		return -ENOMEM;
	return -e;
}

#define BADFW(name, e, stage)						\
	static void named_rejects_##name(struct ampsoc_ktap_test *t)	\
	{								\
		run_bad(t, "ampsoc-rproc-bad-" #name ".elf",		\
			named_errno(#name, e));				\
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
		if (rproc_set_firmware(c->rproc, bad[i]) != -EINVAL)
			ampsoc_ktap_fail(t, "name %u accepted", i);
	long_name = kmalloc(NAME_MAX + 2, GFP_KERNEL);
	if (!KTAP_EXPECT(t, long_name))
		return;
	memset(long_name, 'a', NAME_MAX + 1);
	long_name[NAME_MAX + 1] = '\0';
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, long_name), -EINVAL);
	kfree(long_name);
	KTAP_EXPECT(t, !strcmp(c->rproc->firmware, FWGEN_GOOD64_NAME));
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, "sub/x..y.elf\n"), 0);
	KTAP_EXPECT(t, !strcmp(c->rproc->firmware, "sub/x..y.elf"));
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, FWGEN_GOOD64_NAME), 0);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	/* busy first, as mainline: even a bad name is -EBUSY now */
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, "other.elf"), -EBUSY);
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, ""), -EBUSY);
	rproc_shutdown(c->rproc);
}

/* Declared memory: placement, addresses written back, zeroed carveouts. */
static void pool_addresses_written_back(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct resource_table *tb = mem_at(c, FWGEN_DATA_DA);
	const struct fw_rsc_carveout *heap;
	const struct fw_rsc_vdev *vd;
	unsigned int i, bad = 0;
	const u8 *p;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT(t, c->rproc->table_ptr == tb);
	heap = find_rsc(tb, RSC_CARVEOUT, 1);
	vd = find_rsc(tb, RSC_VDEV, 0);
	if (!KTAP_EXPECT(t, heap && vd))
		goto out;
	KTAP_EXPECT(t, heap->da != (u32)FW_RSC_ADDR_ANY);
	KTAP_EXPECT(t, heap->da >= FWGEN_DATA_DA + 0x1000);
	KTAP_EXPECT(t, heap->da + heap->len <= FWGEN_MEM_DA + FWGEN_MEM_SIZE);
	/* vmalloc'd memory declared without a physical address */
	KTAP_EXPECT_EQ(t, heap->pa, (u32)FW_RSC_ADDR_ANY);
	/* allocated like dma_alloc_coherent(): zeroed */
	for (p = mem_at(c, heap->da), i = 0; i < heap->len; i++)
		bad += p[i] != 0;
	KTAP_EXPECT_EQ(t, bad, 0);
	for (i = 0; i < vd->num_of_vrings; i++)
		KTAP_EXPECT_EQ(t, vd->vring[i].notifyid, i);
	/* the test driver's vring is in declared memory, clear of the heap */
	vd = find_rsc(tb, RSC_VDEV, 1);
	if (KTAP_EXPECT(t, vd)) {
		u32 da = vd->vring[0].da;

		KTAP_EXPECT(t, da >= FWGEN_MEM_DA &&
			    da < FWGEN_MEM_DA + FWGEN_MEM_SIZE);
		KTAP_EXPECT(t, da + 0x2000 <= heap->da ||
			    heap->da + heap->len <= da);
	}
out:
	rproc_shutdown(c->rproc);
}

/*
 * Table order, as mainline: a vdev listed before the carveouts has its
 * vring carveout registered, hence allocated, first (ampsoc used to
 * handle every carveout before any vdev).
 */
static void pool_table_order(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct fw_rsc_carveout *heap;
	const struct fw_rsc_vdev *first, *rpmsg;

	if (!KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc,
						  FWGEN_VDEV_FIRST_NAME), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	first = find_rsc(c->rproc->table_ptr, RSC_VDEV, 0);
	rpmsg = find_rsc(c->rproc->table_ptr, RSC_VDEV, 1);
	heap = find_rsc(c->rproc->table_ptr, RSC_CARVEOUT, 1);
	if (!KTAP_EXPECT(t, first && rpmsg && heap && tv.vq))
		goto out;
	KTAP_EXPECT_EQ(t, first->id, FWGEN_TEST_VDEV_ID);
	KTAP_EXPECT_EQ(t, first->vring[0].notifyid, 0);
	KTAP_EXPECT_EQ(t, rpmsg->vring[0].notifyid, 1);
	/* first fit after the segments: the vring, then the heap */
	KTAP_EXPECT_EQ(t, first->vring[0].da, FWGEN_MEM_DA + 0x2000);
	KTAP_EXPECT(t, heap->da > first->vring[0].da);
out:
	rproc_shutdown(c->rproc);
}

/* ---- crashes ---------------------------------------------------------- */

static void crash_recovers(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct vfind f = { .want = FWGEN_TEST_VDEV_ID };
	int probes, removes;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	probes = tv.probes;
	removes = tv.removes;
	rproc_report_crash(c->rproc, RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 2);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	/* mainline's recovery: no unprepare/prepare, resources kept */
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->prepares), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 0);
	/* subdevices were told it crashed, then restarted */
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psCups"));
	/* the virtio devices were removed and new ones registered */
	virtio_of(c->rproc, &f);
	KTAP_EXPECT_EQ(t, f.total, 2);
	KTAP_EXPECT_EQ(t, tv.removes, removes + 1);
	KTAP_EXPECT_EQ(t, tv.probes, probes + 1);
	KTAP_EXPECT(t, tv.vq);
	KTAP_EXPECT(t, strnstr(mem_at(c, FWGEN_TRACE_DA), "(boot 2)",
			       FWGEN_TRACE_LEN));
	/* power stays on through recovery; the user's reference survives */
	KTAP_EXPECT(t, c->child_on);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
}

static void recovery_disabled_stays_crashed(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->rproc->recovery_disabled = true;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	rproc_report_crash(c->rproc, RPROC_MMUFAULT);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_CRASHED);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 0);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "ps"));
	/* a second report while crashed is ignored */
	rproc_report_crash(c->rproc, RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	/* explicit recovery works even when automatic recovery is off */
	KTAP_EXPECT_EQ(t, ampsoc_rproc_trigger_recovery(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	/* recovering a processor that has not crashed does nothing: 0 */
	KTAP_EXPECT_EQ(t, ampsoc_rproc_trigger_recovery(c->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 2);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, ampsoc_rproc_trigger_recovery(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
}

/* As mainline: a crashed processor counts users and can be shut down. */
static void crashed_counts_users(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->rproc->recovery_disabled = true;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	rproc_report_crash(c->rproc, RPROC_FATAL_ERROR);
	flush_work(&c->rproc->crash_handler);
	if (!KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_CRASHED))
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 2);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_CRASHED);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psCu"));
	KTAP_EXPECT(t, runtime_suspended(c));
}

static void crash_while_offline_ignored(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	rproc_report_crash(c->rproc, RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 0);
}

/* A type out of range is still a crash, as mainline ("unknown"). */
static void crash_of_unknown_type(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	c->rproc->recovery_disabled = true;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	rproc_report_crash(c->rproc, 7);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_CRASHED);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/* ampsoc: a recovery that fails powers the processor off. */
static void failed_recovery_powers_off(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	c->fake->fail_start = EIO;
	rproc_report_crash(c->rproc, RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->rproc->power), 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, list_empty(&c->rproc->carveouts));
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), -EINVAL);
	c->fake->fail_start = 0;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/* ---- attach and detach ------------------------------------------------ */

static bool att_trace(struct tctx *c, const char *want)
{
	return strnstr(mem_at(c, FWGEN_MEM_DA + FAKE_ATT_TRACE_OFF), want,
		       FAKE_ATT_TRACE_LEN);
}

static void registered_detached(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_DETACHED);
	KTAP_EXPECT(t, c->fake->running);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->attaches), 0);
	/* not attached: nothing to stop or detach */
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc, FWGEN_GOOD64_NAME),
		       -EBUSY);
}

static void attach_and_detach(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	struct resource_table *live = mem_at(c, FWGEN_MEM_DA + FAKE_ATT_RSC_OFF);
	struct vfind f = { .want = FWGEN_TEST_VDEV_ID };
	const struct fw_rsc_vdev *v;
	size_t sz = 0;
	void *pristine;

	c->rproc->ops->get_loaded_rsc_table(c->rproc, &sz);
	pristine = kmemdup(live, sz, GFP_KERNEL);
	if (!KTAP_EXPECT(t, pristine))
		return;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		goto out;
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_ATTACHED);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->attaches), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->prepares), 1);
	/* no firmware loaded: the live table is in effect, as Linux found it */
	KTAP_EXPECT(t, c->rproc->table_ptr == live);
	KTAP_EXPECT(t, !c->rproc->cached_table && c->rproc->clean_table);
	KTAP_EXPECT(t, att_trace(c, "attached"));
	KTAP_EXPECT(t, !strcmp(c->sub.log, "ps"));
	KTAP_EXPECT(t, !runtime_suspended(c));
	v = find_rsc(live, RSC_VDEV, 0);
	KTAP_EXPECT(t, v && v->vring[0].notifyid == 0);
	virtio_of(c->rproc, &f);
	KTAP_EXPECT_EQ(t, f.count, 1);
	KTAP_EXPECT(t, tv.vq);

	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_DETACHED);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->detaches), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->unprepares), 1);
	KTAP_EXPECT(t, !strcmp(c->sub.log, "psSu"));
	/* the live table is back as the boot loader left it */
	KTAP_EXPECT(t, !memcmp(live, pristine, sz));
	KTAP_EXPECT(t, !c->rproc->table_ptr && !c->rproc->clean_table);
	virtio_of(c->rproc, &f);
	KTAP_EXPECT_EQ(t, f.total, 0);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT(t, c->fake->running);

	/* and Linux can attach again */
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_ATTACHED);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->attaches), 2);
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), 0);
out:
	kfree(pristine);
}

static void detach_counts_users(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->attaches), 1);
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_ATTACHED);
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_DETACHED);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->detaches), 1);
}

/* Shutting down an attached processor stops it; the next boot loads. */
static void shutdown_stops_attached(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	KTAP_EXPECT(t, !c->fake->running);
	KTAP_EXPECT(t, runtime_suspended(c));
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, rproc_detach(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/*
 * Without the attach-on-recovery feature, recovery stops the processor and
 * loads the firmware, as mainline; at the image's entry point (ampsoc:
 * mainline starts it at the boot address it never had, 0).
 */
static void attached_crash_reboots(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	rproc_report_crash(c->rproc, RPROC_WATCHDOG);
	flush_work(&c->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, c->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->stops), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&c->fake->starts), 1);
	KTAP_EXPECT_EQ(t, c->rproc->bootaddr, FWGEN_TEXT_DA);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
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

/* bare_fake() and its driver state; NULL (a failure recorded) if none. */
static struct ampsoc_rproc_fake *
bare_fake_of(struct ampsoc_ktap_test *t,
	     const struct ampsoc_rproc_fake_pdata *pd,
	     struct platform_device **p)
{
	*p = bare_fake(pd);
	if (!KTAP_EXPECT(t, *p))
		return NULL;
	return platform_get_drvdata(*p);
}

static bool wait_started(struct ampsoc_rproc_fake *fake)
{
	return wait_for_completion_timeout(&fake->started,
					   msecs_to_jiffies(WAIT_MS));
}

/* mainline's defaults of a new processor */
static void alloc_defaults(struct ampsoc_ktap_test *t)
{
	static const struct rproc_ops ops;
	struct platform_device *p;
	struct rproc *rproc;

	p = platform_device_register_simple("ampsoc-rproc-test-bare", -1,
					    NULL, 0);
	if (!KTAP_EXPECT(t, !IS_ERR(p)))
		return;
	rproc = rproc_alloc(&p->dev, "bare", &ops, NULL, 16);
	if (KTAP_EXPECT(t, rproc)) {
		KTAP_EXPECT(t, rproc->auto_boot);
		KTAP_EXPECT_EQ(t, rproc->dump_conf, RPROC_COREDUMP_DISABLED);
		KTAP_EXPECT(t, !rproc->recovery_disabled);
		KTAP_EXPECT_EQ(t, rproc->state, RPROC_OFFLINE);
		KTAP_EXPECT_EQ(t, rproc->elf_class, ELFCLASSNONE);
		KTAP_EXPECT(t, !strcmp(rproc->firmware, "rproc-bare-fw"));
		KTAP_EXPECT(t, rproc->priv == (void *)&rproc[1]);
		/* the ELF helpers by default; a copy of the operations */
		KTAP_EXPECT(t, rproc->ops != &ops && rproc->ops->load &&
			    rproc->ops->parse_fw && rproc->ops->sanity_check &&
			    rproc->ops->get_boot_addr &&
			    rproc->ops->find_loaded_rsc_table &&
			    rproc->ops->coredump);
		/* no start operation: cannot be registered offline */
		KTAP_EXPECT_EQ(t, rproc_add(rproc), -EINVAL);
		/* nor detached without an attach operation */
		rproc->state = RPROC_DETACHED;
		KTAP_EXPECT_EQ(t, rproc_add(rproc), -EINVAL);
		rproc_free(rproc);
	}
	platform_device_unregister(p);
}

static void auto_boot_boots(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = {
		.elf_class = ELFCLASS64, .machine = EM_X86_64, .auto_boot = true,
	};
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	if (KTAP_EXPECT(t, wait_started(fake))) {
		/* start() runs under the lock the boot returns after */
		mutex_lock(&fake->rproc->lock);
		mutex_unlock(&fake->rproc->lock);
		KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_RUNNING);
		KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
	}
	platform_device_unregister(p);
}

static void auto_boot_attaches(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = {
		.detached = true, .auto_boot = true,
	};
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	if (KTAP_EXPECT(t, wait_started(fake))) {
		flush_work(&fake->rproc->attach_work);
		KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_ATTACHED);
		KTAP_EXPECT_EQ(t, atomic_read(&fake->attaches), 1);
	}
	/* removal stops an attached processor, as mainline */
	get_device(&fake->rproc->dev);
	platform_device_unregister(p);
	KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->stops), 1);
	put_device(&fake->rproc->dev);
}

/* RPROC_FEAT_ATTACH_ON_RECOVERY: recovery detaches and attaches again. */
static void recovery_by_attach(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = {
		.detached = true, .recover_by_attach = true,
	};
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0))
		goto out;
	rproc_report_crash(fake->rproc, RPROC_FATAL_ERROR);
	flush_work(&fake->rproc->crash_handler);
	KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_ATTACHED);
	KTAP_EXPECT_EQ(t, fake->rproc->crash_cnt, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->attaches), 2);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->detaches), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->stops), 0);
	/* ampsoc set everything up again: the live table is in effect */
	KTAP_EXPECT(t, fake->rproc->table_ptr ==
		    fake->mem + FAKE_ATT_RSC_OFF && fake->rproc->clean_table);
	/* and a detach works (mainline WARNs here) */
	KTAP_EXPECT_EQ(t, rproc_detach(fake->rproc), 0);
	KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_DETACHED);
out:
	platform_device_unregister(p);
}

static void no_runtime_pm_still_boots(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .no_runtime_pm = true };
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	KTAP_EXPECT(t, !pm_runtime_enabled(&p->dev));
	KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0);
	KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_RUNNING);
	KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&p->dev.power.usage_count), 0);
	platform_device_unregister(p);
}

/* ampsoc: removal stops the processor whatever its number of users. */
static void removal_while_running(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { 0 };
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;
	struct rproc *rproc;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	rproc = fake->rproc;
	/* keep the processor's memory (and fake, its private data) alive */
	get_device(&rproc->dev);
	KTAP_EXPECT_EQ(t, rproc_boot(rproc), 0);
	KTAP_EXPECT_EQ(t, rproc_boot(rproc), 0);
	platform_device_unregister(p);
	/* stopped despite two users; later boots are refused */
	KTAP_EXPECT_EQ(t, rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->stops), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&rproc->power), 0);
	KTAP_EXPECT_EQ(t, rproc_boot(rproc), -ENODEV);
	KTAP_EXPECT_EQ(t, rproc_shutdown(rproc), -EINVAL);
	put_device(&rproc->dev);
}

/* ampsoc: removal releases everything even if the stop fails. */
static void removal_with_failing_stop(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { 0 };
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;
	struct rproc *rproc;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	rproc = fake->rproc;
	get_device(&rproc->dev);
	get_device(&p->dev);
	KTAP_EXPECT_EQ(t, rproc_boot(rproc), 0);
	fake->fail_stop = EIO;
	platform_device_unregister(p);
	KTAP_EXPECT_EQ(t, rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT(t, list_empty(&rproc->carveouts));
	KTAP_EXPECT(t, list_empty(&rproc->rvdevs));
	KTAP_EXPECT_EQ(t, atomic_read(&p->dev.power.usage_count), 0);
	put_device(&p->dev);
	put_device(&rproc->dev);
}

/* A "vdev0buffer" carveout is the vdev's buffer region (ampsoc's seam). */
static void vdev_buffer_region(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .contiguous = true };
	struct platform_device *p;
	struct vfind f = { .want = FWGEN_VDEV_ID };
	struct virtio_shm_region r = { 0 };
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	if (!KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0))
		goto out;
	virtio_of(fake->rproc, &f);
	if (KTAP_EXPECT_EQ(t, f.count, 1)) {
		KTAP_EXPECT(t, virtio_get_shm_region(f.vdev, &r, 0));
		KTAP_EXPECT_EQ(t, r.addr, fake->mem_pa + FAKE_BUF_OFF);
		KTAP_EXPECT_EQ(t, r.len, FAKE_BUF_LEN);
		KTAP_EXPECT(t, !virtio_get_shm_region(f.vdev, &r, 1));
	}
	/* the test vdev has no buffer carveout and no declared memory */
	f.want = FWGEN_TEST_VDEV_ID;
	virtio_of(fake->rproc, &f);
	if (KTAP_EXPECT_EQ(t, f.count, 1))
		KTAP_EXPECT(t, !virtio_get_shm_region(f.vdev, &r, 0));
	KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
out:
	platform_device_unregister(p);
}

/* ampsoc: declared memory also gives buffers to a vdev without a carveout. */
static void pool_buffer_region(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = {
		.contiguous = true, .no_carveouts = true,
	};
	struct platform_device *p = bare_fake(&pd);
	struct vfind f = { .want = FWGEN_VDEV_ID };
	struct virtio_shm_region r = { 0 }, r2 = { 0 };
	const struct fw_rsc_carveout *heap;
	struct ampsoc_rproc_fake *fake;
	phys_addr_t base;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	base = fake->mem_pa;
	if (!KTAP_EXPECT_EQ(t, ampsoc_rproc_add_mem(fake->rproc, "ram",
						    FWGEN_MEM_DA, base, fake->mem,
						    fake->mem_size), 0))
		goto out;
	/* not while it runs */
	if (!KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_rproc_add_mem(fake->rproc, "more", 0x20000000,
					       base, fake->mem, 0x1000), -EBUSY);
	heap = find_rsc(fake->rproc->table_ptr, RSC_CARVEOUT, 1);
	KTAP_EXPECT(t, heap && heap->pa == base + (heap->da - FWGEN_MEM_DA));
	virtio_of(fake->rproc, &f);
	if (KTAP_EXPECT_EQ(t, f.count, 1)) {
		KTAP_EXPECT(t, virtio_get_shm_region(f.vdev, &r, 0));
		KTAP_EXPECT(t, r.addr >= base &&
			    r.addr + r.len <= base + fake->mem_size);
		KTAP_EXPECT_EQ(t, r.addr % PAGE_SIZE, 0);
		/* one 512-byte buffer per entry of its two 16-entry vrings */
		KTAP_EXPECT_EQ(t, r.len, 2 * FWGEN_VRING_NUM * 512);
		KTAP_EXPECT(t, virtio_get_shm_region(f.vdev, &r2, 0));
		KTAP_EXPECT(t, r2.addr == r.addr && r2.len == r.len);
	}
	KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
out:
	platform_device_unregister(p);
}

/*
 * No carveout registered, no declared memory: mainline's allocator,
 * dma_alloc_coherent() on the platform device; the table gets its DMA
 * address as device address and physical address.
 */
static void dma_carveouts(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .no_carveouts = true };
	struct platform_device *p = bare_fake(&pd);
	const struct fw_rsc_carveout *heap;
	struct ampsoc_rproc_fake *fake;
	struct rproc_mem_entry *m;
	bool found = false;

	if (!KTAP_EXPECT(t, p))
		return;
	fake = platform_get_drvdata(p);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0))
		goto out;
	heap = find_rsc(fake->rproc->table_ptr, RSC_CARVEOUT, 1);
	list_for_each_entry(m, &fake->rproc->carveouts, node) {
		if (strcmp(m->name, "heap"))
			continue;
		found = true;
		KTAP_EXPECT(t, heap && heap->da == (u32)m->dma &&
			    heap->pa == (u32)m->dma && heap->len == m->len);
		KTAP_EXPECT(t, !is_vmalloc_addr(m->va) &&
			    virt_to_phys(m->va) == m->dma);
	}
	KTAP_EXPECT(t, found);
	KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
out:
	platform_device_unregister(p);
}

/* A loader of its own: mainline defaults none of the ELF helpers. */
static void custom_load_operation(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .custom_load = true };
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	KTAP_EXPECT(t, !fake->rproc->ops->parse_fw &&
		    !fake->rproc->ops->sanity_check &&
		    !fake->rproc->ops->find_loaded_rsc_table);
	if (!KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), 0))
		goto out;
	KTAP_EXPECT_EQ(t, atomic_read(&fake->loads), 1);
	KTAP_EXPECT_EQ(t, fake->rproc->bootaddr, FWGEN_TEXT_DA);
	/* no table read: no trace, no vdev */
	KTAP_EXPECT(t, !fake->rproc->table_ptr);
	KTAP_EXPECT_EQ(t, fake->rproc->num_traces, 0);
	KTAP_EXPECT(t, list_empty(&fake->rproc->rvdevs));
	KTAP_EXPECT_EQ(t, rproc_shutdown(fake->rproc), 0);
out:
	platform_device_unregister(p);
}

/* has_iommu on a machine without one: the boot fails, as mainline. */
static void iommu_required(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { .has_iommu = true };
	struct platform_device *p;
	struct ampsoc_rproc_fake *fake;

	fake = bare_fake_of(t, &pd, &p);
	if (!fake)
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(fake->rproc), -ENOMEM);
	KTAP_EXPECT_EQ(t, fake->rproc->state, RPROC_OFFLINE);
	KTAP_EXPECT_EQ(t, atomic_read(&fake->prepares), 0);
	platform_device_unregister(p);
}

/* The panic notifier asks running processors only. */
static void panic_notifier(struct ampsoc_ktap_test *t)
{
	struct ampsoc_rproc_fake_pdata pd = { 0 };
	struct platform_device *p = bare_fake(&pd), *q;
	struct ampsoc_rproc_fake *a, *b;

	if (!KTAP_EXPECT(t, p))
		return;
	q = platform_device_register_data(NULL, AMPSOC_RPROC_FAKE_DRV,
					  TEST_DEV_ID + 2, &pd, sizeof(pd));
	if (!KTAP_EXPECT(t, !IS_ERR(q) && q->dev.driver))
		goto out_p;
	a = platform_get_drvdata(p);
	b = platform_get_drvdata(q);
	a->panic_ms = 1;
	if (KTAP_EXPECT_EQ(t, rproc_boot(a->rproc), 0)) {
		ampsoc_rproc_panic_nb.notifier_call(&ampsoc_rproc_panic_nb, 0,
						    NULL);
		KTAP_EXPECT_EQ(t, atomic_read(&a->panics), 1);
		KTAP_EXPECT_EQ(t, atomic_read(&b->panics), 0);
		rproc_shutdown(a->rproc);
	}
	platform_device_unregister(q);
out_p:
	platform_device_unregister(p);
}

static int test_start(struct rproc *rproc)
{
	return 0;
}

static umode_t attr_mode(struct rproc *rproc, const char *name)
{
	struct kernfs_node *kn = kernfs_find_and_get(rproc->dev.kobj.sd, name);
	umode_t mode = 0;

	if (kn) {
		mode = kn->mode & 0777;
		kernfs_put(kn);
	}
	return mode;
}

/* sysfs_read_only and the devm variants, on a processor of our own. */
static void read_only_and_devm(struct ampsoc_ktap_test *t)
{
	static const struct rproc_ops ops = { .start = test_start };
	struct platform_device *p;
	struct rproc *rproc;
	void *group;

	p = platform_device_register_simple("ampsoc-rproc-test-bare", -1,
					    NULL, 0);
	if (!KTAP_EXPECT(t, !IS_ERR(p)))
		return;
	group = devres_open_group(&p->dev, NULL, GFP_KERNEL);
	if (!KTAP_EXPECT(t, group))
		goto out;
	rproc = devm_rproc_alloc(&p->dev, "ro", &ops, NULL, 0);
	if (!KTAP_EXPECT(t, rproc))
		goto out_group;
	rproc->auto_boot = false;
	rproc->sysfs_read_only = true;
	if (!KTAP_EXPECT_EQ(t, devm_rproc_add(&p->dev, rproc), 0))
		goto out_group;
	KTAP_EXPECT_EQ(t, attr_mode(rproc, "state"), 0444);
	KTAP_EXPECT_EQ(t, attr_mode(rproc, "firmware"), 0444);
	KTAP_EXPECT_EQ(t, attr_mode(rproc, "recovery"), 0444);
	KTAP_EXPECT_EQ(t, attr_mode(rproc, "coredump"), 0444);
	KTAP_EXPECT_EQ(t, attr_mode(rproc, "name"), 0444);
	get_device(&rproc->dev);
	/* the group's release deletes and frees the processor */
	devres_release_group(&p->dev, group);
	group = NULL;
	KTAP_EXPECT(t, !device_is_registered(&rproc->dev));
	KTAP_EXPECT_EQ(t, rproc_boot(rproc), -ENODEV);
	put_device(&rproc->dev);
out_group:
	if (group)
		devres_release_group(&p->dev, group);
out:
	platform_device_unregister(p);
}

/*
 * ampsoc: a plain ELF on a processor that uses the ELF helpers is read
 * straight from its file (debugfs load_stats says "path direct", checked
 * by rproc_abi: a module cannot read debugfs), and each segment holds the
 * file's bytes (the data segment's table is written back: the text).
 */
static void direct_load_equals_file(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const struct elf64_phdr *ph;
	const struct elf64_hdr *eh;
	const struct firmware *fw;
	unsigned int i, same = 0;

	if (!KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), 0))
		return;
	/* No device: the firmware cache must not learn the name. */
	if (KTAP_EXPECT_EQ(t, request_firmware(&fw, c->rproc->firmware, NULL), 0)) {
		eh = (const void *)fw->data;
		ph = (const void *)(fw->data + eh->e_phoff);
		for (i = 0; i < eh->e_phnum; i++, ph++)
			if (ph->p_type == PT_LOAD && ph->p_paddr == FWGEN_TEXT_DA &&
			    ph->p_filesz)
				same += !memcmp(mem_at(c, ph->p_paddr),
						fw->data + ph->p_offset,
						ph->p_filesz);
		release_firmware(fw);
	}
	KTAP_EXPECT_EQ(t, same, 1);
	KTAP_EXPECT_EQ(t, rproc_shutdown(c->rproc), 0);
}

/*
 * ampsoc: a segment that lies past the end of the file is refused as
 * before (-EINVAL: request_firmware() reads the file for the verdict) and
 * nothing is written to device memory.
 */
static void direct_refuses_segment_past_end(struct ampsoc_ktap_test *t)
{
	struct tctx *c = t->priv;
	const u8 *text = mem_at(c, FWGEN_TEXT_DA);

	if (!KTAP_EXPECT_EQ(t, rproc_set_firmware(c->rproc,
						  "ampsoc-rproc-bad-segment_truncated.elf"), 0))
		return;
	KTAP_EXPECT_EQ(t, rproc_boot(c->rproc), -EINVAL);
	KTAP_EXPECT_EQ(t, text[0], 0xa5);
	KTAP_EXPECT_EQ(t, c->rproc->state, RPROC_OFFLINE);
}

static const struct ampsoc_ktap_case boot_cases[] = {
	AMPSOC_KTAP_CASE(boot_and_shutdown),
	AMPSOC_KTAP_CASE(segments_loaded),
	AMPSOC_KTAP_CASE(carveouts_matched_by_name),
	AMPSOC_KTAP_CASE(vrings_written_back),
	AMPSOC_KTAP_CASE(trace_buffer_written),
	AMPSOC_KTAP_CASE(refcount_nested),
	AMPSOC_KTAP_CASE(subdevices_follow),
	AMPSOC_KTAP_CASE(subdevice_start_failure),
	AMPSOC_KTAP_CASE(start_failure_unwinds),
	AMPSOC_KTAP_CASE(prepare_failure),
	AMPSOC_KTAP_CASE(stop_failure_keeps_running),
	AMPSOC_KTAP_CASE(elf32_on_any_processor),
	AMPSOC_KTAP_CASE(detach_needs_attached),
	AMPSOC_KTAP_CASE(vdev_becomes_virtio_device),
	AMPSOC_KTAP_CASE(virtio_datapath),
	AMPSOC_KTAP_CASE(domain_on_exactly_while_running),
	AMPSOC_KTAP_CASE(concurrent_users),
	AMPSOC_KTAP_CASE(direct_load_equals_file),
	AMPSOC_KTAP_CASE(direct_refuses_segment_past_end),
	{}
};

static const struct ampsoc_ktap_case named_badfw_cases[] = {
#define BADFW(name, e, stage) AMPSOC_KTAP_CASE(named_rejects_##name),
#include "badfw_cases.h"
#undef BADFW
	AMPSOC_KTAP_CASE(missing_firmware),
	AMPSOC_KTAP_CASE(firmware_names_checked),
	{}
};

static const struct ampsoc_ktap_case pool_cases[] = {
	AMPSOC_KTAP_CASE(pool_addresses_written_back),
	AMPSOC_KTAP_CASE(pool_table_order),
#define BADFW(name, e, stage) AMPSOC_KTAP_CASE(pool_rejects_##name),
#include "badfw_cases.h"
#undef BADFW
	{}
};

static const struct ampsoc_ktap_case crash_cases[] = {
	AMPSOC_KTAP_CASE(crash_recovers),
	AMPSOC_KTAP_CASE(recovery_disabled_stays_crashed),
	AMPSOC_KTAP_CASE(crashed_counts_users),
	AMPSOC_KTAP_CASE(crash_while_offline_ignored),
	AMPSOC_KTAP_CASE(crash_of_unknown_type),
	AMPSOC_KTAP_CASE(failed_recovery_powers_off),
	{}
};

static const struct ampsoc_ktap_case attach_cases[] = {
	AMPSOC_KTAP_CASE(registered_detached),
	AMPSOC_KTAP_CASE(attach_and_detach),
	AMPSOC_KTAP_CASE(detach_counts_users),
	AMPSOC_KTAP_CASE(shutdown_stops_attached),
	AMPSOC_KTAP_CASE(attached_crash_reboots),
	{}
};

static const struct ampsoc_ktap_case platform_cases[] = {
	AMPSOC_KTAP_CASE(alloc_defaults),
	AMPSOC_KTAP_CASE(auto_boot_boots),
	AMPSOC_KTAP_CASE(auto_boot_attaches),
	AMPSOC_KTAP_CASE(recovery_by_attach),
	AMPSOC_KTAP_CASE(no_runtime_pm_still_boots),
	AMPSOC_KTAP_CASE(removal_while_running),
	AMPSOC_KTAP_CASE(removal_with_failing_stop),
	AMPSOC_KTAP_CASE(vdev_buffer_region),
	AMPSOC_KTAP_CASE(pool_buffer_region),
	AMPSOC_KTAP_CASE(dma_carveouts),
	AMPSOC_KTAP_CASE(custom_load_operation),
	AMPSOC_KTAP_CASE(iommu_required),
	AMPSOC_KTAP_CASE(panic_notifier),
	AMPSOC_KTAP_CASE(read_only_and_devm),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "rproc_boot", .init = ctx_init, .exit = ctx_exit,
	  .cases = boot_cases },
	{ .name = "rproc_bad_firmware", .init = ctx_init, .exit = ctx_exit,
	  .cases = named_badfw_cases },
	{ .name = "rproc_declared_memory", .init = ctx_init_pool,
	  .exit = ctx_exit, .cases = pool_cases },
	{ .name = "rproc_crash", .init = ctx_init, .exit = ctx_exit,
	  .cases = crash_cases },
	{ .name = "rproc_attach", .init = ctx_init_detached, .exit = ctx_exit,
	  .cases = attach_cases },
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

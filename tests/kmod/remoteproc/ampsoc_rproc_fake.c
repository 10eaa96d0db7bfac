// SPDX-License-Identifier: GPL-2.0
/*
 * A fake remote processor for testing the remoteproc framework without the
 * virtual SoC, written against mainline's remoteproc API only: it builds
 * unchanged against ampsoc through include/compat and against mainline's
 * own framework. Its memory is a buffer at device address FWGEN_MEM_DA that
 * da_to_va() translates; in prepare() it registers the carveouts the test
 * firmware asks for, as a device tree's reserved-memory regions would be.
 * "Starting" it checks that the firmware's entry point holds the test
 * firmware's magic (so a loader bug fails the boot) and writes a line into
 * the first trace buffer, as a real firmware would.
 *
 * Module parameters create processors at load (for scenarios): devices=N
 * gives ampsoc-rproc-fake.0 (ELF64 x86-64 only) and .1 ... (any image);
 * detached=M adds M processors a "boot loader" started, registered in the
 * detached state; portable=1 makes them processors that Linux's own
 * remoteproc can also run on Debian's kernel: no "vdev0buffer" (that kernel
 * cannot declare it as DMA memory), no one-vring vdev (6.1 dereferences
 * NULL removing one: the firmware is FWGEN_PORTABLE_NAME, and a boot
 * loader's table has only the trace), and dump segments registered
 * (mainline dumps nothing otherwise). /sys/kernel/debug/ampsoc_rproc_fake/<device>/ has the
 * counters, "watchdog" (write anything: the driver reports a watchdog
 * crash), "fail_start", "fail_stop" and "fail_prepare" (a positive errno the
 * operation returns).
 */
#include <linux/debugfs.h>
#include <linux/elf.h>
#include <linux/firmware.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "fake.h"

#define FAKE_MAX_DEVICES	8

static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of fake processors to create at load");
static unsigned int detached;
module_param(detached, uint, 0444);
MODULE_PARM_DESC(detached, "number of detached fake processors to create");
static bool portable;
module_param(portable, bool, 0444);
MODULE_PARM_DESC(portable, "no vdev buffer carveout, explicit dump segments");

static struct platform_device *fake_pdevs[FAKE_MAX_DEVICES];
static struct dentry *fake_dbg_root;

/* The table a boot loader leaves in a detached processor's memory. */
struct fake_att_table {
	struct resource_table hdr;
	u32 offset[2];
	u32 trace_type;
	struct fw_rsc_trace trace;
	u32 vdev_type;
	struct fw_rsc_vdev vdev;
	struct fw_rsc_vdev_vring vring0;
	u8 config[4];
} __packed;

static void *fake_va(struct ampsoc_rproc_fake *fake, u64 da, size_t len)
{
	if (da < FWGEN_MEM_DA || len > fake->mem_size ||
	    da - FWGEN_MEM_DA > fake->mem_size - len)
		return NULL;
	return fake->mem + (da - FWGEN_MEM_DA);
}

static void *fake_da_to_va(struct rproc *rproc, u64 da, size_t len,
			   bool *is_iomem)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	if (is_iomem)
		*is_iomem = false;
	return fake_va(fake, da, len);
}

/* A line into the first trace buffer of the table in use. */
static void fake_trace(struct rproc *rproc, const char *what)
{
	const struct resource_table *t = rproc->table_ptr;
	unsigned int i;

	for (i = 0; t && i < t->num; i++) {
		const struct fw_rsc_hdr *h = (const void *)t + t->offset[i];
		const struct fw_rsc_trace *tr = (const void *)h->data;
		char *va;

		if (h->type != RSC_TRACE)
			continue;
		va = rproc_da_to_va(rproc, tr->da, tr->len, NULL);
		if (va)
			scnprintf(va, tr->len, "fake remote %s: %s\n",
				  rproc->name, what);
		return;
	}
}

static int fake_start(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;
	const void *entry;
	char line[96];

	if (fake->fail_start)
		return -fake->fail_start;
	entry = rproc_da_to_va(rproc, rproc->bootaddr,
			       sizeof(FWGEN_TEXT_MAGIC) - 1, NULL);
	if (!entry || memcmp(entry, FWGEN_TEXT_MAGIC,
			     sizeof(FWGEN_TEXT_MAGIC) - 1)) {
		dev_err(&rproc->dev, "no test firmware at the entry point\n");
		return -ENOEXEC;
	}
	fake->powered_at_start = READ_ONCE(fake->powered);
	WRITE_ONCE(fake->running, true);
	snprintf(line, sizeof(line), "booted %s at 0x%llx (boot %d)",
		 rproc->firmware, rproc->bootaddr,
		 atomic_inc_return(&fake->starts));
	fake_trace(rproc, line);
	complete(&fake->started);
	return 0;
}

static int fake_stop(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->stops);
	if (fake->fail_stop)
		return -fake->fail_stop;
	WRITE_ONCE(fake->running, false);
	return 0;
}

static void fake_kick(struct rproc *rproc, int vqid)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	WRITE_ONCE(fake->last_kick, vqid);
	atomic_inc(&fake->kicks);
}

static int fake_add_carveout(struct rproc *rproc, u32 off, size_t len,
			     const char *name)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;
	struct rproc_mem_entry *mem;
	void *va = fake->mem + off;
	dma_addr_t dma;

	if (off + len > fake->mem_size)
		return 0;
	dma = fake->mem_pa != ~(phys_addr_t)0 ? fake->mem_pa + off :
						rproc_va_to_pa(va);
	mem = rproc_mem_entry_init(&rproc->dev, va, dma, len, FWGEN_MEM_DA + off,
				   NULL, NULL, "%s", name);
	if (!mem)
		return -ENOMEM;
	rproc_add_carveout(rproc, mem);
	return 0;
}

/* The carveouts of this memory, registered again before every boot. */
static int fake_prepare(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;
	char name[16];
	int i, ret;

	atomic_inc(&fake->prepares);
	if (fake->fail_prepare)
		return -fake->fail_prepare;
	if (fake->no_carveouts)
		return 0;
	ret = fake_add_carveout(rproc, FAKE_TEXT_OFF, FAKE_TEXT_LEN, "text");
	if (!ret)
		ret = fake_add_carveout(rproc, FAKE_HEAP_OFF, FAKE_HEAP_LEN,
					"heap");
	for (i = 0; i < 3 && !ret; i++) {
		snprintf(name, sizeof(name), "vdev%dvring%d", i / 2, i % 2);
		ret = fake_add_carveout(rproc, FAKE_VRING_OFF + i * FAKE_VRING_LEN,
					FAKE_VRING_LEN, name);
	}
	if (!ret && !fake->portable)
		ret = fake_add_carveout(rproc, FAKE_BUF_OFF, FAKE_BUF_LEN,
					"vdev0buffer");
	/* what a crash dumps: the image's memory and the heap */
	if (!ret && fake->portable)
		ret = rproc_coredump_add_segment(rproc, FWGEN_MEM_DA,
						 FAKE_TEXT_LEN);
	if (!ret && fake->portable)
		ret = rproc_coredump_add_segment(rproc,
						 FWGEN_MEM_DA + FAKE_HEAP_OFF,
						 FAKE_HEAP_LEN);
	return ret;
}

static int fake_unprepare(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->unprepares);
	return 0;
}

static int fake_handle_rsc(struct rproc *rproc, u32 type, void *rsc,
			   int offset, int avail)
{
	if (type == FWGEN_VENDOR_OK)
		return RSC_HANDLED;
	if (type == FWGEN_VENDOR_REFUSED)
		return -EPERM;
	return RSC_IGNORED;
}

static int fake_attach(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->attaches);
	WRITE_ONCE(fake->running, true);
	fake_trace(rproc, "attached");
	complete(&fake->started);
	return 0;
}

static int fake_detach(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->detaches);
	return 0;
}

static struct resource_table *fake_get_loaded_rsc_table(struct rproc *rproc,
							size_t *size)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	*size = sizeof(struct fake_att_table);
	return fake->mem + FAKE_ATT_RSC_OFF;
}

static unsigned long fake_panic(struct rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->panics);
	return READ_ONCE(fake->panic_ms);
}

static int fake_load(struct rproc *rproc, const struct firmware *fw)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	atomic_inc(&fake->loads);
	return rproc_elf_load_segments(rproc, fw);
}

static const struct rproc_ops fake_ops = {
	.prepare = fake_prepare,
	.unprepare = fake_unprepare,
	.start = fake_start,
	.stop = fake_stop,
	.attach = fake_attach,
	.detach = fake_detach,
	.kick = fake_kick,
	.da_to_va = fake_da_to_va,
	.handle_rsc = fake_handle_rsc,
	.get_loaded_rsc_table = fake_get_loaded_rsc_table,
	.panic = fake_panic,
};

/* With a loader of its own, mainline defaults none of the ELF helpers. */
static const struct rproc_ops fake_custom_load_ops = {
	.prepare = fake_prepare,
	.unprepare = fake_unprepare,
	.start = fake_start,
	.stop = fake_stop,
	.kick = fake_kick,
	.da_to_va = fake_da_to_va,
	.load = fake_load,
	.get_boot_addr = rproc_elf_get_boot_addr,
};

/* What a boot loader leaves: a running remote and its resource table. */
static void fake_boot_loader(struct ampsoc_rproc_fake *fake)
{
	struct fake_att_table *t = fake->mem + FAKE_ATT_RSC_OFF;

	memset(t, 0, sizeof(*t));
	t->hdr.ver = 1;
	t->hdr.num = fake->portable ? 1 : 2;
	t->offset[0] = offsetof(struct fake_att_table, trace_type);
	t->offset[1] = offsetof(struct fake_att_table, vdev_type);
	t->trace_type = RSC_TRACE;
	t->trace.da = FWGEN_MEM_DA + FAKE_ATT_TRACE_OFF;
	t->trace.len = FAKE_ATT_TRACE_LEN;
	strscpy(t->trace.name, "trace0", sizeof(t->trace.name));
	t->vdev_type = RSC_VDEV;
	t->vdev.id = FWGEN_TEST_VDEV_ID;
	t->vdev.config_len = sizeof(t->config);
	t->vdev.num_of_vrings = 1;
	t->vring0.da = FW_RSC_ADDR_ANY;
	t->vring0.align = 4096;
	t->vring0.num = FWGEN_TEST_VRING_NUM;
	t->vring0.notifyid = FW_RSC_ADDR_ANY;
	scnprintf(fake->mem + FAKE_ATT_TRACE_OFF, FAKE_ATT_TRACE_LEN,
		  "started by the boot loader\n");
	fake->running = true;
}

static ssize_t fake_watchdog_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct ampsoc_rproc_fake *fake = file->private_data;

	rproc_report_crash(fake->rproc, RPROC_WATCHDOG);
	return count;
}

static const struct file_operations fake_watchdog_fops = {
	.open = simple_open,
	.write = fake_watchdog_write,
	.llseek = noop_llseek,
};

static void fake_debugfs(struct platform_device *pdev,
			 struct ampsoc_rproc_fake *fake)
{
	struct dentry *d;

	if (!fake_dbg_root)
		return;
	d = debugfs_create_dir(dev_name(&pdev->dev), fake_dbg_root);
	if (IS_ERR(d))
		return;
	fake->dbg = d;
	debugfs_create_atomic_t("starts", 0444, d, &fake->starts);
	debugfs_create_atomic_t("stops", 0444, d, &fake->stops);
	debugfs_create_atomic_t("kicks", 0444, d, &fake->kicks);
	debugfs_create_atomic_t("attaches", 0444, d, &fake->attaches);
	debugfs_create_atomic_t("detaches", 0444, d, &fake->detaches);
	debugfs_create_bool("powered", 0444, d, &fake->powered);
	debugfs_create_bool("running", 0444, d, &fake->running);
	debugfs_create_u32("fail_start", 0644, d, (u32 *)&fake->fail_start);
	debugfs_create_u32("fail_stop", 0644, d, (u32 *)&fake->fail_stop);
	debugfs_create_u32("fail_prepare", 0644, d, (u32 *)&fake->fail_prepare);
	debugfs_create_file("watchdog", 0200, d, fake, &fake_watchdog_fops);
}

static void fake_free_mem(struct ampsoc_rproc_fake *fake)
{
	if (fake->mem_pa != ~(phys_addr_t)0)
		free_pages_exact(fake->mem, fake->mem_size);
	else
		vfree(fake->mem);
	fake->mem = NULL;
}

static int fake_probe(struct platform_device *pdev)
{
	const struct ampsoc_rproc_fake_pdata *pd = dev_get_platdata(&pdev->dev);
	struct ampsoc_rproc_fake_pdata none = { 0 };
	struct ampsoc_rproc_fake *fake;
	struct rproc *rproc;
	size_t size;
	int ret;

	if (!pd)
		pd = &none;
	size = pd->mem_size ? pd->mem_size : FWGEN_MEM_SIZE;
	rproc = rproc_alloc(&pdev->dev, dev_name(&pdev->dev),
			    pd->custom_load ? &fake_custom_load_ops : &fake_ops,
			    pd->portable ? FWGEN_PORTABLE_NAME : FWGEN_GOOD64_NAME,
			    sizeof(*fake));
	if (!rproc)
		return -ENOMEM;
	fake = rproc->priv;
	fake->rproc = rproc;
	fake->mem_size = size;
	fake->mem_pa = ~(phys_addr_t)0;
	fake->no_carveouts = pd->no_carveouts;
	fake->portable = pd->portable;
	init_completion(&fake->started);
	if (pd->contiguous) {
		fake->mem = alloc_pages_exact(size, GFP_KERNEL);
		if (fake->mem)
			fake->mem_pa = virt_to_phys(fake->mem);
	} else {
		fake->mem = vmalloc(size);
	}
	if (!fake->mem) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* Not zero, so tests can tell loaded and zeroed bytes apart. */
	memset(fake->mem, 0xa5, size);
	if (pd->elf_class)
		rproc_coredump_set_elf_info(rproc, pd->elf_class, pd->machine);
	rproc->auto_boot = pd->auto_boot;
	rproc->has_iommu = pd->has_iommu;
	if (pd->recover_by_attach)
		rproc_set_feature(rproc, RPROC_FEAT_ATTACH_ON_RECOVERY);
	if (pd->detached) {
		fake_boot_loader(fake);
		rproc->state = RPROC_DETACHED;
	}
	platform_set_drvdata(pdev, fake);
	if (!pd->no_runtime_pm)
		pm_runtime_enable(&pdev->dev);
	ret = rproc_add(rproc);
	if (ret)
		goto err_pm;
	fake_debugfs(pdev, fake);
	return 0;

err_pm:
	pm_runtime_disable(&pdev->dev);
err_free:
	fake_free_mem(fake);
	rproc_free(rproc);
	return ret;
}

static int fake_remove(struct platform_device *pdev)
{
	struct ampsoc_rproc_fake *fake = platform_get_drvdata(pdev);

	debugfs_remove_recursive(fake->dbg);
	rproc_del(fake->rproc);
	pm_runtime_disable(&pdev->dev);
	/* fake is the processor's private data: free the memory first */
	fake_free_mem(fake);
	rproc_free(fake->rproc);
	return 0;
}

static int fake_runtime_suspend(struct device *dev)
{
	struct ampsoc_rproc_fake *fake = dev_get_drvdata(dev);

	WRITE_ONCE(fake->powered, false);
	return 0;
}

static int fake_runtime_resume(struct device *dev)
{
	struct ampsoc_rproc_fake *fake = dev_get_drvdata(dev);

	WRITE_ONCE(fake->powered, true);
	return 0;
}

static const struct dev_pm_ops fake_pm_ops = {
	SET_RUNTIME_PM_OPS(fake_runtime_suspend, fake_runtime_resume, NULL)
};

static struct platform_driver fake_driver = {
	.probe = fake_probe,
	.remove = fake_remove,
	.driver = {
		.name = AMPSOC_RPROC_FAKE_DRV,
		.pm = &fake_pm_ops,
	},
};

static int __init fake_init(void)
{
	struct ampsoc_rproc_fake_pdata pd[3] = {
		{ .elf_class = ELFCLASS64, .machine = EM_X86_64,
		  .portable = portable },
		{ .portable = portable },
		{ .detached = true, .portable = portable },
	};
	unsigned int i, n = min_t(unsigned int, devices + detached,
				  FAKE_MAX_DEVICES);
	int ret;

	fake_dbg_root = debugfs_create_dir("ampsoc_rproc_fake", NULL);
	if (IS_ERR(fake_dbg_root))
		fake_dbg_root = NULL;
	ret = platform_driver_register(&fake_driver);
	if (ret)
		goto err_dbg;
	for (i = 0; i < n; i++) {
		const struct ampsoc_rproc_fake_pdata *p =
			i >= devices ? &pd[2] : i ? &pd[1] : &pd[0];
		struct platform_device *pdev;

		pdev = platform_device_register_data(NULL, AMPSOC_RPROC_FAKE_DRV,
						     i, p, sizeof(*p));
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_devs;
		}
		fake_pdevs[i] = pdev;
	}
	return 0;

err_devs:
	while (i--)
		platform_device_unregister(fake_pdevs[i]);
	platform_driver_unregister(&fake_driver);
err_dbg:
	debugfs_remove_recursive(fake_dbg_root);
	return ret;
}
module_init(fake_init);

static void __exit fake_exit(void)
{
	unsigned int i;

	for (i = FAKE_MAX_DEVICES; i--;)
		if (fake_pdevs[i])
			platform_device_unregister(fake_pdevs[i]);
	platform_driver_unregister(&fake_driver);
	debugfs_remove_recursive(fake_dbg_root);
}
module_exit(fake_exit);

MODULE_DESCRIPTION("ampsoc fake remote processor for remoteproc tests");
MODULE_LICENSE("GPL");

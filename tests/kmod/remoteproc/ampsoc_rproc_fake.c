// SPDX-License-Identifier: GPL-2.0
/*
 * A fake remote processor for testing the remoteproc framework without the
 * virtual SoC. Its memory is a vmalloc'd buffer at device address
 * FWGEN_MEM_DA. "Starting" it checks that the firmware's entry point holds
 * the test firmware's magic (so a loader bug fails the boot) and writes a
 * line into the firmware's first trace buffer, as a real firmware would.
 *
 * Module parameter devices=N creates N processors at load (for scenarios):
 * the first accepts only ELF64 x86-64 images, the others any image.
 * /sys/kernel/debug/ampsoc_rproc_fake/<device>/ has counters, "watchdog"
 * (write anything: the driver reports a watchdog crash) and "fail_start"
 * (a positive errno that the next starts return).
 */
#include <linux/debugfs.h>
#include <linux/elf.h>
#include <linux/io.h>
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

static struct platform_device *fake_pdevs[FAKE_MAX_DEVICES];
static struct dentry *fake_dbg_root;

/* Write a boot message into the first trace buffer of the loaded table. */
static void fake_trace_boot(struct ampsoc_rproc *rproc, unsigned int boot)
{
	const struct ampsoc_rsc_table *t = rproc->table_ptr;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->num; i++) {
		const struct ampsoc_rsc_hdr *h = (const void *)t + t->offset[i];
		const struct ampsoc_rsc_trace *tr = (const void *)h->data;
		char *va;

		if (h->type != AMPSOC_RSC_TRACE)
			continue;
		va = ampsoc_rproc_da_to_va(rproc, tr->da, tr->len);
		if (va)
			scnprintf(va, tr->len,
				  "fake remote %s: booted %s at 0x%llx (boot %u)\n",
				  rproc->name, rproc->firmware,
				  rproc->bootaddr, boot);
		return;
	}
}

static int fake_start(struct ampsoc_rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;
	const void *entry;

	if (fake->fail_start)
		return -fake->fail_start;
	entry = ampsoc_rproc_da_to_va(rproc, rproc->bootaddr,
				      sizeof(FWGEN_TEXT_MAGIC) - 1);
	if (!entry || memcmp(entry, FWGEN_TEXT_MAGIC,
			     sizeof(FWGEN_TEXT_MAGIC) - 1)) {
		dev_err(&rproc->dev, "no test firmware at the entry point\n");
		return -ENOEXEC;
	}
	fake->powered_at_start = READ_ONCE(fake->powered);
	fake->running = true;
	fake_trace_boot(rproc, atomic_inc_return(&fake->starts));
	return 0;
}

static int fake_stop(struct ampsoc_rproc *rproc)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	fake->running = false;
	atomic_inc(&fake->stops);
	return 0;
}

static void fake_kick(struct ampsoc_rproc *rproc, int vqid)
{
	struct ampsoc_rproc_fake *fake = rproc->priv;

	WRITE_ONCE(fake->last_kick, vqid);
	atomic_inc(&fake->kicks);
}

static int fake_handle_rsc(struct ampsoc_rproc *rproc, u32 type, void *rsc,
			   int offset, int avail)
{
	if (type == FWGEN_VENDOR_OK)
		return AMPSOC_RSC_HANDLED;
	if (type == FWGEN_VENDOR_REFUSED)
		return -EPERM;
	return AMPSOC_RSC_IGNORED;
}

static const struct ampsoc_rproc_ops fake_ops = {
	.start = fake_start,
	.stop = fake_stop,
	.kick = fake_kick,
	.handle_rsc = fake_handle_rsc,
};

static ssize_t fake_watchdog_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct ampsoc_rproc_fake *fake = file->private_data;

	ampsoc_rproc_report_crash(fake->rproc, AMPSOC_RPROC_WATCHDOG);
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
	debugfs_create_bool("powered", 0444, d, &fake->powered);
	debugfs_create_bool("running", 0444, d, &fake->running);
	debugfs_create_u32("fail_start", 0644, d, (u32 *)&fake->fail_start);
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
	struct ampsoc_rproc_fake *fake;
	struct ampsoc_rproc *rproc;
	size_t size = pd && pd->mem_size ? pd->mem_size : FWGEN_MEM_SIZE;
	int ret;

	rproc = ampsoc_rproc_alloc(&pdev->dev, dev_name(&pdev->dev), &fake_ops,
				   FWGEN_GOOD64_NAME, sizeof(*fake));
	if (!rproc)
		return -ENOMEM;
	fake = rproc->priv;
	fake->rproc = rproc;
	fake->mem_size = size;
	fake->mem_pa = ~(phys_addr_t)0;
	if (pd && pd->contiguous) {
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
	if (pd) {
		rproc->elf_class = pd->elf_class;
		rproc->elf_machine = pd->machine;
		rproc->auto_boot = pd->auto_boot;
	}
	ret = ampsoc_rproc_add_mem(rproc, "ram", FWGEN_MEM_DA, fake->mem_pa,
				   fake->mem, size);
	if (ret)
		goto err_free;
	platform_set_drvdata(pdev, fake);
	if (!pd || !pd->no_runtime_pm)
		pm_runtime_enable(&pdev->dev);
	ret = ampsoc_rproc_add(rproc);
	if (ret)
		goto err_pm;
	fake_debugfs(pdev, fake);
	return 0;

err_pm:
	pm_runtime_disable(&pdev->dev);
err_free:
	fake_free_mem(fake);
	ampsoc_rproc_free(rproc);
	return ret;
}

static int fake_remove(struct platform_device *pdev)
{
	struct ampsoc_rproc_fake *fake = platform_get_drvdata(pdev);

	debugfs_remove_recursive(fake->dbg);
	ampsoc_rproc_del(fake->rproc);
	pm_runtime_disable(&pdev->dev);
	/* fake is the processor's private data: free the memory first */
	fake_free_mem(fake);
	ampsoc_rproc_free(fake->rproc);
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
	struct ampsoc_rproc_fake_pdata strict = {
		.elf_class = ELFCLASS64,
		.machine = EM_X86_64,
	}, any = { 0 };
	unsigned int i;
	int ret;

	fake_dbg_root = debugfs_create_dir("ampsoc_rproc_fake", NULL);
	if (IS_ERR(fake_dbg_root))
		fake_dbg_root = NULL;
	ret = platform_driver_register(&fake_driver);
	if (ret)
		goto err_dbg;
	for (i = 0; i < min_t(unsigned int, devices, FAKE_MAX_DEVICES); i++) {
		struct platform_device *p;

		p = platform_device_register_data(NULL, AMPSOC_RPROC_FAKE_DRV,
						  i, i ? &any : &strict,
						  sizeof(strict));
		if (IS_ERR(p)) {
			ret = PTR_ERR(p);
			goto err_devs;
		}
		fake_pdevs[i] = p;
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

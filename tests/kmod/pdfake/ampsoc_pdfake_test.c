// SPDX-License-Identifier: GPL-2.0
/*
 * Fake SoC for the PM domain guest scenarios: a small domain hierarchy
 * whose "hardware" is a flag per domain, and platform devices bound to a
 * driver with real runtime PM (autosuspend) and system sleep callbacks.
 *
 *   fake_top ─┬─ fake_mid ── fake_leaf   ampsoc-pdfake.0, .1
 *             └─ fake_side (SLEEP_SKIP_OFF) ampsoc-pdfake.2
 *   fake_wake (ACTIVE_WAKEUP)            ampsoc-pdfake.3 (wakeup capable)
 *   fake_qos (QoS governor, 3 states)    ampsoc-pdfake.4
 *   extra_devs=N more devices, .5 on, in mid, leaf, side, top in turn
 *
 * Userspace drives the devices through power/control, power/wakeup,
 * power/pm_qos_resume_latency_us and the "busy" attribute (1: take a
 * runtime PM reference, 0: drop it with autosuspend), and reads:
 *  - /sys/devices/platform/ampsoc-pdfake.N/stats: driver callback counts;
 *  - /sys/kernel/debug/ampsoc_pdfake/<domain>: the hardware's view,
 *    "hw=<on|off> ons=<n> offs=<n> sleep_offs=<n>";
 *  - /sys/kernel/debug/ampsoc_pdfake/violations: driver callbacks of a
 *    device that was not runtime-suspended, run while its domain's
 *    hardware was off (must stay 0; as in 6.1, a runtime-suspended
 *    device's system-sleep callbacks may run with its domain off).
 */
#include <ampsoc/pm_domain.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/suspend.h>

#define DRV_NAME "ampsoc-pdfake"

static unsigned int autosuspend_ms = 50;
module_param(autosuspend_ms, uint, 0444);
MODULE_PARM_DESC(autosuspend_ms, "autosuspend delay of the fake devices");

struct fake_pd {
	struct ampsoc_pd pd;
	struct ampsoc_pd_state st[3];
	bool hw_on;
	unsigned int ons;
	unsigned int offs;
	unsigned int sleep_offs;
};

enum { TOP, MID, LEAF, SIDE, WAKE, QOS, NR_DOMAINS };

static const char * const fake_names[NR_DOMAINS] = {
	"fake_top", "fake_mid", "fake_leaf", "fake_side", "fake_wake",
	"fake_qos",
};

static struct fake_pd fake_pds[NR_DOMAINS];
static const int dev_domain[] = { LEAF, LEAF, SIDE, WAKE, QOS };
/* Extra devices (stress scenarios) go round these domains. */
static const int extra_domain[] = { MID, LEAF, SIDE, TOP };
#define MAX_EXTRA	64
static struct platform_device *fake_devs[ARRAY_SIZE(dev_domain) + MAX_EXTRA];

static unsigned int extra_devs;
module_param(extra_devs, uint, 0444);
MODULE_PARM_DESC(extra_devs, "more devices, in mid, leaf, side and top (max 64)");

static int fake_dev_domain(unsigned int i)
{
	if (i < ARRAY_SIZE(dev_domain))
		return dev_domain[i];
	return extra_domain[(i - ARRAY_SIZE(dev_domain)) % ARRAY_SIZE(extra_domain)];
}

static atomic_t violations = ATOMIC_INIT(0);
static struct dentry *dbg_root;

/* Between the PM notifier's PREPARE and POST events. */
static bool in_sleep;

static int fake_pm_notify(struct notifier_block *nb, unsigned long ev,
			  void *data)
{
	switch (ev) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
		WRITE_ONCE(in_sleep, true);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
		WRITE_ONCE(in_sleep, false);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block fake_pm_nb = {
	.notifier_call = fake_pm_notify,
};

static int fake_power_on(struct ampsoc_pd *pd)
{
	struct fake_pd *f = container_of(pd, struct fake_pd, pd);

	f->hw_on = true;
	f->ons++;
	return 0;
}

static int fake_power_off(struct ampsoc_pd *pd)
{
	struct fake_pd *f = container_of(pd, struct fake_pd, pd);

	f->hw_on = false;
	f->offs++;
	if (READ_ONCE(in_sleep))
		f->sleep_offs++;
	return 0;
}

struct fake_dev {
	struct fake_pd *fpd;
	struct mutex lock;	/* serialises busy */
	unsigned int busy;
	unsigned int cnt[12];
};

enum { C_RT_SUSPEND, C_RT_RESUME, C_SUSPEND, C_RESUME, C_SUSPEND_NOIRQ,
	C_RESUME_NOIRQ, C_FREEZE, C_THAW, C_FREEZE_NOIRQ, C_THAW_NOIRQ,
	C_RESTORE, C_RESTORE_NOIRQ };

static const char * const cnt_names[] = {
	"rt_suspend", "rt_resume", "suspend", "resume", "suspend_noirq",
	"resume_noirq", "freeze", "thaw", "freeze_noirq", "thaw_noirq",
	"restore", "restore_noirq",
};

/*
 * A driver callback: count it and check the domain's hardware is on for a
 * device in use (runtime callbacks run with the status in transition).
 */
static int fake_cb(struct device *dev, int which)
{
	struct fake_dev *fd = dev_get_drvdata(dev);

	if (!fd)
		return 0;
	fd->cnt[which]++;
	if (!READ_ONCE(fd->fpd->hw_on) && !pm_runtime_status_suspended(dev)) {
		atomic_inc(&violations);
		dev_err(dev, "%s with %s off\n", cnt_names[which],
			fd->fpd->pd.name);
	}
	return 0;
}

static int fake_rt_suspend(struct device *dev)
{
	return fake_cb(dev, C_RT_SUSPEND);
}

static int fake_rt_resume(struct device *dev)
{
	return fake_cb(dev, C_RT_RESUME);
}

static int fake_suspend(struct device *dev)
{
	return fake_cb(dev, C_SUSPEND);
}

static int fake_resume(struct device *dev)
{
	return fake_cb(dev, C_RESUME);
}

static int fake_suspend_noirq(struct device *dev)
{
	return fake_cb(dev, C_SUSPEND_NOIRQ);
}

static int fake_resume_noirq(struct device *dev)
{
	return fake_cb(dev, C_RESUME_NOIRQ);
}

static int fake_freeze(struct device *dev)
{
	return fake_cb(dev, C_FREEZE);
}

static int fake_thaw(struct device *dev)
{
	return fake_cb(dev, C_THAW);
}

static int fake_freeze_noirq(struct device *dev)
{
	return fake_cb(dev, C_FREEZE_NOIRQ);
}

static int fake_thaw_noirq(struct device *dev)
{
	return fake_cb(dev, C_THAW_NOIRQ);
}

static int fake_restore(struct device *dev)
{
	return fake_cb(dev, C_RESTORE);
}

static int fake_restore_noirq(struct device *dev)
{
	return fake_cb(dev, C_RESTORE_NOIRQ);
}

static const struct dev_pm_ops fake_pm = {
	.runtime_suspend = fake_rt_suspend,
	.runtime_resume = fake_rt_resume,
	.suspend = fake_suspend,
	.resume = fake_resume,
	.suspend_noirq = fake_suspend_noirq,
	.resume_noirq = fake_resume_noirq,
	.freeze = fake_freeze,
	.thaw = fake_thaw,
	.poweroff = fake_suspend,
	.restore = fake_restore,
	.freeze_noirq = fake_freeze_noirq,
	.thaw_noirq = fake_thaw_noirq,
	.poweroff_noirq = fake_suspend_noirq,
	.restore_noirq = fake_restore_noirq,
};

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct fake_dev *fd = dev_get_drvdata(dev);
	int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(cnt_names); i++)
		n += sysfs_emit_at(buf, n, "%s %u\n", cnt_names[i], fd->cnt[i]);
	return n;
}
static DEVICE_ATTR_RO(stats);

static ssize_t busy_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct fake_dev *fd = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", fd->busy);
}

static ssize_t busy_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct fake_dev *fd = dev_get_drvdata(dev);
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret)
		return ret;
	mutex_lock(&fd->lock);
	if (on && fd->busy < 16) {
		ret = pm_runtime_resume_and_get(dev);
		if (!ret)
			fd->busy++;
	} else if (!on && fd->busy) {
		fd->busy--;
		pm_runtime_mark_last_busy(dev);
		pm_runtime_put_autosuspend(dev);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&fd->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(busy);

static struct attribute *fake_attrs[] = {
	&dev_attr_stats.attr,
	&dev_attr_busy.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fake);

static int fake_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ampsoc_pd *pd = ampsoc_pd_of_dev(dev);
	struct fake_dev *fd;

	if (!pd)
		return -ENODEV;
	fd = devm_kzalloc(dev, sizeof(*fd), GFP_KERNEL);
	if (!fd)
		return -ENOMEM;
	fd->fpd = container_of(pd, struct fake_pd, pd);
	mutex_init(&fd->lock);
	platform_set_drvdata(pdev, fd);
	if (fd->fpd == &fake_pds[WAKE])
		device_set_wakeup_capable(dev, true);
	/* power/pm_qos_resume_latency_us, for the QoS governor. */
	if (fd->fpd == &fake_pds[QOS]) {
		int ret = dev_pm_qos_expose_latency_limit(dev,
				PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);

		if (ret)
			return ret;
	}
	/* Start active, then let autosuspend take the device down. */
	pm_runtime_get_noresume(dev);
	pm_runtime_set_autosuspend_delay(dev, autosuspend_ms);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_set_active(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	return 0;
}

static int fake_remove(struct platform_device *pdev)
{
	struct fake_dev *fd = platform_get_drvdata(pdev);

	while (fd->busy--)
		pm_runtime_put_noidle(&pdev->dev);
	dev_pm_qos_hide_latency_limit(&pdev->dev);
	pm_runtime_dont_use_autosuspend(&pdev->dev);
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver fake_driver = {
	.probe = fake_probe,
	.remove = fake_remove,
	.driver = {
		.name = DRV_NAME,
		.pm = &fake_pm,
		.dev_groups = fake_groups,
	},
};

static int hw_show(struct seq_file *s, void *data)
{
	struct fake_pd *f = s->private;

	seq_printf(s, "hw=%s ons=%u offs=%u sleep_offs=%u\n",
		   f->hw_on ? "on" : "off", f->ons, f->offs, f->sleep_offs);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hw);

static int violations_show(struct seq_file *s, void *data)
{
	seq_printf(s, "%d\n", atomic_read(&violations));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(violations);

static void fake_teardown(void)
{
	int i;

	for (i = ARRAY_SIZE(fake_devs) - 1; i >= 0; i--) {
		if (!fake_devs[i])
			continue;
		/*
		 * Unbind while the domain still powers the device: the driver
		 * core resumes it for remove, and a device already out of its
		 * domain would be resumed with the hardware off.
		 */
		device_release_driver(&fake_devs[i]->dev);
		ampsoc_pd_remove_device(&fake_devs[i]->dev);
		platform_device_unregister(fake_devs[i]);
		fake_devs[i] = NULL;
	}
	ampsoc_pd_remove_subdomain(&fake_pds[MID].pd, &fake_pds[LEAF].pd);
	ampsoc_pd_remove_subdomain(&fake_pds[TOP].pd, &fake_pds[MID].pd);
	ampsoc_pd_remove_subdomain(&fake_pds[TOP].pd, &fake_pds[SIDE].pd);
	for (i = 0; i < NR_DOMAINS; i++)
		if (fake_pds[i].pd.name)
			ampsoc_pd_remove(&fake_pds[i].pd);
}

static int __init fake_init(void)
{
	int i, ret;

	for (i = 0; i < NR_DOMAINS; i++) {
		struct fake_pd *f = &fake_pds[i];
		const struct ampsoc_pd_governor *gov = NULL;

		f->pd.name = fake_names[i];
		f->pd.power_on = fake_power_on;
		f->pd.power_off = fake_power_off;
		f->hw_on = true;
		if (i == WAKE)
			f->pd.flags = AMPSOC_PD_FLAG_ACTIVE_WAKEUP;
		/* The seed's system sleep: skipped while off, stays off. */
		if (i == SIDE)
			f->pd.flags = AMPSOC_PD_FLAG_SLEEP_SKIP_OFF;
		if (i == QOS) {
			/* 0, 2 ms and 20 ms to go off and come back. */
			f->st[1].power_off_latency_ns = NSEC_PER_MSEC;
			f->st[1].power_on_latency_ns = NSEC_PER_MSEC;
			f->st[2].power_off_latency_ns = 10 * NSEC_PER_MSEC;
			f->st[2].power_on_latency_ns = 10 * NSEC_PER_MSEC;
			f->st[0].fixed = true;
			f->st[1].fixed = true;
			f->st[2].fixed = true;
			f->pd.states = f->st;
			f->pd.state_count = 3;
			gov = &ampsoc_pd_qos_gov;
		}
		ret = ampsoc_pd_init(&f->pd, gov, false);
		if (ret) {
			f->pd.name = NULL;
			goto err;
		}
	}
	ret = ampsoc_pd_add_subdomain(&fake_pds[TOP].pd, &fake_pds[MID].pd) ?:
	      ampsoc_pd_add_subdomain(&fake_pds[MID].pd, &fake_pds[LEAF].pd) ?:
	      ampsoc_pd_add_subdomain(&fake_pds[TOP].pd, &fake_pds[SIDE].pd);
	if (ret)
		goto err;

	ret = platform_driver_register(&fake_driver);
	if (ret)
		goto err;
	for (i = 0; i < ARRAY_SIZE(dev_domain) + min(extra_devs, MAX_EXTRA); i++) {
		struct platform_device *p = platform_device_alloc(DRV_NAME, i);

		if (!p) {
			ret = -ENOMEM;
			goto err_drv;
		}
		ret = ampsoc_pd_add_device(&fake_pds[fake_dev_domain(i)].pd,
					   &p->dev);
		if (ret) {
			platform_device_put(p);
			goto err_drv;
		}
		ret = platform_device_add(p);
		if (ret) {
			ampsoc_pd_remove_device(&p->dev);
			platform_device_put(p);
			goto err_drv;
		}
		fake_devs[i] = p;
	}
	register_pm_notifier(&fake_pm_nb);
	/* Domains without devices of their own follow their children. */
	ampsoc_pd_power_off_unused();

	dbg_root = debugfs_create_dir("ampsoc_pdfake", NULL);
	for (i = 0; i < NR_DOMAINS; i++)
		debugfs_create_file(fake_names[i], 0444, dbg_root, &fake_pds[i],
				    &hw_fops);
	debugfs_create_file("violations", 0444, dbg_root, NULL,
			    &violations_fops);
	return 0;

err_drv:
	fake_teardown();
	platform_driver_unregister(&fake_driver);
	return ret;
err:
	fake_teardown();
	return ret;
}
module_init(fake_init);

static void __exit fake_exit(void)
{
	debugfs_remove_recursive(dbg_root);
	unregister_pm_notifier(&fake_pm_nb);
	fake_teardown();
	platform_driver_unregister(&fake_driver);
}
module_exit(fake_exit);

MODULE_DESCRIPTION("ampsoc PM domain scenarios: fake domains and devices");
MODULE_LICENSE("GPL");

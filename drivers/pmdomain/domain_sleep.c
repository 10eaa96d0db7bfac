// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: system sleep (suspend, hibernation).
 *
 * As Linux 6.1's genpd: every driver callback of every phase runs, whatever
 * the state of the domain; the domain acts in prepare, the noirq phases and
 * complete. The noirq suspend phase stops each device and powers its domain
 * off synchronously with the last one, parents after children;
 * resume_noirq powers the domain on again, parents first, whether or not it
 * was off at runtime before; complete queues a power-off so that idle
 * domains go off again.
 *
 * AMPSOC_PD_FLAG_SLEEP_SKIP_OFF brings back the 2011 seed's behaviour for
 * one domain: a device whose domain is off when its suspend, freeze or
 * poweroff phase begins is skipped in that phase and in every later phase
 * of the transition, and the domain stays off.
 */
#include <linux/device.h>
#include <linux/pm_wakeup.h>
#include <linux/suspend.h>

#include "domain_internal.h"

static bool pd_transition;

bool ampsoc_pd_in_transition(void)
{
	return READ_ONCE(pd_transition);
}

static int pd_pm_notify(struct notifier_block *nb, unsigned long action,
			void *data)
{
	switch (action) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
		WRITE_ONCE(pd_transition, true);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		WRITE_ONCE(pd_transition, false);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block pd_pm_nb = {
	.notifier_call = pd_pm_notify,
};

int ampsoc_pd_sleep_init(void)
{
	return register_pm_notifier(&pd_pm_nb);
}

void ampsoc_pd_sleep_exit(void)
{
	unregister_pm_notifier(&pd_pm_nb);
}

static bool pd_is_off(struct ampsoc_pd *pd)
{
	bool off;

	ampsoc_pd_lock(pd);
	off = pd->status == AMPSOC_PD_OFF;
	ampsoc_pd_unlock(pd);
	return off;
}

static int pd_prepare(struct device *dev)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;
	int ret = 0;

	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	ampsoc_pd_lock(pd);
	if (pd->prepared_count++ == 0)
		pd->suspended_count = 0;
	ampsoc_pd_unlock(pd);
	pdd->skip = false;
	pdd->wakeup_kept = false;
	pdd->stopped = false;

	if (dev->driver && dev->driver->pm && dev->driver->pm->prepare)
		ret = dev->driver->pm->prepare(dev);
	if (ret < 0) {
		ampsoc_pd_lock(pd);
		pd->prepared_count--;
		ampsoc_pd_unlock(pd);
		return ret;
	}
	/* No direct_complete: the domain has to see every device. */
	return 0;
}

static void pd_complete(struct device *dev)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;

	if (!pdd)
		return;
	pd = pdd->pd;

	if (dev->driver && dev->driver->pm && dev->driver->pm->complete)
		dev->driver->pm->complete(dev);

	ampsoc_pd_lock(pd);
	if (pd->prepared_count && --pd->prepared_count == 0)
		ampsoc_pd_queue_power_off(pd);
	ampsoc_pd_unlock(pd);
}

static bool pd_skips_off(struct ampsoc_pd *pd)
{
	return pd->flags & AMPSOC_PD_FLAG_SLEEP_SKIP_OFF;
}

/*
 * suspend, freeze, poweroff: the driver's callback. With SLEEP_SKIP_OFF,
 * this is where a device is found in a domain that is off and skipped for
 * the rest of the transition, whatever happens to the domain later.
 */
static int pd_main_down(struct device *dev, int (*cb)(struct device *dev))
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);

	if (!pdd)
		return -EINVAL;
	if (pd_skips_off(pdd->pd)) {
		pdd->skip = pd_is_off(pdd->pd);
		if (pdd->skip)
			return 0;
	}
	return cb(dev);
}

/*
 * suspend_late, freeze_late, poweroff_late: the driver's callback, unless
 * the device is skipped. A skipped device that has been runtime-resumed
 * since its main phase (runtime PM is off from here on) needs power after
 * all: it gets the main callback it missed, then this one, and the rest of
 * the transition as any other device.
 */
static int pd_late_down(struct device *dev, int (*main_cb)(struct device *dev),
			int (*cb)(struct device *dev))
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	int ret;

	if (!pdd)
		return -EINVAL;
	if (pdd->skip) {
		if (pm_runtime_status_suspended(dev))
			return 0;
		pdd->skip = false;
		ret = main_cb(dev);
		if (ret)
			return ret;
	}
	return cb(dev);
}

/* Resume side of the main and late phases. */
static int pd_up(struct device *dev, int (*cb)(struct device *dev))
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);

	if (!pdd)
		return -EINVAL;
	return pdd->skip ? 0 : cb(dev);
}

static int pd_suspend(struct device *dev)
{
	return pd_main_down(dev, pm_generic_suspend);
}

static int pd_suspend_late(struct device *dev)
{
	return pd_late_down(dev, pm_generic_suspend, pm_generic_suspend_late);
}

static int pd_resume_early(struct device *dev)
{
	return pd_up(dev, pm_generic_resume_early);
}

static int pd_resume(struct device *dev)
{
	return pd_up(dev, pm_generic_resume);
}

static int pd_freeze(struct device *dev)
{
	return pd_main_down(dev, pm_generic_freeze);
}

static int pd_freeze_late(struct device *dev)
{
	return pd_late_down(dev, pm_generic_freeze, pm_generic_freeze_late);
}

static int pd_thaw_early(struct device *dev)
{
	return pd_up(dev, pm_generic_thaw_early);
}

static int pd_thaw(struct device *dev)
{
	return pd_up(dev, pm_generic_thaw);
}

static int pd_poweroff(struct device *dev)
{
	return pd_main_down(dev, pm_generic_poweroff);
}

static int pd_poweroff_late(struct device *dev)
{
	return pd_late_down(dev, pm_generic_poweroff,
			    pm_generic_poweroff_late);
}

static int pd_restore_early(struct device *dev)
{
	return pd_up(dev, pm_generic_restore_early);
}

static int pd_restore(struct device *dev)
{
	return pd_up(dev, pm_generic_restore);
}

/*
 * noirq suspend/poweroff/freeze: driver callback, stop, and (unless
 * freezing) count the device and power the domain off with its last one.
 */
static int pd_noirq_down(struct device *dev, int (*cb)(struct device *dev),
			 int (*undo)(struct device *dev), bool power_off)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;
	int ret;

	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	if (pdd->skip) {
		/*
		 * Counted all the same: a domain powered on since this
		 * device's main phase goes off with its last device.
		 */
		if (power_off) {
			ampsoc_pd_lock(pd);
			pd->suspended_count++;
			ampsoc_pd_sync_power_off(pd, 0);
			ampsoc_pd_unlock(pd);
		}
		return 0;
	}

	ret = cb(dev);
	if (ret)
		return ret;

	if (power_off && ampsoc_pd_wakeup_path(dev) &&
	    (pd->flags & AMPSOC_PD_FLAG_ACTIVE_WAKEUP)) {
		pdd->wakeup_kept = true;
		return 0;
	}

	if (!pm_runtime_status_suspended(dev)) {
		ret = ampsoc_pd_dev_stop(pd, dev);
		if (ret) {
			undo(dev);
			return ret;
		}
		pdd->stopped = true;
	}

	if (power_off) {
		ampsoc_pd_lock(pd);
		pd->suspended_count++;
		ampsoc_pd_sync_power_off(pd, 0);
		ampsoc_pd_unlock(pd);
	}
	return 0;
}

/* Forget, for a hibernation restore, that the domain is on (lock held). */
static void pd_forget_on(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_link *link;

	if (pd->status == AMPSOC_PD_OFF)
		return;
	pd_for_each_parent(pd, link)
		atomic_dec(&link->parent->sd_count);
	pd->status = AMPSOC_PD_OFF;
	pd->accounting_time = ampsoc_pd_now();
}

static int pd_noirq_up(struct device *dev, int (*cb)(struct device *dev),
		       bool power_on, bool restore)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;
	int ret;

	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	if (pdd->skip) {
		if (power_on && !restore) {
			ampsoc_pd_lock(pd);
			pd->suspended_count--;
			ampsoc_pd_unlock(pd);
		}
		return 0;
	}
	if (pdd->wakeup_kept) {
		pdd->wakeup_kept = false;
		return cb(dev);
	}

	if (power_on) {
		ampsoc_pd_lock(pd);
		/*
		 * The kernel that loaded a hibernation image may have left
		 * the hardware in any state: power on again from scratch.
		 */
		if (restore && pd->suspended_count++ == 0)
			pd_forget_on(pd);
		ampsoc_pd_sync_power_on(pd, 0);
		if (!restore && pd->suspended_count)
			pd->suspended_count--;
		ampsoc_pd_unlock(pd);
	}

	if (pdd->stopped) {
		pdd->stopped = false;
		ret = ampsoc_pd_dev_start(pd, dev);
		if (ret)
			dev_err(dev, "start failed in PM domain %s: %d\n",
				pd->name, ret);
	}
	return cb(dev);
}

static int pd_suspend_noirq(struct device *dev)
{
	return pd_noirq_down(dev, pm_generic_suspend_noirq,
			     pm_generic_resume_noirq, true);
}

static int pd_resume_noirq(struct device *dev)
{
	return pd_noirq_up(dev, pm_generic_resume_noirq, true, false);
}

static int pd_freeze_noirq(struct device *dev)
{
	return pd_noirq_down(dev, pm_generic_freeze_noirq,
			     pm_generic_thaw_noirq, false);
}

static int pd_thaw_noirq(struct device *dev)
{
	return pd_noirq_up(dev, pm_generic_thaw_noirq, false, false);
}

static int pd_poweroff_noirq(struct device *dev)
{
	return pd_noirq_down(dev, pm_generic_poweroff_noirq,
			     pm_generic_restore_noirq, true);
}

static int pd_restore_noirq(struct device *dev)
{
	return pd_noirq_up(dev, pm_generic_restore_noirq, true, true);
}

void ampsoc_pd_set_sleep_ops(struct dev_pm_domain *domain)
{
	domain->ops.prepare = pd_prepare;
	domain->ops.complete = pd_complete;
	domain->ops.suspend = pd_suspend;
	domain->ops.suspend_late = pd_suspend_late;
	domain->ops.suspend_noirq = pd_suspend_noirq;
	domain->ops.resume_noirq = pd_resume_noirq;
	domain->ops.resume_early = pd_resume_early;
	domain->ops.resume = pd_resume;
	domain->ops.freeze = pd_freeze;
	domain->ops.freeze_late = pd_freeze_late;
	domain->ops.freeze_noirq = pd_freeze_noirq;
	domain->ops.thaw_noirq = pd_thaw_noirq;
	domain->ops.thaw_early = pd_thaw_early;
	domain->ops.thaw = pd_thaw;
	domain->ops.poweroff = pd_poweroff;
	domain->ops.poweroff_late = pd_poweroff_late;
	domain->ops.poweroff_noirq = pd_poweroff_noirq;
	domain->ops.restore_noirq = pd_restore_noirq;
	domain->ops.restore_early = pd_restore_early;
	domain->ops.restore = pd_restore;
}

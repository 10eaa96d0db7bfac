// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc PM clocks: a per-device list of Common Clock Framework clocks,
 * kept in a table of our own, apart from the kernel's pm_clk list in
 * dev->power.subsys_data, so that a driver may use both. A device's list
 * lives from ampsoc_pm_clk_create() to ampsoc_pm_clk_destroy(), which must
 * come before the device is freed. Clocks are prepared when added, so that
 * ampsoc_pm_clk_suspend()/resume() only gate and ungate them and can run
 * in any context, including the noirq phases of system sleep.
 */
#include <linux/clk.h>
#include <linux/hashtable.h>
#include <linux/slab.h>

#include "domain_internal.h"

/**
 * struct pd_clk - one PM clock of a device
 * @node: entry in pd_clk_dev.clocks
 * @con_id: connection id it was added with, or NULL
 * @clk: the clock, prepared
 * @enabled: ampsoc_pm_clk_resume() (or an add to a resumed list) enabled it
 * @resuming: the ampsoc_pm_clk_resume() under way enabled it (pd_clk_lock)
 */
struct pd_clk {
	struct list_head node;
	const char *con_id;
	struct clk *clk;
	bool enabled;
	bool resuming;
};

/**
 * struct pd_clk_dev - a device's PM clock list
 * @node: entry in the pd_clk_devs hash table
 * @dev: the device
 * @clocks: struct pd_clk, in the order they were added
 * @refs: ampsoc_pm_clk_create() calls not yet undone
 */
struct pd_clk_dev {
	struct hlist_node node;
	struct device *dev;
	struct list_head clocks;
	unsigned int refs;
};

/*
 * The lists are ours alone: dev->power.subsys_data->clock_list belongs to
 * the kernel's pm_clk (CONFIG_PM_CLK=y), which a driver may use on the
 * same device. pd_clk_lock, a spinlock because suspend and resume run in
 * any context, protects the table, every list and every entry's @enabled.
 * pd_clk_mutex serialises the changes of membership, which prepare and
 * unprepare clocks and so sleep.
 */
static DEFINE_HASHTABLE(pd_clk_devs, 6);
static DEFINE_SPINLOCK(pd_clk_lock);
static DEFINE_MUTEX(pd_clk_mutex);

/* pd_clk_lock held. */
static struct pd_clk_dev *pd_clk_find(struct device *dev)
{
	struct pd_clk_dev *cd;

	hash_for_each_possible(pd_clk_devs, cd, node, (unsigned long)dev)
		if (cd->dev == dev)
			return cd;
	return NULL;
}

/**
 * ampsoc_pm_clk_create - give a device an (empty) PM clock list
 * @dev: the device
 *
 * The list is private to ampsoc: the kernel's pm_clk_*() on the same
 * device keep theirs. Calls nest; each needs an ampsoc_pm_clk_destroy().
 *
 * Context: process context.
 * Return: 0 on success, -EINVAL for a NULL device, -ENOMEM.
 */
int ampsoc_pm_clk_create(struct device *dev)
{
	struct pd_clk_dev *cd, *fresh;

	if (!dev)
		return -EINVAL;
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	fresh->dev = dev;
	INIT_LIST_HEAD(&fresh->clocks);
	fresh->refs = 1;

	mutex_lock(&pd_clk_mutex);
	spin_lock_irq(&pd_clk_lock);
	cd = pd_clk_find(dev);
	if (cd)
		cd->refs++;
	else
		hash_add(pd_clk_devs, &fresh->node, (unsigned long)dev);
	spin_unlock_irq(&pd_clk_lock);
	mutex_unlock(&pd_clk_mutex);
	if (cd)
		kfree(fresh);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_create);

static void pd_clk_free(struct pd_clk *c)
{
	if (c->enabled)
		clk_disable(c->clk);
	clk_unprepare(c->clk);
	clk_put(c->clk);
	kfree_const(c->con_id);
	kfree(c);
}

/**
 * ampsoc_pm_clk_destroy - drop every PM clock of a device
 * @dev: a device given a list by ampsoc_pm_clk_create()
 *
 * Gates, unprepares and puts every clock of the list; the last call (one
 * per ampsoc_pm_clk_create()) frees the list itself.
 *
 * Context: process context.
 */
void ampsoc_pm_clk_destroy(struct device *dev)
{
	struct pd_clk_dev *cd, *gone_cd = NULL;
	struct pd_clk *c, *tmp;
	LIST_HEAD(gone);

	if (!dev)
		return;
	mutex_lock(&pd_clk_mutex);
	spin_lock_irq(&pd_clk_lock);
	cd = pd_clk_find(dev);
	if (cd) {
		list_splice_init(&cd->clocks, &gone);
		if (!--cd->refs) {
			hash_del(&cd->node);
			gone_cd = cd;
		}
	}
	spin_unlock_irq(&pd_clk_lock);
	mutex_unlock(&pd_clk_mutex);
	list_for_each_entry_safe(c, tmp, &gone, node)
		pd_clk_free(c);
	kfree(gone_cd);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_destroy);

static int pd_clk_add(struct device *dev, const char *con_id, struct clk *clk)
{
	struct pd_clk_dev *cd;
	struct pd_clk *c, *first;
	bool enable;
	int ret;

	if (!dev) {
		ret = -EINVAL;
		goto err_put;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		ret = -ENOMEM;
		goto err_put;
	}
	if (con_id) {
		c->con_id = kstrdup_const(con_id, GFP_KERNEL);
		if (!c->con_id) {
			ret = -ENOMEM;
			goto err_free;
		}
	}

	/* The list must exist before anything is looked up or prepared. */
	mutex_lock(&pd_clk_mutex);
	spin_lock_irq(&pd_clk_lock);
	cd = pd_clk_find(dev);
	spin_unlock_irq(&pd_clk_lock);
	if (!cd) {
		ret = -EINVAL;
		goto err_unlock;
	}
	if (!clk) {
		clk = clk_get(dev, con_id);
		if (IS_ERR(clk)) {
			ret = PTR_ERR(clk);
			clk = NULL;
			goto err_unlock;
		}
	}
	c->clk = clk;
	ret = clk_prepare(clk);
	if (ret)
		goto err_unlock;

	spin_lock_irq(&pd_clk_lock);
	/* A new clock follows the state of the ones already listed. */
	first = list_first_entry_or_null(&cd->clocks, struct pd_clk, node);
	enable = first && first->enabled;
	if (enable) {
		ret = clk_enable(clk);
		c->enabled = !ret;
	}
	if (!ret)
		list_add_tail(&c->node, &cd->clocks);
	spin_unlock_irq(&pd_clk_lock);
	mutex_unlock(&pd_clk_mutex);
	if (ret) {
		clk_unprepare(clk);
		goto err_free;
	}
	return 0;

err_unlock:
	mutex_unlock(&pd_clk_mutex);
err_free:
	kfree_const(c->con_id);
	kfree(c);
err_put:
	if (clk)
		clk_put(clk);
	return ret;
}

/**
 * ampsoc_pm_clk_add - add a clock, by connection id, to a device's list
 * @dev: a device given a list by ampsoc_pm_clk_create()
 * @con_id: connection id for clk_get() (may be NULL)
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL if the device has no list, the error of
 * clk_get() or clk_prepare(), or -ENOMEM.
 */
int ampsoc_pm_clk_add(struct device *dev, const char *con_id)
{
	return pd_clk_add(dev, con_id, NULL);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_add);

/**
 * ampsoc_pm_clk_add_clk - add a clock the caller already holds
 * @dev: a device given a list by ampsoc_pm_clk_create()
 * @clk: the clock; the list takes over the caller's reference, also when
 *	adding fails
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad clock or a device without a
 * list, the error of clk_prepare(), or -ENOMEM.
 */
int ampsoc_pm_clk_add_clk(struct device *dev, struct clk *clk)
{
	if (IS_ERR_OR_NULL(clk))
		return -EINVAL;
	return pd_clk_add(dev, NULL, clk);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_add_clk);

static void pd_clk_remove(struct device *dev, const char *con_id,
			  struct clk *clk)
{
	struct pd_clk *c, *found = NULL;
	struct pd_clk_dev *cd;

	if (!dev)
		return;
	mutex_lock(&pd_clk_mutex);
	spin_lock_irq(&pd_clk_lock);
	cd = pd_clk_find(dev);
	if (cd) {
		list_for_each_entry(c, &cd->clocks, node) {
			bool match = clk ? c->clk == clk :
				     (!con_id && !c->con_id) ||
				     (con_id && c->con_id &&
				      !strcmp(con_id, c->con_id));
			if (match) {
				found = c;
				list_del(&c->node);
				break;
			}
		}
	}
	spin_unlock_irq(&pd_clk_lock);
	mutex_unlock(&pd_clk_mutex);
	if (found)
		pd_clk_free(found);
}

/**
 * ampsoc_pm_clk_remove - remove a clock, by connection id
 * @dev: the device
 * @con_id: the connection id it was added with
 *
 * Context: process context; may sleep.
 */
void ampsoc_pm_clk_remove(struct device *dev, const char *con_id)
{
	pd_clk_remove(dev, con_id, NULL);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_remove);

/**
 * ampsoc_pm_clk_remove_clk - remove a clock added by ampsoc_pm_clk_add_clk()
 * @dev: the device
 * @clk: the clock
 *
 * Context: process context; may sleep.
 */
void ampsoc_pm_clk_remove_clk(struct device *dev, struct clk *clk)
{
	if (!IS_ERR_OR_NULL(clk))
		pd_clk_remove(dev, NULL, clk);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_remove_clk);

/**
 * ampsoc_pm_clk_suspend - gate every PM clock of a device, last added first
 * @dev: the device
 *
 * Only the clocks of ampsoc's list: the kernel's pm_clk list of the same
 * device is left alone.
 *
 * Context: any (the clocks are already prepared).
 * Return: 0 (a device without a list has nothing to do).
 */
int ampsoc_pm_clk_suspend(struct device *dev)
{
	struct pd_clk_dev *cd;
	unsigned long flags;
	struct pd_clk *c;

	if (!dev)
		return 0;
	spin_lock_irqsave(&pd_clk_lock, flags);
	cd = pd_clk_find(dev);
	if (cd) {
		list_for_each_entry_reverse(c, &cd->clocks, node) {
			if (c->enabled) {
				clk_disable(c->clk);
				c->enabled = false;
			}
		}
	}
	spin_unlock_irqrestore(&pd_clk_lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_suspend);

/**
 * ampsoc_pm_clk_resume - ungate every PM clock of a device, in list order
 * @dev: the device
 *
 * Context: any (the clocks are already prepared).
 * Return: 0 on success, or the first clk_enable() error, in which case the
 * clocks this call enabled are gated again (those already on stay on).
 */
int ampsoc_pm_clk_resume(struct device *dev)
{
	struct pd_clk_dev *cd;
	unsigned long flags;
	struct pd_clk *c;
	int ret = 0;

	if (!dev)
		return 0;
	spin_lock_irqsave(&pd_clk_lock, flags);
	cd = pd_clk_find(dev);
	if (!cd)
		goto out;
	list_for_each_entry(c, &cd->clocks, node) {
		if (c->enabled)
			continue;
		ret = clk_enable(c->clk);
		if (ret)
			break;
		c->enabled = true;
		c->resuming = true;
	}
	/* Undo only what this call did; forget the marks either way. */
	list_for_each_entry_continue_reverse(c, &cd->clocks, node) {
		if (ret && c->resuming) {
			clk_disable(c->clk);
			c->enabled = false;
		}
		c->resuming = false;
	}
out:
	spin_unlock_irqrestore(&pd_clk_lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_resume);

// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc PM clocks: a per-device list of Common Clock Framework clocks,
 * kept in dev->power.subsys_data->clock_list (the kernel's own pm_clk code
 * is not used on our devices). Clocks are prepared when added, so that
 * ampsoc_pm_clk_suspend()/resume() only gate and ungate them and can run
 * in any context, including the noirq phases of system sleep.
 */
#include <linux/clk.h>
#include <linux/slab.h>

#include "internal.h"

struct pd_clk {
	struct list_head node;
	const char *con_id;
	struct clk *clk;
	bool enabled;
};

static struct pm_subsys_data *pd_clk_psd(struct device *dev)
{
	return dev ? dev->power.subsys_data : NULL;
}

/**
 * ampsoc_pm_clk_create - give a device an (empty) PM clock list
 * @dev: the device
 *
 * Context: process context.
 * Return: 0 on success, -EINVAL for a NULL device, -ENOMEM.
 */
int ampsoc_pm_clk_create(struct device *dev)
{
	if (!dev)
		return -EINVAL;
	return dev_pm_get_subsys_data(dev);
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
 * ampsoc_pm_clk_destroy - drop every PM clock of a device and its list
 * @dev: a device given a list by ampsoc_pm_clk_create()
 *
 * Context: process context.
 */
void ampsoc_pm_clk_destroy(struct device *dev)
{
	struct pm_subsys_data *psd = pd_clk_psd(dev);
	struct pd_clk *c, *tmp;
	LIST_HEAD(gone);

	if (!psd)
		return;
	mutex_lock(&psd->clock_mutex);
	spin_lock_irq(&psd->lock);
	list_splice_init(&psd->clock_list, &gone);
	spin_unlock_irq(&psd->lock);
	mutex_unlock(&psd->clock_mutex);
	list_for_each_entry_safe(c, tmp, &gone, node)
		pd_clk_free(c);
	dev_pm_put_subsys_data(dev);
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_destroy);

static int pd_clk_add(struct device *dev, const char *con_id, struct clk *clk)
{
	struct pm_subsys_data *psd = pd_clk_psd(dev);
	struct pd_clk *c, *it;
	bool enable = false;
	int ret;

	if (!psd) {
		if (clk)
			clk_put(clk);
		return -EINVAL;
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
	if (!clk) {
		clk = clk_get(dev, con_id);
		if (IS_ERR(clk)) {
			ret = PTR_ERR(clk);
			clk = NULL;
			goto err_free;
		}
	}
	c->clk = clk;
	ret = clk_prepare(clk);
	if (ret)
		goto err_free;

	mutex_lock(&psd->clock_mutex);
	spin_lock_irq(&psd->lock);
	/* A new clock follows the state of the ones already listed. */
	list_for_each_entry(it, &psd->clock_list, node) {
		enable = it->enabled;
		break;
	}
	if (enable) {
		ret = clk_enable(clk);
		c->enabled = !ret;
	}
	if (!ret)
		list_add_tail(&c->node, &psd->clock_list);
	spin_unlock_irq(&psd->lock);
	mutex_unlock(&psd->clock_mutex);
	if (ret) {
		clk_unprepare(clk);
		goto err_free;
	}
	return 0;

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
	struct pm_subsys_data *psd = pd_clk_psd(dev);
	struct pd_clk *c, *found = NULL;

	if (!psd)
		return;
	mutex_lock(&psd->clock_mutex);
	spin_lock_irq(&psd->lock);
	list_for_each_entry(c, &psd->clock_list, node) {
		bool match = clk ? c->clk == clk :
			     (!con_id && !c->con_id) ||
			     (con_id && c->con_id && !strcmp(con_id, c->con_id));
		if (match) {
			found = c;
			list_del(&c->node);
			break;
		}
	}
	spin_unlock_irq(&psd->lock);
	mutex_unlock(&psd->clock_mutex);
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
 * Context: any (the clocks are already prepared).
 * Return: 0 (a device without a list has nothing to do).
 */
int ampsoc_pm_clk_suspend(struct device *dev)
{
	struct pm_subsys_data *psd = pd_clk_psd(dev);
	unsigned long flags;
	struct pd_clk *c;

	if (!psd)
		return 0;
	spin_lock_irqsave(&psd->lock, flags);
	list_for_each_entry_reverse(c, &psd->clock_list, node) {
		if (c->enabled) {
			clk_disable(c->clk);
			c->enabled = false;
		}
	}
	spin_unlock_irqrestore(&psd->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_suspend);

/**
 * ampsoc_pm_clk_resume - ungate every PM clock of a device, in list order
 * @dev: the device
 *
 * Context: any (the clocks are already prepared).
 * Return: 0 on success, or the first clk_enable() error, in which case the
 * clocks enabled so far are gated again.
 */
int ampsoc_pm_clk_resume(struct device *dev)
{
	struct pm_subsys_data *psd = pd_clk_psd(dev);
	unsigned long flags;
	struct pd_clk *c;
	int ret = 0;

	if (!psd)
		return 0;
	spin_lock_irqsave(&psd->lock, flags);
	list_for_each_entry(c, &psd->clock_list, node) {
		if (c->enabled)
			continue;
		ret = clk_enable(c->clk);
		if (ret)
			break;
		c->enabled = true;
	}
	if (ret) {
		list_for_each_entry_continue_reverse(c, &psd->clock_list, node) {
			if (c->enabled) {
				clk_disable(c->clk);
				c->enabled = false;
			}
		}
	}
	spin_unlock_irqrestore(&psd->lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pm_clk_resume);

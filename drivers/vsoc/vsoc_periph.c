// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc peripherals: the part every peripheral driver shares.
 *
 * A peripheral lives in a power domain (the power controller attached it
 * before we probe) and usually has a functional clock. Its driver uses
 * runtime PM with autosuspend: every access is bracketed by
 * vsoc_periph_get()/vsoc_periph_put(), the runtime callbacks gate and
 * ungate the clock, and the PM domain powers the domain on and off around
 * them. A command is the only way to touch the hardware (BAR2 does not
 * trap), so every command is made with the device resumed.
 *
 * Common sysfs attributes: label (board name), domain, clock, ops (commands
 * accepted), last_result, and touch (write anything: one NOP command).
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <ampsoc/pm_domain.h>

#include "vsoc_periph.h"

/* Autosuspend delay; writable through power/autosuspend_delay_ms. */
#define VSOC_PERIPH_AUTOSUSPEND_MS	50
#define VSOC_PERIPH_POLL_MS		10

/**
 * vsoc_periph_cmd() - run one command on the peripheral
 * @p: the peripheral, runtime-resumed by the caller
 * @cmd: VSOC_CMD_* or a type's command
 * @args: arguments for arg[0..@nargs)
 * @nargs: number of arguments (at most 6)
 *
 * Context: Process context; sleeps. Caller holds @p->lock.
 * Return: the model's result (0 or negative errno), -ETIMEDOUT if the
 * model never acknowledges, -EIO for a result that is not an errno.
 */
int vsoc_periph_cmd(struct vsoc_periph *p, u32 cmd, const u64 *args,
		    unsigned int nargs)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS);
	unsigned int i;
	s32 res;

	lockdep_assert_held(&p->lock);
	if (nargs > 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		writeq(i < nargs ? args[i] : 0, p->regs + PREG_ARG(i));
	writel(cmd, p->regs + PREG(cmd));
	reinit_completion(&p->cmd_done);
	wmb(); /* arguments before the sequence number */
	writel(++p->cmd_seq, p->regs + PREG(cmd_seq));
	wmb(); /* the sequence number before the doorbell */
	vsoc_kick(p->soc, vsoc_board(p->soc)->model_peer, VSOC_VEC_PERIPH);

	while (readl(p->regs + PREG(cmd_ack)) != p->cmd_seq) {
		if (time_after(jiffies, deadline)) {
			dev_err(p->dev, "command %u: no answer from the model\n",
				cmd);
			return -ETIMEDOUT;
		}
		wait_for_completion_timeout(&p->cmd_done,
					    msecs_to_jiffies(VSOC_PERIPH_POLL_MS));
	}
	rmb(); /* the acknowledgment before the result */
	res = (s32)readl(p->regs + PREG(cmd_result));
	if (res > 0 || res < -MAX_ERRNO)
		res = -EIO;
	p->last_result = res;
	if (!res)
		p->ops++;
	return res;
}

/**
 * vsoc_periph_value() - read a value register
 * @p: the peripheral
 * @i: register index (0..5)
 *
 * Context: Any context.
 * Return: the register's contents (model-written: validate before use).
 */
u64 vsoc_periph_value(struct vsoc_periph *p, unsigned int i)
{
	return readq(p->regs + PREG_VALUE(i));
}

/**
 * vsoc_periph_get() - resume the peripheral for an access
 * @p: the peripheral
 *
 * Context: Process context; sleeps.
 * Return: 0 or the runtime resume error (e.g. the domain failed to power
 * on); on error no reference is held and the next call tries again.
 */
int vsoc_periph_get(struct vsoc_periph *p)
{
	int ret = pm_runtime_resume_and_get(p->dev);

	if (ret) {
		dev_err(p->dev, "cannot resume: %d\n", ret);
		/*
		 * A failed resume leaves runtime_error set and every later
		 * resume refused; the device is still suspended, so say so
		 * and let the next access try the hardware again.
		 */
		pm_runtime_set_suspended(p->dev);
	}
	return ret;
}

/**
 * vsoc_periph_put() - end an access; the device autosuspends later
 * @p: the peripheral
 *
 * Context: Any context.
 */
void vsoc_periph_put(struct vsoc_periph *p)
{
	pm_runtime_mark_last_busy(p->dev);
	pm_runtime_put_autosuspend(p->dev);
}

static irqreturn_t vsoc_periph_isr(int irq, void *data)
{
	struct vsoc_periph *p = data;
	irqreturn_t ret = IRQ_NONE;

	if (readl(p->regs + PREG(cmd_ack)) == READ_ONCE(p->cmd_seq) &&
	    !completion_done(&p->cmd_done)) {
		complete(&p->cmd_done);
		ret = IRQ_HANDLED;
	}
	if (readl(p->regs + PREG(event_seq)) != READ_ONCE(p->event_seen)) {
		schedule_work(&p->event_work);
		ret = IRQ_HANDLED;
	}
	return ret;
}

static void vsoc_periph_event_work(struct work_struct *work)
{
	struct vsoc_periph *p = container_of(work, struct vsoc_periph,
					     event_work);
	u32 seq = readl(p->regs + PREG(event_seq));
	s32 res;

	if (seq == READ_ONCE(p->event_seen))
		return;
	rmb(); /* the sequence before the result */
	res = (s32)readl(p->regs + PREG(event_result));
	if (res > 0 || res < -MAX_ERRNO)
		res = -EIO;
	WRITE_ONCE(p->event_seen, seq);
	atomic_inc(&p->events);
	if (p->type->event)
		p->type->event(p, res);
	wake_up_all(&p->event_wq);
}

static int vsoc_periph_runtime_suspend(struct device *dev)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	clk_disable_unprepare(p->clk);
	return 0;
}

static int vsoc_periph_runtime_resume(struct device *dev)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	int ret;

	ret = clk_prepare_enable(p->clk);
	if (ret)
		return ret;
	/* Register state is lost with the domain: restore it. */
	writel(1, p->regs + PREG(irq_enable));
	return 0;
}

/*
 * System sleep: work in flight is stopped first (the model must not see a
 * busy device lose its domain), then the device is suspended like at
 * runtime and its PM domain powers off in the noirq phase.
 */
static int vsoc_periph_suspend(struct device *dev)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	if (p->type->suspend)
		p->type->suspend(p);
	return pm_runtime_force_suspend(dev);
}

static int vsoc_periph_resume(struct device *dev)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	int ret;

	ret = pm_runtime_force_resume(dev);
	if (!ret && p->type->resume)
		p->type->resume(p);
	return ret;
}

static const struct dev_pm_ops vsoc_periph_pm = {
	SET_RUNTIME_PM_OPS(vsoc_periph_runtime_suspend,
			   vsoc_periph_runtime_resume, NULL)
	SET_SYSTEM_SLEEP_PM_OPS(vsoc_periph_suspend, vsoc_periph_resume)
};

static ssize_t label_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", p->info->name);
}
static DEVICE_ATTR_RO(label);

static ssize_t domain_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n",
			  vsoc_board(p->soc)->domains[p->info->domain].name);
}
static DEVICE_ATTR_RO(domain);

static ssize_t clock_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", p->info->clock == VSOC_NONE ? "-" :
			  vsoc_board(p->soc)->clocks[p->info->clock].name);
}
static DEVICE_ATTR_RO(clock);

static ssize_t ops_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", p->ops);
}
static DEVICE_ATTR_RO(ops);

static ssize_t last_result_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", p->last_result);
}
static DEVICE_ATTR_RO(last_result);

static ssize_t touch_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	int ret;

	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	mutex_lock(&p->lock);
	ret = vsoc_periph_cmd(p, VSOC_CMD_NOP, NULL, 0);
	mutex_unlock(&p->lock);
	vsoc_periph_put(p);
	return ret ?: count;
}
static DEVICE_ATTR_WO(touch);

static struct attribute *vsoc_periph_attrs[] = {
	&dev_attr_label.attr,
	&dev_attr_domain.attr,
	&dev_attr_clock.attr,
	&dev_attr_ops.attr,
	&dev_attr_last_result.attr,
	&dev_attr_touch.attr,
	NULL
};

const struct attribute_group vsoc_periph_group = {
	.attrs = vsoc_periph_attrs,
};

static const struct attribute_group *vsoc_simple_groups[] = {
	&vsoc_periph_group,
	NULL
};

static const struct vsoc_periph_type vsoc_simple_type = {
	.type = VSOC_PERIPH_SIMPLE,
	.groups = vsoc_simple_groups,
};

static void vsoc_periph_cancel_work(void *data)
{
	struct vsoc_periph *p = data;

	cancel_work_sync(&p->event_work);
}

static int vsoc_periph_probe(struct platform_device *pdev)
{
	const struct vsoc_periph_type *type =
		(const void *)platform_get_device_id(pdev)->driver_data;
	struct device *dev = &pdev->dev;
	struct vsoc *soc = vsoc_get(dev);
	struct vsoc_periph *p;
	struct resource *res;
	u32 index = vsoc_child_index(dev);
	int irq, ret;

	if (!soc || index >= vsoc_board(soc)->nr_periphs)
		return -ENODEV;
	/*
	 * Without its domain every access would be a violation. The power
	 * controller attaches us when it probes: until then, wait; if it is
	 * bound and left us out (the domain would not power on), give up.
	 */
	if (!ampsoc_pd_of_dev(dev)) {
		struct device *pc = vsoc_find_child(soc, VSOC_DEV_POWER, 0);

		/* Links probe us only after it bound; its drvdata says so. */
		if (pc && READ_ONCE(pc->driver) && dev_get_drvdata(pc)) {
			dev_err(dev, "left out of its power domain\n");
			return -ENODEV;
		}
		return dev_err_probe(dev, -EPROBE_DEFER, "not in a power domain yet\n");
	}
	p = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->soc = soc;
	p->info = &vsoc_board(soc)->periphs[index];
	p->type = type;
	mutex_init(&p->lock);
	init_completion(&p->cmd_done);
	init_waitqueue_head(&p->event_wq);
	INIT_WORK(&p->event_work, vsoc_periph_event_work);

	p->regs = devm_platform_ioremap_resource_byname(pdev, "regs");
	if (IS_ERR(p->regs))
		return PTR_ERR(p->regs);
	res = platform_get_resource_byname(pdev, IORESOURCE_MEM, "data");
	if (res) {
		p->data = devm_ioremap_resource(dev, res);
		if (IS_ERR(p->data))
			return PTR_ERR(p->data);
		p->data_len = resource_size(res);
	}
	if (p->info->clock != VSOC_NONE) {
		p->clk = devm_clk_get(dev, NULL);
		/* The board names a clock: no lookup yet means no provider yet. */
		if (p->clk == ERR_PTR(-ENOENT))
			p->clk = ERR_PTR(-EPROBE_DEFER);
		if (IS_ERR(p->clk))
			return dev_err_probe(dev, PTR_ERR(p->clk), "no clock\n");
	}
	p->cmd_seq = readl(p->regs + PREG(cmd_seq));
	p->event_seen = readl(p->regs + PREG(event_seq));
	platform_set_drvdata(pdev, p);

	if (type->init) {
		ret = type->init(p);
		if (ret)
			return ret;
	}
	/* Runs after the interrupt is freed, which could queue the work. */
	ret = devm_add_action_or_reset(dev, vsoc_periph_cancel_work, p);
	if (ret)
		return ret;
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	ret = devm_request_irq(dev, irq, vsoc_periph_isr, IRQF_SHARED,
			       dev_name(dev), p);
	if (ret)
		return ret;

	pm_runtime_set_autosuspend_delay(dev, VSOC_PERIPH_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	ret = devm_pm_runtime_enable(dev);
	if (ret)
		return ret;
	/*
	 * One real resume: it powers the domain on if it is off (a rebind),
	 * or tells the domain that the device it counted as busy while
	 * unbound is ours now; the device then autosuspends.
	 */
	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	vsoc_periph_put(p);
	dev_dbg(dev, "%s in domain %s\n", p->info->name,
		vsoc_board(soc)->domains[p->info->domain].name);
	return 0;
}

static int vsoc_periph_remove(struct platform_device *pdev)
{
	struct vsoc_periph *p = platform_get_drvdata(pdev);

	if (p->type->stop)
		p->type->stop(p);
	/* Leave the device suspended so that its domain can go off. */
	pm_runtime_dont_use_autosuspend(p->dev);
	pm_runtime_suspend(p->dev);
	return 0;
}

static const struct platform_device_id vsoc_periph_ids[] = {
	{ VSOC_DEV_TIMER, (kernel_ulong_t)&vsoc_timer_type },
	{ VSOC_DEV_SENSOR, (kernel_ulong_t)&vsoc_sensor_type },
	{ VSOC_DEV_DMA, (kernel_ulong_t)&vsoc_dma_type },
	{ VSOC_DEV_SIMPLE, (kernel_ulong_t)&vsoc_simple_type },
	{ }
};
MODULE_DEVICE_TABLE(platform, vsoc_periph_ids);

#define VSOC_NR_PERIPH_DRIVERS	(ARRAY_SIZE(vsoc_periph_ids) - 1)

/*
 * One driver per type, so that each has its own name and attributes; each
 * matches only its own name (a table of one entry and the terminator).
 */
static struct platform_device_id vsoc_periph_one_id[VSOC_NR_PERIPH_DRIVERS][2];
static struct platform_driver vsoc_periph_drivers[VSOC_NR_PERIPH_DRIVERS];
static struct platform_driver *vsoc_periph_driver_ptrs[VSOC_NR_PERIPH_DRIVERS];

static int __init vsoc_periph_init(void)
{
	unsigned int i;

	for (i = 0; i < VSOC_NR_PERIPH_DRIVERS; i++) {
		const struct vsoc_periph_type *type =
			(const void *)vsoc_periph_ids[i].driver_data;
		struct platform_driver *drv = &vsoc_periph_drivers[i];

		drv->driver.name = vsoc_periph_ids[i].name;
		drv->driver.pm = &vsoc_periph_pm;
		drv->driver.dev_groups = type->groups;
		drv->probe = vsoc_periph_probe;
		drv->remove = vsoc_periph_remove;
		vsoc_periph_one_id[i][0] = vsoc_periph_ids[i];
		drv->id_table = vsoc_periph_one_id[i];
		vsoc_periph_driver_ptrs[i] = drv;
	}
	return platform_register_drivers(vsoc_periph_driver_ptrs,
					 VSOC_NR_PERIPH_DRIVERS);
}
module_init(vsoc_periph_init);

static void __exit vsoc_periph_exit(void)
{
	platform_unregister_drivers(vsoc_periph_driver_ptrs,
				    VSOC_NR_PERIPH_DRIVERS);
}
module_exit(vsoc_periph_exit);

MODULE_DESCRIPTION("ampsoc virtual SoC: timer, sensor, DMA engine and simple peripherals");
MODULE_LICENSE("GPL");

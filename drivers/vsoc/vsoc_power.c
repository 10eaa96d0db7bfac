// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc power controller: one ampsoc PM domain per hardware domain of the
 * board, with the board's hierarchy as subdomains, and every peripheral
 * and remote core attached to its domain before its driver probes (the
 * driver core orders that: consumers link to this device).
 *
 * Powering a domain on or off is a request to the model through the
 * domain's slot; the model applies the latency and refuses what the
 * hardware would (parent off, child on, always-on). A failed power-on
 * comes back as the error of the consumer's runtime resume; a stuck domain
 * times out after its latency plus VSOC_REQ_TIMEOUT_MS.
 *
 * At probe the model's current state (from telemetry) is the domains'
 * initial state, except that domains nobody needs are switched off first,
 * leaves before parents, so that the kernel and the model agree.
 */
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <ampsoc/pm_domain.h>
#include <ampsoc/vsoc.h>

/**
 * struct vsoc_pd_stats - time the model took to complete requests
 * @count: completed requests
 * @total_ns: their total duration, doorbell to acknowledgment
 * @max_ns: the longest
 */
struct vsoc_pd_stats {
	u64 count;
	u64 total_ns;
	u64 max_ns;
};

/**
 * struct vsoc_pd - one hardware power domain
 * @pd: the ampsoc PM domain
 * @state: its single idle state, with the board's latencies
 * @ctrl: the controller
 * @info: board description
 * @slot: its request slot
 * @index: domain index
 * @depth: distance from its root domain
 * @registered: ampsoc_pd_init() succeeded
 * @linked: the subdomain link to its parent exists
 * @needed: it has consumers or children that have (or is always-on)
 * @on: power-on request timing
 * @off: power-off request timing
 */
struct vsoc_pd {
	struct ampsoc_pd pd;
	struct ampsoc_pd_state state;
	struct vsoc_power *ctrl;
	const struct vsoc_domain_info *info;
	struct vsoc_slot slot;
	u32 index;
	unsigned int depth;
	bool registered;
	bool linked;
	bool needed;
	struct vsoc_pd_stats on;
	struct vsoc_pd_stats off;
};

/**
 * struct vsoc_power - the power controller
 * @dev: its platform device
 * @soc: the SoC
 * @ndoms: number of domains
 * @consumers: devices attached to a domain, to detach at remove
 * @nconsumers: entries in @consumers
 * @stats: the debugfs file with request timings
 * @doms: the domains, indexed like the board
 */
struct vsoc_power {
	struct device *dev;
	struct vsoc *soc;
	unsigned int ndoms;
	struct device **consumers;
	unsigned int nconsumers;
	struct dentry *stats;
	struct vsoc_pd doms[];
};

static int vsoc_pd_request(struct vsoc_pd *d, u32 op)
{
	u64 latency = op == VSOC_PWR_OP_ON ? d->info->on_latency_ns :
					     d->info->off_latency_ns;
	unsigned int timeout = div_u64(latency, NSEC_PER_MSEC) +
			       VSOC_REQ_TIMEOUT_MS;
	u32 want = op == VSOC_PWR_OP_ON ? VSOC_PWR_ON : VSOC_PWR_OFF;
	struct vsoc_pd_stats *st = op == VSOC_PWR_OP_ON ? &d->on : &d->off;
	struct vsoc_slot_result res;
	ktime_t t0 = ktime_get();
	u64 ns;
	int ret;

	ret = vsoc_slot_submit(d->ctrl->soc, &d->slot, VSOC_VEC_PWR, op, 0,
			       timeout, &res);
	if (!ret) {
		/* Requests on one domain are serialised by its lock. */
		ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
		st->count++;
		st->total_ns += ns;
		st->max_ns = max(st->max_ns, ns);
	}
	if (ret) {
		dev_err(d->ctrl->dev, "domain %s: power %s failed: %d\n",
			d->info->name, op == VSOC_PWR_OP_ON ? "on" : "off", ret);
		return ret;
	}
	if (res.state != want) {
		dev_err(d->ctrl->dev, "domain %s: model reports state %u after power %s\n",
			d->info->name, res.state,
			op == VSOC_PWR_OP_ON ? "on" : "off");
		return -EIO;
	}
	return 0;
}

static int vsoc_pd_power_on(struct ampsoc_pd *pd)
{
	return vsoc_pd_request(container_of(pd, struct vsoc_pd, pd),
			       VSOC_PWR_OP_ON);
}

static int vsoc_pd_power_off(struct ampsoc_pd *pd)
{
	return vsoc_pd_request(container_of(pd, struct vsoc_pd, pd),
			       VSOC_PWR_OP_OFF);
}

static int vsoc_power_stats_show(struct seq_file *m, void *v)
{
	struct vsoc_power *pc = m->private;
	unsigned int i;

	for (i = 0; i < pc->ndoms; i++) {
		const struct vsoc_pd *d = &pc->doms[i];

		seq_printf(m, "domain %s on_count %llu on_avg_ns %llu on_max_ns %llu off_count %llu off_avg_ns %llu off_max_ns %llu\n",
			   d->info->name, d->on.count,
			   d->on.count ? div64_u64(d->on.total_ns, d->on.count) : 0,
			   d->on.max_ns, d->off.count,
			   d->off.count ? div64_u64(d->off.total_ns, d->off.count) : 0,
			   d->off.max_ns);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vsoc_power_stats);

static irqreturn_t vsoc_power_isr(int irq, void *data)
{
	struct vsoc_power *pc = data;
	unsigned int i;

	for (i = 0; i < pc->ndoms; i++)
		vsoc_slot_poll(&pc->doms[i].slot);
	return IRQ_HANDLED;
}

static void vsoc_power_mark_needed(struct vsoc_power *pc, u32 dom)
{
	while (dom != VSOC_NONE && !pc->doms[dom].needed) {
		pc->doms[dom].needed = true;
		dom = pc->doms[dom].info->parent;
	}
}

static void vsoc_power_teardown(struct vsoc_power *pc)
{
	unsigned int i, depth, maxdepth = 0;
	int ret;

	debugfs_remove(pc->stats);
	pc->stats = NULL;
	while (pc->nconsumers) {
		struct device *dev = pc->consumers[--pc->nconsumers];

		ret = ampsoc_pd_remove_device(dev);
		if (ret)
			dev_err(pc->dev, "cannot detach %s: %d\n", dev_name(dev),
				ret);
		put_device(dev);
	}
	for (i = 0; i < pc->ndoms; i++)
		maxdepth = max(maxdepth, pc->doms[i].depth);
	/* Leaves first: a domain with subdomains cannot be removed. */
	for (depth = maxdepth + 1; depth-- > 0;) {
		for (i = 0; i < pc->ndoms; i++) {
			struct vsoc_pd *d = &pc->doms[i];

			if (d->depth != depth)
				continue;
			if (d->linked) {
				ret = ampsoc_pd_remove_subdomain(&pc->doms[d->info->parent].pd,
								 &d->pd);
				if (ret)
					dev_err(pc->dev, "cannot unlink %s: %d\n",
						d->info->name, ret);
				d->linked = false;
			}
			if (d->registered) {
				ret = ampsoc_pd_remove(&d->pd);
				if (ret)
					dev_err(pc->dev, "cannot remove %s: %d\n",
						d->info->name, ret);
				d->registered = false;
			}
		}
	}
}

static int vsoc_power_attach(struct vsoc_power *pc, const char *type, u32 idx,
			     u32 dom)
{
	struct device *dev = vsoc_find_child(pc->soc, type, idx);
	int ret;

	if (!dev)
		return 0;
	ret = ampsoc_pd_add_device(&pc->doms[dom].pd, dev);
	if (ret) {
		/*
		 * Attaching powers the domain on; if the hardware refuses,
		 * this consumer stays out of the domain (its driver will not
		 * probe) and the others go on.
		 */
		dev_err(pc->dev, "cannot attach %s to %s: %d\n", dev_name(dev),
			pc->doms[dom].info->name, ret);
		return ret == -ENOMEM || ret == -EINVAL ? ret : 0;
	}
	/* Held until detached, whatever happens to the device meanwhile. */
	pc->consumers[pc->nconsumers++] = get_device(dev);
	return 0;
}

static int vsoc_power_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vsoc *soc = vsoc_get(dev);
	struct vsoc_telemetry *tel;
	const struct vsoc_board *b;
	struct vsoc_power *pc;
	void __iomem *slots;
	unsigned int i, depth, maxdepth = 0;
	int irq, ret;

	if (!soc)
		return -ENODEV;
	b = vsoc_board(soc);
	pc = devm_kzalloc(dev, struct_size(pc, doms, b->nr_domains),
			  GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	pc->dev = dev;
	pc->soc = soc;
	pc->ndoms = b->nr_domains;
	pc->consumers = devm_kcalloc(dev, b->nr_periphs + b->nr_cores,
				     sizeof(*pc->consumers), GFP_KERNEL);
	if (!pc->consumers)
		return -ENOMEM;
	platform_set_drvdata(pdev, pc);
	if (!pc->ndoms)
		return 0;
	slots = devm_platform_ioremap_resource_byname(pdev, "slots");
	if (IS_ERR(slots))
		return PTR_ERR(slots);
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];
		u32 p;

		d->ctrl = pc;
		d->index = i;
		d->info = &b->domains[i];
		vsoc_slot_init(&d->slot, slots + i * sizeof(struct vsoc_req_slot));
		/* The board table was checked for cycles. */
		for (p = d->info->parent; p != VSOC_NONE; p = b->domains[p].parent)
			d->depth++;
		maxdepth = max(maxdepth, d->depth);
		if (d->info->flags & VSOC_DOMAIN_ALWAYS_ON)
			vsoc_power_mark_needed(pc, i);
	}
	for (i = 0; i < b->nr_periphs; i++)
		vsoc_power_mark_needed(pc, b->periphs[i].domain);
	for (i = 0; i < b->nr_cores; i++)
		vsoc_power_mark_needed(pc, b->cores[i].domain);

	ret = devm_request_irq(dev, irq, vsoc_power_isr, IRQF_SHARED,
			       dev_name(dev), pc);
	if (ret)
		return ret;

	/* Where the hardware is now, according to the model. */
	tel = kmalloc(sizeof(*tel), GFP_KERNEL);
	if (!tel)
		return -ENOMEM;
	ret = vsoc_telemetry_read(soc, tel);
	for (i = 0; i < pc->ndoms && !ret; i++) {
		u32 st = le32_to_cpu(tel->domains[i].state);

		if (st != VSOC_PWR_ON && st != VSOC_PWR_OFF) {
			dev_err(dev, "domain %s: model reports state %u at start\n",
				b->domains[i].name, st);
			ret = -EIO;
		}
		pc->doms[i].pd.status = st == VSOC_PWR_ON ? AMPSOC_PD_ON :
							    AMPSOC_PD_OFF;
	}
	kfree(tel);
	if (ret)
		return ret;

	/* Unneeded domains off (leaves first), always-on ones on (roots first). */
	for (depth = maxdepth + 1; depth-- > 0;) {
		for (i = 0; i < pc->ndoms; i++) {
			struct vsoc_pd *d = &pc->doms[i];

			if (d->depth != depth || d->needed ||
			    d->pd.status != AMPSOC_PD_ON)
				continue;
			/* Best effort: a domain that refuses simply stays on. */
			if (!vsoc_pd_request(d, VSOC_PWR_OP_OFF))
				d->pd.status = AMPSOC_PD_OFF;
		}
	}
	for (depth = 0; depth <= maxdepth; depth++) {
		for (i = 0; i < pc->ndoms; i++) {
			struct vsoc_pd *d = &pc->doms[i];

			if (d->depth == depth &&
			    (d->info->flags & VSOC_DOMAIN_ALWAYS_ON) &&
			    d->pd.status == AMPSOC_PD_OFF) {
				ret = vsoc_pd_request(d, VSOC_PWR_OP_ON);
				if (ret)
					return ret;
				d->pd.status = AMPSOC_PD_ON;
			}
		}
	}

	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];
		bool off = d->pd.status == AMPSOC_PD_OFF;

		d->state.name = "off";
		d->state.power_on_latency_ns = d->info->on_latency_ns;
		d->state.power_off_latency_ns = d->info->off_latency_ns;
		d->state.fixed = true;
		d->pd.name = d->info->name;
		d->pd.power_on = vsoc_pd_power_on;
		d->pd.power_off = vsoc_pd_power_off;
		d->pd.states = &d->state;
		d->pd.state_count = 1;
		if (d->info->flags & VSOC_DOMAIN_ALWAYS_ON)
			d->pd.flags |= AMPSOC_PD_FLAG_ALWAYS_ON;
		/* a running core keeps its domain on in system sleep */
		if (d->info->flags & VSOC_DOMAIN_CORE)
			d->pd.flags |= AMPSOC_PD_FLAG_ACTIVE_WAKEUP;
		ret = ampsoc_pd_init(&d->pd, NULL, off);
		if (ret) {
			dev_err(dev, "cannot register domain %s: %d\n",
				d->info->name, ret);
			goto err;
		}
		d->registered = true;
	}
	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];

		if (d->info->parent == VSOC_NONE)
			continue;
		ret = ampsoc_pd_add_subdomain(&pc->doms[d->info->parent].pd,
					      &d->pd);
		if (ret) {
			dev_err(dev, "cannot make %s a subdomain of %s: %d\n",
				d->info->name,
				b->domains[d->info->parent].name, ret);
			goto err;
		}
		d->linked = true;
	}

	for (i = 0; i < b->nr_periphs; i++) {
		ret = vsoc_power_attach(pc, vsoc_periph_dev_name(b->periphs[i].type),
					i, b->periphs[i].domain);
		if (ret)
			goto err;
	}
	for (i = 0; i < b->nr_cores; i++) {
		ret = vsoc_power_attach(pc, VSOC_DEV_RPROC, i,
					b->cores[i].domain);
		if (ret)
			goto err;
	}
	pc->stats = debugfs_create_file("power_stats", 0444,
					vsoc_debugfs_dir(soc), pc,
					&vsoc_power_stats_fops);
	dev_info(dev, "%u power domains, %u consumers\n", pc->ndoms,
		 pc->nconsumers);
	return 0;

err:
	vsoc_power_teardown(pc);
	return ret;
}

static int vsoc_power_remove(struct platform_device *pdev)
{
	vsoc_power_teardown(platform_get_drvdata(pdev));
	return 0;
}

static const struct platform_device_id vsoc_power_ids[] = {
	{ VSOC_DEV_POWER },
	{ }
};
MODULE_DEVICE_TABLE(platform, vsoc_power_ids);

static struct platform_driver vsoc_power_driver = {
	.driver = {
		.name = VSOC_DEV_POWER,
	},
	.probe = vsoc_power_probe,
	.remove = vsoc_power_remove,
	.id_table = vsoc_power_ids,
};
module_platform_driver(vsoc_power_driver);

MODULE_DESCRIPTION("ampsoc virtual SoC: power controller");
MODULE_LICENSE("GPL");

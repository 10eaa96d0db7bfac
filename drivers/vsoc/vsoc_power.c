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
 * leaves before parents, so that the kernel and the model agree. A board
 * domain that must stay on until sync (VSOC_DOMAIN_STAY_ON) is held on
 * instead, until the driver's .sync_state (every consumer linked to the
 * controller has bound) or ampsoc_pd's timeout; the model is told when.
 *
 * A core whose memory has its own domain (ABI 1.5, struct
 * vsoc_core_desc.mem_domain) is in two: its device is in its own domain,
 * and a virtual device stands for it in the memory domain, as Linux 6.1
 * does for a device with several domains (docs/pmdomain.md, "Multiple
 * domains per device"). The core's device is linked to it with
 * DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME, so its runtime resume (the
 * remoteproc start) powers the memory on before the core's own domain,
 * and its runtime suspend (the stop) lets it go off after. No
 * DL_FLAG_RPM_ACTIVE: the core's driver has not probed yet, its device
 * is not runtime-active. The memory domain stays on across system sleep
 * while the core does (ACTIVE_WAKEUP: ampsoc_pd counts a virtual device
 * in the wakeup path when its consumer is).
 *
 * Performance levels (ABI 1.5): a domain the board gives levels has a
 * set_performance_state() callback; the framework's state is the board's
 * level number (as a 6.1 provider's state is its OPP's opp-level), 0
 * meaning no requirement, that is the domain's lowest level. Another
 * number is refused with -ERANGE. Every domain's xlate passes its state up
 * unchanged where the board says perf_parent_ge (the framework's subdomain
 * vote then keeps the parent at least as high: 6.1's required-opps) and
 * as 0 otherwise. 6.1 sets the parents first also when the state falls;
 * the hardware needs the child lowered first, so a parent's level never
 * goes below a perf_parent_ge child's current level: it follows once the
 * child has gone down. Levels are serialised by the controller's
 * perf_lock, nested outside gone_lock and each slot's lock.
 *
 * IRQ-safe domains (ABI 1.6, VSOC_DOMAIN_IRQ_SAFE): the board promises a
 * switch within VSOC_IRQ_SAFE_MAX_LATENCY_NS and IRQ-safe parents, so the
 * domain is registered with AMPSOC_PD_FLAG_IRQ_SAFE and its IRQ-safe
 * devices power it from their runtime callbacks with interrupts off. Its
 * requests then cannot sleep: they are serialised by a spinlock, check
 * for the unbind under it (not under gone_lock), and poll the slot's
 * acknowledgment for at most the latency plus VSOC_REQ_ATOMIC_TIMEOUT_US.
 *
 * At unbind every consumer leaves its domain and every domain is
 * unregistered, leaves first. ampsoc_pd refuses to unregister a domain
 * that still has devices (a driver of another module may have put one
 * there), and a domain's memory must live as long as it is registered:
 * its sysfs files, its devices' dev->pm_domain and the core's lists point
 * into it. So the controller's memory is not device-managed: what cannot
 * be unregistered stays, "parked", with power requests failing (-ENODEV,
 * the hardware is no longer ours to drive) and the module pinned, and a
 * work item (and the next probe) tries again until the last device has
 * left, then frees it. Unloading the module while such a device is there
 * waits for it to leave.
 */
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
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
 * @info: board description (only while the controller is bound)
 * @name: the domain's name (outlives the board if the domain is parked)
 * @parent: parent domain index or VSOC_NONE
 * @slot: its request slot
 * @slot_lock: serialises power requests (under the domain's lock) and
 *	level requests (under the controller's perf_lock) on @slot
 * @slot_spin: serialises the power requests of an IRQ-safe domain on @slot
 *	in its place, and orders them against the controller's unbind
 * @irq_safe: the board says VSOC_DOMAIN_IRQ_SAFE: requests are polled
 * @levels: its performance levels in the board (only while bound)
 * @nr_levels: their number; 0: it has none
 * @parent_ge: the board says its parent's level must be at least its own
 * @want_level: the level the framework asks for; 0: none (the lowest)
 * @hw_level: the level the model has (0 for a domain without levels)
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
	char name[VSOC_NAME_LEN];
	u32 parent;
	struct vsoc_slot slot;
	struct mutex slot_lock;	/* see above */
	spinlock_t slot_spin;	/* see above */
	bool irq_safe;
	const struct vsoc_level_info *levels;
	u32 nr_levels;
	bool parent_ge;
	u32 want_level;
	u32 hw_level;
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
 * @dev: its platform device (a reference is held while parked)
 * @soc: the SoC
 * @gone_lock: held for reading around every request to the model, but
 *	those of IRQ-safe domains (which check @gone under their slot_spin)
 * @gone: the controller was unbound: requests fail
 * @perf_lock: serialises performance-level changes of all its domains
 * @parked: entry in vsoc_power_parked while domains outlive the binding
 * @ndoms: number of domains
 * @consumers: devices attached to a domain, to detach at remove (NULL
 *	once detached)
 * @nconsumers: entries in @consumers
 * @ncores: number of cores
 * @mem_virt: per core, its virtual device in its memory domain, or NULL
 * @mem_link: per core, the link from the core's device to @mem_virt
 * @stats: the debugfs file with request timings
 * @doms: the domains, indexed like the board
 */
struct vsoc_power {
	struct device *dev;
	struct vsoc *soc;
	struct rw_semaphore gone_lock;	/* @gone against requests */
	bool gone;
	struct mutex perf_lock;	/* see above */
	struct list_head parked;
	unsigned int ndoms;
	struct device **consumers;
	unsigned int nconsumers;
	unsigned int ncores;
	struct device **mem_virt;
	struct device_link **mem_link;
	struct dentry *stats;
	struct vsoc_pd doms[];
};

/* Controllers whose domains are still registered after their unbind. */
static LIST_HEAD(vsoc_power_parked);
static DEFINE_MUTEX(vsoc_power_parked_lock);
static void vsoc_power_retry(struct work_struct *work);
static DECLARE_DELAYED_WORK(vsoc_power_retry_work, vsoc_power_retry);
#define VSOC_POWER_RETRY	HZ

static const char *vsoc_pwr_op_name(u32 op)
{
	return op == VSOC_PWR_OP_ON ? "on" : op == VSOC_PWR_OP_OFF ? "off" :
	       "sync";
}

static int __vsoc_pd_request(struct vsoc_pd *d, u32 op)
{
	u64 latency = op == VSOC_PWR_OP_ON ? d->info->on_latency_ns :
		      op == VSOC_PWR_OP_OFF ? d->info->off_latency_ns : 0;
	unsigned int timeout = div_u64(latency, NSEC_PER_MSEC) +
			       VSOC_REQ_TIMEOUT_MS;
	u32 want = op == VSOC_PWR_OP_OFF ? VSOC_PWR_OFF : VSOC_PWR_ON;
	struct vsoc_pd_stats *st = op == VSOC_PWR_OP_ON ? &d->on : &d->off;
	struct vsoc_slot_result res;
	ktime_t t0 = ktime_get();
	u64 ns;
	int ret;

	if (d->irq_safe) {
		ret = vsoc_slot_submit_atomic(d->ctrl->soc, &d->slot,
					      VSOC_VEC_PWR, op, 0,
					      div_u64(latency, NSEC_PER_USEC) +
					      VSOC_REQ_ATOMIC_TIMEOUT_US, &res);
	} else {
		mutex_lock(&d->slot_lock);
		ret = vsoc_slot_submit(d->ctrl->soc, &d->slot, VSOC_VEC_PWR,
				       op, 0, timeout, &res);
		mutex_unlock(&d->slot_lock);
	}
	if (!ret && op != VSOC_PWR_OP_SYNC) {
		/* Requests on one domain are serialised by its lock. */
		ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
		st->count++;
		st->total_ns += ns;
		st->max_ns = max(st->max_ns, ns);
	}
	if (ret) {
		dev_err(d->ctrl->dev, "domain %s: power %s failed: %d\n",
			d->info->name, vsoc_pwr_op_name(op), ret);
		return ret;
	}
	/* A sync changes no state: there is none to check. */
	if (op != VSOC_PWR_OP_SYNC && res.state != want) {
		dev_err(d->ctrl->dev, "domain %s: model reports state %u after power %s\n",
			d->info->name, res.state, vsoc_pwr_op_name(op));
		return -EIO;
	}
	return 0;
}

/*
 * Called under the domain's lock: @gone_lock nests inside it. An IRQ-safe
 * domain's lock is a spinlock, held with interrupts off, and its callbacks
 * must not sleep: its requests take its slot_spin instead, and are polled.
 */
static int vsoc_pd_request(struct vsoc_pd *d, u32 op)
{
	struct vsoc_power *pc = d->ctrl;
	unsigned long flags;
	int ret = -ENODEV;

	if (d->irq_safe) {
		spin_lock_irqsave(&d->slot_spin, flags);
		if (!READ_ONCE(pc->gone))
			ret = __vsoc_pd_request(d, op);
		spin_unlock_irqrestore(&d->slot_spin, flags);
		return ret;
	}
	down_read(&pc->gone_lock);
	if (!pc->gone)
		ret = __vsoc_pd_request(d, op);
	up_read(&pc->gone_lock);
	return ret;
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

/* The lowest level of @d, or 0 without levels. */
static u32 vsoc_pd_lowest(const struct vsoc_pd *d)
{
	return d->nr_levels ? d->levels[0].level : 0;
}

static bool vsoc_pd_has_level(const struct vsoc_pd *d, u32 level)
{
	u32 i;

	for (i = 0; i < d->nr_levels; i++)
		if (d->levels[i].level == level)
			return true;
	return false;
}

/*
 * The level @d's hardware must be at: what the framework asks (the
 * lowest for none), and not below a perf_parent_ge child's current level.
 */
static u32 vsoc_pd_target(const struct vsoc_pd *d)
{
	struct vsoc_power *pc = d->ctrl;
	u32 t = d->want_level ?: vsoc_pd_lowest(d);
	unsigned int i;

	for (i = 0; i < pc->ndoms; i++) {
		const struct vsoc_pd *c = &pc->doms[i];

		if (c->parent == d->index && c->parent_ge)
			t = max(t, c->hw_level);
	}
	return t;
}

/* Ask the model for @level. perf_lock and gone_lock (read, not gone) held. */
static int vsoc_pd_level_request(struct vsoc_pd *d, u32 level)
{
	struct vsoc_slot_result res;
	u32 got;
	int ret;

	mutex_lock(&d->slot_lock);
	ret = vsoc_slot_submit(d->ctrl->soc, &d->slot, VSOC_VEC_PWR,
			       VSOC_PWR_OP_SET_LEVEL, level,
			       VSOC_REQ_TIMEOUT_MS, &res);
	got = readl(d->slot.regs + offsetof(struct vsoc_req_slot, level));
	mutex_unlock(&d->slot_lock);
	if (ret) {
		dev_err(d->ctrl->dev, "domain %s: level %u failed: %d\n",
			d->name, level, ret);
		return ret;
	}
	if (got != level) {
		dev_err(d->ctrl->dev, "domain %s: model reports level %u after level %u\n",
			d->name, got, level);
		return -EIO;
	}
	return 0;
}

/*
 * Bring @d's hardware to its target level; when that lowered a
 * perf_parent_ge domain, its parent may follow it down now. A parent that
 * cannot is left higher, which is safe, and says so. perf_lock and
 * gone_lock (read, not gone) held.
 */
static int vsoc_pd_apply_level(struct vsoc_pd *d)
{
	struct vsoc_power *pc = d->ctrl;
	u32 target = vsoc_pd_target(d), prev = d->hw_level;
	int ret;

	if (target == prev)
		return 0;
	ret = vsoc_pd_level_request(d, target);
	if (ret)
		return ret;
	d->hw_level = target;
	if (target < prev && d->parent_ge)
		vsoc_pd_apply_level(&pc->doms[d->parent]);
	return 0;
}

/* pd.set_performance_state: @state is a level number of the board, or 0. */
static int vsoc_pd_set_performance_state(struct ampsoc_pd *pd,
					 unsigned int state)
{
	struct vsoc_pd *d = container_of(pd, struct vsoc_pd, pd);
	struct vsoc_power *pc = d->ctrl;
	u32 prev;
	int ret = -ENODEV;

	mutex_lock(&pc->perf_lock);
	down_read(&pc->gone_lock);
	if (pc->gone)
		goto out;
	if (state && !vsoc_pd_has_level(d, state)) {
		dev_err(pc->dev, "domain %s: no performance level %u\n",
			d->name, state);
		ret = -ERANGE;
		goto out;
	}
	prev = d->want_level;
	d->want_level = state;
	ret = vsoc_pd_apply_level(d);
	if (ret)
		d->want_level = prev;
out:
	up_read(&pc->gone_lock);
	mutex_unlock(&pc->perf_lock);
	return ret;
}

/*
 * pd.xlate_performance_state: a perf_parent_ge domain needs its parent at
 * its own level number, another domain needs nothing of its parent.
 */
static int vsoc_pd_xlate_performance_state(struct ampsoc_pd *pd,
					   struct ampsoc_pd *parent,
					   unsigned int state)
{
	return container_of(pd, struct vsoc_pd, pd)->parent_ge ? state : 0;
}

/*
 * The stay-on hold of a VSOC_DOMAIN_STAY_ON domain ends (sync_state or
 * the core's timeout): tell the model, which flags a power-off before.
 */
static int vsoc_pd_stay_on_release(struct ampsoc_pd *pd, bool timeout)
{
	return vsoc_pd_request(container_of(pd, struct vsoc_pd, pd),
			       VSOC_PWR_OP_SYNC);
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

static bool vsoc_power_is_mem_domain(const struct vsoc_board *b, u32 dom)
{
	unsigned int i;

	for (i = 0; i < b->nr_cores; i++)
		if (b->cores[i].mem_domain == dom)
			return true;
	return false;
}

static bool vsoc_power_has_stay_on(const struct vsoc_board *b)
{
	unsigned int i;

	for (i = 0; i < b->nr_domains; i++)
		if (b->domains[i].flags & VSOC_DOMAIN_STAY_ON)
			return true;
	return false;
}

static void vsoc_power_mark_needed(struct vsoc_power *pc, u32 dom)
{
	while (dom != VSOC_NONE && !pc->doms[dom].needed) {
		pc->doms[dom].needed = true;
		dom = pc->doms[dom].info->parent;
	}
}

/*
 * Detach our consumers, unlink and unregister the domains, leaves first.
 * Whatever the core refuses stays as it is, to be retried. -EINVAL means
 * it is gone already. @quiet: a retry, which logs only its success.
 * Returns true when nothing of @pc is registered any more.
 */
static bool vsoc_power_teardown(struct vsoc_power *pc, bool quiet)
{
	unsigned int i, depth, maxdepth = 0;
	bool done = true;
	int ret;

	debugfs_remove(pc->stats);
	pc->stats = NULL;
	/* The memory domains' virtual devices before the cores themselves. */
	for (i = 0; i < pc->ncores; i++) {
		struct device *virt = pc->mem_virt[i];
		bool stuck;

		if (pc->mem_link[i]) {
			device_link_del(pc->mem_link[i]);
			pc->mem_link[i] = NULL;
		}
		if (!virt)
			continue;
		/* Ours to look at after the detach, which unregisters it. */
		get_device(virt);
		ampsoc_pd_detach(virt);
		/* Refused (system sleep): it stays, to be retried. */
		stuck = ampsoc_pd_of_dev(virt);
		put_device(virt);
		if (stuck) {
			done = false;
			continue;
		}
		pc->mem_virt[i] = NULL;
	}
	for (i = pc->nconsumers; i-- > 0;) {
		struct device *dev = pc->consumers[i];

		if (!dev)
			continue;
		ret = ampsoc_pd_remove_device(dev);
		if (ret && ret != -EINVAL) {
			if (!quiet)
				dev_err(pc->dev, "cannot detach %s: %d\n",
					dev_name(dev), ret);
			done = false;
			continue;
		}
		pc->consumers[i] = NULL;
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
				ret = ampsoc_pd_remove_subdomain(&pc->doms[d->parent].pd,
								 &d->pd);
				if (!ret || ret == -EINVAL)
					d->linked = false;
				else if (!quiet)
					dev_err(pc->dev, "cannot unlink %s: %d\n",
						d->name, ret);
			}
			if (d->registered && !d->linked) {
				ret = ampsoc_pd_remove(&d->pd);
				if (!ret || ret == -EINVAL)
					d->registered = false;
				else if (!quiet)
					dev_err(pc->dev, "cannot remove %s: %d\n",
						d->name, ret);
			}
			if (d->linked || d->registered)
				done = false;
		}
	}
	return done;
}

static void vsoc_power_free(struct vsoc_power *pc)
{
	kfree(pc->mem_link);
	kfree(pc->mem_virt);
	kfree(pc->consumers);
	kfree(pc);
}

/*
 * Unbind (or a failed probe): tear everything down, or park what the core
 * still holds. Before this returns the slots and the interrupt are still
 * ours; after it, a parked domain never touches them again.
 *
 * The module itself going away (rmmod) cannot be refused, nor can it keep
 * itself loaded for the domains' callbacks: then wait, domains fully
 * working, until the other drivers' devices have left them.
 */
static void vsoc_power_release(struct vsoc_power *pc)
{
	unsigned int i;

	if (vsoc_power_teardown(pc, false)) {
		vsoc_power_free(pc);
		return;
	}
	if (!module_is_live(THIS_MODULE)) {
		dev_err(pc->dev, "unloading waits until the devices of other drivers leave its domains\n");
		do
			schedule_timeout_idle(VSOC_POWER_RETRY);
		while (!vsoc_power_teardown(pc, true));
		dev_info(pc->dev, "the last domain in use is unregistered\n");
		vsoc_power_free(pc);
		return;
	}
	down_write(&pc->gone_lock);
	WRITE_ONCE(pc->gone, true);
	up_write(&pc->gone_lock);
	/* Wait out an IRQ-safe request in flight; the next one sees @gone. */
	for (i = 0; i < pc->ndoms; i++) {
		spin_lock_irq(&pc->doms[i].slot_spin);
		pc->doms[i].info = NULL;
		spin_unlock_irq(&pc->doms[i].slot_spin);
	}
	get_device(pc->dev);
	/* The domains' callbacks are our code: stay loaded while they live. */
	__module_get(THIS_MODULE);
	mutex_lock(&vsoc_power_parked_lock);
	list_add_tail(&pc->parked, &vsoc_power_parked);
	mutex_unlock(&vsoc_power_parked_lock);
	dev_err(pc->dev, "domains still in use stay registered, without power control, until their devices leave\n");
	queue_delayed_work(system_wq, &vsoc_power_retry_work, VSOC_POWER_RETRY);
}

/* Retry the parked controllers; true when none is left. */
static bool vsoc_power_reap_parked(void)
{
	struct vsoc_power *pc, *tmp;
	bool empty;

	mutex_lock(&vsoc_power_parked_lock);
	list_for_each_entry_safe(pc, tmp, &vsoc_power_parked, parked) {
		if (!vsoc_power_teardown(pc, true))
			continue;
		list_del(&pc->parked);
		dev_info(pc->dev, "the last parked domain is unregistered\n");
		put_device(pc->dev);
		vsoc_power_free(pc);
		module_put(THIS_MODULE);
	}
	empty = list_empty(&vsoc_power_parked);
	mutex_unlock(&vsoc_power_parked_lock);
	return empty;
}

static void vsoc_power_retry(struct work_struct *work)
{
	if (!vsoc_power_reap_parked())
		queue_delayed_work(system_wq, &vsoc_power_retry_work,
				   VSOC_POWER_RETRY);
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
			pc->doms[dom].name, ret);
		return ret == -ENOMEM || ret == -EINVAL ? ret : 0;
	}
	/* Held until detached, whatever happens to the device meanwhile. */
	pc->consumers[pc->nconsumers++] = get_device(dev);
	return 0;
}

/*
 * Core @idx's memory domain: a virtual device in it, linked from the
 * core's device. As for the core's own domain, a refusal leaves the core
 * out (it will not be able to run: the model refuses a run with its
 * memory off) and the others go on.
 */
static int vsoc_power_attach_mem(struct vsoc_power *pc, u32 idx, u32 dom)
{
	struct device *dev = vsoc_find_child(pc->soc, VSOC_DEV_RPROC, idx);
	struct device *virt;

	if (!dev || !ampsoc_pd_of_dev(dev))
		return 0;
	virt = ampsoc_pd_add_virt(&pc->doms[dom].pd, dev, 1);
	if (IS_ERR(virt)) {
		dev_err(pc->dev, "cannot attach %s to memory domain %s: %ld\n",
			dev_name(dev), pc->doms[dom].name, PTR_ERR(virt));
		return PTR_ERR(virt) == -ENOMEM ? -ENOMEM : 0;
	}
	pc->mem_link[idx] = device_link_add(dev, virt, DL_FLAG_STATELESS |
					    DL_FLAG_PM_RUNTIME);
	if (!pc->mem_link[idx]) {
		dev_err(pc->dev, "cannot link %s to its memory domain %s\n",
			dev_name(dev), pc->doms[dom].name);
		ampsoc_pd_detach(virt);
		return -ENODEV;
	}
	pc->mem_virt[idx] = virt;
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
	/* Domains of an earlier binding whose devices have left since. */
	vsoc_power_reap_parked();
	b = vsoc_board(soc);
	/*
	 * The driver core calls sync_state as soon as the controller is bound
	 * with no consumer link pending, which is at once while the vsoc core
	 * has not linked its consumers yet (this driver was loaded when the
	 * SoC probed and binds from its device's registration): a stay-on
	 * domain would be released at probe. Wait for the links; the SoC's
	 * own bind retries deferred probes.
	 */
	if (vsoc_power_has_stay_on(b) && b->nr_periphs + b->nr_cores &&
	    list_empty(&dev->links.consumers))
		return dev_err_probe(dev, -EPROBE_DEFER,
				     "stay-on domains: waiting for the consumers' links\n");
	/* Not device-managed: see vsoc_power_release(). */
	pc = kzalloc(struct_size(pc, doms, b->nr_domains), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	pc->dev = dev;
	pc->soc = soc;
	init_rwsem(&pc->gone_lock);
	mutex_init(&pc->perf_lock);
	INIT_LIST_HEAD(&pc->parked);
	pc->ndoms = b->nr_domains;
	pc->consumers = kcalloc(b->nr_periphs + b->nr_cores,
				sizeof(*pc->consumers), GFP_KERNEL);
	pc->mem_virt = kcalloc(b->nr_cores, sizeof(*pc->mem_virt), GFP_KERNEL);
	pc->mem_link = kcalloc(b->nr_cores, sizeof(*pc->mem_link), GFP_KERNEL);
	if (!pc->consumers || (b->nr_cores && (!pc->mem_virt || !pc->mem_link))) {
		ret = -ENOMEM;
		goto err_free;
	}
	pc->ncores = b->nr_cores;
	platform_set_drvdata(pdev, pc);
	if (!pc->ndoms)
		return 0;
	slots = devm_platform_ioremap_resource_byname(pdev, "slots");
	if (IS_ERR(slots)) {
		ret = PTR_ERR(slots);
		goto err_free;
	}
	irq = platform_get_irq(pdev, 0);
	if (irq < 0) {
		ret = irq;
		goto err_free;
	}

	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];
		u32 p;

		d->ctrl = pc;
		d->index = i;
		d->info = &b->domains[i];
		strscpy(d->name, d->info->name, sizeof(d->name));
		d->parent = d->info->parent;
		vsoc_slot_init(&d->slot, slots + i * sizeof(struct vsoc_req_slot));
		mutex_init(&d->slot_lock);
		spin_lock_init(&d->slot_spin);
		d->irq_safe = d->info->flags & VSOC_DOMAIN_IRQ_SAFE;
		d->nr_levels = d->info->nr_levels;
		d->levels = &b->levels[d->info->first_level];
		d->parent_ge = d->info->flags & VSOC_DOMAIN_PERF_PARENT_GE;
		/* The board table was checked for cycles. */
		for (p = d->info->parent; p != VSOC_NONE; p = b->domains[p].parent)
			d->depth++;
		maxdepth = max(maxdepth, d->depth);
		if (d->info->flags & VSOC_DOMAIN_ALWAYS_ON)
			vsoc_power_mark_needed(pc, i);
	}
	for (i = 0; i < b->nr_periphs; i++)
		vsoc_power_mark_needed(pc, b->periphs[i].domain);
	for (i = 0; i < b->nr_cores; i++) {
		vsoc_power_mark_needed(pc, b->cores[i].domain);
		if (b->cores[i].mem_domain != VSOC_NONE)
			vsoc_power_mark_needed(pc, b->cores[i].mem_domain);
	}

	ret = devm_request_irq(dev, irq, vsoc_power_isr, IRQF_SHARED,
			       dev_name(dev), pc);
	if (ret)
		goto err_free;

	/* Where the hardware is now, according to the model. */
	tel = kmalloc(sizeof(*tel), GFP_KERNEL);
	if (!tel) {
		ret = -ENOMEM;
		goto err_free;
	}
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
		/* ABI 1.5: the level the model has, one the board declares */
		pc->doms[i].hw_level = le32_to_cpu(tel->level[i]);
		if (!ret && pc->doms[i].hw_level !=
			    vsoc_pd_lowest(&pc->doms[i]) &&
		    !vsoc_pd_has_level(&pc->doms[i], pc->doms[i].hw_level)) {
			dev_err(dev, "domain %s: model reports level %u at start\n",
				b->domains[i].name, pc->doms[i].hw_level);
			ret = -EIO;
		}
	}
	kfree(tel);
	if (ret)
		goto err_free;

	/*
	 * Stay on until sync: a stay-on domain the model reports on is not
	 * switched off here (nor its parents) and is held until sync_state.
	 * A rebind after the controller's sync (state_synced: the driver
	 * core never calls sync_state twice for a device) holds nothing.
	 */
	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];

		if ((d->info->flags & VSOC_DOMAIN_STAY_ON) &&
		    d->pd.status == AMPSOC_PD_ON && !dev->state_synced) {
			d->pd.flags |= AMPSOC_PD_FLAG_STAY_ON;
			vsoc_power_mark_needed(pc, i);
		}
	}

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
					goto err_free;
				d->pd.status = AMPSOC_PD_ON;
			}
		}
	}

	/* Every domain at its lowest level, leaves first: nobody asks yet. */
	mutex_lock(&pc->perf_lock);
	down_read(&pc->gone_lock);
	for (depth = maxdepth + 1; depth-- > 0 && !ret;)
		for (i = 0; i < pc->ndoms && !ret; i++)
			if (pc->doms[i].depth == depth && pc->doms[i].nr_levels)
				ret = vsoc_pd_apply_level(&pc->doms[i]);
	up_read(&pc->gone_lock);
	mutex_unlock(&pc->perf_lock);
	if (ret)
		goto err_free;

	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];
		bool off = d->pd.status == AMPSOC_PD_OFF;

		d->state.name = "off";
		d->state.power_on_latency_ns = d->info->on_latency_ns;
		d->state.power_off_latency_ns = d->info->off_latency_ns;
		d->state.fixed = true;
		d->pd.name = d->name;
		d->pd.power_on = vsoc_pd_power_on;
		d->pd.power_off = vsoc_pd_power_off;
		d->pd.stay_on_release = vsoc_pd_stay_on_release;
		d->pd.states = &d->state;
		d->pd.state_count = 1;
		if (d->nr_levels)
			d->pd.set_performance_state = vsoc_pd_set_performance_state;
		d->pd.xlate_performance_state = vsoc_pd_xlate_performance_state;
		if (d->info->flags & VSOC_DOMAIN_ALWAYS_ON)
			d->pd.flags |= AMPSOC_PD_FLAG_ALWAYS_ON;
		/* its devices may do runtime PM in atomic context */
		if (d->irq_safe)
			d->pd.flags |= AMPSOC_PD_FLAG_IRQ_SAFE;
		/* a running core keeps its domain on in system sleep */
		if (d->info->flags & VSOC_DOMAIN_CORE)
			d->pd.flags |= AMPSOC_PD_FLAG_ACTIVE_WAKEUP;
		/* and its memory's */
		if (vsoc_power_is_mem_domain(b, i))
			d->pd.flags |= AMPSOC_PD_FLAG_ACTIVE_WAKEUP;
		ret = ampsoc_pd_init(&d->pd, NULL, off);
		if (ret) {
			dev_err(dev, "cannot register domain %s: %d%s\n",
				d->name, ret, ret == -EEXIST ?
				" (a domain of an earlier binding still in use?)" :
				"");
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
		if (b->cores[i].mem_domain == VSOC_NONE)
			continue;
		ret = vsoc_power_attach_mem(pc, i, b->cores[i].mem_domain);
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
	vsoc_power_release(pc);
	return ret;
err_free:
	vsoc_power_free(pc);
	return ret;
}

/*
 * Every consumer linked to the controller (the vsoc core's managed device
 * links) has bound: the boot-time state has been taken over, the stay-on
 * holds end and each domain goes off if nothing needs it.
 */
static void vsoc_power_sync_state(struct device *dev)
{
	struct vsoc_power *pc = dev_get_drvdata(dev);
	unsigned int i, held = 0;
	int ret;

	if (!pc)
		return;
	for (i = 0; i < pc->ndoms; i++) {
		struct vsoc_pd *d = &pc->doms[i];

		if (!d->registered || !(d->pd.flags & AMPSOC_PD_FLAG_STAY_ON))
			continue;
		ret = ampsoc_pd_sync_state(&d->pd);
		if (ret)
			dev_err(dev, "domain %s: stay-on hold not released: %d\n",
				d->name, ret);
		else
			held++;
	}
	if (held)
		dev_info(dev, "sync_state: consumers bound, %u stay-on domain(s) released\n",
			 held);
}

static int vsoc_power_remove(struct platform_device *pdev)
{
	vsoc_power_release(platform_get_drvdata(pdev));
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
		.sync_state = vsoc_power_sync_state,
	},
	.probe = vsoc_power_probe,
	.remove = vsoc_power_remove,
	.id_table = vsoc_power_ids,
};

static int __init vsoc_power_init(void)
{
	return platform_driver_register(&vsoc_power_driver);
}
module_init(vsoc_power_init);

/* Nothing is parked: a parked controller holds a module reference. */
static void __exit vsoc_power_exit(void)
{
	platform_driver_unregister(&vsoc_power_driver);
	cancel_delayed_work_sync(&vsoc_power_retry_work);
}
module_exit(vsoc_power_exit);

MODULE_DESCRIPTION("ampsoc virtual SoC: power controller");
MODULE_LICENSE("GPL");

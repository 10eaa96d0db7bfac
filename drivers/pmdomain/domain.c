// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: domains, devices, the domain graph and
 * runtime PM.
 *
 * Counting rule: a domain may power off when active_count (devices that
 * need power) and sd_count (subdomains that are on) are both zero. Both are
 * kept up to date by the runtime PM callbacks and the graph operations, so
 * the decision never walks the device list.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>
#include <linux/suspend.h>

#include "domain_internal.h"

#define CREATE_TRACE_POINTS
#include "ampsoc_pd_trace.h"

/* Protects the domain list, the graph's links and the providers. */
DEFINE_MUTEX(ampsoc_pd_list_lock);
LIST_HEAD(ampsoc_pd_list);
static atomic64_t pd_dev_walks = ATOMIC64_INIT(0);

static int pd_runtime_suspend(struct device *dev);

u64 ampsoc_pd_now(void)
{
	return ktime_get_mono_fast_ns();
}

/**
 * ampsoc_pd_dev_walks - how many times the core walked a device list
 *
 * Diagnostics for the constant-time guarantee: runtime suspend, resume and
 * the power-off decision never walk a domain's device list, so this count
 * does not move while they run.
 *
 * Context: any.
 * Return: the number of device-list walks since the module was loaded.
 */
u64 ampsoc_pd_dev_walks(void)
{
	return atomic64_read(&pd_dev_walks);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_dev_walks);

void ampsoc_pd_count_walk(void)
{
	atomic64_inc(&pd_dev_walks);
}

bool ampsoc_pd_is_ours(struct device *dev)
{
	return dev->pm_domain &&
	       dev->pm_domain->ops.runtime_suspend == pd_runtime_suspend;
}

struct ampsoc_pd_dev *ampsoc_pd_dev_data(struct device *dev)
{
	if (!ampsoc_pd_is_ours(dev) || !dev->power.subsys_data ||
	    !dev->power.subsys_data->domain_data)
		return NULL;
	return container_of(dev->power.subsys_data->domain_data,
			    struct ampsoc_pd_dev, base);
}

/* Caller holds ampsoc_pd_list_lock. */
bool ampsoc_pd_registered(struct ampsoc_pd *pd)
{
	struct ampsoc_pd *it;

	lockdep_assert_held(&ampsoc_pd_list_lock);
	if (!pd)
		return false;
	list_for_each_entry(it, &ampsoc_pd_list, node)
		if (it == pd)
			return true;
	return false;
}

/* Close the current accounting period; call before changing status. */
static void pd_account(struct ampsoc_pd *pd)
{
	u64 now = ampsoc_pd_now();
	u64 delta = now > pd->accounting_time ? now - pd->accounting_time : 0;

	if (pd->status == AMPSOC_PD_ON) {
		pd->on_time_ns += delta;
	} else {
		pd->states[pd->state_idx].idle_time_ns += delta;
		if (!pd->idle_avg_ns)
			pd->idle_avg_ns = delta;
		else
			pd->idle_avg_ns = (3 * pd->idle_avg_ns + (s64)delta) / 4;
	}
	pd->accounting_time = now;
}

static void pd_notify(struct ampsoc_pd *pd, unsigned long ev)
{
	if (pd->notifiers.head)
		raw_notifier_call_chain(&pd->notifiers, ev, pd);
}

/* Latencies are measured only for a governor to use them. */
static bool pd_timed(struct ampsoc_pd *pd)
{
	return pd->gov && pd->gov->power_down_ok;
}

static void pd_update_latency(struct ampsoc_pd *pd, s64 *latency, s64 elapsed,
			      bool on)
{
	struct ampsoc_pd_state *st = &pd->states[pd->state_idx];

	if (st->fixed || elapsed <= *latency)
		return;
	*latency = elapsed;
	pr_debug("%s: power-%s latency exceeded, new value %lld ns\n",
		 pd->name, on ? "on" : "off", elapsed);
}

/*
 * Send a PRE_* event; if a notifier vetoes it, the ones already called get
 * the opposite event. A bare NOTIFY_BAD counts as -EBUSY.
 */
static int pd_notify_robust(struct ampsoc_pd *pd, unsigned long up,
			    unsigned long down)
{
	int ret;

	if (!pd->notifiers.head)
		return 0;
	ret = raw_notifier_call_chain_robust(&pd->notifiers, up, down, pd);

	if (!(ret & NOTIFY_STOP_MASK))
		return 0;
	return notifier_to_errno(ret) ?: -EBUSY;
}

/* Power the domain itself on (not its parents). Lock held. */
static int pd_do_power_on(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_state *st = &pd->states[pd->state_idx];
	s64 elapsed = 0;
	int ret;

	ret = pd_notify_robust(pd, AMPSOC_PD_NOTIFY_PRE_ON,
			       AMPSOC_PD_NOTIFY_OFF);
	if (ret)
		goto out;

	if (pd->power_on) {
		bool timed = pd_timed(pd);
		ktime_t t0 = timed ? ktime_get() : 0;

		ret = pd->power_on(pd);
		if (ret) {
			pd_notify(pd, AMPSOC_PD_NOTIFY_OFF);
			goto out;
		}
		if (timed) {
			elapsed = ktime_to_ns(ktime_sub(ktime_get(), t0));
			pd_update_latency(pd, &st->power_on_latency_ns, elapsed,
					  true);
		}
	}
	pd_account(pd);
	pd->status = AMPSOC_PD_ON;
	pd->on_count++;
	pd->retry_count = 0;
	pd_notify(pd, AMPSOC_PD_NOTIFY_ON);
out:
	trace_ampsoc_pd_power_on(pd->name, pd->state_idx, elapsed, ret);
	return ret;
}

/* Power the domain itself off into states[state_idx]. Lock held. */
static int pd_do_power_off(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_state *st = &pd->states[pd->state_idx];
	s64 elapsed = 0;
	int ret;

	ret = pd_notify_robust(pd, AMPSOC_PD_NOTIFY_PRE_OFF,
			       AMPSOC_PD_NOTIFY_ON);
	if (ret)
		goto out;

	if (pd->power_off) {
		bool timed = pd_timed(pd);
		ktime_t t0 = timed ? ktime_get() : 0;

		ret = pd->power_off(pd);
		if (ret) {
			st->rejected++;
			pd_notify(pd, AMPSOC_PD_NOTIFY_ON);
			goto out;
		}
		if (timed) {
			elapsed = ktime_to_ns(ktime_sub(ktime_get(), t0));
			pd_update_latency(pd, &st->power_off_latency_ns,
					  elapsed, false);
		}
	}
	pd_account(pd);
	pd->status = AMPSOC_PD_OFF;
	pd->off_count++;
	pd->retry_count = 0;
	st->usage++;
	pd_notify(pd, AMPSOC_PD_NOTIFY_OFF);
out:
	trace_ampsoc_pd_power_off(pd->name, pd->state_idx, elapsed, ret);
	return ret;
}

void ampsoc_pd_queue_power_off(struct ampsoc_pd *pd)
{
	queue_work(pm_wq, &pd->power_off_work);
}

/*
 * A runtime power-off of an idle domain was refused (governor, notifier
 * veto or power_off() error): try again later, after 1, 2, 4, ... ms, at
 * most AMPSOC_PD_RETRY_MAX times until the domain changes state. Lock held.
 */
static void pd_retry_later(struct ampsoc_pd *pd)
{
	if (pd->removing || pd->retry_count >= AMPSOC_PD_RETRY_MAX)
		return;
	if (queue_delayed_work(pm_wq, &pd->retry_work,
			       msecs_to_jiffies(1U << pd->retry_count)))
		pd->retry_count++;
}

/*
 * Runtime power off of one domain, if nothing needs it. Lock held; depth
 * is the lockdep subclass of pd's lock. The parents are told through their
 * sd_count. Without @sync (a device's runtime suspend) the parents power
 * off asynchronously, from their work items, unless the domain has
 * AMPSOC_PD_FLAG_SYNC_OFF; with @sync (from a work item) or that flag, the
 * power-off goes on up the hierarchy in the same context, child locked
 * before parent, instead of queueing one work item per level.
 */
static int pd_power_off_locked(struct ampsoc_pd *pd, unsigned int depth,
			       bool sync)
{
	struct ampsoc_pd_link *link;
	int ret;

	if (pd->status == AMPSOC_PD_OFF || pd->prepared_count)
		return 0;
	if (pd->flags & (AMPSOC_PD_FLAG_ALWAYS_ON | AMPSOC_PD_FLAG_RPM_ALWAYS_ON))
		return -EBUSY;
	/* Held until sync: ampsoc_pd_sync_state() queues the power-off. */
	if (pd->stay_on == AMPSOC_PD_STAY_ON_HELD)
		return -EBUSY;
	if (pd->active_count || atomic_read(&pd->sd_count))
		return -EBUSY;

	if (pd->gov && pd->gov->power_down_ok) {
		if (!pd->gov->power_down_ok(pd)) {
			pd_retry_later(pd);
			return -EAGAIN;
		}
	} else {
		pd->state_idx = pd->state_count - 1;
	}

	ret = pd_do_power_off(pd);
	if (ret) {
		pd_retry_later(pd);
		return ret;
	}

	if (pd->flags & AMPSOC_PD_FLAG_SYNC_OFF)
		sync = true;
	pd_for_each_parent(pd, link) {
		struct ampsoc_pd *parent = link->parent;

		if (!atomic_dec_and_test(&parent->sd_count))
			continue;
		if (!sync) {
			ampsoc_pd_queue_power_off(parent);
			continue;
		}
		ampsoc_pd_lock_nested(parent, depth + 1);
		pd_power_off_locked(parent, depth + 1, true);
		ampsoc_pd_unlock(parent);
	}
	return 0;
}

/*
 * Runtime power on: parents first, then the domain. Lock held; depth is
 * the lockdep subclass of pd's lock.
 */
int ampsoc_pd_power_on_locked(struct ampsoc_pd *pd, unsigned int depth)
{
	struct ampsoc_pd_link *link;
	int ret;

	if (pd->status == AMPSOC_PD_ON)
		return 0;

	pd_for_each_parent(pd, link) {
		struct ampsoc_pd *parent = link->parent;

		atomic_inc(&parent->sd_count);
		ampsoc_pd_lock_nested(parent, depth + 1);
		ret = ampsoc_pd_power_on_locked(parent, depth + 1);
		ampsoc_pd_unlock(parent);
		if (ret) {
			atomic_dec(&parent->sd_count);
			goto err;
		}
	}

	ret = pd_do_power_on(pd);
	if (ret)
		goto err;
	return 0;

err:
	list_for_each_entry_continue_reverse(link, &pd->parent_links,
					     child_node) {
		if (atomic_dec_and_test(&link->parent->sd_count))
			ampsoc_pd_queue_power_off(link->parent);
	}
	return ret;
}

/*
 * System sleep: power off synchronously once every device is stopped and
 * every subdomain is off, then try the parents. Lock held.
 */
void ampsoc_pd_sync_power_off(struct ampsoc_pd *pd, unsigned int depth)
{
	struct ampsoc_pd_link *link;

	if (pd->status == AMPSOC_PD_OFF || (pd->flags & AMPSOC_PD_FLAG_ALWAYS_ON))
		return;
	/* Held until sync: system sleep too keeps it on (docs/pmdomain.md). */
	if (pd->stay_on == AMPSOC_PD_STAY_ON_HELD)
		return;
	if (pd->suspended_count != pd->device_count ||
	    atomic_read(&pd->sd_count) > 0)
		return;

	pd->state_idx = pd->state_count - 1;
	if (pd_do_power_off(pd))
		return;

	pd_for_each_parent(pd, link) {
		struct ampsoc_pd *parent = link->parent;

		atomic_dec(&parent->sd_count);
		ampsoc_pd_lock_nested(parent, depth + 1);
		ampsoc_pd_sync_power_off(parent, depth + 1);
		ampsoc_pd_unlock(parent);
	}
}

/* System sleep: power on synchronously, parents first. Lock held. */
void ampsoc_pd_sync_power_on(struct ampsoc_pd *pd, unsigned int depth)
{
	struct ampsoc_pd_link *link;
	int ret;

	if (pd->status == AMPSOC_PD_ON)
		return;

	pd_for_each_parent(pd, link) {
		struct ampsoc_pd *parent = link->parent;

		ampsoc_pd_lock_nested(parent, depth + 1);
		ampsoc_pd_sync_power_on(parent, depth + 1);
		atomic_inc(&parent->sd_count);
		ampsoc_pd_unlock(parent);
	}

	ret = pd_do_power_on(pd);
	if (ret) {
		/* Nothing to fall back to in the noirq phase: carry on as on. */
		pr_err("%s: power on failed during system resume: %d\n",
		       pd->name, ret);
		pd_account(pd);
		pd->status = AMPSOC_PD_ON;
	}
}

static void pd_power_off_work_fn(struct work_struct *work)
{
	struct ampsoc_pd *pd = container_of(work, struct ampsoc_pd,
					    power_off_work);

	ampsoc_pd_lock(pd);
	pd_power_off_locked(pd, 0, true);
	ampsoc_pd_unlock(pd);
}

static void pd_retry_work_fn(struct work_struct *work)
{
	struct ampsoc_pd *pd = container_of(to_delayed_work(work),
					    struct ampsoc_pd, retry_work);

	ampsoc_pd_lock(pd);
	pd_power_off_locked(pd, 0, true);
	ampsoc_pd_unlock(pd);
}

int ampsoc_pd_dev_start(struct ampsoc_pd *pd, struct device *dev)
{
	return pd->dev_ops.start ? pd->dev_ops.start(dev) : 0;
}

int ampsoc_pd_dev_stop(struct ampsoc_pd *pd, struct device *dev)
{
	return pd->dev_ops.stop ? pd->dev_ops.stop(dev) : 0;
}

/* The callback the PM core would have run without a PM domain. */
static int pd_driver_rpm(struct device *dev, bool suspend)
{
	const struct dev_pm_ops *ops = NULL;
	int (*cb)(struct device *dev) = NULL;

	if (dev->type && dev->type->pm)
		ops = dev->type->pm;
	else if (dev->class && dev->class->pm)
		ops = dev->class->pm;
	else if (dev->bus && dev->bus->pm)
		ops = dev->bus->pm;
	if (ops)
		cb = suspend ? ops->runtime_suspend : ops->runtime_resume;
	if (!cb && dev->driver && dev->driver->pm)
		cb = suspend ? dev->driver->pm->runtime_suspend :
			       dev->driver->pm->runtime_resume;
	return cb ? cb(dev) : 0;
}

/*
 * Record a measured device latency. The governor reads them under the
 * domain lock, so they change only under it too.
 */
static void pd_grow(struct ampsoc_pd_dev *pdd, s64 *latency, s64 elapsed)
{
	ampsoc_pd_assert_held(pdd->pd);
	if (elapsed > *latency) {
		WRITE_ONCE(*latency, elapsed);
		ampsoc_pd_qos_update(pdd, AMPSOC_PD_QOS_LATENCY);
	}
}

/*
 * An IRQ-safe device's runtime callbacks run with interrupts off: unless
 * its domain is IRQ-safe too, they cannot take the domain's mutex, and the
 * domain, which the device cannot power on again, stays on (as in 6.1).
 */
static bool pd_irq_safe_dev_in_sleeping_pd(struct ampsoc_pd *pd,
					   struct device *dev)
{
	return pm_runtime_is_irq_safe(dev) && !ampsoc_pd_irq_safe(pd);
}

static int pd_runtime_suspend(struct device *dev)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;
	s64 elapsed = 0;
	bool timed;
	ktime_t t0;
	int ret;

	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	if (pd->gov && pd->gov->suspend_ok && !pd->gov->suspend_ok(dev))
		return -EBUSY;

	timed = pd_timed(pd);
	t0 = timed ? ktime_get() : 0;
	ret = pd_driver_rpm(dev, true);
	if (ret)
		return ret;
	ret = ampsoc_pd_dev_stop(pd, dev);
	if (ret) {
		pd_driver_rpm(dev, false);
		return ret;
	}
	if (timed)
		elapsed = ktime_to_ns(ktime_sub(ktime_get(), t0));

	/* No latency recorded: the domain does not power off anyway. */
	if (pd_irq_safe_dev_in_sleeping_pd(pd, dev)) {
		dev_warn_once(dev, "PM domain %s will not be powered off (irq-safe device)\n",
			      pd->name);
		return 0;
	}

	/*
	 * As 6.1: the request goes before the domain may power off; but the
	 * performance mutex cannot be taken with interrupts off, so an
	 * IRQ-safe device's request stays counted (docs/pmdomain.md).
	 */
	if (!pm_runtime_is_irq_safe(dev))
		ampsoc_pd_perf_suspend(pdd);

	ampsoc_pd_lock(pd);
	if (timed) {
		pd_grow(pdd, &pdd->suspend_latency_ns, elapsed);
		pd_grow(pdd, &pdd->resume_latency_ns, pdd->resume_pending_ns);
	}
	pdd->resume_pending_ns = 0;
	if (pdd->active) {
		pdd->active = false;
		pd->active_count--;
	} else if (pdd->synced) {
		dev_warn_once(dev, "unbalanced runtime suspend in PM domain %s, counters kept\n",
			      pd->name);
	}
	pdd->synced = true;
	pd_power_off_locked(pd, 0, false);
	ampsoc_pd_unlock(pd);
	return 0;
}

static int pd_runtime_resume(struct device *dev)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	struct ampsoc_pd *pd;
	bool timed;
	ktime_t t0;
	int ret;

	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	if (pd_irq_safe_dev_in_sleeping_pd(pd, dev)) {
		if (!pdd->active) {
			dev_warn_once(dev, "irq-safe device cannot power PM domain %s on\n",
				      pd->name);
			return -EBUSY;
		}
		goto start;
	}

	ampsoc_pd_lock(pd);
	ret = ampsoc_pd_power_on_locked(pd, 0);
	if (ret) {
		ampsoc_pd_unlock(pd);
		return ret;
	}
	if (!pdd->active) {
		pdd->active = true;
		pd->active_count++;
	} else if (pdd->synced) {
		dev_warn_once(dev, "unbalanced runtime resume in PM domain %s, counters kept\n",
			      pd->name);
	}
	pdd->synced = true;
	ampsoc_pd_unlock(pd);
	/* As 6.1: the request comes back once the domain is on. */
	if (!pm_runtime_is_irq_safe(dev))
		ampsoc_pd_perf_resume(pdd);

start:
	timed = pd_timed(pd);
	t0 = timed ? ktime_get() : 0;
	ret = ampsoc_pd_dev_start(pd, dev);
	if (ret)
		goto err;
	ret = pd_driver_rpm(dev, false);
	if (ret) {
		ampsoc_pd_dev_stop(pd, dev);
		goto err;
	}
	/*
	 * Without the lock here, keep the measurement to ourselves: the next
	 * runtime suspend, which takes the lock anyway, records it. Only this
	 * device's runtime PM callbacks, which the PM core serialises, touch
	 * the pending value.
	 */
	if (timed)
		pdd->resume_pending_ns = max(pdd->resume_pending_ns,
					     ktime_to_ns(ktime_sub(ktime_get(), t0)));
	return 0;

err:
	if (pd_irq_safe_dev_in_sleeping_pd(pd, dev))
		return ret;
	/* The device stays suspended: withhold its request again (6.1). */
	if (!pm_runtime_is_irq_safe(dev))
		ampsoc_pd_perf_suspend(pdd);
	ampsoc_pd_lock(pd);
	if (pdd->active) {
		pdd->active = false;
		pd->active_count--;
	}
	pd_power_off_locked(pd, 0, false);
	ampsoc_pd_unlock(pd);
	return ret;
}

static int pd_qos_notifier(struct notifier_block *nb, unsigned long val,
			   void *ptr)
{
	struct ampsoc_pd_dev *pdd = container_of(nb, struct ampsoc_pd_dev,
						 qos_nb);
	struct ampsoc_pd *pd = pdd->pd;

	ampsoc_pd_qos_update(pdd, AMPSOC_PD_QOS_READ);
	/*
	 * A governor that refused may agree now, but it can only have
	 * refused a domain that is on with nothing needing it: queue a
	 * power-off for that one alone, not for every change. A runtime
	 * suspend lowers active_count and then reads qos_dirty with a fully
	 * ordered xchg in the governor; here qos_dirty is set, then the
	 * counts are read, after a full barrier. So of a suspend racing this
	 * change, either its governor sees the new constraint or this sees
	 * the domain idle.
	 */
	smp_mb();
	if (READ_ONCE(pd->status) == AMPSOC_PD_ON &&
	    !READ_ONCE(pd->active_count) && !atomic_read(&pd->sd_count))
		ampsoc_pd_queue_power_off(pd);
	return NOTIFY_DONE;
}

/*
 * How long a domain with AMPSOC_PD_FLAG_STAY_ON waits for its provider's
 * sync_state before the core releases the hold by itself. 10 s, as 6.1's
 * deferred_probe_timeout with modules; read when a domain is registered.
 */
static unsigned int stay_on_timeout_ms = 10000;
module_param(stay_on_timeout_ms, uint, 0644);
MODULE_PARM_DESC(stay_on_timeout_ms,
		 "ms a stay-on domain waits for its provider's sync_state (0: no timeout)");

/*
 * End @pd's stay-on hold, @timeout telling why. Lock held. The provider's
 * stay_on_release() may refuse: the hold stays. Returns 0 when the hold
 * ended here (the caller queues the power-off), 1 when there was none.
 */
static int pd_stay_on_release_locked(struct ampsoc_pd *pd, bool timeout)
{
	int ret = 0;

	if (pd->stay_on != AMPSOC_PD_STAY_ON_HELD)
		return 1;
	if (pd->stay_on_release)
		ret = pd->stay_on_release(pd, timeout);
	if (ret) {
		pr_err("%s: stay-on hold kept: provider refused its release: %d\n",
		       pd->name, ret);
		return ret;
	}
	pd->stay_on = timeout ? AMPSOC_PD_STAY_ON_TIMED_OUT :
				AMPSOC_PD_STAY_ON_SYNCED;
	return 0;
}

static void pd_stay_on_work_fn(struct work_struct *work)
{
	struct ampsoc_pd *pd = container_of(to_delayed_work(work),
					    struct ampsoc_pd, stay_on_work);
	int ret;

	ampsoc_pd_lock(pd);
	ret = pd->removing ? 1 : pd_stay_on_release_locked(pd, true);
	ampsoc_pd_unlock(pd);
	if (ret)
		return;
	pr_warn("%s: stay-on hold released by timeout, no sync_state after %u ms\n",
		pd->name, pd->stay_on_ms);
	ampsoc_pd_queue_power_off(pd);
}

/**
 * ampsoc_pd_sync_state - end a domain's stay-on hold: its consumers probed
 * @pd: a registered domain
 *
 * Calls the domain's stay_on_release(), ends the hold and queues the
 * domain's power-off, if the domain is held; nothing otherwise.
 *
 * Context: process context; may sleep.
 * Return: 0 on success or if @pd was not held; -EINVAL for a NULL or
 * unregistered domain; the error of stay_on_release() (still held).
 */
int ampsoc_pd_sync_state(struct ampsoc_pd *pd)
{
	int ret;

	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(pd)) {
		mutex_unlock(&ampsoc_pd_list_lock);
		return -EINVAL;
	}
	ampsoc_pd_lock(pd);
	ret = pd_stay_on_release_locked(pd, false);
	ampsoc_pd_unlock(pd);
	mutex_unlock(&ampsoc_pd_list_lock);
	if (ret > 0)
		return 0;
	if (ret)
		return ret;
	cancel_delayed_work(&pd->stay_on_work);
	ampsoc_pd_queue_power_off(pd);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_sync_state);

/**
 * ampsoc_pd_init - initialise a domain and register it with the core
 * @pd: the domain; name, flags, callbacks and states set by the caller
 * @gov: governor, or NULL (power off whenever possible, deepest state)
 * @is_off: the hardware is off now
 *
 * Context: process context; takes the core's list lock.
 * Return: 0 on success, -EINVAL for a NULL domain or name, an always-on
 * domain that is off, or states without a count; -EEXIST if the domain or
 * a domain of the same name is registered; -ENOMEM.
 */
int ampsoc_pd_init(struct ampsoc_pd *pd, const struct ampsoc_pd_governor *gov,
		   bool is_off)
{
	struct ampsoc_pd *it;
	int ret;

	if (!pd || !pd->name || !*pd->name || strchr(pd->name, '/'))
		return -EINVAL;
	if ((pd->flags & (AMPSOC_PD_FLAG_ALWAYS_ON | AMPSOC_PD_FLAG_STAY_ON)) &&
	    is_off)
		return -EINVAL;
	if (!pd->states != !pd->state_count)
		return -EINVAL;

	mutex_lock(&ampsoc_pd_list_lock);
	list_for_each_entry(it, &ampsoc_pd_list, node) {
		if (it == pd || !strcmp(it->name, pd->name)) {
			mutex_unlock(&ampsoc_pd_list_lock);
			return -EEXIST;
		}
	}

	memset(&pd->domain, 0, sizeof(pd->domain));
	if (ampsoc_pd_irq_safe(pd))
		spin_lock_init(&pd->slock);
	else
		mutex_init(&pd->lock);
	INIT_LIST_HEAD(&pd->parent_links);
	INIT_LIST_HEAD(&pd->child_links);
	INIT_LIST_HEAD(&pd->dev_list);
	INIT_WORK(&pd->power_off_work, pd_power_off_work_fn);
	INIT_DELAYED_WORK(&pd->retry_work, pd_retry_work_fn);
	INIT_DELAYED_WORK(&pd->stay_on_work, pd_stay_on_work_fn);
	pd->stay_on = (pd->flags & AMPSOC_PD_FLAG_STAY_ON) ?
		      AMPSOC_PD_STAY_ON_HELD : AMPSOC_PD_STAY_ON_NONE;
	pd->retry_count = 0;
	RAW_INIT_NOTIFIER_HEAD(&pd->notifiers);
	atomic_set(&pd->sd_count, 0);
	pd->device_count = 0;
	pd->active_count = 0;
	pd->prepared_count = 0;
	pd->suspended_count = 0;
	if (!pd->states) {
		memset(&pd->default_state, 0, sizeof(pd->default_state));
		pd->states = &pd->default_state;
		pd->state_count = 1;
	}
	pd->gov = gov;
	if (gov == &ampsoc_pd_always_on_gov)
		pd->flags |= AMPSOC_PD_FLAG_RPM_ALWAYS_ON;
	if ((pd->flags & AMPSOC_PD_FLAG_PM_CLK) && !pd->dev_ops.start &&
	    !pd->dev_ops.stop) {
		pd->dev_ops.start = ampsoc_pm_clk_resume;
		pd->dev_ops.stop = ampsoc_pm_clk_suspend;
	}
	pd->performance_state = 0;
	memset(&pd->perf_votes, 0, sizeof(pd->perf_votes));
	pd->perf_votes.large = RB_ROOT_CACHED;
	pd->status = is_off ? AMPSOC_PD_OFF : AMPSOC_PD_ON;
	pd->state_idx = is_off ? pd->state_count - 1 : 0;
	pd->on_count = 0;
	pd->off_count = 0;
	pd->on_time_ns = 0;
	pd->accounting_time = ampsoc_pd_now();
	pd->idle_avg_ns = 0;
	atomic_set(&pd->qos_dirty, 1);
	spin_lock_init(&pd->qos_lock);
	pd->qos_devs = RB_ROOT_CACHED;
	pd->qos_constraint_ns = -1;
	/*
	 * No constraint for the parents until a governor computes one; a
	 * domain without the QoS governor never sets one (6.1: -1).
	 */
	pd->qos_off_ns = -1;
	pd->warned = 0;
	pd->removing = false;
	pd->dbg_dir = NULL;
	pd->kobj = NULL;

	pd->domain.ops.runtime_suspend = pd_runtime_suspend;
	pd->domain.ops.runtime_resume = pd_runtime_resume;
	ampsoc_pd_set_sleep_ops(&pd->domain);

	ret = ampsoc_pd_sysfs_add(pd);
	if (ret) {
		mutex_unlock(&ampsoc_pd_list_lock);
		return ret;
	}
	list_add_tail(&pd->node, &ampsoc_pd_list);
	ampsoc_pd_debugfs_add(pd);
	pd->stay_on_ms = READ_ONCE(stay_on_timeout_ms);
	if (pd->stay_on == AMPSOC_PD_STAY_ON_HELD && pd->stay_on_ms)
		queue_delayed_work(system_wq, &pd->stay_on_work,
				   msecs_to_jiffies(pd->stay_on_ms));
	mutex_unlock(&ampsoc_pd_list_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_init);

/**
 * ampsoc_pd_remove - unregister a domain
 * @pd: a domain registered with ampsoc_pd_init()
 *
 * The domain must have no device, no subdomain, no power notifier and no
 * provider; its links to its parents are dropped.
 *
 * Context: process context; may sleep (waits for pending power-off work).
 * Return: 0 on success, -EINVAL if @pd is not registered, -EBUSY while
 * devices, subdomains, notifiers or a provider remain, -EAGAIN during a
 * system sleep transition.
 */
int ampsoc_pd_remove(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_link *link, *tmp;
	int ret = 0;

	mutex_lock(&ampsoc_pd_perf_lock);
	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(pd)) {
		mutex_unlock(&ampsoc_pd_list_lock);
		mutex_unlock(&ampsoc_pd_perf_lock);
		return -EINVAL;
	}
	if (ampsoc_pd_provider_uses(pd)) {
		ret = -EBUSY;
		goto out_list;
	}
	ampsoc_pd_lock(pd);
	if (pd->prepared_count || ampsoc_pd_in_transition())
		ret = -EAGAIN;
	else if (pd->device_count || !list_empty(&pd->child_links) ||
		 pd->notifiers.head)
		ret = -EBUSY;
	if (ret) {
		ampsoc_pd_unlock(pd);
		goto out_list;
	}
	pd->removing = true;
	list_for_each_entry_safe(link, tmp, &pd->parent_links, child_node) {
		struct ampsoc_pd *parent = link->parent;

		ampsoc_pd_lock_nested(parent, 1);
		list_del(&link->parent_node);
		list_del(&link->child_node);
		if (pd->status == AMPSOC_PD_ON &&
		    atomic_dec_and_test(&parent->sd_count))
			ampsoc_pd_queue_power_off(parent);
		ampsoc_pd_unlock(parent);
		kfree(link);
	}
	list_del(&pd->node);
	ampsoc_pd_unlock(pd);
	ampsoc_pd_debugfs_remove(pd);
	mutex_unlock(&ampsoc_pd_list_lock);
	mutex_unlock(&ampsoc_pd_perf_lock);

	ampsoc_pd_sysfs_remove(pd);
	cancel_delayed_work_sync(&pd->stay_on_work);
	cancel_work_sync(&pd->power_off_work);
	cancel_delayed_work_sync(&pd->retry_work);
	return 0;

out_list:
	mutex_unlock(&ampsoc_pd_list_lock);
	mutex_unlock(&ampsoc_pd_perf_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_remove);

/**
 * ampsoc_pd_find - look a registered domain up by name
 * @name: the domain's name
 *
 * Context: process context.
 * Return: the domain, or NULL if none has that name.
 */
struct ampsoc_pd *ampsoc_pd_find(const char *name)
{
	struct ampsoc_pd *it, *found = NULL;

	if (!name)
		return NULL;
	mutex_lock(&ampsoc_pd_list_lock);
	list_for_each_entry(it, &ampsoc_pd_list, node) {
		if (!strcmp(it->name, name)) {
			found = it;
			break;
		}
	}
	mutex_unlock(&ampsoc_pd_list_lock);
	return found;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_find);

/**
 * ampsoc_pd_is_on - whether a domain is powered
 * @pd: a registered domain
 *
 * Context: process context; takes the domain's lock (any context for an
 * IRQ-safe domain).
 * Return: true if @pd is on, false if it is off or NULL.
 */
bool ampsoc_pd_is_on(struct ampsoc_pd *pd)
{
	bool on;

	if (!pd)
		return false;
	ampsoc_pd_lock(pd);
	on = pd->status == AMPSOC_PD_ON;
	ampsoc_pd_unlock(pd);
	return on;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_is_on);

/*
 * Stop counting @pd's devices that cannot be in use (no driver, runtime PM
 * disabled) and queue its power-off. The list lock keeps @pd registered.
 */
void ampsoc_pd_unused_one(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_dev *pdd;

	lockdep_assert_held(&ampsoc_pd_list_lock);
	ampsoc_pd_lock(pd);
	ampsoc_pd_count_walk();
	list_for_each_entry(pdd, &pd->dev_list, base.list_node) {
		struct device *dev = pdd->base.dev;

		if (pdd->active && !dev->driver && dev->power.disable_depth &&
		    !pd_irq_safe_dev_in_sleeping_pd(pd, dev)) {
			pdd->active = false;
			pdd->synced = false;
			pd->active_count--;
		}
	}
	ampsoc_pd_unlock(pd);
	ampsoc_pd_queue_power_off(pd);
}

/**
 * ampsoc_pd_power_off_unused - power off domains nobody uses
 *
 * Devices without a driver and with runtime PM disabled (and not IRQ-safe
 * in a domain that is not) cannot be in use: they stop counting as needing
 * power, and every domain is queued for power off. Call once consumers
 * have had the chance to probe. The domains of providers get the same automatically
 * (see ampsoc_pd_provider_add()).
 *
 * Context: process context.
 */
void ampsoc_pd_power_off_unused(void)
{
	struct ampsoc_pd *pd;

	mutex_lock(&ampsoc_pd_list_lock);
	list_for_each_entry(pd, &ampsoc_pd_list, node)
		ampsoc_pd_unused_one(pd);
	mutex_unlock(&ampsoc_pd_list_lock);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_power_off_unused);

/**
 * ampsoc_pd_add_device - put a device in a domain
 * @pd: a registered domain
 * @dev: a device not in any PM domain and not bound to a driver
 *
 * The device counts as needing power unless runtime PM is enabled and it
 * is runtime-suspended, or always if it is IRQ-safe and the domain is not
 * (it could not power the domain on from its resume); if it needs power,
 * the domain is powered on.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL arguments, an unregistered
 * domain, or a device already in one of our domains or the kernel's genpd
 * (as 6.1's pm_genpd_add_device()); -EBUSY if it is bound to a driver or
 * has another dev->pm_domain; -EAGAIN during a system sleep transition;
 * -ENOMEM; or the error of powering the domain on.
 */
int ampsoc_pd_add_device(struct ampsoc_pd *pd, struct device *dev)
{
	struct ampsoc_pd_dev *pdd;
	int ret;

	if (!pd || !dev)
		return -EINVAL;
	if (ampsoc_pd_is_ours(dev))
		return -EINVAL;
	if (dev->links.status == DL_DEV_DRIVER_BOUND ||
	    dev->links.status == DL_DEV_UNBINDING)
		return -EBUSY;

	pdd = kzalloc(sizeof(*pdd), GFP_KERNEL);
	if (!pdd)
		return -ENOMEM;
	pdd->base.dev = dev;
	pdd->pd = pd;
	pdd->qos_nb.notifier_call = pd_qos_notifier;
	RB_CLEAR_NODE(&pdd->qos_node);
	pdd->qos_req_ns = -1;

	ret = dev_pm_get_subsys_data(dev);
	if (ret)
		goto err_free;

	spin_lock_irq(&dev->power.lock);
	if (dev->power.subsys_data->domain_data)
		ret = -EINVAL;	/* in a domain already, as genpd says */
	else if (dev->pm_domain)
		ret = -EBUSY;
	else
		dev->power.subsys_data->domain_data = &pdd->base;
	spin_unlock_irq(&dev->power.lock);
	if (ret)
		goto err_put;

	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(pd)) {
		ret = -EINVAL;
		goto err_unlock_list;
	}
	ampsoc_pd_lock(pd);
	/*
	 * Registered, and it cannot go while we hold its lock: power_on()
	 * may now run without the list lock held.
	 */
	mutex_unlock(&ampsoc_pd_list_lock);
	if (pd->prepared_count || ampsoc_pd_in_transition()) {
		ret = -EAGAIN;
		goto err_unlock;
	}
	/*
	 * An IRQ-safe device cannot power a domain that sleeps on from its
	 * resume callback: it counts as needing power from the start.
	 */
	pdd->active = pd_irq_safe_dev_in_sleeping_pd(pd, dev) ||
		      !pm_runtime_suspended(dev);
	if (pdd->active) {
		ret = ampsoc_pd_power_on_locked(pd, 0);
		if (ret)
			goto err_unlock;
		pd->active_count++;
	}
	pdd->synced = pm_runtime_enabled(dev);
	/*
	 * A suspended device's first request waits for its resume, unless
	 * it is IRQ-safe: its runtime callbacks never withhold a request.
	 */
	pdd->perf_withheld = !pdd->active && !pm_runtime_is_irq_safe(dev);
	list_add_tail(&pdd->base.list_node, &pd->dev_list);
	pd->device_count++;
	dev_pm_domain_set(dev, &pd->domain);
	ampsoc_pd_unlock(pd);

	/* Only a governor that reads constraints needs to hear of changes. */
	if (pd->gov && pd->gov->suspend_ok) {
		ret = dev_pm_qos_add_notifier(dev, &pdd->qos_nb,
					      DEV_PM_QOS_RESUME_LATENCY);
		if (ret)
			dev_dbg(dev, "no PM QoS notifier: %d\n", ret);
		else
			pdd->qos_registered = true;
		/* After the notifier: no change is missed in between. */
		ampsoc_pd_qos_update(pdd, AMPSOC_PD_QOS_READ);
	}
	ampsoc_pd_qos_invalidate(pd);
	trace_ampsoc_pd_attach(pd->name, dev);
	return 0;

err_unlock:
	ampsoc_pd_unlock(pd);
	goto err_clear;
err_unlock_list:
	mutex_unlock(&ampsoc_pd_list_lock);
err_clear:
	spin_lock_irq(&dev->power.lock);
	dev->power.subsys_data->domain_data = NULL;
	spin_unlock_irq(&dev->power.lock);
err_put:
	dev_pm_put_subsys_data(dev);
err_free:
	kfree(pdd);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_add_device);

/**
 * ampsoc_pd_remove_device - take a device out of its domain
 * @dev: a device added with ampsoc_pd_add_device() or ampsoc_pd_attach()
 *
 * The domain is queued for power off if the device was its last user.
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL if @dev is not in one of our domains,
 * -EAGAIN during a system sleep transition.
 */
int ampsoc_pd_remove_device(struct device *dev)
{
	struct ampsoc_pd_dev *pdd;
	struct ampsoc_pd *pd;

	if (!dev)
		return -EINVAL;
	pdd = ampsoc_pd_dev_data(dev);
	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;

	mutex_lock(&ampsoc_pd_perf_lock);
	ampsoc_pd_lock(pd);
	if (pd->prepared_count || ampsoc_pd_in_transition()) {
		ampsoc_pd_unlock(pd);
		mutex_unlock(&ampsoc_pd_perf_lock);
		return -EAGAIN;
	}
	ampsoc_pd_unlock(pd);
	/* Its request goes with it (the performance mutex keeps it gone). */
	ampsoc_pd_perf_forget(pdd);
	ampsoc_pd_lock(pd);
	if (pd->prepared_count || ampsoc_pd_in_transition()) {
		/* A transition began meanwhile: the request stays withdrawn. */
		ampsoc_pd_unlock(pd);
		mutex_unlock(&ampsoc_pd_perf_lock);
		return -EAGAIN;
	}
	dev_pm_domain_set(dev, NULL);
	list_del(&pdd->base.list_node);
	pd->device_count--;
	if (pdd->active)
		pd->active_count--;
	if (pdd->power_nb)
		raw_notifier_chain_unregister(&pd->notifiers, pdd->power_nb);
	if (!pd->active_count)
		ampsoc_pd_queue_power_off(pd);
	ampsoc_pd_unlock(pd);
	mutex_unlock(&ampsoc_pd_perf_lock);

	if (pdd->qos_registered)
		dev_pm_qos_remove_notifier(dev, &pdd->qos_nb,
					   DEV_PM_QOS_RESUME_LATENCY);
	ampsoc_pd_qos_update(pdd, AMPSOC_PD_QOS_GONE);
	spin_lock_irq(&dev->power.lock);
	dev->power.subsys_data->domain_data = NULL;
	spin_unlock_irq(&dev->power.lock);
	dev_pm_put_subsys_data(dev);
	trace_ampsoc_pd_detach(pd->name, dev);
	kfree(pdd);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_remove_device);

/**
 * ampsoc_pd_of_dev - the domain a device is in
 * @dev: any device
 *
 * Context: any.
 * Return: the ampsoc domain of @dev, or NULL if it is in none of ours.
 */
struct ampsoc_pd *ampsoc_pd_of_dev(struct device *dev)
{
	if (!dev || !ampsoc_pd_is_ours(dev))
		return NULL;
	return container_of(dev->pm_domain, struct ampsoc_pd, domain);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_of_dev);

/* Is @target reachable from @pd going down to subdomains? List lock held. */
static bool pd_reaches(struct ampsoc_pd *pd, struct ampsoc_pd *target,
		       unsigned int depth)
{
	struct ampsoc_pd_link *link;

	if (pd == target)
		return true;
	if (depth > 64)
		return true;	/* deeper than anything sane: refuse */
	pd_for_each_child(pd, link)
		if (pd_reaches(link->child, target, depth + 1))
			return true;
	return false;
}

/**
 * ampsoc_pd_add_subdomain - make @child a subdomain of @parent
 * @parent: a registered domain
 * @child: a registered domain; it may already have other parents
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL or unregistered domains, a link
 * that would close a cycle (including @parent == @child), an "on" child
 * under an "off" parent, or an IRQ-safe child under a parent that is not
 * IRQ-safe; -EEXIST for a duplicate link; -EAGAIN during a system sleep
 * transition; -ENOMEM.
 */
int ampsoc_pd_add_subdomain(struct ampsoc_pd *parent, struct ampsoc_pd *child)
{
	struct ampsoc_pd_link *link;
	int ret = 0;

	if (!parent || !child)
		return -EINVAL;
	/*
	 * The child powers its parents on and off with its spinlock held:
	 * a parent's mutex cannot be taken then. 6.1 WARN()s here; a log
	 * line is enough (our guests panic on a warning).
	 */
	if (ampsoc_pd_irq_safe(child) && !ampsoc_pd_irq_safe(parent)) {
		pr_err("%s: IRQ-safe subdomain %s needs an IRQ-safe parent\n",
		       parent->name, child->name);
		return -EINVAL;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;

	/* The performance code walks the graph under this mutex alone. */
	mutex_lock(&ampsoc_pd_perf_lock);
	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(parent) || !ampsoc_pd_registered(child) ||
	    pd_reaches(child, parent, 0)) {
		ret = -EINVAL;
		goto out_list;
	}
	ampsoc_pd_lock(child);
	ampsoc_pd_lock_nested(parent, 1);
	if (parent->prepared_count || child->prepared_count ||
	    ampsoc_pd_in_transition()) {
		ret = -EAGAIN;
		goto out;
	}
	if (parent->status == AMPSOC_PD_OFF && child->status == AMPSOC_PD_ON) {
		ret = -EINVAL;
		goto out;
	}
	{
		struct ampsoc_pd_link *it;

		pd_for_each_child(parent, it) {
			if (it->child == child) {
				ret = -EEXIST;
				goto out;
			}
		}
	}
	link->parent = parent;
	link->child = child;
	list_add_tail(&link->parent_node, &parent->child_links);
	list_add_tail(&link->child_node, &child->parent_links);
	if (child->status == AMPSOC_PD_ON)
		atomic_inc(&parent->sd_count);
	ampsoc_pd_qos_invalidate(parent);
	link = NULL;
out:
	ampsoc_pd_unlock(parent);
	ampsoc_pd_unlock(child);
out_list:
	mutex_unlock(&ampsoc_pd_list_lock);
	mutex_unlock(&ampsoc_pd_perf_lock);
	kfree(link);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_add_subdomain);

/**
 * ampsoc_pd_remove_subdomain - undo ampsoc_pd_add_subdomain()
 * @parent: the parent domain
 * @child: the subdomain
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL or unregistered domains or no such
 * link; -EBUSY if @child still has devices or subdomains of its own (as in
 * mainline genpd); -EAGAIN during a system sleep transition.
 */
int ampsoc_pd_remove_subdomain(struct ampsoc_pd *parent,
			       struct ampsoc_pd *child)
{
	struct ampsoc_pd_link *link, *found = NULL;
	int ret = 0;

	if (!parent || !child)
		return -EINVAL;
	mutex_lock(&ampsoc_pd_perf_lock);
	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(parent) || !ampsoc_pd_registered(child)) {
		mutex_unlock(&ampsoc_pd_list_lock);
		mutex_unlock(&ampsoc_pd_perf_lock);
		return -EINVAL;
	}
	ampsoc_pd_lock(child);
	ampsoc_pd_lock_nested(parent, 1);
	if (parent->prepared_count || child->prepared_count ||
	    ampsoc_pd_in_transition()) {
		ret = -EAGAIN;
		goto out;
	}
	pd_for_each_child(parent, link) {
		if (link->child == child) {
			found = link;
			break;
		}
	}
	if (!found) {
		ret = -EINVAL;
		goto out;
	}
	if (child->device_count || !list_empty(&child->child_links)) {
		ret = -EBUSY;
		goto out;
	}
	list_del(&found->parent_node);
	list_del(&found->child_node);
	if (child->status == AMPSOC_PD_ON &&
	    atomic_dec_and_test(&parent->sd_count))
		ampsoc_pd_queue_power_off(parent);
	ampsoc_pd_qos_invalidate(parent);
out:
	ampsoc_pd_unlock(parent);
	ampsoc_pd_unlock(child);
	mutex_unlock(&ampsoc_pd_list_lock);
	mutex_unlock(&ampsoc_pd_perf_lock);
	if (!ret)
		kfree(found);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_remove_subdomain);

/*
 * The kernel warns (and our guests panic) on a duplicate registration:
 * look first. Lock held.
 */
static bool pd_nb_registered(struct ampsoc_pd *pd, struct notifier_block *nb)
{
	struct notifier_block *it;

	/* The chain changes only under the lock, held here. */
	ampsoc_pd_assert_held(pd);
	it = rcu_dereference_protected(pd->notifiers.head, 1);
	for (; it; it = rcu_dereference_protected(it->next, 1))
		if (it == nb)
			return true;
	return false;
}

/**
 * ampsoc_pd_notifier_register - add a power notifier to a domain
 * @pd: a registered domain
 * @nb: notifier; called with enum ampsoc_pd_notify and @pd, lock held
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL for NULL arguments or an unregistered
 * domain, -EEXIST if @nb is already registered.
 */
int ampsoc_pd_notifier_register(struct ampsoc_pd *pd, struct notifier_block *nb)
{
	int ret = 0;

	if (!pd || !nb || !nb->notifier_call)
		return -EINVAL;
	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(pd)) {
		mutex_unlock(&ampsoc_pd_list_lock);
		return -EINVAL;
	}
	ampsoc_pd_lock(pd);
	if (pd_nb_registered(pd, nb))
		ret = -EEXIST;
	else
		ret = raw_notifier_chain_register(&pd->notifiers, nb);
	ampsoc_pd_unlock(pd);
	mutex_unlock(&ampsoc_pd_list_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_notifier_register);

/**
 * ampsoc_pd_notifier_unregister - remove a power notifier from a domain
 * @pd: the domain
 * @nb: a notifier registered with ampsoc_pd_notifier_register()
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL for NULL arguments or an unregistered
 * domain, -ENOENT if @nb is not registered.
 */
int ampsoc_pd_notifier_unregister(struct ampsoc_pd *pd,
				  struct notifier_block *nb)
{
	int ret;

	if (!pd || !nb)
		return -EINVAL;
	mutex_lock(&ampsoc_pd_list_lock);
	if (!ampsoc_pd_registered(pd)) {
		mutex_unlock(&ampsoc_pd_list_lock);
		return -EINVAL;
	}
	ampsoc_pd_lock(pd);
	ret = raw_notifier_chain_unregister(&pd->notifiers, nb);
	ampsoc_pd_unlock(pd);
	mutex_unlock(&ampsoc_pd_list_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_notifier_unregister);

/**
 * ampsoc_pd_dev_add_notifier - add a device's power notifier to its domain
 * @dev: a device in one of our domains
 * @nb: notifier, as for ampsoc_pd_notifier_register()
 *
 * One notifier per device; it is removed with the device.
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL if @dev is in none of our domains or @nb is
 * NULL, -EEXIST if the device already has a notifier or @nb is already on
 * the domain's chain.
 */
int ampsoc_pd_dev_add_notifier(struct device *dev, struct notifier_block *nb)
{
	struct ampsoc_pd_dev *pdd;
	struct ampsoc_pd *pd;
	int ret;

	if (!dev || !nb || !nb->notifier_call)
		return -EINVAL;
	pdd = ampsoc_pd_dev_data(dev);
	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;
	ampsoc_pd_lock(pd);
	if (pdd->power_nb || pd_nb_registered(pd, nb)) {
		ret = -EEXIST;
	} else {
		ret = raw_notifier_chain_register(&pd->notifiers, nb);
		if (!ret)
			pdd->power_nb = nb;
	}
	ampsoc_pd_unlock(pd);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_dev_add_notifier);

/**
 * ampsoc_pd_dev_remove_notifier - remove a device's power notifier
 * @dev: a device in one of our domains
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL if @dev is in none of our domains, -ENOENT
 * if it has no notifier.
 */
int ampsoc_pd_dev_remove_notifier(struct device *dev)
{
	struct ampsoc_pd_dev *pdd;
	struct ampsoc_pd *pd;
	int ret;

	if (!dev)
		return -EINVAL;
	pdd = ampsoc_pd_dev_data(dev);
	if (!pdd)
		return -EINVAL;
	pd = pdd->pd;
	ampsoc_pd_lock(pd);
	if (!pdd->power_nb) {
		ret = -ENOENT;
	} else {
		ret = raw_notifier_chain_unregister(&pd->notifiers,
						    pdd->power_nb);
		pdd->power_nb = NULL;
	}
	ampsoc_pd_unlock(pd);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_dev_remove_notifier);

static int __init ampsoc_pd_module_init(void)
{
	int ret;

	ret = ampsoc_pd_sysfs_init();
	if (ret)
		return ret;
	ret = ampsoc_pd_sleep_init();
	if (ret) {
		ampsoc_pd_sysfs_exit();
		return ret;
	}
	ret = ampsoc_pd_provider_init();
	if (ret) {
		ampsoc_pd_sleep_exit();
		ampsoc_pd_sysfs_exit();
		return ret;
	}
	ampsoc_pd_debugfs_init();
	return 0;
}
module_init(ampsoc_pd_module_init);

static void __exit ampsoc_pd_module_exit(void)
{
	/* Providers hold module references: domains should be gone. */
	if (!list_empty(&ampsoc_pd_list))
		pr_warn("unloading with PM domains still registered\n");
	ampsoc_pd_provider_exit();
	ampsoc_pd_debugfs_exit();
	ampsoc_pd_sleep_exit();
	ampsoc_pd_sysfs_exit();
}
module_exit(ampsoc_pd_module_exit);

MODULE_DESCRIPTION("ampsoc generic I/O PM domains");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP: the kernel's own genpd (pm_genpd_*, built into Debian's 6.1) as
 * the oracle for ampsoc_pd. One topology is built three times in one
 * boot, each "side" with its own domains and fake platform devices:
 *
 *   gd_  genpd (pm_genpd_init(), no governor: Debian exports none)
 *   as_  ampsoc_pd with AMPSOC_PD_FLAG_SYNC_OFF (parents off in the
 *        caller's context, as genpd does)
 *   aa_  ampsoc_pd as the seed has it (parents off from work items)
 *
 *   top0   top1            level 0
 *     \    /   \
 *     mid0      mid1       level 1 (mid0 has two parents)
 *        \      /
 *          leaf            level 2 (two parents)
 *
 *   dev0 in top0, dev1 in mid0, dev2 in mid1, dev3 and dev4 in leaf;
 *   dev0..dev3 carry their domain's power notifier (the only notifier
 *   API 6.1 exports is per device).
 *
 * Every side logs, in its own trace, domain power-on ("+name") and
 * power-off ("-name"), performance-state callbacks ("pname=N", "pname!N"
 * when the fake provider refuses it) and driver runtime suspend ("s<n>")
 * and resume ("r<n>"); system-sleep callbacks too in the sleep suite. A
 * seeded sequence of runtime PM get/put (sync, and async then flushed),
 * PM QoS resume-latency requests, notifier vetoes, performance-state
 * requests and provider refusals of a performance state is replayed on
 * each side in turn; after each step the traces are compared: exactly for
 * as_, as a multiset for aa_ (docs/pmdomain.md, "Runtime PM": its parents
 * power off asynchronously, from one work item each, so siblings may go
 * off in either order), then the final states (power and performance)
 * and the debugfs summaries (performance columns included).
 *
 * Where ampsoc differs on purpose (docs/pmdomain.md, "Differences from
 * the kernel's genpd"), a pin_* case asserts the difference itself, so it
 * fails the day the difference disappears. The replay keeps clear of them:
 * it cancels ampsoc's pending retry before lifting a veto.
 *
 * Parameters: seeds= (up to 8, printed), steps= per seed; sleep= set to a
 * /sys/power/pm_test level ("devices" or "platform") runs the system-sleep
 * comparison instead; irq_safe=1 builds every domain IRQ-safe
 * (GENPD_FLAG_IRQ_SAFE, AMPSOC_PD_FLAG_IRQ_SAFE) and every device too
 * (pm_runtime_irq_safe()) and replays without performance requests, whose
 * withholding differs there on purpose (docs/pmdomain.md); the pins,
 * which are about the other differences, are not run then.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pm_domain.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/suspend.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pdgenpd"
#define TRACE_LEN	1024
#define MAX_SEEDS	8
/* Platform device id: side * ID_STRIDE + device index. */
#define ID_STRIDE	8

static unsigned int seeds[MAX_SEEDS] = { 1, 2, 3 };
static int nr_seeds = 3;
module_param_array(seeds, uint, &nr_seeds, 0444);
MODULE_PARM_DESC(seeds, "seeds of the replayed sequences (up to 8)");

static unsigned int steps = 80;
module_param(steps, uint, 0444);
MODULE_PARM_DESC(steps, "operations per seed");

static bool keep_retry;
module_param(keep_retry, bool, 0444);
MODULE_PARM_DESC(keep_retry, "keep ampsoc's retry when the replay lifts a veto (shows the replay finding that difference)");

static bool irq_safe;
module_param(irq_safe, bool, 0444);
MODULE_PARM_DESC(irq_safe, "IRQ-safe domains and devices on every side (no performance requests)");

static char *sleep_level;
module_param_named(sleep, sleep_level, charp, 0444);
MODULE_PARM_DESC(sleep, "pm_test level set by the scenario: run the system-sleep comparison");

enum { SIDE_GENPD, SIDE_SYNC, SIDE_ASYNC, NR_SIDES };
static const char * const side_prefix[NR_SIDES] = { "gd_", "as_", "aa_" };

enum { D_TOP0, D_TOP1, D_MID0, D_MID1, D_LEAF, NR_DOMS };
/* D_EXTRA: a domain of one pin, outside the topology */
#define D_EXTRA	NR_DOMS
static const char * const dom_short[NR_DOMS + 1] = {
	"top0", "top1", "mid0", "mid1", "leaf", "extra",
};

static const struct {
	int parent, child;
} dom_links[] = {
	{ D_TOP0, D_MID0 }, { D_TOP1, D_MID0 }, { D_TOP1, D_MID1 },
	{ D_MID0, D_LEAF }, { D_MID1, D_LEAF },
};

#define NR_DEVS		5
#define NR_NOTIFIED	4	/* dev0..dev3: one notifier per domain */
static const int dev_dom[NR_DEVS] = { D_TOP0, D_MID0, D_MID1, D_LEAF, D_LEAF };

struct side;

struct gdom;

struct xdom {
	struct gdom *g;
	struct ampsoc_pd a;
	struct side *side;
	int idx;
	char name[16];
	bool inited;
	bool hw_on;
	bool veto;
	/* the provider refuses every performance state */
	bool perf_fail;
	/* the last performance callback: the domain's lock was held */
	bool perf_locked;
	/* ... and (ampsoc, lock free) ampsoc_pd_is_on() answered */
	bool perf_saw_on;
	bool perf_called;
	/* task that ran the last power_off(), for the async pin */
	struct task_struct *off_task;
	/* data argument of the last notifier call, for the notifier pin */
	void *notify_data;
	bool notified;
};

/*
 * A genpd, allocated. pm_genpd_remove() drops the last reference to the
 * struct device pm_genpd_init() initialised, so that device needs a
 * release; but 6.1 still reads the domain after that put, so the release
 * frees nothing and gdom_free() frees the domain once
 * pm_genpd_remove() has returned.
 */
struct gdom {
	struct generic_pm_domain g;
	struct xdom *x;
};

static void gdom_release(struct device *dev)
{
}

static void gdom_free(struct xdom *d)
{
	kfree(d->g);
	d->g = NULL;
}

struct xdev {
	struct platform_device *pdev;
	struct side *side;
	int idx;
	int refs;
	bool in_domain;
	bool qos;
	struct dev_pm_qos_request req;
	struct notifier_block nb;
	bool nb_added;
};

struct side {
	int id;
	struct xdom doms[NR_DOMS];
	struct xdev devs[NR_DEVS];
	char trace[TRACE_LEN];
	/* system sleep: domain events after the first complete() */
	char post[TRACE_LEN];
	bool overflow;
	bool completed;
	/* coverage of a replay: events traced, power-offs vetoed */
	unsigned int events;
	unsigned int vetoes;
	/* performance callbacks, and those the fake provider refused */
	unsigned int perf_calls;
	unsigned int perf_refused;
	int links_added;
};

static struct side sides[NR_SIDES];
static DEFINE_SPINLOCK(trace_lock);
static bool sleep_recording;
static bool setup_ok;

static __printf(3, 4) void trace_add(char *buf, struct side *s,
				       const char *fmt, ...)
{
	unsigned long flags;
	char ev[16];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ev, sizeof(ev), fmt, ap);
	va_end(ap);
	spin_lock_irqsave(&trace_lock, flags);
	n = strlen(buf);
	s->events++;
	if (n + strlen(ev) + 2 > TRACE_LEN)
		s->overflow = true;
	else
		scnprintf(buf + n, TRACE_LEN - n, "%s%s", n ? " " : "", ev);
	spin_unlock_irqrestore(&trace_lock, flags);
}

static void trace_reset(struct side *s)
{
	spin_lock_irq(&trace_lock);
	s->trace[0] = '\0';
	s->post[0] = '\0';
	s->overflow = false;
	s->completed = false;
	spin_unlock_irq(&trace_lock);
}

/* A domain event: after a sleep's first complete() it goes to ->post. */
static void dom_event(struct xdom *d, char what)
{
	struct side *s = d->side;

	trace_add(READ_ONCE(s->completed) ? s->post : s->trace, s, "%c%s",
		  what, dom_short[d->idx]);
}

static int x_on(struct xdom *d)
{
	d->hw_on = true;
	dom_event(d, '+');
	return 0;
}

static int x_off(struct xdom *d)
{
	d->hw_on = false;
	d->off_task = current;
	dom_event(d, '-');
	return 0;
}

static int g_power_on(struct generic_pm_domain *g)
{
	return x_on(container_of(g, struct gdom, g)->x);
}

static int g_power_off(struct generic_pm_domain *g)
{
	return x_off(container_of(g, struct gdom, g)->x);
}

static int a_power_on(struct ampsoc_pd *pd)
{
	return x_on(container_of(pd, struct xdom, a));
}

static int a_power_off(struct ampsoc_pd *pd)
{
	return x_off(container_of(pd, struct xdom, a));
}

static int x_perf(struct xdom *d, unsigned int state)
{
	bool fail = READ_ONCE(d->perf_fail);

	d->perf_called = true;
	d->side->perf_calls++;
	if (fail)
		d->side->perf_refused++;
	trace_add(d->side->trace, d->side, "p%s%c%u", dom_short[d->idx],
		  fail ? '!' : '=', state);
	return fail ? -EIO : 0;
}

static int g_set_perf(struct generic_pm_domain *g, unsigned int state)
{
	struct xdom *d = container_of(g, struct gdom, g)->x;

	/* The mutex only: the IRQ-safe replay makes no requests. */
	d->perf_locked = !(g->flags & GENPD_FLAG_IRQ_SAFE) &&
			 mutex_is_locked(&g->mlock);
	return x_perf(d, state);
}

static int a_set_perf(struct ampsoc_pd *pd, unsigned int state)
{
	struct xdom *d = container_of(pd, struct xdom, a);

	d->perf_locked = !ampsoc_pd_irq_safe(pd) &&
			 mutex_is_locked(&pd->lock);
	/* Only without the lock: with it, this would deadlock. */
	if (!d->perf_locked)
		d->perf_saw_on = ampsoc_pd_is_on(pd);
	return x_perf(d, state);
}

static struct xdom *dev_xdom(struct xdev *v)
{
	return &v->side->doms[dev_dom[v->idx]];
}

/* Both enums number PRE_OFF, OFF, PRE_ON, ON alike (0..3). */
static int x_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct xdev *v = container_of(nb, struct xdev, nb);
	struct xdom *d = dev_xdom(v);
	unsigned long pre_off = v->side->id == SIDE_GENPD ?
		GENPD_NOTIFY_PRE_OFF : AMPSOC_PD_NOTIFY_PRE_OFF;

	d->notify_data = data;
	d->notified = true;
	if (event == pre_off && READ_ONCE(d->veto)) {
		v->side->vetoes++;
		return notifier_from_errno(-EBUSY);
	}
	return NOTIFY_OK;
}

static struct xdev *to_xdev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static void dev_event(struct device *dev, const char *what, bool sleep_cb)
{
	struct xdev *v = to_xdev(dev);

	if (!v || (sleep_cb && !READ_ONCE(sleep_recording)))
		return;
	trace_add(v->side->trace, v->side, "%s%d", what, v->idx);
}

static int x_rt_suspend(struct device *dev)
{
	dev_event(dev, "s", false);
	return 0;
}

static int x_rt_resume(struct device *dev)
{
	dev_event(dev, "r", false);
	return 0;
}

static int x_prepare(struct device *dev)
{
	dev_event(dev, "P", true);
	return 0;
}

static void x_complete(struct device *dev)
{
	struct xdev *v = to_xdev(dev);

	dev_event(dev, "C", true);
	if (v && READ_ONCE(sleep_recording))
		WRITE_ONCE(v->side->completed, true);
}

static int x_suspend(struct device *dev)
{
	dev_event(dev, "S", true);
	return 0;
}

static int x_resume(struct device *dev)
{
	dev_event(dev, "R", true);
	return 0;
}

static int x_suspend_late(struct device *dev)
{
	dev_event(dev, "SL", true);
	return 0;
}

static int x_resume_early(struct device *dev)
{
	dev_event(dev, "RE", true);
	return 0;
}

static int x_suspend_noirq(struct device *dev)
{
	dev_event(dev, "SN", true);
	return 0;
}

static int x_resume_noirq(struct device *dev)
{
	dev_event(dev, "RN", true);
	return 0;
}

static const struct dev_pm_ops x_pm = {
	.prepare = x_prepare,
	.complete = x_complete,
	.suspend = x_suspend,
	.resume = x_resume,
	.suspend_late = x_suspend_late,
	.resume_early = x_resume_early,
	.suspend_noirq = x_suspend_noirq,
	.resume_noirq = x_resume_noirq,
	.runtime_suspend = x_rt_suspend,
	.runtime_resume = x_rt_resume,
};

static int x_probe(struct platform_device *pdev)
{
	int side = pdev->id / ID_STRIDE, idx = pdev->id % ID_STRIDE;

	if (side >= NR_SIDES || idx >= NR_DEVS)
		return -ENODEV;
	platform_set_drvdata(pdev, &sides[side].devs[idx]);
	if (irq_safe)
		pm_runtime_irq_safe(&pdev->dev);
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int x_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver x_driver = {
	.probe = x_probe,
	.remove = x_remove,
	.driver = {
		.name = DRV_NAME,
		.pm = &x_pm,
	},
};

static bool is_genpd(struct side *s)
{
	return s->id == SIDE_GENPD;
}

static bool dom_is_on(struct xdom *d)
{
	if (is_genpd(d->side))
		return d->g->g.status == GENPD_STATE_ON;
	return ampsoc_pd_is_on(&d->a);
}

/* Let every queued runtime PM request and domain power-off finish. */
static void flush_side(struct side *s)
{
	int i, round;

	for (round = 0; round < 2; round++)
		for (i = 0; i < NR_DEVS; i++)
			flush_work(&s->devs[i].pdev->dev.power.work);
	for (round = 0; round < NR_DOMS; round++)
		for (i = 0; i < NR_DOMS; i++) {
			if (is_genpd(s))
				flush_work(&s->doms[i].g->g.power_off_work);
			else
				flush_work(&s->doms[i].a.power_off_work);
		}
}

static int side_add_device(struct side *s, struct xdom *d, struct device *dev)
{
	if (is_genpd(s))
		return pm_genpd_add_device(&d->g->g, dev);
	return ampsoc_pd_add_device(&d->a, dev);
}

static void side_remove_device(struct side *s, struct device *dev)
{
	if (is_genpd(s))
		pm_genpd_remove_device(dev);
	else
		ampsoc_pd_remove_device(dev);
}

static int side_init(struct side *s)
{
	int i, ret;

	for (i = 0; i < NR_DOMS; i++) {
		struct xdom *d = &s->doms[i];

		d->side = s;
		d->idx = i;
		d->hw_on = true;
		snprintf(d->name, sizeof(d->name), "%s%s", side_prefix[s->id],
			 dom_short[i]);
		if (is_genpd(s)) {
			d->g = kzalloc(sizeof(*d->g), GFP_KERNEL);
			if (!d->g)
				return -ENOMEM;
			d->g->x = d;
			d->g->g.name = d->name;
			d->g->g.power_on = g_power_on;
			d->g->g.power_off = g_power_off;
			d->g->g.set_performance_state = g_set_perf;
			if (irq_safe)
				d->g->g.flags = GENPD_FLAG_IRQ_SAFE;
			ret = pm_genpd_init(&d->g->g, NULL, false);
			if (ret) {
				kfree(d->g);
				d->g = NULL;
				return ret;
			}
			/* pm_genpd_remove() puts the domain's struct device */
			d->g->g.dev.release = gdom_release;
		} else {
			d->a.name = d->name;
			d->a.power_on = a_power_on;
			d->a.power_off = a_power_off;
			d->a.set_performance_state = a_set_perf;
			if (s->id == SIDE_SYNC)
				d->a.flags = AMPSOC_PD_FLAG_SYNC_OFF;
			if (irq_safe)
				d->a.flags |= AMPSOC_PD_FLAG_IRQ_SAFE;
			ret = ampsoc_pd_init(&d->a, NULL, false);
		}
		if (ret)
			return ret;
		d->inited = true;
	}
	for (i = 0; i < ARRAY_SIZE(dom_links); i++) {
		struct xdom *p = &s->doms[dom_links[i].parent];
		struct xdom *c = &s->doms[dom_links[i].child];

		if (is_genpd(s))
			ret = pm_genpd_add_subdomain(&p->g->g, &c->g->g);
		else
			ret = ampsoc_pd_add_subdomain(&p->a, &c->a);
		if (ret)
			return ret;
		s->links_added++;
	}
	for (i = 0; i < NR_DEVS; i++) {
		struct xdev *v = &s->devs[i];
		struct platform_device *p;

		v->side = s;
		v->idx = i;
		p = platform_device_alloc(DRV_NAME, s->id * ID_STRIDE + i);
		if (!p)
			return -ENOMEM;
		ret = side_add_device(s, dev_xdom(v), &p->dev);
		if (ret) {
			platform_device_put(p);
			return ret;
		}
		ret = platform_device_add(p);
		if (ret) {
			side_remove_device(s, &p->dev);
			platform_device_put(p);
			return ret;
		}
		v->pdev = p;
		v->in_domain = true;
		if (!p->dev.driver)
			return -ENODEV;
		/* Every device starts held once: active, its domains on. */
		ret = pm_runtime_resume_and_get(&p->dev);
		if (ret)
			return ret;
		v->refs = 1;
		if (i < NR_NOTIFIED) {
			v->nb.notifier_call = x_notify;
			if (is_genpd(s))
				ret = dev_pm_genpd_add_notifier(&p->dev, &v->nb);
			else
				ret = ampsoc_pd_dev_add_notifier(&p->dev, &v->nb);
			if (ret)
				return ret;
			v->nb_added = true;
		}
	}
	return 0;
}

static void side_teardown(struct side *s)
{
	int i;

	for (i = NR_DEVS - 1; i >= 0; i--) {
		struct xdev *v = &s->devs[i];
		struct platform_device *p = v->pdev;

		if (!p)
			continue;
		if (v->qos)
			dev_pm_qos_remove_request(&v->req);
		v->qos = false;
		if (v->nb_added) {
			if (is_genpd(s))
				dev_pm_genpd_remove_notifier(&p->dev);
			else
				ampsoc_pd_dev_remove_notifier(&p->dev);
		}
		v->nb_added = false;
		while (v->refs > 0) {
			pm_runtime_put_noidle(&p->dev);
			v->refs--;
		}
		device_release_driver(&p->dev);
		if (v->in_domain)
			side_remove_device(s, &p->dev);
		platform_device_unregister(p);
		v->pdev = NULL;
	}
	for (i = s->links_added - 1; i >= 0; i--) {
		struct xdom *p = &s->doms[dom_links[i].parent];
		struct xdom *c = &s->doms[dom_links[i].child];

		if (is_genpd(s))
			pm_genpd_remove_subdomain(&p->g->g, &c->g->g);
		else
			ampsoc_pd_remove_subdomain(&p->a, &c->a);
	}
	s->links_added = 0;
	for (i = NR_DOMS - 1; i >= 0; i--) {
		struct xdom *d = &s->doms[i];

		if (!d->inited)
			continue;
		if (is_genpd(s)) {
			if (!pm_genpd_remove(&d->g->g))
				gdom_free(d);
		} else {
			ampsoc_pd_remove(&d->a);
		}
		d->inited = false;
	}
}

static void teardown_all(void)
{
	int i;

	for (i = NR_SIDES - 1; i >= 0; i--)
		side_teardown(&sides[i]);
}

static void setup(struct ampsoc_ktap_test *t)
{
	int i, ret;

	for (i = 0; i < NR_SIDES; i++) {
		sides[i].id = i;
		ret = side_init(&sides[i]);
		if (!KTAP_EXPECT_EQ(t, ret, 0)) {
			ampsoc_ktap_fail(t, "side %s: building it failed",
					 side_prefix[i]);
			return;
		}
	}
	for (i = 0; i < NR_SIDES; i++)
		flush_side(&sides[i]);
	setup_ok = true;
}

/* Replay operations */

enum {
	OP_GET, OP_PUT, OP_GET_ASYNC, OP_PUT_ASYNC, OP_QOS, OP_VETO, OP_PERF,
	OP_PERF_FAIL, NR_OPS
};

static const char * const op_names[NR_OPS] = {
	"get_sync", "put_sync", "get_async", "put_async", "qos", "veto",
	"perf", "perf_fail",
};

/* Performance states requested: 0 (none) to PERF_MAX. */
#define PERF_MAX	3

/*
 * Without CONFIG_PM_OPP (the debug kernel's defconfig) 6.1's genpd
 * cannot propagate a state to a parent that has a callback: its
 * translation is the OPP stub, -EOPNOTSUPP. Requests then go to dev0
 * only, whose domain (top0) has no parent.
 */
static int perf_dev(int idx)
{
	return IS_ENABLED(CONFIG_PM_OPP) ? idx : 0;
}

static int side_set_perf(struct side *s, struct device *dev,
			 unsigned int state)
{
	if (is_genpd(s))
		return dev_pm_genpd_set_performance_state(dev, state);
	return ampsoc_pd_set_performance_state(dev, state);
}

static unsigned int dom_perf(struct xdom *d)
{
	if (is_genpd(d->side))
		return READ_ONCE(d->g->g.performance_state);
	return READ_ONCE(d->a.performance_state);
}

/* The request the device's domain counts now. */
static unsigned int dev_perf(struct xdev *v)
{
	struct device *dev = &v->pdev->dev;
	struct pm_domain_data *data;

	if (is_genpd(v->side))
		return dev_gpd_data(dev)->performance_state;
	data = dev->power.subsys_data ? dev->power.subsys_data->domain_data :
		NULL;
	if (!data)
		return ~0U;
	return container_of(data, struct ampsoc_pd_dev, base)->performance_state;
}

static const s32 qos_values[] = { 0, 10, 100000 };

/*
 * Lift a veto; on ampsoc, without the retry 6.1 does not have. With
 * keep_retry, run ampsoc's pending retry now instead, so the step shows it.
 */
static void clear_veto(struct xdom *d)
{
	if (is_genpd(d->side)) {
		WRITE_ONCE(d->veto, false);
	} else if (!keep_retry) {
		cancel_delayed_work_sync(&d->a.retry_work);
		WRITE_ONCE(d->veto, false);
	} else {
		WRITE_ONCE(d->veto, false);
		flush_delayed_work(&d->a.retry_work);
	}
}

/* Apply one operation to one side; returns the runtime PM call's result. */
static int apply_op(struct side *s, int op, int idx, u32 arg)
{
	struct xdev *v = &s->devs[idx];
	struct device *dev = &v->pdev->dev;
	int ret = 0;

	switch (op) {
	case OP_GET:
		if (v->refs >= 1)
			break;
		ret = pm_runtime_get_sync(dev);
		if (ret < 0)
			pm_runtime_put_noidle(dev);
		else
			v->refs++;
		break;
	case OP_PUT:
		if (!v->refs)
			break;
		v->refs--;
		ret = pm_runtime_put_sync(dev);
		break;
	case OP_GET_ASYNC:
		if (v->refs >= 1)
			break;
		v->refs++;
		ret = pm_runtime_get(dev);
		break;
	case OP_PUT_ASYNC:
		if (!v->refs)
			break;
		v->refs--;
		ret = pm_runtime_put(dev);
		break;
	case OP_QOS:
		if (v->qos) {
			ret = dev_pm_qos_remove_request(&v->req);
			v->qos = false;
		} else {
			ret = dev_pm_qos_add_request(dev, &v->req,
						     DEV_PM_QOS_RESUME_LATENCY,
						     qos_values[arg % ARRAY_SIZE(qos_values)]);
			v->qos = ret >= 0;
		}
		break;
	case OP_VETO:
		if (idx >= NR_NOTIFIED)
			break;
		if (dev_xdom(v)->veto)
			clear_veto(dev_xdom(v));
		else
			WRITE_ONCE(dev_xdom(v)->veto, true);
		break;
	case OP_PERF:
		ret = side_set_perf(s, &s->devs[perf_dev(idx)].pdev->dev,
				    arg % (PERF_MAX + 1));
		break;
	case OP_PERF_FAIL:
		/* any domain of the side (arg), not only the device's */
		WRITE_ONCE(s->doms[arg % NR_DOMS].perf_fail,
			   !s->doms[arg % NR_DOMS].perf_fail);
		break;
	}
	flush_side(s);
	/* Async calls answer 0 or 1 depending on timing: compare errors only. */
	if (op == OP_GET_ASYNC || op == OP_PUT_ASYNC || op == OP_QOS)
		ret = min(ret, 0);
	return ret;
}

static int cmp_tok(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/* Sort a trace's space-separated tokens in place, into @out. */
static void sorted_trace(const char *in, char *out, size_t size)
{
	char *copy = kstrdup(in, GFP_KERNEL), *p, *tok;
	const char **toks = kcalloc(TRACE_LEN / 2, sizeof(*toks), GFP_KERNEL);
	int n = 0, i;
	size_t len = 0;

	out[0] = '\0';
	if (!copy || !toks) {
		kfree(copy);
		kfree(toks);
		return;
	}
	p = copy;
	while ((tok = strsep(&p, " ")) && n < TRACE_LEN / 2)
		if (*tok)
			toks[n++] = tok;
	sort(toks, n, sizeof(toks[0]), cmp_tok, NULL);
	for (i = 0; i < n; i++)
		len += scnprintf(out + len, size - len, "%s%s", i ? " " : "",
				 toks[i]);
	kfree(toks);
	kfree(copy);
}

/*
 * Compare one side's trace with genpd's: exactly, or as multisets where
 * the contract makes the order asynchronous. Returns true if equal.
 */
static bool same_trace(const char *oracle, const char *got, bool unordered)
{
	char *a, *b;
	bool eq;

	if (!unordered)
		return !strcmp(oracle, got);
	a = kmalloc(2 * TRACE_LEN, GFP_KERNEL);
	if (!a)
		return false;
	b = a + TRACE_LEN;
	sorted_trace(oracle, a, TRACE_LEN);
	sorted_trace(got, b, TRACE_LEN);
	eq = !strcmp(a, b);
	kfree(a);
	return eq;
}

/* Final states: every domain's status and hardware, every device's. */
static bool same_states(struct ampsoc_ktap_test *t, const char *when)
{
	struct side *g = &sides[SIDE_GENPD];
	int i, k;

	for (k = SIDE_SYNC; k < NR_SIDES; k++) {
		struct side *s = &sides[k];

		for (i = 0; i < NR_DOMS; i++) {
			bool want = dom_is_on(&g->doms[i]);

			if (dom_is_on(&s->doms[i]) != want ||
			    s->doms[i].hw_on != g->doms[i].hw_on) {
				ampsoc_ktap_fail(t, "%s: %s%s is %s, genpd's %s",
						 when, side_prefix[k],
						 dom_short[i],
						 want ? "off" : "on",
						 want ? "on" : "off");
				return false;
			}
			if (dom_perf(&s->doms[i]) != dom_perf(&g->doms[i])) {
				ampsoc_ktap_fail(t, "%s: %s%s performance state %u, genpd's %u",
						 when, side_prefix[k],
						 dom_short[i], dom_perf(&s->doms[i]),
						 dom_perf(&g->doms[i]));
				return false;
			}
		}
		for (i = 0; i < NR_DEVS; i++) {
			bool want = pm_runtime_status_suspended(&g->devs[i].pdev->dev);

			if (dev_perf(&s->devs[i]) != dev_perf(&g->devs[i])) {
				ampsoc_ktap_fail(t, "%s: %sdev%d request %u, genpd's %u",
						 when, side_prefix[k], i,
						 dev_perf(&s->devs[i]),
						 dev_perf(&g->devs[i]));
				return false;
			}

			if (pm_runtime_status_suspended(&s->devs[i].pdev->dev) != want) {
				ampsoc_ktap_fail(t, "%s: %sdev%d is %s, genpd's %s",
						 when, side_prefix[k], i,
						 want ? "active" : "suspended",
						 want ? "suspended" : "active");
				return false;
			}
		}
	}
	return true;
}

/* Debugfs summaries */

#define SUMMARY_MAX	(64 * 1024)

/*
 * 6.1's genpd summary is a seq_file with .read and no .read_iter, which
 * kernel_read() refuses: read it through a user buffer mapped in the
 * calling (modprobe) process, with the file's own ->read().
 */
static ssize_t read_via_user(struct file *f, char *buf, size_t size)
{
	unsigned long uaddr;
	char __user *ubuf;
	loff_t pos = 0;
	size_t len = 0;
	ssize_t n;

	if (!current->mm || !f->f_op->read)
		return -EINVAL;
	uaddr = vm_mmap(NULL, 0, size, PROT_READ | PROT_WRITE,
			MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr))
		return (ssize_t)uaddr;
	ubuf = (char __user *)uaddr;
	while ((n = f->f_op->read(f, ubuf + len, size - len, &pos)) > 0)
		len += n;
	if (n >= 0 && copy_from_user(buf, ubuf, len))
		n = -EFAULT;
	vm_munmap(uaddr, size);
	return n < 0 ? n : len;
}

static char *read_file(const char *path, size_t *len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	char *buf;
	loff_t pos = 0;
	ssize_t n = 0;

	*len = 0;
	if (IS_ERR(f))
		return NULL;
	buf = vzalloc(SUMMARY_MAX + 1);
	if (buf && f->f_op->read_iter) {
		while ((n = kernel_read(f, buf + *len, SUMMARY_MAX - *len,
					&pos)) > 0)
			*len += n;
	} else if (buf) {
		n = read_via_user(f, buf, SUMMARY_MAX);
		if (n > 0)
			*len = n;
	}
	if (buf && n < 0) {
		vfree(buf);
		buf = NULL;
	}
	filp_close(f, NULL);
	return buf;
}

/*
 * Reduce a 6.1-format summary to one side's content: for each of its
 * domains (in file order), "name status pPERF [children]
 * devN=rtstatus/pPERF ...",
 * the side's prefix dropped and each device named by its index.
 */
static void summary_canon(char *text, int side, char *out, size_t size)
{
	const char *pfx = side_prefix[side];
	bool mine = false, first_dom = true;
	size_t len = 0;
	char *line, *p = text;

	out[0] = '\0';
	while ((line = strsep(&p, "\n"))) {
		char *tok, *perf, *rest = line;

		if (!*line || line[0] == '-' || !strncmp(line, "domain", 6) ||
		    !strncmp(line, "    /device ", 12))
			continue;
		if (line[0] != ' ') {
			char *name = strsep(&rest, " ");

			mine = !strncmp(name, pfx, strlen(pfx));
			if (!mine)
				continue;
			while (rest && *rest == ' ')
				rest++;
			tok = strsep(&rest, " ");
			rest = skip_spaces(rest ?: "");
			perf = strsep(&rest, " ");
			len += scnprintf(out + len, size - len, "%s%s %s p%s",
					 first_dom ? "" : "; ",
					 name + strlen(pfx), tok ?: "?",
					 perf ?: "?");
			first_dom = false;
			continue;
		}
		if (!mine)
			continue;
		line = skip_spaces(line);
		if (*line == '/') {
			char *path = strsep(&line, " "), *dot = strrchr(path, '.');
			unsigned int id = 0;

			if (dot && !kstrtouint(dot + 1, 10, &id))
				id %= ID_STRIDE;
			line = skip_spaces(line ?: "");
			tok = strsep(&line, " ");
			line = skip_spaces(line ?: "");
			perf = strsep(&line, " ");
			len += scnprintf(out + len, size - len, " dev%u=%s/p%s",
					 id, tok ?: "?", perf ?: "?");
			continue;
		}
		/* the children line: names separated by ", " */
		len += scnprintf(out + len, size - len, " [");
		while ((tok = strsep(&line, " "))) {
			size_t tl = strlen(tok);

			if (!tl)
				continue;
			if (tok[tl - 1] == ',')
				tok[tl - 1] = '\0';
			if (!strncmp(tok, pfx, strlen(pfx)))
				tok += strlen(pfx);
			len += scnprintf(out + len, size - len, "%s,", tok);
		}
		len += scnprintf(out + len, size - len, "]");
	}
}

static bool same_summaries(struct ampsoc_ktap_test *t, const char *when)
{
	static const char gpath[] = "/sys/kernel/debug/pm_genpd/pm_genpd_summary";
	static const char apath[] = "/sys/kernel/debug/ampsoc_pd/pm_genpd_summary";
	char *g, *a, *canon;
	size_t glen, alen;
	bool ok = false;
	int k;

	g = read_file(gpath, &glen);
	a = read_file(apath, &alen);
	canon = kmalloc(3 * 1024, GFP_KERNEL);
	if (!g || !a || !canon) {
		ampsoc_ktap_fail(t, "%s: cannot read %s", when, g ? apath : gpath);
		goto out;
	}
	ok = true;
	for (k = SIDE_SYNC; k < NR_SIDES && ok; k++) {
		char *gc = kstrdup(g, GFP_KERNEL), *ac = kstrdup(a, GFP_KERNEL);

		if (gc && ac) {
			summary_canon(gc, SIDE_GENPD, canon, 1024);
			summary_canon(ac, k, canon + 1024, 1024);
			if (!canon[0] || strcmp(canon, canon + 1024)) {
				ampsoc_ktap_fail(t, "%s: summary genpd \"%s\"",
						 when, canon);
				ampsoc_ktap_fail(t, "%s: summary %s \"%s\"", when,
						 side_prefix[k], canon + 1024);
				ok = false;
			}
		} else {
			ok = false;
		}
		kfree(gc);
		kfree(ac);
	}
out:
	kfree(canon);
	vfree(g);
	vfree(a);
	return ok;
}

/* Bring every side back to: every device held once, no QoS, no veto. */
static void reset_sides(void)
{
	int k, i;

	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];

		for (i = 0; i < NR_DOMS; i++) {
			clear_veto(&s->doms[i]);
			WRITE_ONCE(s->doms[i].perf_fail, false);
		}
		for (i = 0; i < NR_DEVS; i++) {
			struct xdev *v = &s->devs[i];

			if (v->qos)
				dev_pm_qos_remove_request(&v->req);
			v->qos = false;
			while (v->refs < 1) {
				if (pm_runtime_get_sync(&v->pdev->dev) < 0) {
					pm_runtime_put_noidle(&v->pdev->dev);
					break;
				}
				v->refs++;
			}
			while (v->refs > 1) {
				pm_runtime_put_sync(&v->pdev->dev);
				v->refs--;
			}
			side_set_perf(s, &v->pdev->dev, 0);
		}
		flush_side(s);
	}
}

/* Replay one seed on the three sides; false at the first difference. */
static bool replay_seed(struct ampsoc_ktap_test *t, u32 seed)
{
	struct rnd_state rs;
	int step, k;
	char when[64];

	prandom_seed_state(&rs, seed);
	reset_sides();
	sides[SIDE_GENPD].events = 0;
	sides[SIDE_GENPD].vetoes = 0;
	sides[SIDE_GENPD].perf_calls = 0;
	sides[SIDE_GENPD].perf_refused = 0;
	for (step = 0; step < steps; step++) {
		u32 r = prandom_u32_state(&rs);
		int nr_ops = irq_safe ? OP_PERF : NR_OPS;
		int op = r % nr_ops, idx = (r / nr_ops) % NR_DEVS;
		u32 arg = r >> 16;
		int ret[NR_SIDES];

		for (k = 0; k < NR_SIDES; k++) {
			trace_reset(&sides[k]);
			ret[k] = apply_op(&sides[k], op, idx, arg);
		}
		snprintf(when, sizeof(when), "seed %u step %d %s dev%d", seed,
			 step, op_names[op], idx);
		for (k = SIDE_SYNC; k < NR_SIDES; k++) {
			const char *o = sides[SIDE_GENPD].trace;
			const char *s = sides[k].trace;

			if (sides[k].overflow || sides[SIDE_GENPD].overflow ||
			    ret[k] != ret[SIDE_GENPD] ||
			    !same_trace(o, s, k == SIDE_ASYNC)) {
				ampsoc_ktap_fail(t, "%s: genpd \"%s\" = %d",
						 when, o, ret[SIDE_GENPD]);
				ampsoc_ktap_fail(t, "%s: %s \"%s\" = %d", when,
						 side_prefix[k], s, ret[k]);
				return false;
			}
		}
		if (!same_states(t, when))
			return false;
	}
	pr_info("pdgenpd: seed %u: %u genpd events, %u vetoed power-offs, %u performance callbacks (%u refused)\n",
		seed, sides[SIDE_GENPD].events, sides[SIDE_GENPD].vetoes,
		sides[SIDE_GENPD].perf_calls, sides[SIDE_GENPD].perf_refused);
	snprintf(when, sizeof(when), "seed %u end", seed);
	return same_summaries(t, when);
}

static void replay_seeds(struct ampsoc_ktap_test *t)
{
	int i;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	for (i = 0; i < nr_seeds; i++) {
		pr_info("pdgenpd: replaying seed %u, %u steps\n", seeds[i],
			steps);
		if (!replay_seed(t, seeds[i]))
			return;
	}
}

/* The same state on every side gives the same summary content. */
static void summaries_match_at_rest(struct ampsoc_ktap_test *t)
{
	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	KTAP_EXPECT(t, same_states(t, "all held"));
	KTAP_EXPECT(t, same_summaries(t, "all held"));
}

/* Put every device once more: all idle, so all domains off. */
static void put_all(struct side *s, int skip)
{
	int i;

	for (i = 0; i < NR_DEVS; i++) {
		if (i == skip || !s->devs[i].refs)
			continue;
		s->devs[i].refs--;
		pm_runtime_put_sync(&s->devs[i].pdev->dev);
	}
}

/*
 * Intended difference 1: without AMPSOC_PD_FLAG_SYNC_OFF a runtime
 * power-off reaches the parents from their work items, not from the
 * suspending task as in genpd; with it, as in genpd.
 */
static void pin_async_parent_off(struct ampsoc_ktap_test *t)
{
	int k;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdom *top1 = &s->doms[D_TOP1];
		struct xdev *v = &s->devs[3];

		put_all(s, 3);
		flush_side(s);
		top1->off_task = NULL;
		/* dev3's suspend takes leaf, then both mids, then top1 off */
		v->refs--;
		pm_runtime_put_sync(&v->pdev->dev);
		flush_side(s);
		if (!KTAP_EXPECT(t, !top1->hw_on))
			return;
		if (k == SIDE_ASYNC)
			KTAP_EXPECT(t, top1->off_task && top1->off_task != current);
		else
			KTAP_EXPECT(t, top1->off_task == current);
	}
}

/*
 * Intended difference 2: a power-off vetoed by a notifier is retried by
 * ampsoc (bounded, docs/pmdomain.md "Runtime PM"); genpd's domain stays on
 * until another event.
 */
static void pin_vetoed_off_retried(struct ampsoc_ktap_test *t)
{
	int k;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdom *leaf = &s->doms[D_LEAF];

		WRITE_ONCE(leaf->veto, true);
		put_all(s, -1);
		flush_side(s);
		if (!KTAP_EXPECT(t, leaf->hw_on))
			return;
		/* lift the veto without any other event */
		WRITE_ONCE(leaf->veto, false);
		if (!is_genpd(s))
			flush_delayed_work(&leaf->a.retry_work);
		flush_side(s);
		if (is_genpd(s))
			KTAP_EXPECT(t, leaf->hw_on && dom_is_on(leaf));
		else
			KTAP_EXPECT(t, !leaf->hw_on && !dom_is_on(leaf));
	}
}

/*
 * Intended difference 3: ampsoc's notifiers get the domain as their data
 * argument; 6.1's genpd passes NULL.
 */
static void pin_notifier_data(struct ampsoc_ktap_test *t)
{
	int k;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdom *top0 = &s->doms[D_TOP0];

		top0->notified = false;
		top0->notify_data = ERR_PTR(-EINVAL);
		put_all(s, -1);
		flush_side(s);
		if (!KTAP_EXPECT(t, top0->notified))
			return;
		if (is_genpd(s))
			KTAP_EXPECT(t, !top0->notify_data);
		else
			KTAP_EXPECT(t, top0->notify_data == &top0->a);
	}
}

/* A domain outside the topology, off, for one pin; false on failure. */
static bool extra_init(struct ampsoc_ktap_test *t, struct side *s,
		       struct xdom *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->side = s;
	d->idx = D_EXTRA;
	snprintf(d->name, sizeof(d->name), "%sextra", side_prefix[s->id]);
	if (is_genpd(s)) {
		d->g = kzalloc(sizeof(*d->g), GFP_KERNEL);
		if (!KTAP_EXPECT(t, d->g))
			return false;
		d->g->x = d;
		d->g->g.name = d->name;
		d->g->g.power_on = g_power_on;
		d->g->g.power_off = g_power_off;
		d->g->g.set_performance_state = g_set_perf;
		ret = pm_genpd_init(&d->g->g, NULL, true);
		if (!KTAP_EXPECT_EQ(t, ret, 0)) {
			kfree(d->g);
			return false;
		}
		d->g->g.dev.release = gdom_release;
		return true;
	}
	d->a.name = d->name;
	d->a.power_on = a_power_on;
	d->a.power_off = a_power_off;
	d->a.set_performance_state = a_set_perf;
	ret = ampsoc_pd_init(&d->a, NULL, true);
	return KTAP_EXPECT_EQ(t, ret, 0);
}

static void extra_remove(struct ampsoc_ktap_test *t, struct xdom *d)
{
	if (is_genpd(d->side)) {
		if (KTAP_EXPECT_EQ(t, pm_genpd_remove(&d->g->g), 0))
			gdom_free(d);
	} else {
		KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d->a), 0);
	}
}

/*
 * Intended difference 4: a device that needs power (here: runtime PM
 * disabled) added to an off domain powers it on with ampsoc, so that "on
 * while a device needs it" holds from the start; 6.1's
 * pm_genpd_add_device() leaves the domain off until the device's first
 * runtime resume.
 *
 * Intended difference 6, with the same device: removing it withdraws its
 * performance-state request with ampsoc; 6.1's pm_genpd_remove_device()
 * leaves the domain at the state the gone device asked for (only
 * genpd_dev_pm_detach() drops the request first).
 */
static void pin_add_device_powers_on(struct ampsoc_ktap_test *t)
{
	static struct xdom extra[NR_SIDES];
	int k, ret;

	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdom *d = &extra[k];
		struct platform_device *p;

		if (!extra_init(t, s, d))
			return;
		/*
		 * No driver matches this name: runtime PM stays disabled.
		 * Registered, so that device_del() frees the PM QoS data
		 * genpd attaches to it.
		 */
		p = platform_device_alloc(DRV_NAME "-unbound", k);
		if (KTAP_EXPECT(t, p)) {
			ret = side_add_device(s, d, &p->dev);
			if (KTAP_EXPECT_EQ(t, ret, 0)) {
				if (is_genpd(s))
					KTAP_EXPECT(t, !d->hw_on && !dom_is_on(d));
				else
					KTAP_EXPECT(t, d->hw_on && dom_is_on(d));
				ret = platform_device_add(p);
				KTAP_EXPECT_EQ(t, ret, 0);
				/* not suspended (disabled): applied at once */
				KTAP_EXPECT_EQ(t, side_set_perf(s, &p->dev, 2), 0);
				KTAP_EXPECT_EQ(t, dom_perf(d), 2);
				side_remove_device(s, &p->dev);
				KTAP_EXPECT_EQ(t, dom_perf(d), is_genpd(s) ? 2 : 0);
				if (!ret)
					platform_device_del(p);
			}
			platform_device_put(p);
		}
		extra_remove(t, d);
	}
}

/*
 * Intended difference 5: 6.1 calls set_performance_state() with the
 * domain's lock held (its parents' too, as it recurses); ampsoc with no
 * domain lock, so the provider may ask the core about its domain.
 */
static void pin_perf_callback_unlocked(struct ampsoc_ktap_test *t)
{
	int k, i;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdev *v = &s->devs[perf_dev(3)];
		struct device *dev = &v->pdev->dev;

		for (i = 0; i < NR_DOMS; i++) {
			s->doms[i].perf_called = false;
			s->doms[i].perf_saw_on = false;
		}
		if (!KTAP_EXPECT_EQ(t, side_set_perf(s, dev, 2), 0))
			return;
		if (!KTAP_EXPECT(t, dev_xdom(v)->perf_called))
			return;
		for (i = 0; i < NR_DOMS; i++) {
			struct xdom *d = &s->doms[i];

			/* with the OPP core: leaf, both mids, both tops */
			if (!d->perf_called) {
				KTAP_EXPECT(t, !IS_ENABLED(CONFIG_PM_OPP));
				continue;
			}
			if (is_genpd(s)) {
				KTAP_EXPECT(t, d->perf_locked);
			} else {
				KTAP_EXPECT(t, !d->perf_locked);
				KTAP_EXPECT(t, d->perf_saw_on);
			}
		}
		KTAP_EXPECT_EQ(t, side_set_perf(s, dev, 0), 0);
	}
}

/*
 * Intended difference 7: 6.1 only records a request when
 * pm_runtime_suspended(), false for a suspended device whose runtime PM
 * is disabled, so it applies that device's request at once; ampsoc
 * withholds a request from the device's runtime suspend to its runtime
 * resume. Both count it after the resume.
 */
static void pin_perf_disabled_while_suspended(struct ampsoc_ktap_test *t)
{
	int k;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		struct side *s = &sides[k];
		struct xdev *v = &s->devs[0];
		struct device *dev = &v->pdev->dev;
		struct xdom *top0 = &s->doms[D_TOP0];

		v->refs--;
		pm_runtime_put_sync(dev);
		flush_side(s);
		if (!KTAP_EXPECT(t, pm_runtime_status_suspended(dev)))
			return;
		pm_runtime_disable(dev);
		KTAP_EXPECT_EQ(t, side_set_perf(s, dev, 2), 0);
		KTAP_EXPECT_EQ(t, dom_perf(top0), is_genpd(s) ? 2 : 0);
		pm_runtime_enable(dev);
		if (KTAP_EXPECT(t, pm_runtime_resume_and_get(dev) >= 0))
			v->refs++;
		KTAP_EXPECT_EQ(t, dom_perf(top0), 2);
		KTAP_EXPECT_EQ(t, side_set_perf(s, dev, 0), 0);
		KTAP_EXPECT_EQ(t, dom_perf(top0), 0);
	}
}

/* System sleep */

static bool sleep_devices_only(void)
{
	return sleep_level && !strcmp(sleep_level, "devices");
}

/*
 * Suspend with dev0 held (top0 on, every other domain off at runtime, the
 * other devices runtime-suspended) and compare every side's trace: the
 * driver callbacks and the noirq power-offs and power-ons exactly (6.1:
 * resume_noirq powers every domain on); the power-offs that complete()
 * queues, genpd's and ampsoc's alike from work items, as a multiset.
 */
static void sleep_traces_match(struct ampsoc_ktap_test *t)
{
	int k, ret;

	if (!setup_ok) {
		KTAP_SKIP(t, "no setup");
		return;
	}
	if (!KTAP_EXPECT(t, sleep_devices_only() || !strcmp(sleep_level, "platform")))
		return;
	reset_sides();
	for (k = 0; k < NR_SIDES; k++) {
		put_all(&sides[k], 0);
		flush_side(&sides[k]);
		trace_reset(&sides[k]);
	}
	WRITE_ONCE(sleep_recording, true);
	ret = pm_suspend(PM_SUSPEND_MEM);
	if (ret == -EINVAL)	/* no S3: suspend-to-idle */
		ret = pm_suspend(PM_SUSPEND_TO_IDLE);
	WRITE_ONCE(sleep_recording, false);
	for (k = 0; k < NR_SIDES; k++)
		flush_side(&sides[k]);
	if (!KTAP_EXPECT_EQ(t, ret, 0))
		return;
	for (k = 0; k < NR_SIDES; k++)
		pr_info("pdgenpd: %s sleep trace \"%s\" then \"%s\"\n",
			side_prefix[k], sides[k].trace, sides[k].post);
	for (k = SIDE_SYNC; k < NR_SIDES; k++) {
		struct side *g = &sides[SIDE_GENPD], *s = &sides[k];

		if (s->overflow || g->overflow || strcmp(g->trace, s->trace) ||
		    !same_trace(g->post, s->post, true)) {
			ampsoc_ktap_fail(t, "sleep %s: genpd \"%s\" then \"%s\"",
					 sleep_level, g->trace, g->post);
			ampsoc_ktap_fail(t, "sleep %s: %s \"%s\" then \"%s\"",
					 sleep_level, side_prefix[k], s->trace,
					 s->post);
		}
	}
	KTAP_EXPECT(t, same_states(t, "after sleep"));
	KTAP_EXPECT(t, same_summaries(t, "after sleep"));
}

static const struct ampsoc_ktap_case replay_cases[] = {
	AMPSOC_KTAP_CASE(setup),
	AMPSOC_KTAP_CASE(summaries_match_at_rest),
	AMPSOC_KTAP_CASE(replay_seeds),
	AMPSOC_KTAP_CASE(pin_async_parent_off),
	AMPSOC_KTAP_CASE(pin_vetoed_off_retried),
	AMPSOC_KTAP_CASE(pin_notifier_data),
	AMPSOC_KTAP_CASE(pin_add_device_powers_on),
	AMPSOC_KTAP_CASE(pin_perf_callback_unlocked),
	AMPSOC_KTAP_CASE(pin_perf_disabled_while_suspended),
	{}
};

/* IRQ-safe domains and devices: the replay alone. */
static const struct ampsoc_ktap_case irq_safe_cases[] = {
	AMPSOC_KTAP_CASE(setup),
	AMPSOC_KTAP_CASE(summaries_match_at_rest),
	AMPSOC_KTAP_CASE(replay_seeds),
	{}
};

static const struct ampsoc_ktap_case sleep_cases[] = {
	AMPSOC_KTAP_CASE(setup),
	AMPSOC_KTAP_CASE(sleep_traces_match),
	{}
};

static const struct ampsoc_ktap_suite replay_suites[] = {
	AMPSOC_KTAP_SUITE(pd_genpd_diff, replay_cases),
};

static const struct ampsoc_ktap_suite irq_safe_suites[] = {
	AMPSOC_KTAP_SUITE(pd_genpd_diff_irq_safe, irq_safe_cases),
};

static const struct ampsoc_ktap_suite sleep_suites[] = {
	AMPSOC_KTAP_SUITE(pd_genpd_diff_sleep, sleep_cases),
};

static int __init pdgenpd_init(void)
{
	int ret = platform_driver_register(&x_driver);

	if (ret)
		return ret;
	if (sleep_level)
		ampsoc_ktap_run(sleep_suites, ARRAY_SIZE(sleep_suites));
	else if (irq_safe)
		ampsoc_ktap_run(irq_safe_suites, ARRAY_SIZE(irq_safe_suites));
	else
		ampsoc_ktap_run(replay_suites, ARRAY_SIZE(replay_suites));
	teardown_all();
	platform_driver_unregister(&x_driver);
	return 0;
}
module_init(pdgenpd_init);

static void __exit pdgenpd_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(pdgenpd_exit);

MODULE_DESCRIPTION("ampsoc PM domains: differential test against the kernel's genpd");
MODULE_LICENSE("GPL");

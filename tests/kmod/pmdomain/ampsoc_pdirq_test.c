// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP: IRQ-safe PM domains (AMPSOC_PD_FLAG_IRQ_SAFE), against the
 * contract of docs/pmdomain.md and Linux 6.1's GENPD_FLAG_IRQ_SAFE:
 *  - runtime get/put of an IRQ-safe device, with interrupts off under a
 *    spinlock and from a hard hrtimer callback, powers its IRQ-safe
 *    domain on and off synchronously, callbacks in atomic context;
 *  - an IRQ-safe domain refuses a parent that sleeps (-EINVAL, one log
 *    line, no WARN: the intended difference) and takes an IRQ-safe one;
 *    a sleeping domain may have an IRQ-safe parent;
 *  - nested IRQ-safe parent and child power on parent first and off
 *    child first, in the same atomic section with SYNC_OFF, the parent
 *    from its work item without;
 *  - an IRQ-safe device in a domain that sleeps keeps it on, as before;
 *  - an IRQ-safe device's performance request stays counted while it is
 *    runtime-suspended (the other intended difference), a plain device's
 *    in the same domain is withheld;
 *  - debugfs lists the devices of an IRQ-safe domain.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include "domain_internal.h"

#define DRV_PLAIN	"ampsoc-pdirq"
#define DRV_IRQSAFE	"ampsoc-pdirq-safe"
#define DBG		"/sys/kernel/debug/ampsoc_pd/"
#define WAIT_MS		10000

/* ---- power log ---- */

/* Written by the callbacks, in whatever context they run. */
static DEFINE_SPINLOCK(plog_lock);
static char plog[512];

static void plog_add(char op, const char *name)
{
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&plog_lock, flags);
	n = strlen(plog);
	snprintf(plog + n, sizeof(plog) - n, "%s%c%s", n ? " " : "", op, name);
	spin_unlock_irqrestore(&plog_lock, flags);
}

static void plog_reset(void)
{
	unsigned long flags;

	spin_lock_irqsave(&plog_lock, flags);
	plog[0] = 0;
	spin_unlock_irqrestore(&plog_lock, flags);
}

static bool plog_is(struct ampsoc_ktap_test *t, const char *want)
{
	if (!strcmp(plog, want))
		return true;
	ampsoc_ktap_fail(t, "log \"%s\", want \"%s\"", plog, want);
	return false;
}

/* ---- domains ---- */

struct ipd {
	struct ampsoc_pd pd;
	unsigned int ons;
	unsigned int offs;
	/* every power_on()/power_off() so far ran with interrupts off */
	bool cb_irqs_off;
	unsigned int perf_calls;
};

static int ipd_on(struct ampsoc_pd *pd)
{
	struct ipd *d = container_of(pd, struct ipd, pd);

	d->ons++;
	d->cb_irqs_off &= irqs_disabled();
	plog_add('+', pd->name);
	return 0;
}

static int ipd_off(struct ampsoc_pd *pd)
{
	struct ipd *d = container_of(pd, struct ipd, pd);

	d->offs++;
	d->cb_irqs_off &= irqs_disabled();
	plog_add('-', pd->name);
	return 0;
}

static int ipd_perf(struct ampsoc_pd *pd, unsigned int state)
{
	container_of(pd, struct ipd, pd)->perf_calls++;
	return 0;
}

static struct ipd *ipd_new(const char *name, unsigned int flags, bool is_off)
{
	struct ipd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->pd.name = name;
	d->pd.flags = flags;
	d->pd.power_on = ipd_on;
	d->pd.power_off = ipd_off;
	d->pd.set_performance_state = ipd_perf;
	if (ampsoc_pd_init(&d->pd, NULL, is_off)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static void ipd_reset(struct ipd *d)
{
	d->ons = 0;
	d->offs = 0;
	d->cb_irqs_off = true;
}

static int ipd_del(struct ipd *d)
{
	int ret;

	if (!d)
		return 0;
	ret = ampsoc_pd_remove(&d->pd);
	if (!ret)
		kfree(d);
	return ret;
}

static bool ipd_is_on(struct ipd *d)
{
	return READ_ONCE(d->pd.status) == AMPSOC_PD_ON;
}

/* ---- devices ---- */

/* every driver runtime callback so far ran with interrupts off */
static bool drv_irqs_off;
static unsigned int drv_calls;

static int idrv_runtime_cb(struct device *dev)
{
	drv_calls++;
	drv_irqs_off &= irqs_disabled();
	return 0;
}

static const struct dev_pm_ops idrv_pm = {
	SET_RUNTIME_PM_OPS(idrv_runtime_cb, idrv_runtime_cb, NULL)
};

static int idrv_probe_plain(struct platform_device *pdev)
{
	pm_runtime_enable(&pdev->dev);
	return 0;
}

/* As an IRQ-safe driver would: irq_safe, then enable. */
static int idrv_probe_irqsafe(struct platform_device *pdev)
{
	pm_runtime_irq_safe(&pdev->dev);
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int idrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver idrv_plain = {
	.probe = idrv_probe_plain,
	.remove = idrv_remove,
	.driver = { .name = DRV_PLAIN, .pm = &idrv_pm },
};

static struct platform_driver idrv_irqsafe = {
	.probe = idrv_probe_irqsafe,
	.remove = idrv_remove,
	.driver = { .name = DRV_IRQSAFE, .pm = &idrv_pm },
};

static int next_id;

/*
 * A device of @d, bound (IRQ-safe from its probe if @irq_safe), resumed
 * and suspended once so that the domain's counts follow the PM core.
 */
static struct platform_device *idev_new(struct ipd *d, bool irq_safe)
{
	return ampsoc_pdfx_dev_new(&d->pd,
				   irq_safe ? DRV_IRQSAFE : DRV_PLAIN,
				   next_id++, true);
}

static void idev_del(struct platform_device *p)
{
	ampsoc_pdfx_dev_del(p);
}

/* ---- atomic sections ---- */

struct atomic_run {
	struct device *dev;
	struct ipd *d;
	int get_ret;
	int put_ret;
	bool on_after_get;
	bool off_after_put;
	bool irqs_off;
	bool hardirq;
};

/* get, look, put, look: the caller has interrupts off. */
static void atomic_get_put(struct atomic_run *r)
{
	r->irqs_off = irqs_disabled();
	r->hardirq = in_hardirq();
	r->get_ret = pm_runtime_get_sync(r->dev);
	r->on_after_get = ipd_is_on(r->d);
	r->put_ret = pm_runtime_put_sync_suspend(r->dev);
	r->off_after_put = !ipd_is_on(r->d);
}

static DEFINE_SPINLOCK(test_lock);

static void under_spinlock(struct atomic_run *r)
{
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	atomic_get_put(r);
	spin_unlock_irqrestore(&test_lock, flags);
}

/*
 * A spinlock_t section has interrupts off, but not on PREEMPT_RT, where
 * spinlock_t sleeps and spin_lock_irqsave() leaves interrupts on: there
 * an IRQ-safe domain's callbacks, like runtime PM's own, run under a
 * sleeping lock (as with 6.1's genpd).
 */
#define SPIN_IRQS_OFF	(!IS_ENABLED(CONFIG_PREEMPT_RT))

static void expect_sync_cycle(struct ampsoc_ktap_test *t, struct ipd *d,
			      struct atomic_run *r)
{
	KTAP_EXPECT(t, r->irqs_off == (r->hardirq || SPIN_IRQS_OFF));
	KTAP_EXPECT_EQ(t, r->get_ret, 0);
	KTAP_EXPECT_EQ(t, r->put_ret, 0);
	KTAP_EXPECT(t, r->on_after_get);
	KTAP_EXPECT(t, r->off_after_put);
	KTAP_EXPECT_EQ(t, d->ons, 1);
	KTAP_EXPECT_EQ(t, d->offs, 1);
	KTAP_EXPECT(t, d->cb_irqs_off == SPIN_IRQS_OFF);
	KTAP_EXPECT_EQ(t, drv_calls, 2);
	KTAP_EXPECT(t, drv_irqs_off == SPIN_IRQS_OFF);
}

static void reset_drv(void)
{
	drv_calls = 0;
	drv_irqs_off = true;
}

/* Interrupts off under a spinlock: the domain follows its device. */
static void irqsafe_get_put_under_spinlock(struct ampsoc_ktap_test *t)
{
	struct ipd *d = ipd_new("pdi_spin", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct platform_device *p = d ? idev_new(d, true) : NULL;
	struct atomic_run r = {};

	if (!KTAP_EXPECT(t, d && p))
		goto out;
	KTAP_EXPECT(t, pm_runtime_is_irq_safe(&p->dev));
	KTAP_EXPECT(t, !ipd_is_on(d));
	ipd_reset(d);
	reset_drv();
	plog_reset();
	r.dev = &p->dev;
	r.d = d;
	under_spinlock(&r);
	expect_sync_cycle(t, d, &r);
	KTAP_EXPECT(t, plog_is(t, "+pdi_spin -pdi_spin"));
out:
	idev_del(p);
	KTAP_EXPECT_EQ(t, ipd_del(d), 0);
}

struct timer_run {
	struct hrtimer timer;
	struct atomic_run r;
	struct completion done;
};

static enum hrtimer_restart timer_fn(struct hrtimer *timer)
{
	struct timer_run *tr = container_of(timer, struct timer_run, timer);

	atomic_get_put(&tr->r);
	complete(&tr->done);
	return HRTIMER_NORESTART;
}

/* The same from a hard hrtimer callback, in hard interrupt context. */
static void irqsafe_get_put_from_hrtimer(struct ampsoc_ktap_test *t)
{
	struct ipd *d = ipd_new("pdi_timer", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct platform_device *p = d ? idev_new(d, true) : NULL;
	struct timer_run *tr = kzalloc(sizeof(*tr), GFP_KERNEL);
	unsigned long timeout = msecs_to_jiffies(WAIT_MS);

	if (!KTAP_EXPECT(t, d && p && tr))
		goto out;
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* Runtime PM's own dev->power.lock sleeps there (as in 6.1). */
		KTAP_SKIP(t, "PREEMPT_RT: no runtime PM in hard interrupt context");
		goto out;
	}
	ipd_reset(d);
	reset_drv();
	plog_reset();
	tr->r.dev = &p->dev;
	tr->r.d = d;
	init_completion(&tr->done);
	hrtimer_init(&tr->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	tr->timer.function = timer_fn;
	hrtimer_start(&tr->timer, ns_to_ktime(100 * NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);
	if (!KTAP_EXPECT(t, wait_for_completion_timeout(&tr->done, timeout))) {
		hrtimer_cancel(&tr->timer);
		goto out;
	}
	hrtimer_cancel(&tr->timer);
	KTAP_EXPECT(t, tr->r.hardirq);
	expect_sync_cycle(t, d, &tr->r);
	KTAP_EXPECT(t, plog_is(t, "+pdi_timer -pdi_timer"));
out:
	kfree(tr);
	idev_del(p);
	KTAP_EXPECT_EQ(t, ipd_del(d), 0);
}

/*
 * 6.1's rule, without 6.1's WARN: an IRQ-safe domain under a parent that
 * sleeps is -EINVAL and leaves no TAINT_WARN (6.1 would); under an
 * IRQ-safe parent it links. A sleeping domain may have an IRQ-safe
 * parent, whose spinlock it then takes under its mutex.
 */
static void irqsafe_parent_rule(struct ampsoc_ktap_test *t)
{
	struct ipd *sp = ipd_new("pdi_r_sleepy", 0, true);
	struct ipd *ip = ipd_new("pdi_r_irqp", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct ipd *ic = ipd_new("pdi_r_irqc", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct ipd *sc = ipd_new("pdi_r_sleepc", 0, true);
	struct platform_device *p = NULL;
	bool tainted = test_taint(TAINT_WARN);

	if (!KTAP_EXPECT(t, sp && ip && ic && sc))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&sp->pd, &ic->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, test_taint(TAINT_WARN), tainted);
	KTAP_EXPECT(t, list_empty(&ic->pd.parent_links));
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&ip->pd, &ic->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&ip->pd, &sc->pd), 0);

	/* a plain device of the sleeping child, process context */
	p = idev_new(sc, false);
	if (!KTAP_EXPECT(t, p))
		goto out_links;
	flush_work(&ip->pd.power_off_work);
	KTAP_EXPECT(t, !ipd_is_on(sc) && !ipd_is_on(ip));
	plog_reset();
	if (KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0)) {
		KTAP_EXPECT(t, ipd_is_on(sc) && ipd_is_on(ip));
		pm_runtime_put_sync(&p->dev);
	}
	flush_work(&ip->pd.power_off_work);
	KTAP_EXPECT(t, plog_is(t, "+pdi_r_irqp +pdi_r_sleepc -pdi_r_sleepc -pdi_r_irqp"));
	idev_del(p);
out_links:
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&ip->pd, &sc->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&ip->pd, &ic->pd), 0);
out:
	KTAP_EXPECT_EQ(t, ipd_del(sc), 0);
	KTAP_EXPECT_EQ(t, ipd_del(ic), 0);
	KTAP_EXPECT_EQ(t, ipd_del(ip), 0);
	KTAP_EXPECT_EQ(t, ipd_del(sp), 0);
}

/*
 * IRQ-safe parent over two IRQ-safe children, one with SYNC_OFF: with
 * interrupts off, the parent goes on before the child and off after it,
 * in the same section with SYNC_OFF, from its work item without.
 */
static void irqsafe_nested_order(struct ampsoc_ktap_test *t)
{
	struct ipd *par = ipd_new("pdi_n_par", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct ipd *cs = ipd_new("pdi_n_sync", AMPSOC_PD_FLAG_IRQ_SAFE |
				 AMPSOC_PD_FLAG_SYNC_OFF, true);
	struct ipd *ca = ipd_new("pdi_n_async", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct platform_device *ps = NULL, *pa = NULL;
	struct atomic_run r = {};

	if (!KTAP_EXPECT(t, par && cs && ca))
		goto out;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &cs->pd), 0) ||
	    !KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ca->pd), 0))
		goto out_links;
	ps = idev_new(cs, true);
	pa = idev_new(ca, true);
	if (!KTAP_EXPECT(t, ps && pa))
		goto out_devs;
	flush_work(&par->pd.power_off_work);
	KTAP_EXPECT(t, !ipd_is_on(par));

	ipd_reset(par);
	plog_reset();
	r.dev = &ps->dev;
	r.d = cs;
	under_spinlock(&r);
	KTAP_EXPECT(t, r.on_after_get && r.off_after_put);
	KTAP_EXPECT(t, plog_is(t, "+pdi_n_par +pdi_n_sync -pdi_n_sync -pdi_n_par"));
	KTAP_EXPECT(t, par->cb_irqs_off == SPIN_IRQS_OFF);

	plog_reset();
	r.dev = &pa->dev;
	r.d = ca;
	under_spinlock(&r);
	KTAP_EXPECT(t, r.on_after_get && r.off_after_put);
	/* On PREEMPT_RT the section is preemptible: the work may have run. */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		KTAP_EXPECT(t, plog_is(t, "+pdi_n_par +pdi_n_async -pdi_n_async"));
	flush_work(&par->pd.power_off_work);
	KTAP_EXPECT(t, plog_is(t, "+pdi_n_par +pdi_n_async -pdi_n_async -pdi_n_par"));
	KTAP_EXPECT(t, !ipd_is_on(par));
out_devs:
	idev_del(pa);
	idev_del(ps);
out_links:
	ampsoc_pd_remove_subdomain(&par->pd, &ca->pd);
	ampsoc_pd_remove_subdomain(&par->pd, &cs->pd);
out:
	KTAP_EXPECT_EQ(t, ipd_del(ca), 0);
	KTAP_EXPECT_EQ(t, ipd_del(cs), 0);
	KTAP_EXPECT_EQ(t, ipd_del(par), 0);
}

/*
 * As before (and as 6.1): an IRQ-safe device in a domain that sleeps
 * keeps it on; its atomic get/put runs the driver, never the domain.
 */
static void sleeping_domain_irqsafe_device(struct ampsoc_ktap_test *t)
{
	struct ipd *d = ipd_new("pdi_sleepy", 0, true);
	struct platform_device *p = d ? idev_new(d, true) : NULL;
	struct atomic_run r = {};

	if (!KTAP_EXPECT(t, d && p))
		goto out;
	flush_work(&d->pd.power_off_work);
	KTAP_EXPECT(t, ipd_is_on(d));
	ipd_reset(d);
	reset_drv();
	r.dev = &p->dev;
	r.d = d;
	under_spinlock(&r);
	KTAP_EXPECT_EQ(t, r.get_ret, 0);
	KTAP_EXPECT_EQ(t, r.put_ret, 0);
	KTAP_EXPECT(t, r.on_after_get && !r.off_after_put);
	KTAP_EXPECT_EQ(t, drv_calls, 2);
	flush_work(&d->pd.power_off_work);
	KTAP_EXPECT(t, ipd_is_on(d));
	KTAP_EXPECT_EQ(t, d->ons + d->offs, 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 1);
	/* it goes off once the device has left */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&p->dev), 0);
	flush_work(&d->pd.power_off_work);
	KTAP_EXPECT(t, !ipd_is_on(d));
out:
	idev_del(p);
	KTAP_EXPECT_EQ(t, ipd_del(d), 0);
}

/*
 * Intended difference: 6.1 withdraws an IRQ-safe device's performance
 * request in its runtime suspend (calling the provider under the
 * spinlock); ampsoc cannot take its performance mutex there and keeps
 * the request counted. A plain device of the same domain is withheld.
 */
static void irqsafe_perf_request_kept(struct ampsoc_ktap_test *t)
{
	struct ipd *d = ipd_new("pdi_perf", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct platform_device *a = d ? idev_new(d, true) : NULL;
	struct platform_device *b = d ? idev_new(d, false) : NULL;

	if (!KTAP_EXPECT(t, d && a && b))
		goto out;
	if (!KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&a->dev), 0))
		goto out;
	if (!KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&b->dev), 0)) {
		pm_runtime_put_sync(&a->dev);
		goto out;
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b->dev, 3), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 3);
	pm_runtime_put_sync(&b->dev);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 2);
	d->perf_calls = 0;
	pm_runtime_put_sync(&a->dev);
	KTAP_EXPECT(t, !ipd_is_on(d));
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 2);
	KTAP_EXPECT_EQ(t, d->perf_calls, 0);
	if (KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&a->dev), 0)) {
		KTAP_EXPECT_EQ(t, d->pd.performance_state, 2);
		KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 0),
			       0);
		pm_runtime_put_sync(&a->dev);
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b->dev, 0), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
out:
	idev_del(b);
	idev_del(a);
	KTAP_EXPECT_EQ(t, ipd_del(d), 0);
}

/* The summary and "devices" list an IRQ-safe domain's devices. */
static void irqsafe_debugfs(struct ampsoc_ktap_test *t)
{
	struct ipd *d = ipd_new("pdi_dbg", AMPSOC_PD_FLAG_IRQ_SAFE, true);
	struct platform_device *p = d ? idev_new(d, true) : NULL;
	char *buf = kzalloc(PAGE_SIZE * 8, GFP_KERNEL);
	char *path = p ? kobject_get_path(&p->dev.kobj, GFP_KERNEL) : NULL;

	if (!KTAP_EXPECT(t, d && p && buf && path))
		goto out;
	if (KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pm_genpd_summary", buf,
						 PAGE_SIZE * 8) > 0)) {
		KTAP_EXPECT(t, strstr(buf, "pdi_dbg"));
		KTAP_EXPECT(t, strstr(buf, path));
	}
	if (KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdi_dbg/devices", buf,
						 PAGE_SIZE) > 0))
		KTAP_EXPECT(t, strstr(buf, path));
	if (KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdi_dbg/current_state",
						 buf, PAGE_SIZE) > 0))
		KTAP_EXPECT(t, !strcmp(buf, "off-0\n"));
out:
	kfree(path);
	kfree(buf);
	idev_del(p);
	KTAP_EXPECT_EQ(t, ipd_del(d), 0);
}

static const struct ampsoc_ktap_case irq_cases[] = {
	AMPSOC_KTAP_CASE(irqsafe_get_put_under_spinlock),
	AMPSOC_KTAP_CASE(irqsafe_get_put_from_hrtimer),
	AMPSOC_KTAP_CASE(irqsafe_parent_rule),
	AMPSOC_KTAP_CASE(irqsafe_nested_order),
	AMPSOC_KTAP_CASE(sleeping_domain_irqsafe_device),
	AMPSOC_KTAP_CASE(irqsafe_perf_request_kept),
	AMPSOC_KTAP_CASE(irqsafe_debugfs),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_irqsafe, irq_cases),
};

static int __init pdirq_init(void)
{
	int ret = platform_driver_register(&idrv_plain);

	if (ret)
		return ret;
	ret = platform_driver_register(&idrv_irqsafe);
	if (ret) {
		platform_driver_unregister(&idrv_plain);
		return ret;
	}
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(pdirq_init);

static void __exit pdirq_exit(void)
{
	platform_driver_unregister(&idrv_irqsafe);
	platform_driver_unregister(&idrv_plain);
	ampsoc_ktap_done();
}
module_exit(pdirq_exit);

MODULE_DESCRIPTION("ampsoc PM domains: IRQ-safe domains");
MODULE_LICENSE("GPL");

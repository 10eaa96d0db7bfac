// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP self-test of the ampsoc PM domain core, with fake domains whose
 * power callbacks record every call, and real platform devices bound to a
 * fake driver so that the kernel's own runtime PM drives them.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/clk-provider.h>
#include <linux/clk.h>
#include <linux/clkdev.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/prandom.h>
#include <linux/property.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pd-test"
#define MAX_TPD		16
#define LOG_MAX		64

/* ---- call log ---- */

static char call_log[LOG_MAX][40];
static unsigned int call_n;
static DEFINE_SPINLOCK(call_lock);
/* Hierarchy or locking rule broken inside a callback. */
static atomic_t violations = ATOMIC_INIT(0);
static char violation_what[64];

static void violation(const char *what, const char *name)
{
	if (atomic_inc_return(&violations) == 1)
		snprintf(violation_what, sizeof(violation_what), "%s: %s",
			 what, name);
}

static bool log_on;

static __printf(1, 2) void logc(const char *fmt, ...)
{
	unsigned long flags;
	va_list ap;

	if (!READ_ONCE(log_on))
		return;
	spin_lock_irqsave(&call_lock, flags);
	if (call_n < LOG_MAX) {
		va_start(ap, fmt);
		vscnprintf(call_log[call_n], sizeof(call_log[0]), fmt, ap);
		va_end(ap);
	}
	call_n++;
	spin_unlock_irqrestore(&call_lock, flags);
}

static void log_start(void)
{
	spin_lock_irq(&call_lock);
	call_n = 0;
	spin_unlock_irq(&call_lock);
	WRITE_ONCE(log_on, true);
}

/* Compare the log with @want (NULL-terminated); print both on mismatch. */
static bool log_expect(struct ampsoc_ktap_test *t, const char * const *want)
{
	unsigned int i, n = 0;
	bool ok;

	WRITE_ONCE(log_on, false);
	while (want[n])
		n++;
	ok = call_n == n;
	for (i = 0; ok && i < n; i++)
		ok = !strcmp(call_log[i], want[i]);
	if (!ok) {
		ampsoc_ktap_fail(t, "call log differs (%u calls, want %u)",
				 call_n, n);
		for (i = 0; i < max(n, min_t(unsigned int, call_n, LOG_MAX)); i++)
			ampsoc_ktap_line(4, "#   %-2u got %-24s want %s", i,
					 i < call_n && i < LOG_MAX ? call_log[i] : "-",
					 i < n ? want[i] : "-");
	}
	return ok;
}

/* ---- fake domains ---- */

struct tpd {
	struct ampsoc_pd pd;
	struct ampsoc_pd_state st[3];
	int fail_on;
	int fail_off;
	bool hw_on;
	unsigned int on_calls;
	unsigned int off_calls;
};

static struct tpd *tpds[MAX_TPD];
static DEFINE_MUTEX(tpds_lock);

/*
 * Whether current holds @m. There is no API for it without lockdep, so
 * read the owner: mutex.owner keeps three flag bits under the task
 * pointer; on PREEMPT_RT a mutex is an rt_mutex whose owner keeps one
 * (RT_MUTEX_HAS_WAITERS, kernel/locking/rtmutex_common.h).
 */
static bool held_by_me(struct mutex *m)
{
#ifdef CONFIG_PREEMPT_RT
	unsigned long owner = (unsigned long)READ_ONCE(m->rtmutex.owner);

	return (owner & ~0x01UL) == (unsigned long)current;
#else
	return (atomic_long_read(&m->owner) & ~0x07UL) == (unsigned long)current;
#endif
}

/* No driver or device callback may run with any domain lock held. */
static void check_no_lock(void)
{
	unsigned int i;

	for (i = 0; i < MAX_TPD; i++)
		if (tpds[i] && held_by_me(&tpds[i]->pd.lock))
			violation("callback under lock", tpds[i]->pd.name);
}

static int tpd_power_on(struct ampsoc_pd *pd)
{
	struct tpd *d = container_of(pd, struct tpd, pd);
	struct ampsoc_pd_link *link;

	if (!held_by_me(&pd->lock))
		violation("power_on without lock", pd->name);
	/* Parents are powered before their children. */
	pd_for_each_parent(pd, link)
		if (link->parent->status != AMPSOC_PD_ON)
			violation("parent off at power_on", pd->name);
	if (d->fail_on) {
		logc("on-fail:%s", pd->name);
		return d->fail_on;
	}
	logc("on:%s", pd->name);
	d->hw_on = true;
	d->on_calls++;
	return 0;
}

static int tpd_power_off(struct ampsoc_pd *pd)
{
	struct tpd *d = container_of(pd, struct tpd, pd);
	struct ampsoc_pd_link *link;

	if (!held_by_me(&pd->lock))
		violation("power_off without lock", pd->name);
	/* Children are off before their parents. */
	pd_for_each_child(pd, link)
		if (link->child->status != AMPSOC_PD_OFF)
			violation("child on at power_off", pd->name);
	if (atomic_read(&pd->sd_count))
		violation("sd_count at power_off", pd->name);
	/* At runtime, only a domain nobody uses goes off. */
	if (!pd->prepared_count && pd->active_count)
		violation("active devices at power_off", pd->name);
	if (d->fail_off) {
		logc("off-fail:%s", pd->name);
		return d->fail_off;
	}
	logc("off:%s:%u", pd->name, pd->state_idx);
	d->hw_on = false;
	d->off_calls++;
	return 0;
}

static int tpd_start(struct device *dev)
{
	check_no_lock();
	logc("start:%s", dev_name(dev) + strlen(DRV_NAME) + 1);
	return 0;
}

static int tpd_stop(struct device *dev)
{
	check_no_lock();
	logc("stop:%s", dev_name(dev) + strlen(DRV_NAME) + 1);
	return 0;
}

static struct tpd *tpd_new_full(const char *name, bool is_off,
				const struct ampsoc_pd_governor *gov,
				unsigned int flags, unsigned int nstates)
{
	struct tpd *d = kzalloc(sizeof(*d), GFP_KERNEL);
	unsigned int i;

	if (!d)
		return NULL;
	d->pd.name = kstrdup(name, GFP_KERNEL);
	d->pd.power_on = tpd_power_on;
	d->pd.power_off = tpd_power_off;
	if (!(flags & AMPSOC_PD_FLAG_PM_CLK)) {
		d->pd.dev_ops.start = tpd_start;
		d->pd.dev_ops.stop = tpd_stop;
	}
	d->pd.flags = flags;
	if (nstates) {
		d->pd.states = d->st;
		d->pd.state_count = nstates;
	}
	d->hw_on = !is_off;
	if (!d->pd.name || ampsoc_pd_init(&d->pd, gov, is_off)) {
		kfree(d->pd.name);
		kfree(d);
		return NULL;
	}
	mutex_lock(&tpds_lock);
	for (i = 0; i < MAX_TPD; i++) {
		if (!tpds[i]) {
			tpds[i] = d;
			break;
		}
	}
	mutex_unlock(&tpds_lock);
	return d;
}

static struct tpd *tpd_new(const char *name, bool is_off)
{
	return tpd_new_full(name, is_off, NULL, 0, 0);
}

static int tpd_del(struct tpd *d)
{
	unsigned int i;
	int ret;

	if (!d)
		return 0;
	ret = ampsoc_pd_remove(&d->pd);
	if (ret)
		return ret;
	mutex_lock(&tpds_lock);
	for (i = 0; i < MAX_TPD; i++)
		if (tpds[i] == d)
			tpds[i] = NULL;
	mutex_unlock(&tpds_lock);
	kfree(d->pd.name);
	kfree(d);
	return 0;
}

/* Let queued power-off work run, leaves first. */
static void settle(void)
{
	unsigned int i, round;

	for (round = 0; round < 10; round++)
		for (i = 0; i < MAX_TPD; i++)
			if (tpds[i])
				flush_work(&tpds[i]->pd.power_off_work);
}

/* ---- fake devices: a platform driver with runtime and sleep callbacks ---- */

struct tdev_data {
	unsigned int rt_suspends;
	unsigned int rt_resumes;
	int fail_suspend;
};

static int tdrv_log(struct device *dev, const char *what)
{
	check_no_lock();
	logc("%s:%s", what, dev_name(dev) + strlen(DRV_NAME) + 1);
	return 0;
}

static int tdrv_suspend_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-suspend-noirq");
}

static int tdrv_resume_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-resume-noirq");
}

static int tdrv_freeze_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-freeze-noirq");
}

static int tdrv_thaw_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-thaw-noirq");
}

static int tdrv_poweroff_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-poweroff-noirq");
}

static int tdrv_restore_noirq(struct device *dev)
{
	return tdrv_log(dev, "drv-restore-noirq");
}

static int tdrv_suspend(struct device *dev)
{
	return tdrv_log(dev, "drv-suspend");
}

static int tdrv_resume(struct device *dev)
{
	return tdrv_log(dev, "drv-resume");
}

static int tdrv_rt_suspend(struct device *dev)
{
	struct tdev_data *td = dev_get_drvdata(dev);

	check_no_lock();
	if (td->fail_suspend)
		return td->fail_suspend;
	td->rt_suspends++;
	logc("drv-rt-suspend:%s", dev_name(dev) + strlen(DRV_NAME) + 1);
	return 0;
}

static int tdrv_rt_resume(struct device *dev)
{
	struct tdev_data *td = dev_get_drvdata(dev);

	check_no_lock();
	td->rt_resumes++;
	logc("drv-rt-resume:%s", dev_name(dev) + strlen(DRV_NAME) + 1);
	return 0;
}

static const struct dev_pm_ops tdrv_pm = {
	.runtime_suspend = tdrv_rt_suspend,
	.runtime_resume = tdrv_rt_resume,
	.suspend = tdrv_suspend,
	.resume = tdrv_resume,
	.suspend_noirq = tdrv_suspend_noirq,
	.resume_noirq = tdrv_resume_noirq,
	.freeze_noirq = tdrv_freeze_noirq,
	.thaw_noirq = tdrv_thaw_noirq,
	.poweroff_noirq = tdrv_poweroff_noirq,
	.restore_noirq = tdrv_restore_noirq,
};

static int tdrv_probe(struct platform_device *pdev)
{
	struct tdev_data *td = devm_kzalloc(&pdev->dev, sizeof(*td), GFP_KERNEL);

	if (!td)
		return -ENOMEM;
	platform_set_drvdata(pdev, td);
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int tdrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver tdrv = {
	.probe = tdrv_probe,
	.remove = tdrv_remove,
	.driver = {
		.name = DRV_NAME,
		.pm = &tdrv_pm,
	},
};

static int tdev_next_id;

/* A bound device, in @d unless NULL, runtime-suspended and synced. */
static struct platform_device *tdev_new(struct tpd *d)
{
	return ampsoc_pdfx_dev_new(d ? &d->pd : NULL, DRV_NAME,
				   tdev_next_id++, true);
}

/* A registered device no driver binds, with a software node if given. */
static struct platform_device *tdev_nodrv(const struct software_node *node)
{
	return ampsoc_pdfx_node_dev_new("ampsoc-pd-nodrv", tdev_next_id++,
					node);
}

static void tdev_nodrv_del(struct platform_device *pdev)
{
	ampsoc_pdfx_node_dev_del(pdev);
}

static void tdev_del(struct platform_device *pdev)
{
	ampsoc_pdfx_dev_del(pdev);
}

static int tget(struct platform_device *p)
{
	return pm_runtime_resume_and_get(&p->dev);
}

static int tput(struct platform_device *p)
{
	return pm_runtime_put_sync(&p->dev);
}

static bool pd_on(struct tpd *d)
{
	return d->pd.status == AMPSOC_PD_ON;
}

static struct ampsoc_pd_dev *pdd_of(struct platform_device *p)
{
	return container_of(p->dev.power.subsys_data->domain_data,
			    struct ampsoc_pd_dev, base);
}

/* ---- domain life cycle and misuse ---- */

static void init_remove(struct ampsoc_ktap_test *t)
{
	struct tpd *on = tpd_new("pdt_on", false), *off = tpd_new("pdt_off", true);

	if (!KTAP_EXPECT(t, on && off))
		return;
	KTAP_EXPECT(t, ampsoc_pd_is_on(&on->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&off->pd));
	KTAP_EXPECT(t, ampsoc_pd_find("pdt_on") == &on->pd);
	KTAP_EXPECT(t, !ampsoc_pd_find("pdt_nothing"));
	KTAP_EXPECT_EQ(t, on->pd.state_count, 1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&on->pd, NULL, false), -EEXIST);
	KTAP_EXPECT_EQ(t, tpd_del(on), 0);
	KTAP_EXPECT_EQ(t, tpd_del(off), 0);
	KTAP_EXPECT(t, !ampsoc_pd_find("pdt_on"));
}

static void init_misuse(struct ampsoc_ktap_test *t)
{
	struct ampsoc_pd bad = { .name = "pdt_bad" };
	struct ampsoc_pd_state st[2] = {};
	struct tpd *a = tpd_new("pdt_dup", false);

	if (!KTAP_EXPECT(t, a))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(NULL, NULL, false), -EINVAL);
	bad.name = NULL;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&bad, NULL, false), -EINVAL);
	bad.name = "pdt/slash";
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&bad, NULL, false), -EINVAL);
	bad.name = "pdt_aon_off";
	bad.flags = AMPSOC_PD_FLAG_ALWAYS_ON;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&bad, NULL, true), -EINVAL);
	bad.flags = 0;
	bad.states = st;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&bad, NULL, false), -EINVAL);
	bad.states = NULL;
	bad.name = "pdt_dup";
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&bad, NULL, false), -EEXIST);
	/* Unregistered domains are refused everywhere. */
	bad.name = "pdt_never";
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&bad), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&bad, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &bad), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(NULL, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&bad, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&bad, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(NULL, NULL), -EINVAL);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(NULL));
	KTAP_EXPECT(t, !ampsoc_pd_find(NULL));
	KTAP_EXPECT_EQ(t, tpd_del(a), 0);
}

/*
 * The kernel's genpd is a device: it needs a release(). 6.1's
 * pm_genpd_remove() still reads the domain after its put_device(), so the
 * memory is freed by the caller once pm_genpd_remove() has returned.
 */
static void kgpd_release(struct device *dev)
{
}

static void device_misuse(struct ampsoc_ktap_test *t)
{
	struct generic_pm_domain *kgpd = kzalloc(sizeof(*kgpd), GFP_KERNEL);
	struct ampsoc_pd bad = { .name = "pdt_never" };
	struct tpd *a = tpd_new("pdt_devmis_a", false);
	struct tpd *b = tpd_new("pdt_devmis_b", false);
	struct platform_device *in_a = tdev_new(a), *bound = tdev_new(NULL);
	struct platform_device *loose = tdev_nodrv(NULL);

	if (!KTAP_EXPECT(t, a && b && in_a && bound && loose))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(NULL, &loose->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&bad, &loose->dev), -EINVAL);
	KTAP_EXPECT(t, !loose->dev.pm_domain);
	/* Already in one of ours, same or other domain: -EINVAL, as genpd. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, &in_a->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &in_a->dev), -EINVAL);
	/* Bound to a driver. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &bound->dev), -EBUSY);
	/* In the kernel's own genpd. */
	if (!KTAP_EXPECT(t, kgpd))
		return;
	kgpd->name = "pdt_kernel_genpd";
	kgpd->dev.release = kgpd_release;
	if (!pm_genpd_init(kgpd, NULL, false)) {
		if (!pm_genpd_add_device(kgpd, &loose->dev)) {
			KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &loose->dev),
				       -EINVAL);
			KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&loose->dev),
				       -EINVAL);
			KTAP_EXPECT(t, !ampsoc_pd_of_dev(&loose->dev));
			pm_genpd_remove_device(&loose->dev);
		} else {
			ampsoc_ktap_fail(t, "pm_genpd_add_device failed");
		}
		if (!pm_genpd_remove(kgpd))
			kfree(kgpd);
	} else {
		kfree(kgpd);
		KTAP_SKIP(t, "the kernel's genpd refused a test domain");
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&bound->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, a->pd.device_count, 1);
	KTAP_EXPECT_EQ(t, b->pd.device_count, 0);
	tdev_nodrv_del(loose);
	tdev_del(in_a);
	tdev_del(bound);
	KTAP_EXPECT_EQ(t, tpd_del(a), 0);
	KTAP_EXPECT_EQ(t, tpd_del(b), 0);
}

/* ---- runtime PM ---- */

static void dev_log_fix(char dn[][40], const char * const *in, const char **out,
			int id_a, int id_b);

static void runtime_order(struct ampsoc_ktap_test *t)
{
	static const char * const resume[] = {
		"on:pdt_rt_top", "on:pdt_rt_mid", "on:pdt_rt_leaf",
		"start:A", "drv-rt-resume:A", NULL };
	static const char * const suspend[] = {
		"drv-rt-suspend:A", "stop:A", "off:pdt_rt_leaf:0",
		"off:pdt_rt_mid:0", "off:pdt_rt_top:0", NULL };
	struct tpd *top = tpd_new("pdt_rt_top", false);
	struct tpd *mid = tpd_new("pdt_rt_mid", false);
	struct tpd *leaf = tpd_new("pdt_rt_leaf", false);
	struct platform_device *p;
	const char *want[8];
	char dn[8][40];

	if (!KTAP_EXPECT(t, top && mid && leaf))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&top->pd, &mid->pd), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&mid->pd, &leaf->pd), 0))
		return;
	KTAP_EXPECT_EQ(t, atomic_read(&top->pd.sd_count), 1);
	p = tdev_new(leaf);
	if (!KTAP_EXPECT(t, p))
		return;
	settle();
	KTAP_EXPECT(t, !pd_on(leaf) && !pd_on(mid) && !pd_on(top));
	KTAP_EXPECT(t, !leaf->hw_on && !mid->hw_on && !top->hw_on);
	KTAP_EXPECT_EQ(t, atomic_read(&top->pd.sd_count), 0);

	/* Resume: parents first, then the domain, start, driver. */
	log_start();
	KTAP_EXPECT_EQ(t, tget(p), 0);
	dev_log_fix(dn, resume, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, pd_on(leaf) && pd_on(mid) && pd_on(top));
	KTAP_EXPECT_EQ(t, leaf->pd.active_count, 1);
	KTAP_EXPECT_EQ(t, atomic_read(&mid->pd.sd_count), 1);

	/* Suspend: driver, stop, the domain; parents follow from work. */
	log_start();
	tput(p);
	settle();
	dev_log_fix(dn, suspend, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, !pd_on(leaf) && !pd_on(mid) && !pd_on(top));
	KTAP_EXPECT_EQ(t, leaf->pd.active_count, 0);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&mid->pd, &leaf->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&top->pd, &mid->pd), 0);
	KTAP_EXPECT_EQ(t, tpd_del(leaf), 0);
	KTAP_EXPECT_EQ(t, tpd_del(mid), 0);
	KTAP_EXPECT_EQ(t, tpd_del(top), 0);
}

/*
 * AMPSOC_PD_FLAG_SYNC_OFF: the whole chain is off when the put returns,
 * in the same order, with no work item queued.
 */
static void runtime_sync_off(struct ampsoc_ktap_test *t)
{
	static const char * const suspend[] = {
		"drv-rt-suspend:A", "stop:A", "off:pdt_so_leaf:0",
		"off:pdt_so_mid:0", "off:pdt_so_top:0", NULL };
	struct tpd *top = tpd_new("pdt_so_top", false);
	struct tpd *mid = tpd_new("pdt_so_mid", false);
	struct tpd *leaf = tpd_new_full("pdt_so_leaf", false, NULL,
					AMPSOC_PD_FLAG_SYNC_OFF, 0);
	struct platform_device *p;
	const char *want[8];
	char dn[8][40];

	if (!KTAP_EXPECT(t, top && mid && leaf))
		goto out;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&top->pd, &mid->pd), 0))
		goto out;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&mid->pd, &leaf->pd), 0))
		goto out_mid;
	p = tdev_new(leaf);
	if (!KTAP_EXPECT(t, p))
		goto out_leaf;
	settle();
	KTAP_EXPECT(t, !pd_on(leaf) && !pd_on(mid) && !pd_on(top));

	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT(t, pd_on(leaf) && pd_on(mid) && pd_on(top));
	log_start();
	tput(p);
	/* No settle(): nothing may be left to a work item. */
	KTAP_EXPECT(t, !work_pending(&mid->pd.power_off_work));
	KTAP_EXPECT(t, !work_pending(&top->pd.power_off_work));
	KTAP_EXPECT(t, !pd_on(leaf) && !pd_on(mid) && !pd_on(top));
	KTAP_EXPECT(t, !leaf->hw_on && !mid->hw_on && !top->hw_on);
	KTAP_EXPECT_EQ(t, atomic_read(&top->pd.sd_count), 0);
	dev_log_fix(dn, suspend, want, p->id, 0);
	log_expect(t, want);
	tdev_del(p);
out_leaf:
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&mid->pd, &leaf->pd), 0);
out_mid:
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&top->pd, &mid->pd), 0);
out:
	settle();
	KTAP_EXPECT_EQ(t, tpd_del(leaf), 0);
	KTAP_EXPECT_EQ(t, tpd_del(mid), 0);
	KTAP_EXPECT_EQ(t, tpd_del(top), 0);
}

static void multi_parent(struct ampsoc_ktap_test *t)
{
	struct tpd *p1 = tpd_new("pdt_mp_p1", false);
	struct tpd *p2 = tpd_new("pdt_mp_p2", false);
	struct tpd *c = tpd_new("pdt_mp_c", false);
	struct platform_device *dc, *d1;

	if (!KTAP_EXPECT(t, p1 && p2 && c))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p1->pd, &c->pd), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p2->pd, &c->pd), 0))
		return;
	dc = tdev_new(c);
	d1 = tdev_new(p1);
	if (!KTAP_EXPECT(t, dc && d1))
		return;
	settle();
	KTAP_EXPECT(t, !pd_on(c) && !pd_on(p1) && !pd_on(p2));

	KTAP_EXPECT_EQ(t, tget(dc), 0);
	KTAP_EXPECT(t, pd_on(c) && pd_on(p1) && pd_on(p2));
	KTAP_EXPECT_EQ(t, atomic_read(&p1->pd.sd_count), 1);
	KTAP_EXPECT_EQ(t, atomic_read(&p2->pd.sd_count), 1);
	KTAP_EXPECT_EQ(t, tget(d1), 0);
	tput(dc);
	settle();
	/* p1 still has an active device; p2 has nothing left. */
	KTAP_EXPECT(t, !pd_on(c) && pd_on(p1) && !pd_on(p2));
	KTAP_EXPECT_EQ(t, atomic_read(&p1->pd.sd_count), 0);
	tput(d1);
	settle();
	KTAP_EXPECT(t, !pd_on(p1));

	/* Removing one parent link leaves the other working. */
	tdev_del(dc);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&p2->pd, &c->pd), 0);
	dc = tdev_new(c);
	if (!KTAP_EXPECT(t, dc))
		return;
	KTAP_EXPECT_EQ(t, tget(dc), 0);
	KTAP_EXPECT(t, pd_on(c) && pd_on(p1) && !pd_on(p2));
	tput(dc);
	settle();
	tdev_del(dc);
	tdev_del(d1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&p1->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, tpd_del(c), 0);
	KTAP_EXPECT_EQ(t, tpd_del(p1), 0);
	KTAP_EXPECT_EQ(t, tpd_del(p2), 0);
}

#define RND_DOMAINS	6
#define RND_DEVICES	12
#define RND_OPS		1500

/*
 * Random get/put on devices of a multi-parent graph. After every step the
 * counters and the power state of every domain must match a model:
 * active_count = devices held, sd_count = children on, and a domain is on
 * exactly when it has a held device or a child that is on.
 */
static void random_counters(struct ampsoc_ktap_test *t)
{
	/* parents of each domain: 0,1 roots; 2<-0; 3<-0,1; 4<-2,3; 5<-3 */
	static const int edges[][2] = { {0, 2}, {0, 3}, {1, 3}, {2, 4},
					 {3, 4}, {3, 5} };
	struct platform_device *devs[RND_DEVICES] = {};
	struct tpd *d[RND_DOMAINS] = {};
	int held[RND_DEVICES] = {};
	bool on[RND_DOMAINS];
	unsigned int i, j, step, bad = 0;
	char name[24];

	for (i = 0; i < RND_DOMAINS; i++) {
		snprintf(name, sizeof(name), "pdt_rnd%u", i);
		d[i] = tpd_new(name, false);
		if (!KTAP_EXPECT(t, d[i]))
			return;
	}
	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		struct ampsoc_pd *par = &d[edges[i][0]]->pd;
		struct ampsoc_pd *ch = &d[edges[i][1]]->pd;

		if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(par, ch), 0))
			return;
	}
	for (i = 0; i < RND_DEVICES; i++) {
		devs[i] = tdev_new(d[i % RND_DOMAINS]);
		if (!KTAP_EXPECT(t, devs[i]))
			return;
	}

	for (step = 0; step < RND_OPS && !bad; step++) {
		unsigned int k = get_random_u32_below(RND_DEVICES);

		if (held[k] && (get_random_u32() & 1)) {
			tput(devs[k]);
			held[k]--;
		} else if (held[k] < 3) {
			if (tget(devs[k]))
				bad++;
			held[k]++;
		}
		settle();
		/* Model: leaves up, so children are decided before parents. */
		for (i = RND_DOMAINS; i-- > 0;) {
			on[i] = false;
			for (j = 0; j < RND_DEVICES; j++)
				if (j % RND_DOMAINS == i && held[j])
					on[i] = true;
			for (j = 0; j < ARRAY_SIZE(edges); j++)
				if (edges[j][0] == (int)i && on[edges[j][1]])
					on[i] = true;
		}
		for (i = 0; i < RND_DOMAINS; i++) {
			unsigned int act = 0, sd = 0;

			for (j = 0; j < RND_DEVICES; j++)
				if (j % RND_DOMAINS == i && held[j])
					act++;
			for (j = 0; j < ARRAY_SIZE(edges); j++)
				if (edges[j][0] == (int)i && on[edges[j][1]])
					sd++;
			if (pd_on(d[i]) != on[i] || d[i]->hw_on != on[i] ||
			    d[i]->pd.active_count != act ||
			    atomic_read(&d[i]->pd.sd_count) != sd) {
				ampsoc_ktap_fail(t,
						 "step %u domain %u: on %d/%d hw %d active %u/%u sd %d/%u",
						 step, i, pd_on(d[i]), on[i],
						 d[i]->hw_on, d[i]->pd.active_count,
						 act, atomic_read(&d[i]->pd.sd_count),
						 sd);
				bad++;
				break;
			}
		}
	}
	KTAP_EXPECT_EQ(t, bad, 0);
	for (i = 0; i < RND_DEVICES; i++) {
		while (held[i]-- > 0)
			tput(devs[i]);
		tdev_del(devs[i]);
	}
	for (i = ARRAY_SIZE(edges); i-- > 0;)
		ampsoc_pd_remove_subdomain(&d[edges[i][0]]->pd,
					   &d[edges[i][1]]->pd);
	for (i = 0; i < RND_DOMAINS; i++)
		KTAP_EXPECT_EQ(t, tpd_del(d[i]), 0);
}

#define O1_DEVICES	2000
#define O1_CYCLES	200

/*
 * The power-off decision uses counters: with thousands of suspended
 * devices in the domain, suspend/resume cycles never walk the device list.
 */
static void constant_time(struct ampsoc_ktap_test *t)
{
	struct platform_device **devs;
	struct tpd *d = tpd_new("pdt_o1", false);
	unsigned int i, made = 0;
	u64 walks, ons;

	if (!KTAP_EXPECT(t, d))
		return;
	devs = kcalloc(O1_DEVICES, sizeof(*devs), GFP_KERNEL);
	if (!KTAP_EXPECT(t, devs))
		return;
	for (i = 0; i < O1_DEVICES; i++) {
		devs[i] = tdev_new(d);
		if (!devs[i])
			break;
		made++;
	}
	KTAP_EXPECT_EQ(t, made, O1_DEVICES);
	settle();
	KTAP_EXPECT(t, !pd_on(d));
	walks = ampsoc_pd_dev_walks();
	ons = d->pd.on_count;
	for (i = 0; i < O1_CYCLES; i++) {
		tget(devs[i % made]);
		tput(devs[i % made]);
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks(), walks);
	KTAP_EXPECT_EQ(t, d->pd.on_count - ons, O1_CYCLES);
	KTAP_EXPECT(t, !pd_on(d));
	for (i = 0; i < made; i++)
		tdev_del(devs[i]);
	kfree(devs);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void unbalanced_rpm(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new("pdt_unbal", false);
	struct platform_device *p = tdev_new(d);
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, d && p))
		return;
	ops = &p->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 1);
	/* A buggy caller runs the domain's callbacks out of turn. */
	KTAP_EXPECT_EQ(t, ops->runtime_resume(&p->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 1);
	KTAP_EXPECT_EQ(t, ops->runtime_suspend(&p->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 0);
	KTAP_EXPECT_EQ(t, ops->runtime_suspend(&p->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 0);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, ops->runtime_resume(&p->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 1);
	KTAP_EXPECT(t, pd_on(d));
	/* Back in step with the PM core's view: held and active. */
	tput(p);
	settle();
	KTAP_EXPECT_EQ(t, d->pd.active_count, 0);
	KTAP_EXPECT(t, !pd_on(d));
	/* Too many puts: the PM core refuses, our counters stay sane. */
	pm_runtime_put_sync(&p->dev);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 0);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 1);
	tput(p);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void power_failures(struct ampsoc_ktap_test *t)
{
	struct tpd *par = tpd_new("pdt_fail_p", false);
	struct tpd *ch = tpd_new("pdt_fail_c", false);
	struct platform_device *p;
	unsigned int i;

	if (!KTAP_EXPECT(t, par && ch))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ch->pd), 0))
		return;
	p = tdev_new(ch);
	if (!KTAP_EXPECT(t, p))
		return;
	settle();
	KTAP_EXPECT(t, !pd_on(par) && !pd_on(ch));

	/* A parent that cannot power on: resume fails, counts roll back. */
	par->fail_on = -EIO;
	KTAP_EXPECT_EQ(t, tget(p), -EIO);
	KTAP_EXPECT(t, !pd_on(par) && !pd_on(ch));
	KTAP_EXPECT_EQ(t, atomic_read(&par->pd.sd_count), 0);
	KTAP_EXPECT_EQ(t, ch->pd.active_count, 0);
	par->fail_on = 0;
	pm_runtime_set_suspended(&p->dev);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT(t, pd_on(par) && pd_on(ch));

	/*
	 * A child that cannot power off stays on and counts each refused
	 * attempt: the first, then every bounded retry. The retries run on
	 * their own timer, so run them all out before counting (one flush
	 * runs at most one retry, and its return value does not say whether
	 * another was queued: the retry may finish before it looks).
	 */
	ch->fail_off = -EBUSY;
	tput(p);
	settle();
	for (i = 0; i < 2 * AMPSOC_PD_RETRY_MAX; i++)
		flush_delayed_work(&ch->pd.retry_work);
	KTAP_EXPECT(t, !delayed_work_pending(&ch->pd.retry_work));
	KTAP_EXPECT(t, pd_on(ch) && pd_on(par));
	KTAP_EXPECT_EQ(t, ch->pd.states[0].rejected, 1 + AMPSOC_PD_RETRY_MAX);
	ch->fail_off = 0;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	settle();
	KTAP_EXPECT(t, !pd_on(ch) && !pd_on(par));
	KTAP_EXPECT_EQ(t, ch->pd.states[0].usage, ch->pd.off_count);
	tdev_del(p);
	ampsoc_pd_remove_subdomain(&par->pd, &ch->pd);
	KTAP_EXPECT_EQ(t, tpd_del(ch), 0);
	KTAP_EXPECT_EQ(t, tpd_del(par), 0);
}

/* ---- subdomain graph ---- */

static void subdomain_misuse(struct ampsoc_ktap_test *t)
{
	struct tpd *a = tpd_new("pdt_g_a", false);
	struct tpd *b = tpd_new("pdt_g_b", false);
	struct tpd *c = tpd_new("pdt_g_c", false);
	struct tpd *off = tpd_new("pdt_g_off", true);
	struct platform_device *p;

	if (!KTAP_EXPECT(t, a && b && c && off))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &b->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &b->pd), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&b->pd, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&b->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&c->pd, &a->pd), -EINVAL);
	/* An "on" child under an "off" parent. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&off->pd, &c->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &c->pd), -EINVAL);
	/* A subdomain with devices or subdomains of its own stays linked. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &b->pd), -EBUSY);
	p = tdev_new(c);
	if (!KTAP_EXPECT(t, p))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&b->pd, &c->pd), -EBUSY);
	/* Removal of a domain with subdomains or devices. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EBUSY);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&c->pd), -EBUSY);
	tdev_del(p);
	settle();
	KTAP_EXPECT(t, !pd_on(c) && !pd_on(b) && !pd_on(a));
	/* Removing a child domain drops its links to its parents. */
	KTAP_EXPECT_EQ(t, tpd_del(c), 0);
	KTAP_EXPECT(t, list_empty(&b->pd.child_links));
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &b->pd), 0);
	KTAP_EXPECT_EQ(t, tpd_del(a), 0);
	KTAP_EXPECT_EQ(t, tpd_del(b), 0);
	KTAP_EXPECT_EQ(t, tpd_del(off), 0);
}

static int nb_ok(struct notifier_block *nb, unsigned long ev, void *data)
{
	struct ampsoc_pd *pd = data;

	logc("nb1:%lu:%s", ev, pd->name);
	return NOTIFY_OK;
}

static unsigned long veto_event = ~0UL;

static int nb_veto(struct notifier_block *nb, unsigned long ev, void *data)
{
	logc("nb2:%lu", ev);
	return ev == veto_event ? notifier_from_errno(-EPERM) : NOTIFY_OK;
}

static void notifiers(struct ampsoc_ktap_test *t)
{
	static const char * const plain_on[] = {
		"nb1:2:pdt_nb", "nb2:2", "on:pdt_nb", "nb1:3:pdt_nb", "nb2:3",
		"start:A", "drv-rt-resume:A", NULL };
	/* PRE_OFF vetoed by nb2: nb1 gets ON back, power_off never runs. */
	static const char * const veto_off[] = {
		"drv-rt-suspend:A", "stop:A", "nb1:0:pdt_nb", "nb2:0",
		"nb1:3:pdt_nb", NULL };
	/* PRE_ON vetoed by nb2: nb1 gets OFF back, power_on never runs. */
	static const char * const veto_on[] = {
		"nb1:2:pdt_nb", "nb2:2", "nb1:1:pdt_nb", NULL };
	struct notifier_block n1 = { .notifier_call = nb_ok, .priority = 2 };
	struct notifier_block n2 = { .notifier_call = nb_veto, .priority = 1 };
	struct notifier_block n3 = { .notifier_call = nb_ok };
	struct tpd *d = tpd_new("pdt_nb", false);
	struct platform_device *p = tdev_new(d);
	const char *want[10];
	char dn[10][40];

	if (!KTAP_EXPECT(t, d && p))
		return;
	settle();
	if (!KTAP_EXPECT(t, !pd_on(d)))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&d->pd, &n1), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&d->pd, &n1), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n3), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d->pd), -EBUSY);

	log_start();
	KTAP_EXPECT_EQ(t, tget(p), 0);
	dev_log_fix(dn, plain_on, want, p->id, 0);
	log_expect(t, want);

	veto_event = AMPSOC_PD_NOTIFY_PRE_OFF;
	log_start();
	tput(p);
	dev_log_fix(dn, veto_off, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, pd_on(d) && d->hw_on);

	veto_event = ~0UL;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	KTAP_EXPECT(t, !pd_on(d));
	veto_event = AMPSOC_PD_NOTIFY_PRE_ON;
	log_start();
	KTAP_EXPECT_EQ(t, tget(p), -EPERM);
	dev_log_fix(dn, veto_on, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, !pd_on(d) && !d->hw_on);
	KTAP_EXPECT_EQ(t, d->pd.active_count, 0);
	veto_event = ~0UL;
	pm_runtime_set_suspended(&p->dev);

	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_remove_notifier(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_remove_notifier(&p->dev), -ENOENT);
	/* Already on the chain as the domain's: refused, not a kernel WARN. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n1), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&d->pd, &n1), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&d->pd, &n1), -ENOENT);
	/* A device notifier goes away with its device. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n2), 0);
	tdev_del(p);
	KTAP_EXPECT(t, !d->pd.notifiers.head);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

/* ---- governors ---- */

static void gov_always_on(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new_full("pdt_gov_aon", false,
				     &ampsoc_pd_always_on_gov, 0, 0);
	struct platform_device *p = tdev_new(d);

	if (!KTAP_EXPECT(t, d && p))
		return;
	settle();
	KTAP_EXPECT(t, d->pd.flags & AMPSOC_PD_FLAG_RPM_ALWAYS_ON);
	KTAP_EXPECT(t, pd_on(d));
	KTAP_EXPECT_EQ(t, d->off_calls, 0);
	KTAP_EXPECT(t, pm_runtime_status_suspended(&p->dev));
	tdev_del(p);
	settle();
	KTAP_EXPECT(t, pd_on(d));
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void tpd_states(struct tpd *d, s64 c0, s64 c1, s64 c2, s64 r2)
{
	d->st[0] = (struct ampsoc_pd_state){ .power_off_latency_ns = c0 / 2,
		.power_on_latency_ns = c0 / 2, .fixed = true };
	d->st[1] = (struct ampsoc_pd_state){ .power_off_latency_ns = c1 / 2,
		.power_on_latency_ns = c1 / 2, .fixed = true };
	d->st[2] = (struct ampsoc_pd_state){ .power_off_latency_ns = c2 / 2,
		.power_on_latency_ns = c2 / 2, .residency_ns = r2,
		.fixed = true };
}

static void gov_qos_states(struct ampsoc_ktap_test *t)
{
	struct dev_pm_qos_request req = {};
	struct platform_device *p;
	struct tpd *d;
	u64 lat_us;
	int ret;

	d = tpd_new_full("pdt_gov_qos", false, &ampsoc_pd_qos_gov, 0, 3);
	if (!KTAP_EXPECT(t, d))
		return;
	tpd_states(d, 0, 20 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC, 0);
	p = tdev_new(d);
	if (!KTAP_EXPECT(t, p))
		return;
	settle();
	/* No constraint: the deepest state. */
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 2);
	/* The device's own measured latencies come off every constraint. */
	lat_us = div_u64(pdd_of(p)->suspend_latency_ns +
			 pdd_of(p)->resume_latency_ns, NSEC_PER_USEC);

	/* Room for the 20 ms state, not the 200 ms one. */
	ret = dev_pm_qos_add_request(&p->dev, &req, DEV_PM_QOS_RESUME_LATENCY,
				     2 * lat_us + 100 * USEC_PER_MSEC);
	if (!KTAP_EXPECT(t, ret >= 0))
		return;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 1);

	/* Room for the free state only. */
	dev_pm_qos_update_request(&req, 2 * lat_us + 10 * USEC_PER_MSEC);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 0);

	/* Tighter than the free state 0 cannot be: with 0 the PM core refuses. */
	dev_pm_qos_update_request(&req, 0);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	KTAP_EXPECT(t, pd_on(d));
	KTAP_EXPECT(t, !pm_runtime_status_suspended(&p->dev));

	dev_pm_qos_remove_request(&req);
	pm_runtime_idle(&p->dev);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 2);
	KTAP_EXPECT(t, d->st[1].usage >= 1 && d->st[0].usage >= 1);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void gov_qos_subdomain(struct ampsoc_ktap_test *t)
{
	struct dev_pm_qos_request req = {};
	struct tpd *par, *ch;
	struct platform_device *p;
	u64 lat_us;

	par = tpd_new_full("pdt_govsd_p", false, &ampsoc_pd_qos_gov, 0, 3);
	ch = tpd_new_full("pdt_govsd_c", false, &ampsoc_pd_qos_gov, 0, 3);
	if (!KTAP_EXPECT(t, par && ch))
		return;
	tpd_states(par, 0, 20 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC, 0);
	tpd_states(ch, 0, 0, 0, 0);
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ch->pd), 0))
		return;
	p = tdev_new(ch);
	if (!KTAP_EXPECT(t, p))
		return;
	lat_us = div_u64(pdd_of(p)->suspend_latency_ns +
			 pdd_of(p)->resume_latency_ns, NSEC_PER_USEC);
	/* Room, after the device's own latencies, for 20 ms, not 200 ms. */
	if (!KTAP_EXPECT(t, dev_pm_qos_add_request(&p->dev, &req,
						   DEV_PM_QOS_RESUME_LATENCY,
						   2 * lat_us + 100 * USEC_PER_MSEC) >= 0))
		return;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	settle();
	/* A device's constraint limits the parent too. */
	KTAP_EXPECT(t, !pd_on(ch) && !pd_on(par));
	KTAP_EXPECT_EQ(t, par->pd.state_idx, 1);
	dev_pm_qos_remove_request(&req);
	tdev_del(p);
	ampsoc_pd_remove_subdomain(&par->pd, &ch->pd);
	KTAP_EXPECT_EQ(t, tpd_del(ch), 0);
	KTAP_EXPECT_EQ(t, tpd_del(par), 0);
}

static void gov_qos_residency(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new_full("pdt_gov_res", false, &ampsoc_pd_qos_gov,
				     0, 3);
	struct platform_device *p;

	if (!KTAP_EXPECT(t, d))
		return;
	/* S2 only pays off after a minute off. */
	tpd_states(d, 0, 0, 0, 60LL * NSEC_PER_SEC);
	p = tdev_new(d);
	if (!KTAP_EXPECT(t, p))
		return;
	settle();
	/* No idle history yet: the deepest. */
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 2);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	/* Idle periods are short: S2 would not pay off. */
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 1);
	KTAP_EXPECT(t, d->pd.idle_avg_ns > 0 &&
		    d->pd.idle_avg_ns < 60LL * NSEC_PER_SEC);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void gov_measured_latency(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new_full("pdt_gov_meas", false, &ampsoc_pd_qos_gov,
				     0, 3);
	struct platform_device *p;

	if (!KTAP_EXPECT(t, d))
		return;
	/* Non-fixed latencies of 0 grow to what power on/off really take. */
	memset(d->st, 0, sizeof(d->st));
	p = tdev_new(d);
	if (!KTAP_EXPECT(t, p))
		return;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	tput(p);
	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT(t, d->st[2].power_off_latency_ns > 0);
	KTAP_EXPECT(t, d->st[2].power_on_latency_ns > 0);
	KTAP_EXPECT(t, pdd_of(p)->suspend_latency_ns > 0);
	KTAP_EXPECT(t, pdd_of(p)->resume_latency_ns > 0);
	tput(p);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

#define QOS_LOCAL_DEVICES	100
#define QOS_LOCAL_CYCLES	10

/* Cycle @p (the only device that moves) and let the domains settle. */
static void qos_local_cycles(struct platform_device *p)
{
	unsigned int i;

	for (i = 0; i < QOS_LOCAL_CYCLES; i++) {
		tget(p);
		tput(p);
		settle();
	}
}

#define QOS_ORDER_DEVICES	16

/* What the governor must find: the tightest constraint left, -1 for none. */
static s64 qos_order_ref(struct platform_device **p, const s32 *us,
			 const bool *has)
{
	s64 c = -1, k;
	unsigned int i;

	for (i = 0; i < QOS_ORDER_DEVICES; i++) {
		if (!has[i])
			continue;
		k = (s64)us[i] * NSEC_PER_USEC -
		    pdd_of(p[i])->suspend_latency_ns -
		    pdd_of(p[i])->resume_latency_ns;
		k = max_t(s64, k, 0);
		c = c < 0 ? k : min(c, k);
	}
	return c;
}

/*
 * The domain's constraint is the tightest of its devices', each less the
 * device's own measured latencies (6.1's effective constraint), however
 * the constraints come, tighten, loosen and go: ampsoc keeps them in order
 * as they change (docs/pmdomain.md), so check the order against the plain
 * minimum after every change, and that no change walks the device list.
 */
static void gov_qos_order(struct ampsoc_ktap_test *t)
{
	struct platform_device *p[QOS_ORDER_DEVICES] = {}, *m = NULL;
	bool has[QOS_ORDER_DEVICES] = {};
	s32 us[QOS_ORDER_DEVICES] = {};
	struct dev_pm_qos_request *req;
	unsigned int i, j, bad = 0;
	struct tpd *d;
	u64 walks;

	d = tpd_new_full("pdt_qos_order", false, &ampsoc_pd_qos_gov, 0, 3);
	req = kcalloc(QOS_ORDER_DEVICES, sizeof(*req), GFP_KERNEL);
	if (!KTAP_EXPECT(t, d && req))
		goto out;
	tpd_states(d, 0, 20 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC, 0);
	for (i = 0; i < QOS_ORDER_DEVICES; i++) {
		p[i] = tdev_new(d);
		if (!KTAP_EXPECT(t, p[i]))
			goto out;
	}
	m = tdev_new(d);
	if (!KTAP_EXPECT(t, m))
		goto out;
	qos_local_cycles(m);
	walks = ampsoc_pd_dev_walks();
	for (j = 0; j < 4 * QOS_ORDER_DEVICES; j++) {
		i = (j * 5) % QOS_ORDER_DEVICES;
		if (j < QOS_ORDER_DEVICES) {
			/* they come, in no order: 1 s and some ms */
			us[i] = USEC_PER_SEC + ((j * 7) % QOS_ORDER_DEVICES) * 1000;
			if (dev_pm_qos_add_request(&p[i]->dev, &req[i],
						   DEV_PM_QOS_RESUME_LATENCY,
						   us[i]) < 0)
				bad++;
			has[i] = true;
		} else if (j < 3 * QOS_ORDER_DEVICES) {
			/* tighter and looser, the tightest among them */
			us[i] = j & 1 ? us[i] / 2 : us[i] + 3000;
			if (dev_pm_qos_update_request(&req[i], us[i]) < 0)
				bad++;
		} else if (has[i] && i % 3) {
			dev_pm_qos_remove_request(&req[i]);
			has[i] = false;
		}
		tget(m);
		tput(m);
		settle();
		if (d->pd.qos_constraint_ns != qos_order_ref(p, us, has))
			bad++;
	}
	KTAP_EXPECT_EQ(t, bad, 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks() - walks, 0);
	for (i = 0; i < QOS_ORDER_DEVICES; i++)
		if (has[i]) {
			dev_pm_qos_remove_request(&req[i]);
			has[i] = false;
		}
	tget(m);
	tput(m);
	settle();
	KTAP_EXPECT_EQ(t, d->pd.qos_constraint_ns, -1);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 2);
out:
	for (i = 0; i < QOS_ORDER_DEVICES; i++) {
		if (has[i])
			dev_pm_qos_remove_request(&req[i]);
		if (p[i])
			tdev_del(p[i]);
	}
	if (m)
		tdev_del(m);
	kfree(req);
	if (d)
		KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

/*
 * The QoS governor's cache is per domain (docs/pmdomain.md, header of
 * ampsoc_pd_dev_walks()): a constraint that changes in one domain is seen
 * there and nowhere else, as in 6.1, where a QoS change marks only the
 * device's domain and its parents, and it costs no walk of the device
 * list (the devices' constraints are kept in order). "a" (QoS-governed,
 * 100 devices, all suspended) decides each time its ungoverned subdomain
 * "c" powers off; a constraint added in the unrelated domain "b" must not
 * change what "a" decides, and one added in "a" must, without a walk.
 */
static void gov_qos_local(struct ampsoc_ktap_test *t)
{
	struct dev_pm_qos_request req_b = {}, req_a = {};
	struct platform_device **devs, *p, *q;
	struct tpd *a, *b, *c;
	unsigned int i, made = 0;
	u64 walks;

	a = tpd_new_full("pdt_qloc_a", false, &ampsoc_pd_qos_gov, 0, 3);
	b = tpd_new_full("pdt_qloc_b", false, &ampsoc_pd_qos_gov, 0, 3);
	c = tpd_new("pdt_qloc_c", false);
	devs = kcalloc(QOS_LOCAL_DEVICES, sizeof(*devs), GFP_KERNEL);
	if (!KTAP_EXPECT(t, a && b && c && devs))
		return;
	tpd_states(a, 0, 20 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC, 0);
	tpd_states(b, 0, 20 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC, 0);
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &c->pd), 0))
		return;
	for (i = 0; i < QOS_LOCAL_DEVICES; i++) {
		devs[i] = tdev_new(a);
		if (!devs[i])
			break;
		made++;
	}
	KTAP_EXPECT_EQ(t, made, QOS_LOCAL_DEVICES);
	p = tdev_new(c);
	q = tdev_new(b);
	if (!KTAP_EXPECT(t, p && q && made))
		return;
	settle();
	qos_local_cycles(p);	/* whatever setting up left stale is walked now */
	KTAP_EXPECT(t, !pd_on(a) && !pd_on(b) && !pd_on(c));

	walks = ampsoc_pd_dev_walks();
	qos_local_cycles(p);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks() - walks, 0);
	KTAP_EXPECT_EQ(t, a->pd.state_idx, 2);

	/* A constraint in b: b walks its one device, a nothing. */
	if (!KTAP_EXPECT(t, dev_pm_qos_add_request(&q->dev, &req_b,
						   DEV_PM_QOS_RESUME_LATENCY,
						   500 * USEC_PER_MSEC) >= 0))
		return;
	settle();
	walks = ampsoc_pd_dev_walks();
	qos_local_cycles(p);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks() - walks, 0);
	KTAP_EXPECT_EQ(t, a->pd.state_idx, 2);

	/* A constraint in a: no walk, and the decision follows it. */
	walks = ampsoc_pd_dev_walks();
	if (!KTAP_EXPECT(t, dev_pm_qos_add_request(&devs[0]->dev, &req_a,
						   DEV_PM_QOS_RESUME_LATENCY,
						   100 * USEC_PER_MSEC) >= 0))
		return;
	settle();
	qos_local_cycles(p);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks() - walks, 0);
	KTAP_EXPECT(t, !pd_on(a));
	KTAP_EXPECT_EQ(t, a->pd.state_idx, 1);

	dev_pm_qos_remove_request(&req_a);
	dev_pm_qos_remove_request(&req_b);
	tdev_del(p);
	tdev_del(q);
	for (i = 0; i < made; i++)
		tdev_del(devs[i]);
	kfree(devs);
	ampsoc_pd_remove_subdomain(&a->pd, &c->pd);
	KTAP_EXPECT_EQ(t, tpd_del(c), 0);
	KTAP_EXPECT_EQ(t, tpd_del(b), 0);
	KTAP_EXPECT_EQ(t, tpd_del(a), 0);
}

static void flag_always_on(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new_full("pdt_flag_aon", false, NULL,
				     AMPSOC_PD_FLAG_ALWAYS_ON, 0);
	struct platform_device *p = tdev_new(d);
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, d && p))
		return;
	settle();
	KTAP_EXPECT(t, pd_on(d));
	ops = &p->dev.pm_domain->ops;
	/* Not even system sleep powers it off. */
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->suspend_noirq(&p->dev), 0);
	KTAP_EXPECT(t, pd_on(d));
	KTAP_EXPECT_EQ(t, ops->resume_noirq(&p->dev), 0);
	ops->complete(&p->dev);
	settle();
	KTAP_EXPECT(t, pd_on(d));
	KTAP_EXPECT_EQ(t, d->off_calls, 0);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

/* ---- system sleep, driven phase by phase as the PM core does ---- */

static void dev_log_fix(char dn[][40], const char * const *in, const char **out,
			int id_a, int id_b)
{
	unsigned int i;

	for (i = 0; in[i]; i++) {
		char *x;

		strscpy(dn[i], in[i], 40);
		x = strrchr(dn[i], ':');
		if (x && (!strcmp(x, ":A") || !strcmp(x, ":B")))
			snprintf(x + 1, 8, "%d", x[1] == 'A' ? id_a : id_b);
		out[i] = dn[i];
	}
	out[i] = NULL;
}

static void sleep_noirq_order(struct ampsoc_ktap_test *t)
{
	/* Parent P with device A, child C with device B; both devices busy. */
	static const char * const down_child_first[] = {
		"drv-suspend-noirq:B", "stop:B", "off:pdt_sl_c:0",
		"drv-suspend-noirq:A", "stop:A", "off:pdt_sl_p:0", NULL };
	static const char * const up_parent_first[] = {
		"on:pdt_sl_p", "start:A", "drv-resume-noirq:A",
		"on:pdt_sl_c", "start:B", "drv-resume-noirq:B", NULL };
	static const char * const down_parent_first[] = {
		"drv-suspend-noirq:A", "stop:A",
		"drv-suspend-noirq:B", "stop:B", "off:pdt_sl_c:0",
		"off:pdt_sl_p:0", NULL };
	static const char * const up_child_first[] = {
		"on:pdt_sl_p", "on:pdt_sl_c", "start:B", "drv-resume-noirq:B",
		"start:A", "drv-resume-noirq:A", NULL };
	struct tpd *par = tpd_new("pdt_sl_p", false);
	struct tpd *ch = tpd_new("pdt_sl_c", false);
	struct platform_device *a, *b;
	const struct dev_pm_ops *pa, *pc;
	const char *want[16];
	char dn[16][40];

	if (!KTAP_EXPECT(t, par && ch))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ch->pd), 0))
		return;
	a = tdev_new(par);
	b = tdev_new(ch);
	if (!KTAP_EXPECT(t, a && b))
		return;
	pa = &a->dev.pm_domain->ops;
	pc = &b->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, tget(a), 0);
	KTAP_EXPECT_EQ(t, tget(b), 0);

	KTAP_EXPECT_EQ(t, pa->prepare(&a->dev), 0);
	KTAP_EXPECT_EQ(t, pc->prepare(&b->dev), 0);
	log_start();
	KTAP_EXPECT_EQ(t, pc->suspend_noirq(&b->dev), 0);
	KTAP_EXPECT_EQ(t, pa->suspend_noirq(&a->dev), 0);
	dev_log_fix(dn, down_child_first, want, a->id, b->id);
	log_expect(t, want);
	KTAP_EXPECT(t, !par->hw_on && !ch->hw_on);
	log_start();
	KTAP_EXPECT_EQ(t, pa->resume_noirq(&a->dev), 0);
	KTAP_EXPECT_EQ(t, pc->resume_noirq(&b->dev), 0);
	dev_log_fix(dn, up_parent_first, want, a->id, b->id);
	log_expect(t, want);
	pa->complete(&a->dev);
	pc->complete(&b->dev);

	/* The other order: the parent waits for its subdomain. */
	KTAP_EXPECT_EQ(t, pa->prepare(&a->dev), 0);
	KTAP_EXPECT_EQ(t, pc->prepare(&b->dev), 0);
	log_start();
	KTAP_EXPECT_EQ(t, pa->suspend_noirq(&a->dev), 0);
	KTAP_EXPECT_EQ(t, pc->suspend_noirq(&b->dev), 0);
	dev_log_fix(dn, down_parent_first, want, a->id, b->id);
	log_expect(t, want);
	log_start();
	KTAP_EXPECT_EQ(t, pc->resume_noirq(&b->dev), 0);
	KTAP_EXPECT_EQ(t, pa->resume_noirq(&a->dev), 0);
	dev_log_fix(dn, up_child_first, want, a->id, b->id);
	log_expect(t, want);
	pa->complete(&a->dev);
	pc->complete(&b->dev);
	KTAP_EXPECT(t, pd_on(par) && pd_on(ch));
	KTAP_EXPECT_EQ(t, par->pd.prepared_count, 0);

	/* After complete, idle devices let their domains go off again. */
	tput(b);
	tput(a);
	settle();
	KTAP_EXPECT(t, !pd_on(par) && !pd_on(ch));
	tdev_del(a);
	tdev_del(b);
	ampsoc_pd_remove_subdomain(&par->pd, &ch->pd);
	KTAP_EXPECT_EQ(t, tpd_del(ch), 0);
	KTAP_EXPECT_EQ(t, tpd_del(par), 0);
}

static void sleep_skip_off_domain(struct ampsoc_ktap_test *t)
{
	static const char * const none[] = { NULL };
	/* The seed's behaviour, now opt-in. */
	struct tpd *d = tpd_new_full("pdt_sl_skip", false, NULL,
				     AMPSOC_PD_FLAG_SLEEP_SKIP_OFF, 0);
	struct platform_device *p = tdev_new(d);
	const struct dev_pm_ops *ops;
	unsigned int ons;

	if (!KTAP_EXPECT(t, d && p))
		return;
	settle();
	if (!KTAP_EXPECT(t, !pd_on(d)))
		return;
	ops = &p->dev.pm_domain->ops;
	ons = d->on_calls;
	log_start();
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->suspend(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->suspend_late(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->suspend_noirq(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->resume_noirq(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->resume_early(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->resume(&p->dev), 0);
	ops->complete(&p->dev);
	settle();
	/* No driver callback, no stop/start, no power change. */
	log_expect(t, none);
	KTAP_EXPECT(t, !pd_on(d));
	KTAP_EXPECT_EQ(t, d->on_calls, ons);
	KTAP_EXPECT_EQ(t, d->pd.suspended_count, 0);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void sleep_active_wakeup(struct ampsoc_ktap_test *t)
{
	struct tpd *w = tpd_new_full("pdt_sl_wake", false, NULL,
				     AMPSOC_PD_FLAG_ACTIVE_WAKEUP, 0);
	struct tpd *n = tpd_new("pdt_sl_nowake", false);
	struct platform_device *pw = tdev_new(w), *pn = tdev_new(n);
	const struct dev_pm_ops *ow, *on;

	if (!KTAP_EXPECT(t, w && n && pw && pn))
		return;
	KTAP_EXPECT_EQ(t, tget(pw), 0);
	KTAP_EXPECT_EQ(t, tget(pn), 0);
	ow = &pw->dev.pm_domain->ops;
	on = &pn->dev.pm_domain->ops;
	/* Both devices are in the wakeup path; one domain opts in. */
	pw->dev.power.wakeup_path = true;
	pn->dev.power.wakeup_path = true;
	KTAP_EXPECT_EQ(t, ow->prepare(&pw->dev), 0);
	KTAP_EXPECT_EQ(t, on->prepare(&pn->dev), 0);
	KTAP_EXPECT_EQ(t, ow->suspend_noirq(&pw->dev), 0);
	KTAP_EXPECT_EQ(t, on->suspend_noirq(&pn->dev), 0);
	KTAP_EXPECT(t, pd_on(w) && w->hw_on);
	KTAP_EXPECT(t, !pd_on(n) && !n->hw_on);
	KTAP_EXPECT_EQ(t, ow->resume_noirq(&pw->dev), 0);
	KTAP_EXPECT_EQ(t, on->resume_noirq(&pn->dev), 0);
	ow->complete(&pw->dev);
	on->complete(&pn->dev);
	KTAP_EXPECT(t, pd_on(w) && pd_on(n));
	pw->dev.power.wakeup_path = false;
	pn->dev.power.wakeup_path = false;
	tput(pw);
	tput(pn);
	settle();
	KTAP_EXPECT(t, !pd_on(w) && !pd_on(n));
	tdev_del(pw);
	tdev_del(pn);
	KTAP_EXPECT_EQ(t, tpd_del(w), 0);
	KTAP_EXPECT_EQ(t, tpd_del(n), 0);
}

static void sleep_eagain(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new("pdt_sl_again", false);
	struct tpd *s = tpd_new("pdt_sl_again_sd", true);
	struct platform_device *p = tdev_new(d);
	struct platform_device *loose = tdev_nodrv(NULL);
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, d && s && p && loose))
		return;
	ops = &p->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&d->pd, &loose->dev), -EAGAIN);
	KTAP_EXPECT(t, !loose->dev.pm_domain);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&p->dev), -EAGAIN);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&d->pd, &s->pd), -EAGAIN);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d->pd), -EAGAIN);
	ops->complete(&p->dev);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&d->pd, &s->pd), 0);
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&d->pd, &s->pd), -EAGAIN);
	ops->complete(&p->dev);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&d->pd, &s->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&d->pd, &loose->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&loose->dev), 0);
	tdev_nodrv_del(loose);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
	KTAP_EXPECT_EQ(t, tpd_del(s), 0);
}

static void sleep_hibernation(struct ampsoc_ktap_test *t)
{
	static const char * const freeze[] = {
		"drv-freeze-noirq:A", "stop:A", NULL };
	static const char * const thaw[] = {
		"start:A", "drv-thaw-noirq:A", NULL };
	static const char * const poweroff[] = {
		"drv-poweroff-noirq:A", "stop:A", "off:pdt_hib:0", NULL };
	/* The image kernel powers the domain on again from scratch. */
	static const char * const restore[] = {
		"on:pdt_hib", "start:A", "drv-restore-noirq:A", NULL };
	struct tpd *d = tpd_new("pdt_hib", false);
	struct platform_device *p = tdev_new(d);
	const struct dev_pm_ops *ops;
	const char *want[8];
	char dn[8][40];
	unsigned int ons;

	if (!KTAP_EXPECT(t, d && p))
		return;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	ops = &p->dev.pm_domain->ops;

	/* Image creation: freeze stops devices, the domain stays on. */
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	log_start();
	KTAP_EXPECT_EQ(t, ops->freeze_noirq(&p->dev), 0);
	dev_log_fix(dn, freeze, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, pd_on(d));
	log_start();
	KTAP_EXPECT_EQ(t, ops->thaw_noirq(&p->dev), 0);
	dev_log_fix(dn, thaw, want, p->id, 0);
	log_expect(t, want);
	ops->complete(&p->dev);

	/* Image saved: poweroff; it fails, so restore in this kernel. */
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	log_start();
	KTAP_EXPECT_EQ(t, ops->poweroff_noirq(&p->dev), 0);
	dev_log_fix(dn, poweroff, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, !pd_on(d) && !d->hw_on);
	log_start();
	KTAP_EXPECT_EQ(t, ops->restore_noirq(&p->dev), 0);
	dev_log_fix(dn, restore, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT(t, pd_on(d) && d->hw_on);
	ops->complete(&p->dev);

	/*
	 * The image kernel restores the state saved after freeze: it
	 * believes the domain on, yet powers it on again from scratch.
	 */
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->freeze_noirq(&p->dev), 0);
	ons = d->on_calls;
	log_start();
	KTAP_EXPECT_EQ(t, ops->restore_noirq(&p->dev), 0);
	dev_log_fix(dn, restore, want, p->id, 0);
	log_expect(t, want);
	KTAP_EXPECT_EQ(t, d->on_calls, ons + 1);
	ops->complete(&p->dev);
	KTAP_EXPECT(t, pd_on(d));
	tput(p);
	settle();
	KTAP_EXPECT(t, !pd_on(d));
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

/* ---- PM clocks over the Common Clock Framework ---- */

struct tclk {
	struct clk_hw hw;
	int prepared;
	int enabled;
};

static int tclk_prepare(struct clk_hw *hw)
{
	container_of(hw, struct tclk, hw)->prepared++;
	return 0;
}

static void tclk_unprepare(struct clk_hw *hw)
{
	container_of(hw, struct tclk, hw)->prepared--;
}

static int tclk_enable(struct clk_hw *hw)
{
	container_of(hw, struct tclk, hw)->enabled++;
	return 0;
}

static void tclk_disable(struct clk_hw *hw)
{
	container_of(hw, struct tclk, hw)->enabled--;
}

static const struct clk_ops tclk_ops = {
	.prepare = tclk_prepare,
	.unprepare = tclk_unprepare,
	.enable = tclk_enable,
	.disable = tclk_disable,
};

static void pm_clocks(struct ampsoc_ktap_test *t)
{
	struct clk_init_data init = { .name = "pdt_fck", .ops = &tclk_ops };
	struct clk_init_data init2 = { .name = "pdt_ick", .ops = &tclk_ops };
	struct tclk c1 = {}, c2 = {};
	struct clk_lookup *cl1 = NULL;
	struct platform_device *p;
	const struct dev_pm_ops *ops;
	struct tpd *d;
	struct clk *ick;

	d = tpd_new_full("pdt_clk", false, NULL, AMPSOC_PD_FLAG_PM_CLK, 0);
	if (!KTAP_EXPECT(t, d))
		return;
	/* With PM_CLK the start/stop default to the PM clock helpers. */
	KTAP_EXPECT(t, d->pd.dev_ops.start == ampsoc_pm_clk_resume);
	KTAP_EXPECT(t, d->pd.dev_ops.stop == ampsoc_pm_clk_suspend);
	c1.hw.init = &init;
	c2.hw.init = &init2;
	if (!KTAP_EXPECT_EQ(t, clk_hw_register(NULL, &c1.hw), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, clk_hw_register(NULL, &c2.hw), 0))
		return;

	p = platform_device_alloc(DRV_NAME, tdev_next_id++);
	if (!KTAP_EXPECT(t, p))
		return;
	if (!KTAP_EXPECT_EQ(t, dev_set_name(&p->dev, "%s.%d", DRV_NAME, p->id), 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add(&p->dev, "fck"), -EINVAL);
	cl1 = clkdev_hw_create(&c1.hw, "fck", "%s", dev_name(&p->dev));
	if (!KTAP_EXPECT(t, cl1))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pm_clk_create(&p->dev), 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add(&p->dev, "fck"), 0);
	KTAP_EXPECT(t, ampsoc_pm_clk_add(&p->dev, "nope") < 0);
	ick = clk_hw_get_clk(&c2.hw, "ick");
	if (!KTAP_EXPECT(t, !IS_ERR(ick)))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add_clk(&p->dev, ick), 0);
	KTAP_EXPECT_EQ(t, c1.prepared, 1);
	KTAP_EXPECT_EQ(t, c2.prepared, 1);
	KTAP_EXPECT_EQ(t, c1.enabled, 0);

	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&d->pd, &p->dev), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, platform_device_add(p), 0))
		return;
	KTAP_EXPECT_EQ(t, tget(p), 0);
	KTAP_EXPECT_EQ(t, c1.enabled, 1);
	KTAP_EXPECT_EQ(t, c2.enabled, 1);
	tput(p);
	KTAP_EXPECT_EQ(t, c1.enabled, 0);
	KTAP_EXPECT_EQ(t, c2.enabled, 0);

	/* System sleep gates a busy device's clocks in the noirq phase. */
	KTAP_EXPECT_EQ(t, tget(p), 0);
	ops = &p->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ops->suspend_noirq(&p->dev), 0);
	KTAP_EXPECT_EQ(t, c1.enabled + c2.enabled, 0);
	KTAP_EXPECT_EQ(t, ops->resume_noirq(&p->dev), 0);
	KTAP_EXPECT_EQ(t, c1.enabled + c2.enabled, 2);
	ops->complete(&p->dev);

	/* Removing a clock while enabled gates and unprepares it. */
	ampsoc_pm_clk_remove_clk(&p->dev, ick);
	KTAP_EXPECT_EQ(t, c2.enabled, 0);
	KTAP_EXPECT_EQ(t, c2.prepared, 0);
	tput(p);
	KTAP_EXPECT_EQ(t, c1.enabled, 0);
	ampsoc_pm_clk_remove(&p->dev, "fck");
	KTAP_EXPECT_EQ(t, c1.prepared, 0);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add(&p->dev, "fck"), 0);
	ampsoc_pm_clk_destroy(&p->dev);
	KTAP_EXPECT_EQ(t, c1.prepared, 0);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_suspend(&p->dev), 0);
	tdev_del(p);
	clkdev_drop(cl1);
	clk_hw_unregister(&c1.hw);
	clk_hw_unregister(&c2.hw);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

/* ---- providers and attach by software-node reference ---- */

static const struct property_entry prov_props[] = {
	PROPERTY_ENTRY_U32("#power-domain-cells", 1),
	{ }
};

static const struct software_node prov_node = {
	.name = "pdt-provider",
	.properties = prov_props,
};

static const struct software_node_ref_args cons_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 1),
	SOFTWARE_NODE_REFERENCE(&prov_node, 0),
};

static const char * const cons_names[] = { "core", "mem" };

static const struct property_entry cons_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", cons_refs),
	PROPERTY_ENTRY_STRING_ARRAY("power-domain-names", cons_names),
	{ }
};

static const struct software_node cons_node = {
	.name = "pdt-consumer",
	.properties = cons_props,
};

static const struct software_node_ref_args bad_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 7),
};

static const struct property_entry bad_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", bad_refs),
	{ }
};

static const struct software_node bad_node = {
	.name = "pdt-consumer-bad",
	.properties = bad_props,
};

static void provider_attach(struct ampsoc_ktap_test *t)
{
	const struct software_node *nodes[] = { &prov_node, &cons_node,
						&bad_node, NULL };
	struct tpd *d0 = tpd_new("pdt_prov0", true), *d1 = tpd_new("pdt_prov1", true);
	struct ampsoc_pd *doms[2];
	struct platform_device *p, *q, *r;
	struct fwnode_handle *fw;

	if (!KTAP_EXPECT(t, d0 && d1))
		return;
	doms[0] = &d0->pd;
	doms[1] = &d1->pd;
	if (!KTAP_EXPECT_EQ(t, software_node_register_node_group(nodes), 0))
		return;
	fw = software_node_fwnode(&prov_node);

	p = tdev_nodrv(&cons_node);
	q = tdev_nodrv(&cons_node);
	r = tdev_nodrv(&bad_node);
	if (!KTAP_EXPECT(t, p && q && r))
		return;

	/* No provider yet: defer, as a probe would. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&p->dev, false), -EPROBE_DEFER);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(NULL, doms, 2), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 0), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 2), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d0->pd), -EBUSY);

	/* First reference: cell 1. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&p->dev, true), 1);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&p->dev) == &d1->pd);
	KTAP_EXPECT(t, pd_on(d1) && !pd_on(d0));
	/* By name: "mem" is the second reference, cell 0. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_by_name(&q->dev, "mem", false), 1);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&q->dev) == &d0->pd);
	KTAP_EXPECT(t, ampsoc_pd_attach_by_name(&r->dev, "mem", false) < 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&r->dev, false), -EINVAL);
	KTAP_EXPECT(t, !r->dev.pm_domain);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&p->dev, false), -EINVAL);

	ampsoc_pd_detach(&p->dev);
	ampsoc_pd_detach(&q->dev);
	KTAP_EXPECT(t, !p->dev.pm_domain && !q->dev.pm_domain);
	settle();
	KTAP_EXPECT(t, !pd_on(d1) && !pd_on(d0));
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(fw), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(fw), -ENOENT);
	tdev_nodrv_del(p);
	tdev_nodrv_del(q);
	tdev_nodrv_del(r);
	software_node_unregister_node_group(nodes);
	KTAP_EXPECT_EQ(t, tpd_del(d0), 0);
	KTAP_EXPECT_EQ(t, tpd_del(d1), 0);
}

/* ---- observability ---- */

#define DBG "/sys/kernel/debug/ampsoc_pd/"
#define SYS "/sys/kernel/ampsoc_pd/"
#define DASHES "--------------------------------------------------" \
	       "--------------------------------------------------"

static void debugfs_format(struct ampsoc_ktap_test *t)
{
	struct tpd *p = tpd_new("pdt_dbg_p", false);
	struct tpd *c1 = tpd_new("pdt_dbg_c1", false);
	struct tpd *c2 = tpd_new("pdt_dbg_c2", false);
	struct platform_device *a, *b;
	char *buf = kzalloc(PAGE_SIZE * 8, GFP_KERNEL);
	char want[256], path[64], head[320], parent_line[160], child_line[96];

	if (!KTAP_EXPECT(t, buf && p && c1 && c2))
		return;
	/* The 6.1 formats, column by column. */
	snprintf(head, sizeof(head), "%-32s%-16s%-35s%s\n%-56s%s\n%.94s\n",
		 "domain", "status", "children", "performance", "    /device",
		 "runtime status", DASHES);
	snprintf(parent_line, sizeof(parent_line), "%-30s  %-49s  %u\n%48s%s",
		 "pdt_dbg_p", "on", 0, " ", "pdt_dbg_c1, pdt_dbg_c2");
	snprintf(child_line, sizeof(child_line), "%-30s  %-49s  %u\n",
		 "pdt_dbg_c1", "off-0", 0);
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p->pd, &c1->pd), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p->pd, &c2->pd), 0))
		return;
	a = tdev_new(p);
	b = tdev_new(c1);
	if (!KTAP_EXPECT(t, a && b))
		return;
	KTAP_EXPECT_EQ(t, tget(a), 0);
	settle();

	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pm_genpd_summary", buf, PAGE_SIZE * 8) > 0))
		return;
	KTAP_EXPECT(t, !strncmp(buf, head, strlen(head)));
	/* 6.1: device lines are "\n    %-50s  %-25s  <perf>", then "\n". */
	snprintf(path, sizeof(path), "/devices/platform/%s", dev_name(&a->dev));
	snprintf(want, sizeof(want), "%s\n    %-50s  %-25s  0\n", parent_line,
		 path, "active");
	KTAP_EXPECT(t, strstr(buf, want));
	snprintf(path, sizeof(path), "/devices/platform/%s", dev_name(&b->dev));
	snprintf(want, sizeof(want), "%s    %-50s  %-25s  0\n", child_line,
		 path, "suspended");
	/* child_line ends with the newline that starts the device line. */
	KTAP_EXPECT(t, strstr(buf, want));

	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_p/current_state", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "on\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_c1/current_state", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "off-0\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_p/sub_domains", buf, 256) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "pdt_dbg_c1\npdt_dbg_c2\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_p/devices", buf, 256) > 0))
		return;
	snprintf(want, sizeof(want), "/devices/platform/%s\n", dev_name(&a->dev));
	KTAP_EXPECT(t, !strcmp(buf, want));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_c1/idle_states", buf, 512) > 0))
		return;
	snprintf(want, sizeof(want), "%sS%-13i ",
		 "State          Time Spent(ms) Usage          Rejected\n", 0);
	KTAP_EXPECT(t, !strncmp(buf, want, strlen(want)));
	snprintf(want, sizeof(want), " %-14llu %llu\n", c1->pd.states[0].usage,
		 c1->pd.states[0].rejected);
	KTAP_EXPECT(t, strstr(buf, want));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_p/active_time", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, strlen(buf) > 4 && !strcmp(buf + strlen(buf) - 4, " ms\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_c1/total_idle_time", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, strlen(buf) > 4 && !strcmp(buf + strlen(buf) - 4, " ms\n"));

	/* The sysfs view agrees. */
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdt_dbg_c1/current_state", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "off-0\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdt_dbg_p/active_count", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "1\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdt_dbg_c1/parents", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "pdt_dbg_p\n"));
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdt_dbg_p/sub_domains", buf, 64) > 0))
		return;
	KTAP_EXPECT(t, !strcmp(buf, "pdt_dbg_c1\npdt_dbg_c2\n"));

	tput(a);
	tdev_del(a);
	tdev_del(b);
	ampsoc_pd_remove_subdomain(&p->pd, &c1->pd);
	ampsoc_pd_remove_subdomain(&p->pd, &c2->pd);
	KTAP_EXPECT_EQ(t, tpd_del(c1), 0);
	KTAP_EXPECT_EQ(t, tpd_del(c2), 0);
	KTAP_EXPECT_EQ(t, tpd_del(p), 0);
	/* Removed domains leave debugfs and sysfs. */
	KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdt_dbg_p/current_state", buf, 64) < 0);
	KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdt_dbg_p/current_state", buf, 64) < 0);
	kfree(buf);
}

static void accounting(struct ampsoc_ktap_test *t)
{
	struct tpd *d = tpd_new_full("pdt_acct", false, NULL, 0, 2);
	struct platform_device *p;
	unsigned int i;

	if (!KTAP_EXPECT(t, d))
		return;
	p = tdev_new(d);
	if (!KTAP_EXPECT(t, p))
		return;
	for (i = 0; i < 5; i++) {
		KTAP_EXPECT_EQ(t, tget(p), 0);
		tput(p);
	}
	KTAP_EXPECT_EQ(t, d->pd.on_count, d->on_calls);
	KTAP_EXPECT_EQ(t, d->pd.off_count, d->off_calls);
	KTAP_EXPECT(t, d->pd.off_count >= 6);
	/* Without a governor: always the deepest state. */
	KTAP_EXPECT_EQ(t, d->pd.states[1].usage, d->pd.off_count);
	KTAP_EXPECT_EQ(t, d->pd.states[0].usage, 0);
	KTAP_EXPECT(t, d->pd.states[1].idle_time_ns > 0);
	KTAP_EXPECT(t, d->pd.on_time_ns > 0);
	tdev_del(p);
	KTAP_EXPECT_EQ(t, tpd_del(d), 0);
}

static void no_callback_under_lock(struct ampsoc_ktap_test *t)
{
	/* Every callback of every case above checked it. */
	if (!KTAP_EXPECT_EQ(t, atomic_read(&violations), 0))
		ampsoc_ktap_fail(t, "first: %s", violation_what);
}

static const struct ampsoc_ktap_case domain_cases[] = {
	AMPSOC_KTAP_CASE(init_remove),
	AMPSOC_KTAP_CASE(init_misuse),
	AMPSOC_KTAP_CASE(device_misuse),
	AMPSOC_KTAP_CASE(subdomain_misuse),
	{}
};

static const struct ampsoc_ktap_case runtime_cases[] = {
	AMPSOC_KTAP_CASE(runtime_order),
	AMPSOC_KTAP_CASE(runtime_sync_off),
	AMPSOC_KTAP_CASE(multi_parent),
	AMPSOC_KTAP_CASE(random_counters),
	AMPSOC_KTAP_CASE(constant_time),
	AMPSOC_KTAP_CASE(unbalanced_rpm),
	AMPSOC_KTAP_CASE(power_failures),
	AMPSOC_KTAP_CASE(notifiers),
	AMPSOC_KTAP_CASE(accounting),
	{}
};

static const struct ampsoc_ktap_case governor_cases[] = {
	AMPSOC_KTAP_CASE(gov_always_on),
	AMPSOC_KTAP_CASE(gov_qos_states),
	AMPSOC_KTAP_CASE(gov_qos_subdomain),
	AMPSOC_KTAP_CASE(gov_qos_residency),
	AMPSOC_KTAP_CASE(gov_measured_latency),
	AMPSOC_KTAP_CASE(gov_qos_local),
	AMPSOC_KTAP_CASE(gov_qos_order),
	AMPSOC_KTAP_CASE(flag_always_on),
	{}
};

static const struct ampsoc_ktap_case sleep_cases[] = {
	AMPSOC_KTAP_CASE(sleep_noirq_order),
	AMPSOC_KTAP_CASE(sleep_skip_off_domain),
	AMPSOC_KTAP_CASE(sleep_active_wakeup),
	AMPSOC_KTAP_CASE(sleep_eagain),
	AMPSOC_KTAP_CASE(sleep_hibernation),
	{}
};

static const struct ampsoc_ktap_case misc_cases[] = {
	AMPSOC_KTAP_CASE(pm_clocks),
	AMPSOC_KTAP_CASE(provider_attach),
	AMPSOC_KTAP_CASE(debugfs_format),
	AMPSOC_KTAP_CASE(no_callback_under_lock),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_domain, domain_cases),
	AMPSOC_KTAP_SUITE(pd_runtime, runtime_cases),
	AMPSOC_KTAP_SUITE(pd_governor, governor_cases),
	AMPSOC_KTAP_SUITE(pd_sleep, sleep_cases),
	AMPSOC_KTAP_SUITE(pd_misc, misc_cases),
};

static int __init pd_test_init(void)
{
	int ret = platform_driver_register(&tdrv);

	if (ret)
		return ret;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(pd_test_init);

static void __exit pd_test_exit(void)
{
	platform_driver_unregister(&tdrv);
	ampsoc_ktap_done();
}
module_exit(pd_test_exit);

MODULE_DESCRIPTION("ampsoc PM domain self-test");
MODULE_LICENSE("GPL");

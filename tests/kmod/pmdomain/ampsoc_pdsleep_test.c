// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP: the driver callbacks each device gets through a real system
 * suspend (pm_suspend(), at the /sys/power/pm_test level the scenario set),
 * per device, in order, and what its domain did meanwhile.
 *
 * The contract (docs/pmdomain.md, "System sleep"), as Linux 6.1's genpd:
 * every system-sleep callback of every device runs, whatever its domain's
 * state; resume_noirq powers the domain on, parents first; complete lets
 * idle domains go off again. A domain with AMPSOC_PD_FLAG_SLEEP_SKIP_OFF
 * instead skips, for the whole transition, a device it holds while off.
 *
 *   pds_on    (6.1)        helper, on: held active
 *   pds_off   (6.1)        off: idle, its domain off at runtime
 *   pds_skip  (SKIP_OFF)   skip: idle, its domain off
 *   pds_mix   (SKIP_OFF)   mix1, mix2: idle, their domain off; helper's
 *                          suspend callback runtime-resumes mix2 (a driver
 *                          that needs another device during suspend), so
 *                          the domain comes on after mix1 and mix2 had
 *                          their suspend phase skipped
 *   pds_irq_on  (IRQ_SAFE) irq_on: an IRQ-safe device, held active
 *   pds_irq_off (IRQ_SAFE) irq_off: an IRQ-safe device, idle, domain off
 *
 * The IRQ-safe domains (AMPSOC_PD_FLAG_IRQ_SAFE, a spinlock for a lock)
 * go through the same phases as the sleeping ones, as in 6.1, where the
 * noirq phases take an irq_safe domain's spinlock.
 *
 * Registration order is helper, mix1, mix2, on, off, skip, irq_on,
 * irq_off: the PM core
 * suspends in the reverse order, so both mix devices are past their main
 * phase when the helper powers their domain on.
 *
 * Parameter level= names the pm_test level ("devices": no late or noirq
 * phase; "platform": every phase).
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pm_domain.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/suspend.h>

#define DRV_NAME	"ampsoc-pdsleep"

static char *level = "platform";
module_param(level, charp, 0444);
MODULE_PARM_DESC(level, "the /sys/power/pm_test level set: devices or platform");

struct sdom {
	struct ampsoc_pd pd;
	bool hw_on;
	bool log_on;
	char log[64];
};

enum { D_ON, D_OFF, D_SKIP, D_MIX, D_IRQ_ON, D_IRQ_OFF, NR_DOMS };
static struct sdom doms[NR_DOMS];
static const char * const dom_names[NR_DOMS] = {
	"pds_on", "pds_off", "pds_skip", "pds_mix", "pds_irq_on", "pds_irq_off",
};

enum {
	V_HELPER, V_MIX1, V_MIX2, V_ON, V_OFF, V_SKIP, V_IRQ_ON, V_IRQ_OFF,
	NR_DEVS
};

static const char * const dev_names[NR_DEVS] = {
	"helper", "mix1", "mix2", "on", "off", "skip", "irq_on", "irq_off",
};

static const int dev_dom[NR_DEVS] = {
	D_ON, D_MIX, D_MIX, D_ON, D_OFF, D_SKIP, D_IRQ_ON, D_IRQ_OFF,
};

static bool dom_irq_safe(int d)
{
	return d == D_IRQ_ON || d == D_IRQ_OFF;
}

struct sdev {
	struct platform_device *pdev;
	struct sdom *dom;
	const char *name;
	char seq[96];
	bool helper_holds;
	bool held;
};

static struct sdev devs[NR_DEVS];
static DEFINE_SPINLOCK(log_lock);
static bool recording;
static atomic_t violations = ATOMIC_INIT(0);
static char violation_what[80];
static int suspend_ret = -ENODEV;
static bool setup_ok;

static void append(char *buf, size_t size, const char *what)
{
	size_t n = strlen(buf);

	scnprintf(buf + n, size - n, "%s%s", n ? " " : "", what);
}

static int dom_power_on(struct ampsoc_pd *pd)
{
	struct sdom *d = container_of(pd, struct sdom, pd);
	unsigned long flags;

	d->hw_on = true;
	spin_lock_irqsave(&log_lock, flags);
	if (d->log_on)
		append(d->log, sizeof(d->log), "on");
	spin_unlock_irqrestore(&log_lock, flags);
	return 0;
}

static int dom_power_off(struct ampsoc_pd *pd)
{
	struct sdom *d = container_of(pd, struct sdom, pd);
	unsigned long flags;

	d->hw_on = false;
	spin_lock_irqsave(&log_lock, flags);
	if (d->log_on)
		append(d->log, sizeof(d->log), "off");
	spin_unlock_irqrestore(&log_lock, flags);
	return 0;
}

/*
 * Record a system-sleep callback. A device that is not runtime-suspended
 * must find its domain's hardware on (6.1 gives no more: a suspended
 * device's callbacks may run with its domain off).
 */
static int rec(struct device *dev, const char *what)
{
	struct sdev *s = dev_get_drvdata(dev);
	unsigned long flags;

	if (!s)
		return 0;
	spin_lock_irqsave(&log_lock, flags);
	if (recording)
		append(s->seq, sizeof(s->seq), what);
	spin_unlock_irqrestore(&log_lock, flags);
	if (!pm_runtime_status_suspended(dev) && !READ_ONCE(s->dom->hw_on) &&
	    atomic_inc_return(&violations) == 1)
		snprintf(violation_what, sizeof(violation_what),
			 "%s: %s with %s off", s->name, what, s->dom->pd.name);
	return 0;
}

static int sd_prepare(struct device *dev)
{
	return rec(dev, "P");
}

static void sd_complete(struct device *dev)
{
	rec(dev, "C");
}

static int sd_suspend(struct device *dev)
{
	struct sdev *s = dev_get_drvdata(dev);
	int ret = rec(dev, "S");

	/* The helper needs mix2 powered while the system suspends. */
	if (s == &devs[V_HELPER] && devs[V_MIX2].pdev) {
		ret = pm_runtime_resume_and_get(&devs[V_MIX2].pdev->dev);
		if (ret)
			return ret;
		s->helper_holds = true;
	}
	return ret;
}

static int sd_resume(struct device *dev)
{
	struct sdev *s = dev_get_drvdata(dev);
	int ret = rec(dev, "R");

	if (s == &devs[V_HELPER] && s->helper_holds) {
		s->helper_holds = false;
		pm_runtime_put(&devs[V_MIX2].pdev->dev);
	}
	return ret;
}

static int sd_suspend_late(struct device *dev)
{
	return rec(dev, "SL");
}

static int sd_resume_early(struct device *dev)
{
	return rec(dev, "RE");
}

static int sd_suspend_noirq(struct device *dev)
{
	return rec(dev, "SN");
}

static int sd_resume_noirq(struct device *dev)
{
	return rec(dev, "RN");
}

static int sd_rt_suspend(struct device *dev)
{
	return 0;
}

static int sd_rt_resume(struct device *dev)
{
	return 0;
}

static const struct dev_pm_ops sd_pm = {
	.prepare = sd_prepare,
	.complete = sd_complete,
	.suspend = sd_suspend,
	.resume = sd_resume,
	.suspend_late = sd_suspend_late,
	.resume_early = sd_resume_early,
	.suspend_noirq = sd_suspend_noirq,
	.resume_noirq = sd_resume_noirq,
	.runtime_suspend = sd_rt_suspend,
	.runtime_resume = sd_rt_resume,
};

static int sd_probe(struct platform_device *pdev)
{
	platform_set_drvdata(pdev, &devs[pdev->id]);
	if (dom_irq_safe(dev_dom[pdev->id]))
		pm_runtime_irq_safe(&pdev->dev);
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int sd_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver sd_driver = {
	.probe = sd_probe,
	.remove = sd_remove,
	.driver = {
		.name = DRV_NAME,
		.pm = &sd_pm,
	},
};

static void teardown(void)
{
	int i;

	for (i = NR_DEVS - 1; i >= 0; i--) {
		struct platform_device *p = devs[i].pdev;

		if (!p)
			continue;
		devs[i].pdev = NULL;
		if (devs[i].held)
			pm_runtime_put_sync(&p->dev);
		device_release_driver(&p->dev);
		ampsoc_pd_remove_device(&p->dev);
		platform_device_unregister(p);
	}
	for (i = 0; i < NR_DOMS; i++)
		if (doms[i].pd.name)
			ampsoc_pd_remove(&doms[i].pd);
}

static bool devices_only(void)
{
	return !strcmp(level, "devices");
}

static void flush_domains(void)
{
	int i, round;

	for (round = 0; round < 3; round++)
		for (i = 0; i < NR_DOMS; i++)
			flush_work(&doms[i].pd.power_off_work);
}

static void setup_and_suspend(struct ampsoc_ktap_test *t)
{
	int i, ret;

	if (!KTAP_EXPECT(t, devices_only() || !strcmp(level, "platform")))
		return;
	for (i = 0; i < NR_DOMS; i++) {
		doms[i].pd.name = dom_names[i];
		doms[i].pd.power_on = dom_power_on;
		doms[i].pd.power_off = dom_power_off;
		if (i == D_SKIP || i == D_MIX)
			doms[i].pd.flags = AMPSOC_PD_FLAG_SLEEP_SKIP_OFF;
		if (dom_irq_safe(i))
			doms[i].pd.flags = AMPSOC_PD_FLAG_IRQ_SAFE;
		doms[i].hw_on = true;
		ret = ampsoc_pd_init(&doms[i].pd, NULL, false);
		if (!KTAP_EXPECT_EQ(t, ret, 0)) {
			doms[i].pd.name = NULL;
			return;
		}
	}
	for (i = 0; i < NR_DEVS; i++) {
		struct platform_device *p = platform_device_alloc(DRV_NAME, i);

		if (!KTAP_EXPECT(t, p))
			return;
		devs[i].dom = &doms[dev_dom[i]];
		devs[i].name = dev_names[i];
		if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&devs[i].dom->pd,
							    &p->dev), 0)) {
			platform_device_put(p);
			return;
		}
		if (!KTAP_EXPECT_EQ(t, platform_device_add(p), 0)) {
			ampsoc_pd_remove_device(&p->dev);
			platform_device_put(p);
			return;
		}
		devs[i].pdev = p;
		if (!KTAP_EXPECT(t, p->dev.driver))
			return;
		/* One cycle tells the domain the device is idle. */
		if (!KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0))
			return;
		if (i != V_ON && i != V_HELPER && i != V_IRQ_ON)
			pm_runtime_put_sync(&p->dev);
		else
			devs[i].held = true;
	}
	flush_domains();
	for (i = 0; i < NR_DOMS; i++) {
		bool want = i == D_ON || i == D_IRQ_ON;

		if (!KTAP_EXPECT_EQ(t, doms[i].hw_on, want))
			return;
	}

	spin_lock_irq(&log_lock);
	recording = true;
	for (i = 0; i < NR_DOMS; i++)
		doms[i].log_on = true;
	spin_unlock_irq(&log_lock);
	suspend_ret = pm_suspend(PM_SUSPEND_MEM);
	if (suspend_ret == -EINVAL)	/* no S3: suspend-to-idle */
		suspend_ret = pm_suspend(PM_SUSPEND_TO_IDLE);
	spin_lock_irq(&log_lock);
	recording = false;
	spin_unlock_irq(&log_lock);
	/*
	 * The helper released mix2 asynchronously: suspend it now, then let
	 * complete's queued power-offs run.
	 */
	pm_runtime_suspend(&devs[V_MIX2].pdev->dev);
	flush_domains();
	spin_lock_irq(&log_lock);
	for (i = 0; i < NR_DOMS; i++)
		doms[i].log_on = false;
	spin_unlock_irq(&log_lock);
	KTAP_EXPECT_EQ(t, suspend_ret, 0);
	setup_ok = !suspend_ret;
}

static void expect_seq(struct ampsoc_ktap_test *t, int v, const char *full,
		       const char *devices)
{
	const char *want = devices_only() ? devices : full;

	if (!setup_ok) {
		KTAP_SKIP(t, "no suspend");
		return;
	}
	if (strcmp(devs[v].seq, want))
		ampsoc_ktap_fail(t, "%s: got \"%s\", want \"%s\"", devs[v].name,
				 devs[v].seq, want);
}

static void expect_log(struct ampsoc_ktap_test *t, int d, const char *full,
		       const char *devices)
{
	const char *want = devices_only() ? devices : full;

	if (!setup_ok) {
		KTAP_SKIP(t, "no suspend");
		return;
	}
	if (strcmp(doms[d].log, want))
		ampsoc_ktap_fail(t, "%s: got \"%s\", want \"%s\"",
				 doms[d].pd.name, doms[d].log, want);
}

#define ALL	"P S SL SN RN RE R C"
#define MAIN	"P S R C"

/* A device in use: every callback, in order. */
static void seq_active_device(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_ON, ALL, MAIN);
}

/* 6.1: a device whose domain is off at runtime gets every callback too. */
static void seq_off_domain_device(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_OFF, ALL, MAIN);
}

/* SLEEP_SKIP_OFF: prepare and complete only. */
static void seq_skip_flag_device(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_SKIP, "P C", "P C");
}

/*
 * SLEEP_SKIP_OFF, domain powered on by someone else after the device's
 * main phase: the device stays skipped (no late or noirq callback without
 * the main one).
 */
static void seq_mixed_still_skipped(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_MIX1, "P C", "P C");
}

/*
 * SLEEP_SKIP_OFF, the device itself runtime-resumed after its skipped
 * main phase: it gets the main callback before its late one, and resume.
 */
static void seq_mixed_resumed_caught_up(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_MIX2, ALL, "P C");
}

static void seq_helper(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_HELPER, ALL, MAIN);
}

/* In use: off in suspend_noirq with its last device, on in resume_noirq. */
static void dom_in_use_cycles(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_ON, "off on", "");
}

/*
 * 6.1: resume_noirq powers an off domain on; complete lets it go off again
 * once idle.
 */
static void dom_off_powered_on_at_resume(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_OFF, "on off", "");
	KTAP_EXPECT(t, !doms[D_OFF].hw_on);
}

/* SLEEP_SKIP_OFF: the domain stays off throughout. */
static void dom_skip_stays_off(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_SKIP, "", "");
	KTAP_EXPECT(t, !doms[D_SKIP].hw_on);
}

/*
 * SLEEP_SKIP_OFF, powered on during suspend: off with its last device in
 * suspend_noirq (the skipped one included), on for mix2 in resume_noirq,
 * off once mix2 is released after complete.
 */
static void dom_mixed_follows_devices(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_MIX, "on off on off", "on off");
	KTAP_EXPECT(t, !doms[D_MIX].hw_on);
}

/* An IRQ-safe device in use: every callback, in order. */
static void seq_irq_safe_active_device(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_IRQ_ON, ALL, MAIN);
}

/* An IRQ-safe device whose IRQ-safe domain is off: every callback too. */
static void seq_irq_safe_off_domain_device(struct ampsoc_ktap_test *t)
{
	expect_seq(t, V_IRQ_OFF, ALL, MAIN);
}

/* An IRQ-safe domain in use: off in suspend_noirq, on in resume_noirq. */
static void dom_irq_safe_in_use_cycles(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_IRQ_ON, "off on", "");
	KTAP_EXPECT(t, doms[D_IRQ_ON].hw_on);
}

/* An IRQ-safe domain off: on in resume_noirq, off again after complete. */
static void dom_irq_safe_off_powered_on_at_resume(struct ampsoc_ktap_test *t)
{
	expect_log(t, D_IRQ_OFF, "on off", "");
	KTAP_EXPECT(t, !doms[D_IRQ_OFF].hw_on);
}

static void no_callback_of_active_device_with_hw_off(struct ampsoc_ktap_test *t)
{
	if (!KTAP_EXPECT_EQ(t, atomic_read(&violations), 0))
		ampsoc_ktap_fail(t, "first: %s", violation_what);
}

static void counters_back_to_rest(struct ampsoc_ktap_test *t)
{
	int i;

	for (i = 0; i < NR_DOMS; i++) {
		KTAP_EXPECT_EQ(t, doms[i].pd.prepared_count, 0);
		KTAP_EXPECT_EQ(t, doms[i].pd.active_count,
			       i == D_ON ? 2 : i == D_IRQ_ON ? 1 : 0);
	}
}

static const struct ampsoc_ktap_case seq_cases[] = {
	AMPSOC_KTAP_CASE(setup_and_suspend),
	AMPSOC_KTAP_CASE(seq_active_device),
	AMPSOC_KTAP_CASE(seq_off_domain_device),
	AMPSOC_KTAP_CASE(seq_skip_flag_device),
	AMPSOC_KTAP_CASE(seq_mixed_still_skipped),
	AMPSOC_KTAP_CASE(seq_mixed_resumed_caught_up),
	AMPSOC_KTAP_CASE(seq_helper),
	AMPSOC_KTAP_CASE(dom_in_use_cycles),
	AMPSOC_KTAP_CASE(dom_off_powered_on_at_resume),
	AMPSOC_KTAP_CASE(dom_skip_stays_off),
	AMPSOC_KTAP_CASE(dom_mixed_follows_devices),
	AMPSOC_KTAP_CASE(seq_irq_safe_active_device),
	AMPSOC_KTAP_CASE(seq_irq_safe_off_domain_device),
	AMPSOC_KTAP_CASE(dom_irq_safe_in_use_cycles),
	AMPSOC_KTAP_CASE(dom_irq_safe_off_powered_on_at_resume),
	AMPSOC_KTAP_CASE(no_callback_of_active_device_with_hw_off),
	AMPSOC_KTAP_CASE(counters_back_to_rest),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_sleep_seq, seq_cases),
};

static int __init pdsleep_init(void)
{
	int ret = platform_driver_register(&sd_driver);

	if (ret)
		return ret;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	teardown();
	platform_driver_unregister(&sd_driver);
	return 0;
}
module_init(pdsleep_init);

static void __exit pdsleep_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(pdsleep_exit);

MODULE_DESCRIPTION("ampsoc PM domains: driver callbacks through real system suspend");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc IRQ-safe domains (ABI 1.6) against a live SoC model. A board domain
 * with irq_safe = yes becomes an AMPSOC_PD_FLAG_IRQ_SAFE domain whose
 * requests the power controller polls without sleeping, so that an
 * IRQ-safe device (pm_runtime_irq_safe()) powers real hardware from atomic
 * context. Every answer is read back from the model's telemetry, with
 * interrupts still off, not from the kernel:
 *  - the board's flag reaches the domains, and only the flagged ones;
 *  - with interrupts off, a get powers the model's domain and its parent
 *    on before the device's own resume callback runs, and a put powers
 *    the domain off before interrupts come back on; the parent follows
 *    from its work item;
 *  - the same from hard interrupt context (not on PREEMPT_RT, where
 *    runtime PM cannot run there);
 *  - a domain the model never answers (fault "stuck") fails the get with
 *    -ETIMEDOUT after a bounded spin, and the device and the domain work
 *    again once the hardware answers;
 *  - a sleeping domain under an IRQ-safe parent works from process
 *    context;
 *  - the kernel and the model agree on every domain, with no violation.
 * Needs tests/boards/irqsafe.ini: l4_fast (IRQ-safe) over gpio_fast
 * (IRQ-safe) and slow (not), and stk (IRQ-safe) for the stuck case.
 */
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/platform_device.h>
#include <ampsoc/ktap.h>

#include "vsoc_test_common.h"

static struct vsoc *soc;

/* What one atomic get/put cycle saw, read while it ran. */
struct irs_run {
	struct device *dev;
	int dom;
	int parent;
	bool irqs_off;
	bool hardirq;
	int get_ret;
	int put_ret;
	u32 dom_after_get;
	u32 parent_after_get;
	u32 dom_after_put;
	u32 on_count_delta;
	u32 off_count_delta;
};

/* Set by the device's runtime resume callback: the model's domain state. */
static u32 resume_saw;
static int resume_dom = -1;

/* One telemetry page for atomic context: the runs are serialised. */
static struct vsoc_telemetry *tel_buf;

/* Domain @dom's state and counters in the model, in any context. */
static bool irs_read(int dom, u32 *state, u32 *ons, u32 *offs)
{
	if (vsoc_telemetry_read(soc, tel_buf))
		return false;
	*state = le32_to_cpu(tel_buf->domains[dom].state);
	if (ons)
		*ons = le32_to_cpu(tel_buf->domains[dom].on_count);
	if (offs)
		*offs = le32_to_cpu(tel_buf->domains[dom].off_count);
	return true;
}

static u32 irs_state(int dom)
{
	u32 st = ~0u;

	irs_read(dom, &st, NULL, NULL);
	return st;
}

static int irs_runtime_resume(struct device *dev)
{
	if (resume_dom >= 0)
		resume_saw = irs_state(resume_dom);
	return 0;
}

static int irs_runtime_suspend(struct device *dev)
{
	return 0;
}

static const struct dev_pm_ops irs_pm_ops = {
	SET_RUNTIME_PM_OPS(irs_runtime_suspend, irs_runtime_resume, NULL)
};

static int irs_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver irs_driver = {
	.probe = irs_probe,
	.driver = {
		.name = "vsoc-irqsafe-test",
		.pm = &irs_pm_ops,
	},
};

/*
 * A device of ours in domain @name, runtime-suspended, then bound to our
 * driver (a device joins a domain unbound, as in 6.1): one at a time.
 */
static struct platform_device *irs_dev_new(struct ampsoc_ktap_test *t,
					   const char *name, bool irq_safe)
{
	struct ampsoc_pd *pd = ampsoc_pd_find(name);
	struct platform_device *p;

	if (!KTAP_EXPECT(t, pd))
		return NULL;
	p = platform_device_register_simple("vsoc-irqsafe-test",
					    PLATFORM_DEVID_AUTO, NULL, 0);
	if (!KTAP_EXPECT(t, !IS_ERR(p)))
		return NULL;
	if (irq_safe)
		pm_runtime_irq_safe(&p->dev);
	pm_runtime_enable(&p->dev);
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(pd, &p->dev), 0))
		goto err;
	if (!KTAP_EXPECT_EQ(t, platform_driver_register(&irs_driver), 0)) {
		ampsoc_pd_remove_device(&p->dev);
		goto err;
	}
	if (KTAP_EXPECT(t, p->dev.driver == &irs_driver.driver))
		return p;
	platform_driver_unregister(&irs_driver);
	ampsoc_pd_remove_device(&p->dev);
err:
	pm_runtime_disable(&p->dev);
	platform_device_unregister(p);
	return NULL;
}

static void irs_dev_del(struct platform_device *p)
{
	if (!p)
		return;
	platform_driver_unregister(&irs_driver);
	ampsoc_pd_remove_device(&p->dev);
	pm_runtime_disable(&p->dev);
	platform_device_unregister(p);
}

/* A get and a put with interrupts off, reading the model in between. */
static void irs_cycle(struct irs_run *r)
{
	u32 ons0 = 0, offs0 = 0, ons = 0, offs = 0, st;

	r->irqs_off = irqs_disabled();
	r->hardirq = in_hardirq();
	irs_read(r->dom, &st, &ons0, &offs0);
	resume_dom = r->dom;
	resume_saw = ~0u;
	r->get_ret = pm_runtime_get_sync(r->dev);
	resume_dom = -1;
	r->dom_after_get = irs_state(r->dom);
	r->parent_after_get = irs_state(r->parent);
	r->put_ret = pm_runtime_put_sync(r->dev);
	irs_read(r->dom, &r->dom_after_put, &ons, &offs);
	r->on_count_delta = ons - ons0;
	r->off_count_delta = offs - offs0;
}

static int suite_init(struct ampsoc_ktap_test *t)
{
	if (!soc)
		return -ENODEV;
	if (vt_domain(soc, "gpio_fast") < 0 || vt_domain(soc, "l4_fast") < 0 ||
	    vt_domain(soc, "slow") < 0 || vt_domain(soc, "stk") < 0)
		return -ENOENT;
	return 0;
}

static void board_flags_reach_domains(struct ampsoc_ktap_test *t)
{
	static const char * const irq_safe[] = {
		"wkup", "l4_fast", "gpio_fast", "stk"
	};
	const struct vsoc_board *b = vsoc_board(soc);
	struct ampsoc_pd *pd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(irq_safe); i++) {
		pd = ampsoc_pd_find(irq_safe[i]);
		if (KTAP_EXPECT(t, pd))
			KTAP_EXPECT(t, pd->flags & AMPSOC_PD_FLAG_IRQ_SAFE);
		KTAP_EXPECT(t, b->domains[vt_domain(soc, irq_safe[i])].flags &
			    VSOC_DOMAIN_IRQ_SAFE);
	}
	pd = ampsoc_pd_find("slow");
	if (KTAP_EXPECT(t, pd))
		KTAP_EXPECT(t, !(pd->flags & AMPSOC_PD_FLAG_IRQ_SAFE));
}

static void expect_cycle(struct ampsoc_ktap_test *t, struct irs_run *r)
{
	KTAP_EXPECT_EQ(t, r->get_ret, 0);
	KTAP_EXPECT_EQ(t, r->put_ret, 0);
	/* the device's registers were powered when its resume ran */
	KTAP_EXPECT_EQ(t, resume_saw, VSOC_PWR_ON);
	KTAP_EXPECT_EQ(t, r->dom_after_get, VSOC_PWR_ON);
	KTAP_EXPECT_EQ(t, r->parent_after_get, VSOC_PWR_ON);
	KTAP_EXPECT_EQ(t, r->dom_after_put, VSOC_PWR_OFF);
	KTAP_EXPECT_EQ(t, r->on_count_delta, 1);
	KTAP_EXPECT_EQ(t, r->off_count_delta, 1);
}

/* The parent goes off from its work item once the child is off. */
static void expect_parent_off(struct ampsoc_ktap_test *t, int parent)
{
	struct vsoc_telemetry *tel = NULL;

	KTAP_EXPECT(t, vt_tel_until(soc, tel,
				    le32_to_cpu(tel->domains[parent].state) ==
				    VSOC_PWR_OFF));
	kfree(tel);
}

static void atomic_get_put_drive_model(struct ampsoc_ktap_test *t)
{
	struct platform_device *p = irs_dev_new(t, "gpio_fast", true);
	struct irs_run r = {};
	unsigned long flags;

	if (!p)
		return;
	r.dev = &p->dev;
	r.dom = vt_domain(soc, "gpio_fast");
	r.parent = vt_domain(soc, "l4_fast");
	KTAP_EXPECT_EQ(t, irs_state(r.dom), VSOC_PWR_OFF);
	expect_parent_off(t, r.parent);
	local_irq_save(flags);
	irs_cycle(&r);
	local_irq_restore(flags);
	KTAP_EXPECT(t, r.irqs_off);
	expect_cycle(t, &r);
	expect_parent_off(t, r.parent);
	irs_dev_del(p);
}

struct irs_work {
	struct irq_work work;
	struct irs_run r[10];
	struct completion done;
};

static void irs_work_fn(struct irq_work *work)
{
	struct irs_work *w = container_of(work, struct irs_work, work);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w->r); i++)
		irs_cycle(&w->r[i]);
	complete(&w->done);
}

static void hardirq_cycles_drive_model(struct ampsoc_ktap_test *t)
{
	struct platform_device *p;
	struct irs_work *w;
	unsigned int i;

	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		KTAP_SKIP(t, "PREEMPT_RT: no runtime PM in hard interrupt context");
		return;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	p = irs_dev_new(t, "gpio_fast", true);
	if (!KTAP_EXPECT(t, w && p))
		goto out;
	for (i = 0; i < ARRAY_SIZE(w->r); i++) {
		w->r[i].dev = &p->dev;
		w->r[i].dom = vt_domain(soc, "gpio_fast");
		w->r[i].parent = vt_domain(soc, "l4_fast");
	}
	init_completion(&w->done);
	w->work = IRQ_WORK_INIT_HARD(irs_work_fn);
	irq_work_queue(&w->work);
	if (!KTAP_EXPECT(t, wait_for_completion_timeout(&w->done,
							msecs_to_jiffies(VT_WAIT_MS)))) {
		irq_work_sync(&w->work);
		goto out;
	}
	irq_work_sync(&w->work);
	for (i = 0; i < ARRAY_SIZE(w->r); i++) {
		KTAP_EXPECT(t, w->r[i].hardirq && w->r[i].irqs_off);
		expect_cycle(t, &w->r[i]);
	}
	expect_parent_off(t, vt_domain(soc, "l4_fast"));
out:
	irs_dev_del(p);
	kfree(w);
}

/*
 * Hardware that never answers: the get spins for the request timeout, no
 * longer, and fails; once the model answers (the fault cleared, the stuck
 * request completes) the device resumes again.
 */
static void stuck_domain_fails_bounded(struct ampsoc_ktap_test *t)
{
	struct platform_device *p = irs_dev_new(t, "stk", true);
	int dom = vt_domain(soc, "stk");
	struct irs_run r = {};
	unsigned long flags;
	char why[96] = "";
	ktime_t t0;
	s64 ns;
	int ret;

	if (!p)
		return;
	if (!KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_SET,
					      VSOC_FAULT_STUCK, dom, 0), 0))
		goto out;
	local_irq_save(flags);
	t0 = ktime_get();
	ret = pm_runtime_get_sync(&p->dev);
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	local_irq_restore(flags);
	KTAP_EXPECT_EQ(t, ret, -ETIMEDOUT);
	KTAP_EXPECT(t, ns >= (s64)VSOC_REQ_ATOMIC_TIMEOUT_US * NSEC_PER_USEC);
	/* bounded: not the sleeping path's seconds, let alone forever */
	KTAP_EXPECT(t, ns < (s64)VSOC_REQ_TIMEOUT_MS * NSEC_PER_MSEC);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(ampsoc_pd_find("stk")));
	/* the stuck request completes now: the model answers again */
	KTAP_EXPECT_EQ(t, vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR,
					 VSOC_FAULT_STUCK, dom, 0), 0);
	/* the failed resume left an error: clear it, as a driver would */
	pm_runtime_put_noidle(&p->dev);
	KTAP_EXPECT_EQ(t, pm_runtime_set_suspended(&p->dev), 0);
	r.dev = &p->dev;
	r.dom = dom;
	r.parent = vt_domain(soc, "wkup");
	local_irq_save(flags);
	irs_cycle(&r);
	local_irq_restore(flags);
	KTAP_EXPECT_EQ(t, r.get_ret, 0);
	KTAP_EXPECT_EQ(t, r.put_ret, 0);
	KTAP_EXPECT_EQ(t, resume_saw, VSOC_PWR_ON);
	KTAP_EXPECT_EQ(t, r.dom_after_get, VSOC_PWR_ON);
	KTAP_EXPECT_EQ(t, r.dom_after_put, VSOC_PWR_OFF);
	KTAP_EXPECT(t, vt_domains_agree(soc, why, sizeof(why)));
	if (why[0])
		ampsoc_ktap_line(1, "# %s", why);
out:
	vsoc_fault_ctl(soc, VSOC_FAULT_OP_CLEAR, VSOC_FAULT_ALL, 0, 0);
	irs_dev_del(p);
}

/* A sleeping domain under an IRQ-safe parent, from process context. */
static void sleeping_child_of_irq_safe_parent(struct ampsoc_ktap_test *t)
{
	struct platform_device *p = irs_dev_new(t, "slow", false);
	int dom = vt_domain(soc, "slow"), parent = vt_domain(soc, "l4_fast");

	if (!p)
		return;
	if (KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0)) {
		KTAP_EXPECT_EQ(t, irs_state(dom), VSOC_PWR_ON);
		KTAP_EXPECT_EQ(t, irs_state(parent), VSOC_PWR_ON);
		KTAP_EXPECT_EQ(t, pm_runtime_put_sync(&p->dev), 0);
		KTAP_EXPECT_EQ(t, irs_state(dom), VSOC_PWR_OFF);
	}
	expect_parent_off(t, parent);
	irs_dev_del(p);
}

static void no_violations(struct ampsoc_ktap_test *t)
{
	char why[96] = "";

	KTAP_EXPECT(t, vt_domains_agree(soc, why, sizeof(why)));
	if (why[0])
		ampsoc_ktap_line(1, "# %s", why);
	KTAP_EXPECT(t, !vsoc_telemetry_read(soc, tel_buf));
	KTAP_EXPECT_EQ(t, le32_to_cpu(tel_buf->violations), 0);
}

static const struct ampsoc_ktap_case irqsafe_cases[] = {
	AMPSOC_KTAP_CASE(board_flags_reach_domains),
	AMPSOC_KTAP_CASE(atomic_get_put_drive_model),
	AMPSOC_KTAP_CASE(hardirq_cycles_drive_model),
	AMPSOC_KTAP_CASE(stuck_domain_fails_bounded),
	AMPSOC_KTAP_CASE(sleeping_child_of_irq_safe_parent),
	AMPSOC_KTAP_CASE(no_violations),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "vsoc_irqsafe", .init = suite_init, .cases = irqsafe_cases },
};

static int __init vsoc_irqsafe_test_init(void)
{
	tel_buf = kmalloc(sizeof(*tel_buf), GFP_KERNEL);
	if (!tel_buf)
		return -ENOMEM;
	soc = vt_find_soc();
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(vsoc_irqsafe_test_init);

static void __exit vsoc_irqsafe_test_exit(void)
{
	kfree(tel_buf);
	ampsoc_ktap_done();
}
module_exit(vsoc_irqsafe_test_exit);

MODULE_DESCRIPTION("ampsoc vsoc test: IRQ-safe domains against the SoC model");
MODULE_LICENSE("GPL");

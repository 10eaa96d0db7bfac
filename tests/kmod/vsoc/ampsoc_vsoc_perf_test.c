// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc performance levels (ABI 1.5) against a live SoC model: devices of
 * this module vote performance states in vsoc domains and every answer is
 * read back from the model's telemetry, not from the kernel:
 *  - the level the model runs a domain at is the aggregated vote;
 *  - a level the board does not declare is refused with -ERANGE and
 *    reaches nothing;
 *  - a runtime-suspended device's vote is withdrawn, so the model's level
 *    falls, and comes back with its resume;
 *  - where the board says perf_parent_ge (l4per_sub under l4per), a vote
 *    in the child raises the parent first and lowers it last: the model
 *    records no violation and ends with both where the votes say;
 *  - the energy of the level in use grows, another level's does not.
 * Needs the default board (soc-model/boards/omap4.ini): ipu with levels
 * 1, 2, 3 and l4per_sub (perf_parent_ge) under l4per, both with 1, 2, 3.
 */
#include <linux/platform_device.h>
#include <ampsoc/ktap.h>

#include "vsoc_test_common.h"

static int expect_violations;
module_param(expect_violations, int, 0444);
MODULE_PARM_DESC(expect_violations, "violations the model should have recorded");

static struct vsoc *soc;

/* A device of ours in a domain, runtime-active while the case runs. */
struct vp_dev {
	struct platform_device *pdev;
	struct ampsoc_pd *pd;
	int dom;
};

static bool vp_get(struct ampsoc_ktap_test *t, struct vp_dev *v,
		   const char *domain)
{
	int ret;

	v->dom = vt_domain(soc, domain);
	v->pd = ampsoc_pd_find(domain);
	if (!KTAP_EXPECT(t, v->dom >= 0 && v->pd))
		return false;
	v->pdev = platform_device_register_simple("vsoc-perf-test",
						  PLATFORM_DEVID_AUTO, NULL, 0);
	if (!KTAP_EXPECT(t, !IS_ERR(v->pdev)))
		return false;
	pm_runtime_enable(&v->pdev->dev);
	ret = ampsoc_pd_add_device(v->pd, &v->pdev->dev);
	if (!KTAP_EXPECT_EQ(t, ret, 0)) {
		pm_runtime_disable(&v->pdev->dev);
		platform_device_unregister(v->pdev);
		return false;
	}
	return KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&v->pdev->dev), 0);
}

static void vp_put(struct vp_dev *v)
{
	struct device *dev = &v->pdev->dev;

	ampsoc_pd_set_performance_state(dev, 0);
	if (!pm_runtime_suspended(dev))
		pm_runtime_put_sync(dev);
	ampsoc_pd_remove_device(dev);
	pm_runtime_disable(dev);
	platform_device_unregister(v->pdev);
}

/* The level the model has domain @dom at, or -1. */
static int vp_model_level(int dom)
{
	struct vsoc_telemetry *tel = vt_telemetry(soc);
	int l = -1;

	if (tel)
		l = le32_to_cpu(tel->level[dom]);
	kfree(tel);
	return l;
}

static u32 vp_violations(void)
{
	struct vsoc_telemetry *tel = vt_telemetry(soc);
	u32 n = tel ? le32_to_cpu(tel->violations) : ~0u;

	kfree(tel);
	return n;
}

/* Index in the board's levels of level number @level of domain @dom. */
static int vp_level_index(int dom, u32 level)
{
	const struct vsoc_board *b = vsoc_board(soc);
	const struct vsoc_domain_info *d = &b->domains[dom];
	u32 i;

	for (i = d->first_level; i < d->first_level + d->nr_levels; i++)
		if (b->levels[i].level == level)
			return i;
	return -1;
}

static int suite_init(struct ampsoc_ktap_test *t)
{
	if (!soc)
		return -ENODEV;
	/* The default board's levels, which the cases use. */
	if (vp_level_index(vt_domain(soc, "ipu"), 3) < 0 ||
	    !(vsoc_board(soc)->domains[vt_domain(soc, "l4per_sub")].flags &
	      VSOC_DOMAIN_PERF_PARENT_GE))
		return -ENOENT;
	return 0;
}

static void aggregated_level_reaches_model(struct ampsoc_ktap_test *t)
{
	struct vp_dev a, b;

	if (!vp_get(t, &a, "ipu"))
		return;
	if (!vp_get(t, &b, "ipu"))
		goto out_a;
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a.pdev->dev, 2), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 2);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b.pdev->dev, 3), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 3);
	KTAP_EXPECT_EQ(t, a.pd->performance_state, 3);
	/* the largest vote left */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b.pdev->dev, 0), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 2);
	/* no vote: the lowest level */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a.pdev->dev, 0), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 1);
	vp_put(&b);
out_a:
	vp_put(&a);
}

static void undeclared_level_refused(struct ampsoc_ktap_test *t)
{
	struct vp_dev a;

	if (!vp_get(t, &a, "ipu"))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a.pdev->dev, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a.pdev->dev, 7),
		       -ERANGE);
	KTAP_EXPECT_EQ(t, a.pd->performance_state, 2);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 2);
	vp_put(&a);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 1);
}

static void suspended_vote_dropped(struct ampsoc_ktap_test *t)
{
	struct vp_dev a;
	struct device *dev;

	if (!vp_get(t, &a, "ipu"))
		return;
	dev = &a.pdev->dev;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(dev, 3), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 3);
	KTAP_EXPECT_EQ(t, pm_runtime_put_sync(dev), 0);
	KTAP_EXPECT(t, pm_runtime_suspended(dev));
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 1);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(dev), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(a.dom), 3);
	vp_put(&a);
}

static void parent_ge_child_ordering(struct ampsoc_ktap_test *t)
{
	struct vp_dev c, p;
	u32 viol = vp_violations();

	if (!vp_get(t, &c, "l4per_sub"))
		return;
	if (!vp_get(t, &p, "l4per"))
		goto out_c;
	/* raise: the parent first */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&c.pdev->dev, 3), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(c.dom), 3);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 3);
	/* lower: the child first, the parent to its own devices' vote */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p.pdev->dev, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&c.pdev->dev, 1), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(c.dom), 1);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 2);
	/* up and down again, the child's vote dropped by its suspend */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&c.pdev->dev, 3), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 3);
	KTAP_EXPECT_EQ(t, pm_runtime_put_sync(&c.pdev->dev), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(c.dom), 1);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 2);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&c.pdev->dev), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(c.dom), 3);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 3);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&c.pdev->dev, 0), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p.pdev->dev, 0), 0);
	KTAP_EXPECT_EQ(t, vp_model_level(c.dom), 1);
	KTAP_EXPECT_EQ(t, vp_model_level(p.dom), 1);
	KTAP_EXPECT_EQ(t, vp_violations(), viol);
	vp_put(&p);
out_c:
	vp_put(&c);
}

static void level_energy_grows(struct ampsoc_ktap_test *t)
{
	struct vsoc_telemetry *tel = vt_telemetry(soc);
	struct vp_dev a;
	int i1, i3;
	u64 e1, e3;

	if (!KTAP_EXPECT(t, tel))
		return;
	if (!vp_get(t, &a, "ipu"))
		goto out;
	i1 = vp_level_index(a.dom, 1);
	i3 = vp_level_index(a.dom, 3);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a.pdev->dev, 3), 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(a.pd));
	kfree(tel);
	tel = vt_telemetry(soc);
	if (!KTAP_EXPECT(t, tel))
		goto out_put;
	e1 = le64_to_cpu(tel->level_energy_uj[i1]);
	e3 = le64_to_cpu(tel->level_energy_uj[i3]);
	KTAP_EXPECT(t, vt_tel_until(soc, tel,
				    le64_to_cpu(tel->level_energy_uj[i3]) >
				    e3 + 1000));
	if (tel)
		KTAP_EXPECT_EQ(t, le64_to_cpu(tel->level_energy_uj[i1]), e1);
out_put:
	vp_put(&a);
out:
	kfree(tel);
}

static void violations_as_expected(struct ampsoc_ktap_test *t)
{
	KTAP_EXPECT_EQ(t, vp_violations(), expect_violations);
}

static const struct ampsoc_ktap_case perf_cases[] = {
	AMPSOC_KTAP_CASE(aggregated_level_reaches_model),
	AMPSOC_KTAP_CASE(undeclared_level_refused),
	AMPSOC_KTAP_CASE(suspended_vote_dropped),
	AMPSOC_KTAP_CASE(parent_ge_child_ordering),
	AMPSOC_KTAP_CASE(level_energy_grows),
	AMPSOC_KTAP_CASE(violations_as_expected),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	{ .name = "vsoc_perf", .init = suite_init, .cases = perf_cases },
};

static int __init vsoc_perf_test_init(void)
{
	soc = vt_find_soc();
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(vsoc_perf_test_init);

static void __exit vsoc_perf_test_exit(void)
{
	ampsoc_ktap_done();
}
module_exit(vsoc_perf_test_exit);

MODULE_DESCRIPTION("ampsoc vsoc test: performance levels against the SoC model");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP: the public contract of include/ampsoc/pm_domain.h and
 * docs/pmdomain.md, checked from the documents, not from the code:
 *  - every errno the kernel-doc names, one call each;
 *  - what attach's 0 and 1 mean, and that power_on powers on;
 *  - what unlinking a subdomain does to its parent;
 *  - state names in sysfs and debugfs;
 *  - the summary's order (newest domain first, as 6.1);
 *  - the governor differences from 6.1 that docs/pmdomain.md calls
 *    intended: no governor means the deepest state, and a parent powers
 *    off whatever state its subdomains are off in;
 *  - performance states: the max of the requests, parents first and
 *    translated, a failure unwound, a suspended device's request
 *    withheld, the debugfs files.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pdcontract"
#define DBG		"/sys/kernel/debug/ampsoc_pd/"
#define SYS		"/sys/kernel/ampsoc_pd/"

/* ---- domains ---- */

struct cpd {
	struct ampsoc_pd pd;
	struct ampsoc_pd_state st[3];
	unsigned int ons;
	unsigned int offs;
	/* performance: what set_performance_state() answers, what it saw */
	int perf_err;
	bool perf_saw_on;
};

static int cpd_on(struct ampsoc_pd *pd)
{
	container_of(pd, struct cpd, pd)->ons++;
	return 0;
}

static int cpd_off(struct ampsoc_pd *pd)
{
	container_of(pd, struct cpd, pd)->offs++;
	return 0;
}

static struct cpd *cpd_new(const char *name, bool is_off,
			   const struct ampsoc_pd_governor *gov,
			   unsigned int nstates)
{
	struct cpd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->pd.name = name;
	d->pd.power_on = cpd_on;
	d->pd.power_off = cpd_off;
	if (nstates) {
		d->pd.states = d->st;
		d->pd.state_count = nstates;
	}
	if (ampsoc_pd_init(&d->pd, gov, is_off)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static int cpd_del(struct cpd *d)
{
	int ret;

	if (!d)
		return 0;
	ret = ampsoc_pd_remove(&d->pd);
	if (!ret)
		kfree(d);
	return ret;
}

static void settle(struct cpd **ds, unsigned int n)
{
	unsigned int i, round;

	for (round = 0; round < 4; round++)
		for (i = 0; i < n; i++)
			if (ds[i])
				flush_work(&ds[i]->pd.power_off_work);
}

/* ---- devices ---- */

static int cdrv_probe(struct platform_device *pdev)
{
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int cdrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver cdrv = {
	.probe = cdrv_probe,
	.remove = cdrv_remove,
	.driver = { .name = DRV_NAME },
};

static int next_id;

/* A registered device; bound to the driver when @bind. */
static struct platform_device *cdev_new(bool bind,
					const struct software_node *node)
{
	return ampsoc_pdfx_node_dev_new(bind ? DRV_NAME :
					"ampsoc-pdcontract-nodrv",
					next_id++, node);
}

/*
 * Added to @d before registration and bound, idle and synced. Unlike the
 * other modules' devices, a failed bind is not checked here by itself:
 * the runtime resume of an unbound device fails instead.
 */
static struct platform_device *cdev_in(struct cpd *d)
{
	return ampsoc_pdfx_dev_new(&d->pd, DRV_NAME, next_id++, false);
}

/* Deletes a device of either kind, in a domain or not. */
static void cdev_del(struct platform_device *p)
{
	if (p && ampsoc_pd_of_dev(&p->dev))
		ampsoc_pd_remove_device(&p->dev);
	ampsoc_pdfx_node_dev_del(p);
}

static int nb_call(struct notifier_block *nb, unsigned long ev, void *data)
{
	return NOTIFY_DONE;
}

/* ---- errnos, function by function ---- */

/* Two unregistered domains: too big for the stack of a debug build. */
struct errno_init_pds {
	struct ampsoc_pd st;
	struct ampsoc_pd bad;
};

static void errno_init(struct ampsoc_ktap_test *t)
{
	struct errno_init_pds *p = kzalloc(sizeof(*p), GFP_KERNEL);
	struct ampsoc_pd_state one = {};
	struct cpd *a;

	if (!KTAP_EXPECT(t, p))
		return;
	a = cpd_new("pdc_init", false, NULL, 0);
	if (!KTAP_EXPECT(t, a)) {
		kfree(p);
		return;
	}
	p->st.name = "pdc_states";
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(NULL, NULL, false), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->bad, NULL, false), -EINVAL);
	p->bad.name = "";
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->bad, NULL, false), -EINVAL);
	p->bad.name = "pdc/slash";
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->bad, NULL, false), -EINVAL);
	p->bad.name = "pdc_always";
	p->bad.flags = AMPSOC_PD_FLAG_ALWAYS_ON;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->bad, NULL, true), -EINVAL);
	p->st.states = &one;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->st, NULL, false), -EINVAL);
	/* Registered twice, or a second domain of the same name. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&a->pd, NULL, false), -EEXIST);
	p->bad.name = "pdc_init";
	p->bad.flags = 0;
	KTAP_EXPECT_EQ(t, ampsoc_pd_init(&p->bad, NULL, false), -EEXIST);
	KTAP_EXPECT(t, !ampsoc_pd_find("pdc_always"));
	KTAP_EXPECT(t, !ampsoc_pd_find(NULL));
	KTAP_EXPECT(t, ampsoc_pd_find("pdc_init") == &a->pd);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(NULL));
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
	kfree(p);
}

static void errno_remove(struct ampsoc_ktap_test *t)
{
	static const struct property_entry props[] = {
		PROPERTY_ENTRY_U32("#power-domain-cells", 0),
		{ }
	};
	static const struct software_node prov = {
		.name = "pdc-remove-prov", .properties = props,
	};
	struct ampsoc_pd never = { .name = "pdc_never" };
	struct notifier_block nb = { .notifier_call = nb_call };
	struct cpd *a = cpd_new("pdc_rm", false, NULL, 0);
	struct cpd *c = cpd_new("pdc_rm_c", false, NULL, 0);
	struct platform_device *p;
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, a && c))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&never), -EINVAL);
	/* A subdomain, a notifier, a provider, a device: -EBUSY. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EBUSY);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&a->pd, &nb), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EBUSY);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&a->pd, &nb), 0);
	if (KTAP_EXPECT_EQ(t, software_node_register(&prov), 0)) {
		struct ampsoc_pd *doms[] = { &a->pd };

		KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(software_node_fwnode(&prov),
							 doms, 1), 0);
		KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EBUSY);
		KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(software_node_fwnode(&prov)),
			       0);
		software_node_unregister(&prov);
	}
	p = cdev_in(a);
	if (!KTAP_EXPECT(t, p))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EBUSY);
	/* During a system sleep transition: -EAGAIN. */
	ops = &p->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&a->pd), -EAGAIN);
	ops->complete(&p->dev);
	cdev_del(p);
	KTAP_EXPECT_EQ(t, cpd_del(c), 0);
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
}

static struct dev_pm_domain foreign_domain;

static void kgpd_release(struct device *dev)
{
}

static void errno_add_remove_device(struct ampsoc_ktap_test *t)
{
	struct generic_pm_domain *kgpd = kzalloc(sizeof(*kgpd), GFP_KERNEL);
	struct ampsoc_pd never = { .name = "pdc_never" };
	struct cpd *a = cpd_new("pdc_dev_a", false, NULL, 0);
	struct cpd *b = cpd_new("pdc_dev_b", false, NULL, 0);
	struct platform_device *in_a = a ? cdev_in(a) : NULL;
	struct platform_device *bound = cdev_new(true, NULL);
	struct platform_device *loose = cdev_new(false, NULL);
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, kgpd && a && b && in_a && bound && loose))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(NULL, &loose->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&never, &loose->dev), -EINVAL);
	/* Already in one of ours, the same domain or another: -EINVAL. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, &in_a->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &in_a->dev), -EINVAL);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&in_a->dev) == &a->pd);
	/* Bound to a driver: -EBUSY. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &bound->dev), -EBUSY);
	/* Another dev->pm_domain, without genpd's data: -EBUSY. */
	dev_pm_domain_set(&loose->dev, &foreign_domain);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &loose->dev), -EBUSY);
	KTAP_EXPECT(t, loose->dev.pm_domain == &foreign_domain);
	dev_pm_domain_set(&loose->dev, NULL);
	/* In the kernel's own genpd: -EINVAL, as genpd itself answers. */
	kgpd->name = "pdc_kernel_genpd";
	kgpd->dev.release = kgpd_release;
	if (!pm_genpd_init(kgpd, NULL, false)) {
		if (KTAP_EXPECT_EQ(t, pm_genpd_add_device(kgpd, &loose->dev), 0)) {
			KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&b->pd, &loose->dev),
				       -EINVAL);
			KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&loose->dev),
				       -EINVAL);
			pm_genpd_remove_device(&loose->dev);
		}
		if (!pm_genpd_remove(kgpd))
			kfree(kgpd);
		kgpd = NULL;
	} else {
		KTAP_SKIP(t, "the kernel's genpd refused a test domain");
	}
	/* remove_device: NULL, not ours. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&bound->dev), -EINVAL);
	KTAP_EXPECT(t, !ampsoc_pd_of_dev(NULL));
	/* During a transition: -EAGAIN both ways. */
	ops = &in_a->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, ops->prepare(&in_a->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, &loose->dev), -EAGAIN);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&in_a->dev), -EAGAIN);
	ops->complete(&in_a->dev);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&a->pd, &loose->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&loose->dev), 0);
out:
	kfree(kgpd);
	cdev_del(loose);
	cdev_del(bound);
	cdev_del(in_a);
	KTAP_EXPECT_EQ(t, cpd_del(b), 0);
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
}

static void errno_subdomain(struct ampsoc_ktap_test *t)
{
	struct ampsoc_pd never = { .name = "pdc_never" };
	struct cpd *a = cpd_new("pdc_sd_a", false, NULL, 0);
	struct cpd *b = cpd_new("pdc_sd_b", false, NULL, 0);
	struct cpd *off = cpd_new("pdc_sd_off", true, NULL, 0);
	struct cpd *ds[] = { a, b, off };
	struct platform_device *p = b ? cdev_in(b) : NULL;
	const struct dev_pm_ops *ops;

	if (!KTAP_EXPECT(t, a && b && off && p))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(NULL, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &never), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &a->pd), -EINVAL);
	/* An on child under an off parent is refused. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&off->pd, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &b->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&a->pd, &b->pd), -EEXIST);
	/* A cycle. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&b->pd, &a->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(NULL, &b->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&never, &b->pd), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&b->pd, &a->pd), -EINVAL);
	/* The child still has a device. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &b->pd), -EBUSY);
	ops = &p->dev.pm_domain->ops;
	KTAP_EXPECT_EQ(t, ops->prepare(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&off->pd, &b->pd), -EAGAIN);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &b->pd), -EAGAIN);
	ops->complete(&p->dev);
	cdev_del(p);
	p = NULL;
	settle(ds, ARRAY_SIZE(ds));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&b->pd));
	/* An off child under an off parent is fine. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&off->pd, &b->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&off->pd, &b->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&a->pd, &b->pd), 0);
out:
	cdev_del(p);
	KTAP_EXPECT_EQ(t, cpd_del(off), 0);
	KTAP_EXPECT_EQ(t, cpd_del(b), 0);
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
}

static void errno_notifiers(struct ampsoc_ktap_test *t)
{
	struct ampsoc_pd never = { .name = "pdc_never" };
	struct notifier_block n1 = { .notifier_call = nb_call };
	struct notifier_block n2 = { .notifier_call = nb_call };
	struct notifier_block empty = {};
	struct cpd *a = cpd_new("pdc_nb", false, NULL, 0);
	struct platform_device *p = a ? cdev_in(a) : NULL;
	struct platform_device *loose = cdev_new(false, NULL);

	if (!KTAP_EXPECT(t, a && p && loose))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(NULL, &n1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&a->pd, &empty), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&never, &n1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&a->pd, &n1), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&a->pd, &n1), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(NULL, &n1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&a->pd, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&never, &n1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&a->pd, &n2), -ENOENT);
	/* n1 is on the chain: a device cannot add it again. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n1), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&a->pd, &n1), 0);

	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&loose->dev, &n1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_remove_notifier(&p->dev), -ENOENT);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n1), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n2), -EEXIST);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_remove_notifier(&loose->dev), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_remove_notifier(&p->dev), 0);
	/* Removed with the device. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_add_notifier(&p->dev, &n2), 0);
out:
	cdev_del(p);
	cdev_del(loose);
	/* No notifier left: the domain goes. */
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
}

static const struct property_entry prov_props[] = {
	PROPERTY_ENTRY_U32("#power-domain-cells", 1),
	{ }
};

static const struct software_node prov_node = {
	.name = "pdc-provider", .properties = prov_props,
};

static const struct software_node_ref_args good_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 1),
	SOFTWARE_NODE_REFERENCE(&prov_node, 0),
};

static const struct property_entry good_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", good_refs),
	PROPERTY_ENTRY_STRING_ARRAY_LEN("power-domain-names",
					((const char * const []){ "core", "mem" }),
					2),
	{ }
};

static const struct software_node good_node = {
	.name = "pdc-consumer", .properties = good_props,
};

static const struct software_node_ref_args bad_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 7),
};

static const struct property_entry bad_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", bad_refs),
	{ }
};

static const struct software_node bad_node = {
	.name = "pdc-bad-consumer", .properties = bad_props,
};

static const struct software_node plain_node = { .name = "pdc-plain" };

static void errno_provider_attach(struct ampsoc_ktap_test *t)
{
	struct ampsoc_pd never = { .name = "pdc_never" };
	struct cpd *d0 = cpd_new("pdc_prov0", true, NULL, 0);
	struct cpd *d1 = cpd_new("pdc_prov1", true, NULL, 0);
	struct cpd *ds[] = { d0, d1 };
	struct ampsoc_pd *doms[2];
	struct ampsoc_pd *bad_doms[1] = { &never };
	struct platform_device *good = NULL, *bad = NULL, *plain = NULL;
	struct platform_device *bare = NULL, *named = NULL;
	struct fwnode_handle *fw;
	int ret;

	if (!KTAP_EXPECT(t, d0 && d1) ||
	    !KTAP_EXPECT_EQ(t, software_node_register(&prov_node), 0))
		goto out_dom;
	fw = software_node_fwnode(&prov_node);
	doms[0] = &d0->pd;
	doms[1] = &d1->pd;
	good = cdev_new(false, &good_node);
	bad = cdev_new(false, &bad_node);
	plain = cdev_new(false, &plain_node);
	bare = cdev_new(false, NULL);
	named = cdev_new(false, &good_node);
	if (!KTAP_EXPECT(t, good && bad && plain && bare && named))
		goto out;

	/* No provider yet: defer. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&good->dev, false), -EPROBE_DEFER);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(NULL, doms, 2), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, NULL, 2), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 0), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, bad_doms, 1), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 2), -EEXIST);

	/* 0: nothing to attach (no node, or no power-domains). */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(NULL, false), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&bare->dev, false), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&plain->dev, false), 0);
	KTAP_EXPECT(t, !plain->dev.pm_domain);
	/* A cell past the provider's domains. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&bad->dev, false), -EINVAL);
	/* 1: attached; power_on powers the domain on now. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&good->dev, true), 1);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&good->dev) == &d1->pd);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&d1->pd));
	/* Already in a domain: -EINVAL, from ampsoc_pd_add_device(). */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&good->dev, false), -EINVAL);
	/* By name. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_by_name(NULL, "mem", false), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_by_name(&named->dev, NULL, false),
		       -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_by_name(&bare->dev, "mem", false),
		       -EINVAL);
	ret = ampsoc_pd_attach_by_name(&named->dev, "gpu", false);
	KTAP_EXPECT(t, ret == -ENODATA || ret == -EINVAL);
	/* Without power_on, an idle-able device does not power d0 on. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_by_name(&named->dev, "mem", false), 1);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&named->dev) == &d0->pd);
	ampsoc_pd_detach(&named->dev);
	ampsoc_pd_detach(&good->dev);
	ampsoc_pd_detach(NULL);
	ampsoc_pd_detach(&bare->dev);
	KTAP_EXPECT(t, !good->dev.pm_domain && !named->dev.pm_domain);
	settle(ds, ARRAY_SIZE(ds));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d1->pd));

	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(fw), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(fw), -ENOENT);
out:
	cdev_del(named);
	cdev_del(bare);
	cdev_del(plain);
	cdev_del(bad);
	cdev_del(good);
	software_node_unregister(&prov_node);
out_dom:
	KTAP_EXPECT_EQ(t, cpd_del(d1), 0);
	KTAP_EXPECT_EQ(t, cpd_del(d0), 0);
}

static void errno_pm_clk(struct ampsoc_ktap_test *t)
{
	struct platform_device *p = cdev_new(false, NULL);

	if (!KTAP_EXPECT(t, p))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_create(NULL), -EINVAL);
	/* No list yet. */
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add(&p->dev, "none"), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add_clk(&p->dev, NULL), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add_clk(&p->dev, ERR_PTR(-ENOENT)),
		       -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_suspend(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_resume(&p->dev), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_create(&p->dev), 0);
	/* No such clock: clk_get()'s error. */
	KTAP_EXPECT(t, ampsoc_pm_clk_add(&p->dev, "pdc-no-such-clock") < 0);
	ampsoc_pm_clk_remove(&p->dev, "pdc-no-such-clock");
	ampsoc_pm_clk_destroy(&p->dev);
	cdev_del(p);
}

/* ---- behaviour the docs state ---- */

/*
 * Unlinking an on child: it stops counting in the parent's sd_count, the
 * parent it alone kept on is queued for power-off, the child keeps its
 * state.
 */
static void unlink_lets_parent_off(struct ampsoc_ktap_test *t)
{
	struct cpd *par = cpd_new("pdc_ul_p", false, NULL, 0);
	struct cpd *ch = cpd_new("pdc_ul_c", false, NULL, 0);
	struct cpd *ds[] = { par, ch };

	if (!KTAP_EXPECT(t, par && ch))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ch->pd), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&par->pd.sd_count), 1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_subdomain(&par->pd, &ch->pd), 0);
	KTAP_EXPECT_EQ(t, atomic_read(&par->pd.sd_count), 0);
	settle(ds, ARRAY_SIZE(ds));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&par->pd));
	KTAP_EXPECT(t, ampsoc_pd_is_on(&ch->pd));
out:
	KTAP_EXPECT_EQ(t, cpd_del(ch), 0);
	KTAP_EXPECT_EQ(t, cpd_del(par), 0);
}

/* Names in sysfs "states" and debugfs "idle_states"; S<i> without. */
static void state_names_shown(struct ampsoc_ktap_test *t)
{
	struct cpd *d = kzalloc(sizeof(*d), GFP_KERNEL);
	char *buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	char want[64];

	if (!KTAP_EXPECT(t, d && buf))
		goto out_free;
	d->pd.name = "pdc_names";
	d->pd.power_on = cpd_on;
	d->pd.power_off = cpd_off;
	d->st[0].name = "retention";
	d->st[2].name = "off";
	d->pd.states = d->st;
	d->pd.state_count = 3;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_init(&d->pd, NULL, false), 0))
		goto out_free;
	if (KTAP_EXPECT(t, ampsoc_pdfx_read_path(SYS "pdc_names/states", buf, PAGE_SIZE) > 0)) {
		KTAP_EXPECT(t, !strncmp(buf, "retention ", 10));
		KTAP_EXPECT(t, strstr(buf, "\nS1 "));
		KTAP_EXPECT(t, strstr(buf, "\noff "));
	}
	if (KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pdc_names/idle_states",
						 buf, PAGE_SIZE) > 0)) {
		snprintf(want, sizeof(want), "\n%-14s %-14llu ", "retention", 0ULL);
		KTAP_EXPECT(t, strstr(buf, want));
		snprintf(want, sizeof(want), "\nS%-13i ", 1);
		KTAP_EXPECT(t, strstr(buf, want));
		snprintf(want, sizeof(want), "\n%-14s ", "off");
		KTAP_EXPECT(t, strstr(buf, want));
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d->pd), 0);
out_free:
	kfree(buf);
	kfree(d);
}

/* pm_genpd_summary: the 6.1 header lines, then the newest domain first. */
static void summary_order(struct ampsoc_ktap_test *t)
{
	struct cpd *old = cpd_new("pdc_sum_old", true, NULL, 0);
	struct cpd *new = cpd_new("pdc_sum_new", true, NULL, 0);
	char *buf = kzalloc(PAGE_SIZE * 8, GFP_KERNEL);
	char *a, *b;

	if (!KTAP_EXPECT(t, old && new && buf))
		goto out;
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pm_genpd_summary", buf,
						  PAGE_SIZE * 8) > 0))
		goto out;
	KTAP_EXPECT(t, !strncmp(buf, "domain                          status", 38));
	a = strstr(buf, "\npdc_sum_old ");
	b = strstr(buf, "\npdc_sum_new ");
	KTAP_EXPECT(t, a && b && b < a);
out:
	kfree(buf);
	KTAP_EXPECT_EQ(t, cpd_del(new), 0);
	KTAP_EXPECT_EQ(t, cpd_del(old), 0);
}

/* Intended difference: without a governor, the deepest state (6.1: 0). */
static void no_governor_deepest_state(struct ampsoc_ktap_test *t)
{
	struct cpd *d = cpd_new("pdc_nogov", false, NULL, 3);
	struct cpd *ds[] = { d };
	struct platform_device *p = d ? cdev_in(d) : NULL;

	if (!KTAP_EXPECT(t, d && p))
		goto out;
	settle(ds, 1);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT_EQ(t, d->pd.state_idx, 2);
	KTAP_EXPECT_EQ(t, d->st[2].usage, d->pd.off_count);
	KTAP_EXPECT_EQ(t, d->st[0].usage, 0);
out:
	cdev_del(p);
	KTAP_EXPECT_EQ(t, cpd_del(d), 0);
}

/*
 * Intended difference: a parent powers off while its subdomain is off in a
 * shallow state (6.1 keeps the parent on until the child is in its
 * deepest state).
 */
static void parent_off_under_shallow_child(struct ampsoc_ktap_test *t)
{
	struct cpd *par = cpd_new("pdc_sh_p", false, NULL, 0);
	struct cpd *ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	struct cpd *ds[] = { par, ch };
	struct dev_pm_qos_request req;
	struct platform_device *p = NULL;
	bool qos = false;

	if (!KTAP_EXPECT(t, par && ch))
		goto out;
	/* States 0, 2 ms and 20 ms off+on; fixed. */
	ch->pd.name = "pdc_sh_c";
	ch->pd.power_on = cpd_on;
	ch->pd.power_off = cpd_off;
	ch->st[1].power_off_latency_ns = NSEC_PER_MSEC;
	ch->st[1].power_on_latency_ns = NSEC_PER_MSEC;
	ch->st[2].power_off_latency_ns = 10 * NSEC_PER_MSEC;
	ch->st[2].power_on_latency_ns = 10 * NSEC_PER_MSEC;
	ch->st[0].fixed = true;
	ch->st[1].fixed = true;
	ch->st[2].fixed = true;
	ch->pd.states = ch->st;
	ch->pd.state_count = 3;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_init(&ch->pd, &ampsoc_pd_qos_gov, false), 0)) {
		kfree(ch);
		ch = NULL;
		ds[1] = NULL;
		goto out;
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&par->pd, &ch->pd), 0);
	p = cdev_in(ch);
	if (!KTAP_EXPECT(t, p))
		goto out;
	/* 1.5 ms of tolerance: only state 0 fits. */
	KTAP_EXPECT(t, dev_pm_qos_add_request(&p->dev, &req,
					      DEV_PM_QOS_RESUME_LATENCY,
					      1500) >= 0);
	qos = true;
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	pm_runtime_put_sync(&p->dev);
	settle(ds, ARRAY_SIZE(ds));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&ch->pd));
	KTAP_EXPECT_EQ(t, ch->pd.state_idx, 0);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&par->pd));
out:
	if (qos)
		dev_pm_qos_remove_request(&req);
	cdev_del(p);
	if (par && ch)
		ampsoc_pd_remove_subdomain(&par->pd, &ch->pd);
	KTAP_EXPECT_EQ(t, cpd_del(ch), 0);
	KTAP_EXPECT_EQ(t, cpd_del(par), 0);
}

static bool governor_is(const char *domain, const char *want)
{
	char path[64], buf[32];

	snprintf(path, sizeof(path), SYS "%s/governor", domain);
	return ampsoc_pdfx_read_path(path, buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, want);
}

/* sysfs "governor": the full list of names. */
static void governor_names(struct ampsoc_ktap_test *t)
{
	struct cpd *n = cpd_new("pdc_gov_none", false, NULL, 0);
	struct cpd *a = cpd_new("pdc_gov_ao", false, &ampsoc_pd_always_on_gov, 0);
	struct cpd *q = cpd_new("pdc_gov_qos", false, &ampsoc_pd_qos_gov, 0);

	if (!KTAP_EXPECT(t, n && a && q))
		goto out;
	KTAP_EXPECT(t, governor_is("pdc_gov_none", "none\n"));
	KTAP_EXPECT(t, governor_is("pdc_gov_ao", "always_on\n"));
	KTAP_EXPECT(t, governor_is("pdc_gov_qos", "qos\n"));
out:
	KTAP_EXPECT_EQ(t, cpd_del(q), 0);
	KTAP_EXPECT_EQ(t, cpd_del(a), 0);
	KTAP_EXPECT_EQ(t, cpd_del(n), 0);
}

/* ---- performance states ---- */

/* Every set_performance_state() call, "name=state" ("!" if refused). */
static char perf_log[256];

static int cpd_set_perf(struct ampsoc_pd *pd, unsigned int state)
{
	struct cpd *d = container_of(pd, struct cpd, pd);
	size_t n = strlen(perf_log);

	/* No domain lock is held here: asking is allowed. */
	d->perf_saw_on = ampsoc_pd_is_on(pd);
	scnprintf(perf_log + n, sizeof(perf_log) - n, "%s%s=%u%s",
		  n ? " " : "", pd->name, state, d->perf_err ? "!" : "");
	return d->perf_err;
}

static int cpd_xlate_x10(struct ampsoc_pd *pd, struct ampsoc_pd *parent,
			 unsigned int state)
{
	return state * 10;
}

static struct cpd *cpd_perf(const char *name)
{
	struct cpd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->pd.name = name;
	d->pd.power_on = cpd_on;
	d->pd.power_off = cpd_off;
	d->pd.set_performance_state = cpd_set_perf;
	if (ampsoc_pd_init(&d->pd, NULL, false)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static bool log_is(struct ampsoc_ktap_test *t, const char *want)
{
	if (!strcmp(perf_log, want))
		return true;
	ampsoc_ktap_fail(t, "callbacks \"%s\", expected \"%s\"", perf_log, want);
	return false;
}

/* A bound device of @d, runtime-active. */
static struct platform_device *cdev_active(struct cpd *d)
{
	struct platform_device *p = cdev_in(d);

	if (p && pm_runtime_resume_and_get(&p->dev) < 0) {
		cdev_del(p);
		return NULL;
	}
	return p;
}

static void cdev_active_del(struct platform_device *p)
{
	if (p)
		pm_runtime_put_noidle(&p->dev);
	cdev_del(p);
}

/* The domain's state is the largest request; errnos of the call. */
static void perf_max_of_requests(struct ampsoc_ktap_test *t)
{
	struct cpd *d = cpd_perf("pdc_pfm");
	struct platform_device *a = d ? cdev_active(d) : NULL;
	struct platform_device *b = d ? cdev_active(d) : NULL;
	struct platform_device *lone = cdev_new(true, NULL);

	perf_log[0] = 0;
	if (!KTAP_EXPECT(t, d && a && b && lone))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 2), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 2);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b->dev, 5), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 5);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b->dev, 1), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 2);
	/* the same request again: no callback */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 2), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 0), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&b->dev, 0), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
	KTAP_EXPECT(t, log_is(t, "pdc_pfm=2 pdc_pfm=5 pdc_pfm=2 pdc_pfm=1 pdc_pfm=0"));
	KTAP_EXPECT(t, d->perf_saw_on);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(NULL, 1), -ENODEV);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&lone->dev, 1),
		       -ENODEV);
out:
	cdev_del(lone);
	cdev_active_del(b);
	cdev_active_del(a);
	KTAP_EXPECT_EQ(t, cpd_del(d), 0);
}

#define PERF_TREE_DEVS	24

/*
 * The largest of many requests, some equal, as they rise, fall, are
 * withheld and leave with their device: always the maximum a reference
 * loop finds. The requests are read without the domain lock (each is
 * written under the performance mutex, under which a device also leaves
 * the list): a device added meanwhile must not upset the walk.
 */
static void perf_aggregate_of_many(struct ampsoc_ktap_test *t)
{
	struct cpd *d = cpd_perf("pdc_ptree");
	struct platform_device *p[PERF_TREE_DEVS] = {};
	unsigned int want[PERF_TREE_DEVS] = {};
	unsigned int i, j, max, bad = 0;
	u64 walks;

	if (!KTAP_EXPECT(t, d))
		return;
	for (i = 0; i < PERF_TREE_DEVS; i++) {
		p[i] = cdev_active(d);
		if (!KTAP_EXPECT(t, p[i]))
			goto out;
	}
	/*
	 * Votes 1..7 with repeats, and 41..47 (states counted in the votes'
	 * tree, not one by one), then each lowered, then dropped, in an
	 * order; no device list walked for any of it.
	 */
	walks = ampsoc_pd_dev_walks();
	for (j = 0; j < 3 * PERF_TREE_DEVS; j++) {
		i = (j * 7) % PERF_TREE_DEVS;
		want[i] = j < PERF_TREE_DEVS ?
			  (j * 5) % 7 + 1 + (i % 4 ? 0 : 40) :
			  j < 2 * PERF_TREE_DEVS ? want[i] / 2 : 0;
		if (ampsoc_pd_set_performance_state(&p[i]->dev, want[i]))
			bad++;
		for (i = 0, max = 0; i < PERF_TREE_DEVS; i++)
			max = max(max, want[i]);
		if (d->pd.performance_state != max)
			bad++;
	}
	KTAP_EXPECT_EQ(t, bad, 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_dev_walks() - walks, 0);
	/* withheld by a runtime suspend, given back by the resume */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p[3]->dev, 416), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p[5]->dev, 4), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 416);
	KTAP_EXPECT_EQ(t, pm_runtime_put_sync(&p[3]->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 4);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p[3]->dev), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 416);
	/* a device that leaves takes its request out of the order */
	cdev_active_del(p[3]);
	p[3] = NULL;
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 4);
	/* a device that joins counts from its first request */
	p[3] = cdev_active(d);
	if (KTAP_EXPECT(t, p[3])) {
		KTAP_EXPECT_EQ(t, d->pd.performance_state, 4);
		KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p[3]->dev, 5), 0);
		KTAP_EXPECT_EQ(t, d->pd.performance_state, 5);
		KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p[3]->dev, 0), 0);
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&p[5]->dev, 0), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
out:
	for (i = 0; i < PERF_TREE_DEVS; i++)
		cdev_active_del(p[i]);
	KTAP_EXPECT_EQ(t, cpd_del(d), 0);
}

/*
 * A runtime-suspended device's request is withheld: dropped before its
 * domain powers off, recorded if made while suspended, applied after the
 * domain powered on again (6.1's rpm_pstate).
 */
static void perf_withheld_while_suspended(struct ampsoc_ktap_test *t)
{
	struct cpd *d = cpd_perf("pdc_pf_rpm");
	struct cpd *ds[] = { d };
	struct platform_device *a = d ? cdev_active(d) : NULL;

	perf_log[0] = 0;
	if (!KTAP_EXPECT(t, d && a))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 3), 0);
	pm_runtime_put_sync(&a->dev);
	settle(ds, 1);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d->pd));
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
	/* dropped while the domain was still on */
	KTAP_EXPECT(t, d->perf_saw_on);
	/* recorded, not applied */
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 4), 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
	KTAP_EXPECT(t, log_is(t, "pdc_pf_rpm=3 pdc_pf_rpm=0"));
	d->perf_saw_on = false;
	KTAP_EXPECT(t, pm_runtime_resume_and_get(&a->dev) >= 0);
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 4);
	/* applied once the domain was on */
	KTAP_EXPECT(t, d->perf_saw_on);
	KTAP_EXPECT(t, log_is(t, "pdc_pf_rpm=3 pdc_pf_rpm=0 pdc_pf_rpm=4"));
	/* removing the device withdraws its request */
	cdev_active_del(a);
	a = NULL;
	KTAP_EXPECT_EQ(t, d->pd.performance_state, 0);
out:
	cdev_active_del(a);
	KTAP_EXPECT_EQ(t, cpd_del(d), 0);
}

/*
 * Parents first, in link order, each in its own scale: the child's xlate
 * is used for a parent with a callback, none for a parent without (6.1).
 */
static void perf_parents_first_translated(struct ampsoc_ktap_test *t)
{
	struct cpd *p1 = cpd_perf("pdc_pf_p1");
	struct cpd *p2 = cpd_new("pdc_pf_p2", false, NULL, 0);
	struct cpd *c = cpd_perf("pdc_pf_c");
	struct platform_device *a = NULL;

	perf_log[0] = 0;
	if (!KTAP_EXPECT(t, p1 && p2 && c))
		goto out;
	c->pd.xlate_performance_state = cpd_xlate_x10;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p1->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p2->pd, &c->pd), 0);
	a = cdev_active(c);
	if (!KTAP_EXPECT(t, a))
		goto out_links;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 2), 0);
	KTAP_EXPECT_EQ(t, c->pd.performance_state, 2);
	KTAP_EXPECT_EQ(t, p1->pd.performance_state, 20);
	KTAP_EXPECT_EQ(t, p2->pd.performance_state, 2);
	KTAP_EXPECT(t, log_is(t, "pdc_pf_p1=20 pdc_pf_c=2"));
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 0), 0);
	KTAP_EXPECT_EQ(t, p1->pd.performance_state, 0);
	KTAP_EXPECT_EQ(t, p2->pd.performance_state, 0);
	cdev_active_del(a);
out_links:
	ampsoc_pd_remove_subdomain(&p2->pd, &c->pd);
	ampsoc_pd_remove_subdomain(&p1->pd, &c->pd);
out:
	KTAP_EXPECT_EQ(t, cpd_del(c), 0);
	KTAP_EXPECT_EQ(t, cpd_del(p2), 0);
	KTAP_EXPECT_EQ(t, cpd_del(p1), 0);
}

/*
 * A parent's refusal fails the request: the parent already changed gets
 * its previous state back, the child is not called, the request stays.
 */
static void perf_failure_unwinds(struct ampsoc_ktap_test *t)
{
	struct cpd *p1 = cpd_perf("pdc_pf_u1");
	struct cpd *p2 = cpd_perf("pdc_pf_u2");
	struct cpd *c = cpd_perf("pdc_pf_uc");
	struct platform_device *a = NULL;
	struct pm_domain_data *data;

	perf_log[0] = 0;
	if (!KTAP_EXPECT(t, p1 && p2 && c))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p1->pd, &c->pd), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&p2->pd, &c->pd), 0);
	a = cdev_active(c);
	if (!KTAP_EXPECT(t, a))
		goto out_links;
	p2->perf_err = -EIO;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 3), -EIO);
	KTAP_EXPECT(t, log_is(t, "pdc_pf_u1=3 pdc_pf_u2=3! pdc_pf_u1=0"));
	KTAP_EXPECT_EQ(t, p1->pd.performance_state, 0);
	KTAP_EXPECT_EQ(t, p2->pd.performance_state, 0);
	KTAP_EXPECT_EQ(t, c->pd.performance_state, 0);
	data = a->dev.power.subsys_data->domain_data;
	KTAP_EXPECT_EQ(t, container_of(data, struct ampsoc_pd_dev,
				       base)->performance_state, 0);
	/* the domain's own refusal: the parents go back */
	perf_log[0] = 0;
	p2->perf_err = 0;
	c->perf_err = -EBUSY;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 1), -EBUSY);
	KTAP_EXPECT(t, log_is(t, "pdc_pf_u1=1 pdc_pf_u2=1 pdc_pf_uc=1! pdc_pf_u2=0 pdc_pf_u1=0"));
	c->perf_err = 0;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 1), 0);
	KTAP_EXPECT_EQ(t, p2->pd.performance_state, 1);
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 0), 0);
	cdev_active_del(a);
out_links:
	ampsoc_pd_remove_subdomain(&p2->pd, &c->pd);
	ampsoc_pd_remove_subdomain(&p1->pd, &c->pd);
out:
	KTAP_EXPECT_EQ(t, cpd_del(c), 0);
	KTAP_EXPECT_EQ(t, cpd_del(p2), 0);
	KTAP_EXPECT_EQ(t, cpd_del(p1), 0);
}

/*
 * debugfs as 6.1: perf_state ("%u\n") only for a domain with the
 * callback; the summary's performance column for the domain and the
 * device.
 */
static void perf_debugfs(struct ampsoc_ktap_test *t)
{
	struct cpd *d = cpd_perf("pdc_pf_dbg");
	struct cpd *n = cpd_new("pdc_pf_nocb", false, NULL, 0);
	struct platform_device *a = d ? cdev_active(d) : NULL;
	char *buf = kzalloc(PAGE_SIZE * 8, GFP_KERNEL);
	char *want = kzalloc(256, GFP_KERNEL);
	char *path = NULL;

	if (!KTAP_EXPECT(t, d && n && a && buf && want))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 7), 0);
	KTAP_EXPECT_EQ(t, ampsoc_pdfx_read_path(DBG "pdc_pf_dbg/perf_state",
						buf, PAGE_SIZE), 2);
	KTAP_EXPECT(t, !strcmp(buf, "7\n"));
	KTAP_EXPECT_EQ(t, ampsoc_pdfx_read_path(DBG "pdc_pf_nocb/perf_state",
						buf, PAGE_SIZE), -ENOENT);
	if (!KTAP_EXPECT(t, ampsoc_pdfx_read_path(DBG "pm_genpd_summary", buf,
						  PAGE_SIZE * 8) > 0))
		goto out;
	snprintf(want, 256, "\n%-30s  %-49s  %u\n", "pdc_pf_dbg", "on", 7);
	KTAP_EXPECT(t, strstr(buf, want));
	path = kobject_get_path(&a->dev.kobj, GFP_KERNEL);
	if (KTAP_EXPECT(t, path)) {
		snprintf(want, 256, "\n    %-50s  %-25s  %u\n", path, "active", 7);
		KTAP_EXPECT(t, strstr(buf, want));
	}
	KTAP_EXPECT_EQ(t, ampsoc_pd_set_performance_state(&a->dev, 0), 0);
out:
	kfree(path);
	kfree(want);
	kfree(buf);
	cdev_active_del(a);
	KTAP_EXPECT_EQ(t, cpd_del(n), 0);
	KTAP_EXPECT_EQ(t, cpd_del(d), 0);
}

static const struct ampsoc_ktap_case perf_cases[] = {
	AMPSOC_KTAP_CASE(perf_max_of_requests),
	AMPSOC_KTAP_CASE(perf_aggregate_of_many),
	AMPSOC_KTAP_CASE(perf_withheld_while_suspended),
	AMPSOC_KTAP_CASE(perf_parents_first_translated),
	AMPSOC_KTAP_CASE(perf_failure_unwinds),
	AMPSOC_KTAP_CASE(perf_debugfs),
	{}
};

static const struct ampsoc_ktap_case errno_cases[] = {
	AMPSOC_KTAP_CASE(errno_init),
	AMPSOC_KTAP_CASE(errno_remove),
	AMPSOC_KTAP_CASE(errno_add_remove_device),
	AMPSOC_KTAP_CASE(errno_subdomain),
	AMPSOC_KTAP_CASE(errno_notifiers),
	AMPSOC_KTAP_CASE(errno_provider_attach),
	AMPSOC_KTAP_CASE(errno_pm_clk),
	{}
};

static const struct ampsoc_ktap_case doc_cases[] = {
	AMPSOC_KTAP_CASE(unlink_lets_parent_off),
	AMPSOC_KTAP_CASE(state_names_shown),
	AMPSOC_KTAP_CASE(summary_order),
	AMPSOC_KTAP_CASE(governor_names),
	AMPSOC_KTAP_CASE(no_governor_deepest_state),
	AMPSOC_KTAP_CASE(parent_off_under_shallow_child),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_contract_errno, errno_cases),
	AMPSOC_KTAP_SUITE(pd_contract_doc, doc_cases),
	AMPSOC_KTAP_SUITE(pd_contract_perf, perf_cases),
};

static int __init pdcontract_init(void)
{
	int ret = platform_driver_register(&cdrv);

	if (ret)
		return ret;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(pdcontract_init);

static void __exit pdcontract_exit(void)
{
	platform_driver_unregister(&cdrv);
	ampsoc_ktap_done();
}
module_exit(pdcontract_exit);

MODULE_DESCRIPTION("ampsoc PM domains: the documented contract");
MODULE_LICENSE("GPL");

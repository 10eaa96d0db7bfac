// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP: multiple domains per device (docs/pmdomain.md, "Multiple domains
 * per device"), checked against Linux 6.1's dev_pm_domain_attach_by_id()
 * and _by_name():
 *  - a virtual device per domain, named and on the bus the docs give,
 *    in the right domain, not powering it on by itself;
 *  - NULL for no node, no entry, an index out of range, an unknown name;
 *    ERR_PTR for a consumer in a domain, a missing provider, a bad cell;
 *  - the consumer's runtime PM powers every domain through the links;
 *  - detaching unregisters the virtual device (its sysfs entry goes);
 *  - a failed attach of several undoes the ones before it;
 *  - a domain with a virtual device in it cannot be removed;
 *  - ampsoc_pd_add_virt(), the explicit variant, for a consumer in a
 *    domain of its own.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pdmulti"
#define BUS_DEVS	"/sys/bus/ampsoc_pd/devices/"

struct mpd {
	struct ampsoc_pd pd;
	unsigned int ons;
	unsigned int offs;
};

static int mpd_on(struct ampsoc_pd *pd)
{
	container_of(pd, struct mpd, pd)->ons++;
	return 0;
}

static int mpd_off(struct ampsoc_pd *pd)
{
	container_of(pd, struct mpd, pd)->offs++;
	return 0;
}

static struct mpd *mpd_new(const char *name)
{
	struct mpd *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->pd.name = name;
	d->pd.power_on = mpd_on;
	d->pd.power_off = mpd_off;
	if (ampsoc_pd_init(&d->pd, NULL, true)) {
		kfree(d);
		return NULL;
	}
	return d;
}

static int mpd_del(struct mpd *d)
{
	int ret;

	if (!d)
		return 0;
	ret = ampsoc_pd_remove(&d->pd);
	if (!ret)
		kfree(d);
	return ret;
}

static void settle(struct mpd **ds, unsigned int n)
{
	unsigned int i, round;

	for (round = 0; round < 3; round++) {
		/* Runtime PM requests of the virtual devices, then ours. */
		flush_workqueue(pm_wq);
		for (i = 0; i < n; i++)
			if (ds[i])
				flush_work(&ds[i]->pd.power_off_work);
	}
}

static int mdrv_probe(struct platform_device *pdev)
{
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int mdrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver mdrv = {
	.probe = mdrv_probe,
	.remove = mdrv_remove,
	.driver = { .name = DRV_NAME },
};

static int next_id;

static struct platform_device *mdev_new(const struct software_node *node)
{
	return ampsoc_pdfx_node_dev_new(DRV_NAME, next_id++, node);
}

static void mdev_del(struct platform_device *p)
{
	if (p && ampsoc_pd_of_dev(&p->dev))
		ampsoc_pd_remove_device(&p->dev);
	ampsoc_pdfx_node_dev_del(p);
}

/* Whether the virtual device of @index for @p is on the bus in sysfs. */
static bool virt_in_sysfs(struct platform_device *p, unsigned int index)
{
	char *name = kasprintf(GFP_KERNEL, BUS_DEVS "ampsoc_pd:%u:%s", index,
			       dev_name(&p->dev));
	struct path path;
	bool there;

	if (!name)
		return false;
	there = !kern_path(name, LOOKUP_FOLLOW, &path);
	if (there)
		path_put(&path);
	kfree(name);
	return there;
}

/* ---- firmware nodes ---- */

static const struct property_entry prov_props[] = {
	PROPERTY_ENTRY_U32("#power-domain-cells", 1),
	{ }
};

static const struct software_node prov_node = {
	.name = "pdm-provider", .properties = prov_props,
};

/* Never registered as a provider: attaching through it defers. */
static const struct software_node absent_node = {
	.name = "pdm-absent", .properties = prov_props,
};

static const struct software_node_ref_args two_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 0),
	SOFTWARE_NODE_REFERENCE(&prov_node, 1),
};

static const struct property_entry two_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", two_refs),
	PROPERTY_ENTRY_STRING_ARRAY_LEN("power-domain-names",
					((const char * const []){ "core", "mem" }),
					2),
	{ }
};

static const struct software_node two_node = {
	.name = "pdm-two", .properties = two_props,
};

static const struct software_node_ref_args one_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 1),
};

static const struct property_entry one_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", one_refs),
	{ }
};

static const struct software_node one_node = {
	.name = "pdm-one", .properties = one_props,
};

static const struct software_node_ref_args bad_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 0),
	SOFTWARE_NODE_REFERENCE(&prov_node, 9),
};

static const struct property_entry bad_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", bad_refs),
	{ }
};

static const struct software_node bad_node = {
	.name = "pdm-bad", .properties = bad_props,
};

static const struct software_node_ref_args defer_refs[] = {
	SOFTWARE_NODE_REFERENCE(&prov_node, 0),
	SOFTWARE_NODE_REFERENCE(&absent_node, 0),
};

static const struct property_entry defer_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", defer_refs),
	{ }
};

static const struct software_node defer_node = {
	.name = "pdm-defer", .properties = defer_props,
};

static const struct software_node plain_node = { .name = "pdm-plain" };

static const struct software_node *nodes[] = {
	&prov_node, &absent_node, &two_node, &one_node, &bad_node,
	&defer_node, &plain_node, NULL,
};

/* The provider's domains d0 and d1, both off, for one case. */
static struct mpd *doms[2];

static bool provider_up(struct ampsoc_ktap_test *t)
{
	struct ampsoc_pd *pds[2];

	doms[0] = mpd_new("pdm_d0");
	doms[1] = mpd_new("pdm_d1");
	if (!KTAP_EXPECT(t, doms[0] && doms[1]))
		return false;
	pds[0] = &doms[0]->pd;
	pds[1] = &doms[1]->pd;
	return KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(software_node_fwnode(&prov_node),
							pds, 2), 0);
}

static void provider_down(struct ampsoc_ktap_test *t)
{
	ampsoc_pd_provider_del(software_node_fwnode(&prov_node));
	KTAP_EXPECT_EQ(t, mpd_del(doms[1]), 0);
	KTAP_EXPECT_EQ(t, mpd_del(doms[0]), 0);
	doms[0] = NULL;
	doms[1] = NULL;
}

/* ---- cases ---- */

/* By index and by name: one virtual device per domain, off at attach. */
static void attach_by_id_and_name(struct ampsoc_ktap_test *t)
{
	struct platform_device *c = NULL;
	struct device *v0 = NULL, *v1 = NULL;
	char *want = NULL;

	if (!provider_up(t))
		goto out;
	c = mdev_new(&two_node);
	if (!KTAP_EXPECT(t, c && c->dev.driver))
		goto out;
	v0 = ampsoc_pd_attach_by_id(&c->dev, 0);
	v1 = ampsoc_pd_attach_virt_by_name(&c->dev, "mem");
	if (!KTAP_EXPECT(t, !IS_ERR_OR_NULL(v0)) ||
	    !KTAP_EXPECT(t, !IS_ERR_OR_NULL(v1))) {
		v0 = IS_ERR(v0) ? NULL : v0;
		v1 = IS_ERR(v1) ? NULL : v1;
		goto out;
	}
	want = kasprintf(GFP_KERNEL, "ampsoc_pd:1:%s", dev_name(&c->dev));
	KTAP_EXPECT(t, want && !strcmp(dev_name(v1), want));
	KTAP_EXPECT(t, v0->bus && !strcmp(v0->bus->name, "ampsoc_pd"));
	KTAP_EXPECT(t, ampsoc_pd_of_dev(v0) == &doms[0]->pd);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(v1) == &doms[1]->pd);
	/* The consumer itself stays in no domain. */
	KTAP_EXPECT(t, !c->dev.pm_domain);
	KTAP_EXPECT(t, pm_runtime_enabled(v0) && pm_runtime_suspended(v0));
	KTAP_EXPECT(t, virt_in_sysfs(c, 0) && virt_in_sysfs(c, 1));
	/* As 6.1, attaching does not power the domains on. */
	settle(doms, 2);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[0]->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[1]->pd));
	KTAP_EXPECT_EQ(t, doms[0]->ons, 0);
	/* A virtual device runtime-resumed powers its domain alone. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(v1), 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&doms[1]->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[0]->pd));
	pm_runtime_put_sync(v1);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[1]->pd));

	/* Out of range, unknown names: NULL, not an error (6.1). */
	KTAP_EXPECT(t, !ampsoc_pd_attach_by_id(&c->dev, 2));
	KTAP_EXPECT(t, !ampsoc_pd_attach_virt_by_name(&c->dev, "gpu"));
	KTAP_EXPECT(t, !virt_in_sysfs(c, 2));

	/* Detach unregisters: the sysfs entries go. */
	ampsoc_pd_detach(v1);
	v1 = NULL;
	KTAP_EXPECT(t, !virt_in_sysfs(c, 1));
	KTAP_EXPECT(t, virt_in_sysfs(c, 0));
	ampsoc_pd_detach(v0);
	v0 = NULL;
	KTAP_EXPECT(t, !virt_in_sysfs(c, 0));
	KTAP_EXPECT_EQ(t, doms[0]->pd.device_count, 0);
	KTAP_EXPECT_EQ(t, doms[1]->pd.device_count, 0);
out:
	kfree(want);
	ampsoc_pd_detach(v1);
	ampsoc_pd_detach(v0);
	mdev_del(c);
	provider_down(t);
}

/* 6.1's NULL and ERR_PTR() answers, one call each. */
static void attach_null_and_errors(struct ampsoc_ktap_test *t)
{
	struct platform_device *bare = NULL, *plain = NULL, *two = NULL;
	struct platform_device *one = NULL, *bad = NULL, *loose = NULL;
	struct device *v;

	two = mdev_new(&two_node);
	if (!KTAP_EXPECT(t, two))
		goto out;
	/* The provider is not registered yet. */
	v = ampsoc_pd_attach_by_id(&two->dev, 0);
	KTAP_EXPECT(t, v == ERR_PTR(-EPROBE_DEFER));
	v = ampsoc_pd_attach_virt_by_name(&two->dev, "core");
	KTAP_EXPECT(t, v == ERR_PTR(-EPROBE_DEFER));
	if (!provider_up(t))
		goto out;
	bare = mdev_new(NULL);
	plain = mdev_new(&plain_node);
	one = mdev_new(&one_node);
	bad = mdev_new(&bad_node);
	if (!KTAP_EXPECT(t, bare && plain && one && bad))
		goto out;

	KTAP_EXPECT(t, ampsoc_pd_attach_by_id(NULL, 0) == ERR_PTR(-EINVAL));
	KTAP_EXPECT(t, ampsoc_pd_attach_virt_by_name(&two->dev, NULL) ==
		       ERR_PTR(-EINVAL));
	/* No node, no power-domains, no power-domain-names: NULL. */
	KTAP_EXPECT(t, !ampsoc_pd_attach_by_id(&bare->dev, 0));
	KTAP_EXPECT(t, !ampsoc_pd_attach_virt_by_name(&bare->dev, "core"));
	KTAP_EXPECT(t, !ampsoc_pd_attach_by_id(&plain->dev, 0));
	KTAP_EXPECT(t, !ampsoc_pd_attach_virt_by_name(&one->dev, "core"));
	/* A cell past the provider's domains. */
	KTAP_EXPECT(t, ampsoc_pd_attach_by_id(&bad->dev, 1) == ERR_PTR(-EINVAL));
	KTAP_EXPECT(t, !virt_in_sysfs(bad, 1));
	/* One entry: index 0 gets a virtual device too, index 1 is NULL. */
	KTAP_EXPECT(t, !ampsoc_pd_attach_by_id(&one->dev, 1));
	v = ampsoc_pd_attach_by_id(&one->dev, 0);
	if (KTAP_EXPECT(t, !IS_ERR_OR_NULL(v))) {
		KTAP_EXPECT(t, ampsoc_pd_of_dev(v) == &doms[1]->pd);
		ampsoc_pd_detach(v);
	}
	/* A consumer in a domain itself: -EEXIST, as 6.1's common code. */
	loose = ampsoc_pdfx_node_dev_new(DRV_NAME "-nodrv", next_id++,
					 &two_node);
	if (KTAP_EXPECT(t, loose) &&
	    KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&loose->dev, false), 1)) {
		KTAP_EXPECT(t, ampsoc_pd_attach_by_id(&loose->dev, 1) ==
			       ERR_PTR(-EEXIST));
		KTAP_EXPECT(t, ampsoc_pd_attach_virt_by_name(&loose->dev, "mem") ==
			       ERR_PTR(-EEXIST));
		/* Not a virtual device: detach leaves it registered. */
		ampsoc_pd_detach(&loose->dev);
		KTAP_EXPECT(t, device_is_registered(&loose->dev));
	}
	KTAP_EXPECT_EQ(t, doms[0]->pd.device_count, 0);
	KTAP_EXPECT_EQ(t, doms[1]->pd.device_count, 0);
out:
	mdev_del(loose);
	mdev_del(bad);
	mdev_del(one);
	mdev_del(plain);
	mdev_del(bare);
	mdev_del(two);
	if (doms[0])
		provider_down(t);
}

/* The consumer's runtime PM drives both domains through the links. */
static void consumer_rpm_drives_both(struct ampsoc_ktap_test *t)
{
	struct platform_device *c = NULL;
	struct ampsoc_pd_multi *m = NULL;

	if (!provider_up(t))
		goto out;
	c = mdev_new(&two_node);
	if (!KTAP_EXPECT(t, c && c->dev.driver))
		goto out;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(&c->dev, &m), 2) ||
	    !KTAP_EXPECT(t, m))
		goto out;
	KTAP_EXPECT_EQ(t, m->num, 2);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(m->virt[0]) == &doms[0]->pd);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(m->virt[1]) == &doms[1]->pd);
	/* DL_FLAG_RPM_ACTIVE: on from the link on. */
	KTAP_EXPECT(t, ampsoc_pd_is_on(&doms[0]->pd));
	KTAP_EXPECT(t, ampsoc_pd_is_on(&doms[1]->pd));

	/* A consumer runtime suspend lets both go off... */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&c->dev), 0);
	pm_runtime_put_sync(&c->dev);
	settle(doms, 2);
	KTAP_EXPECT(t, pm_runtime_suspended(m->virt[0]));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[0]->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[1]->pd));
	/* ...its resume powers both on, its suspend both off again. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&c->dev), 0);
	KTAP_EXPECT(t, ampsoc_pd_is_on(&doms[0]->pd));
	KTAP_EXPECT(t, ampsoc_pd_is_on(&doms[1]->pd));
	KTAP_EXPECT_EQ(t, doms[0]->ons, 2);
	KTAP_EXPECT_EQ(t, doms[1]->ons, 2);
	pm_runtime_put_sync(&c->dev);
	settle(doms, 2);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[0]->pd));
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[1]->pd));

	/* A domain with a virtual device in it cannot go. */
	ampsoc_pd_provider_del(software_node_fwnode(&prov_node));
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&doms[1]->pd), -EBUSY);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(software_node_fwnode(&prov_node),
						 (struct ampsoc_pd *[]){
							&doms[0]->pd, &doms[1]->pd },
						 2), 0);

	/* Detached: the virtual devices are gone, the domains empty. */
	KTAP_EXPECT(t, virt_in_sysfs(c, 0) && virt_in_sysfs(c, 1));
	ampsoc_pd_detach_multi(m);
	m = NULL;
	KTAP_EXPECT(t, !virt_in_sysfs(c, 0) && !virt_in_sysfs(c, 1));
	KTAP_EXPECT_EQ(t, doms[0]->pd.device_count, 0);
	KTAP_EXPECT_EQ(t, doms[1]->pd.device_count, 0);
	/* The consumer's runtime PM still works without its links. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&c->dev), 0);
	pm_runtime_put_sync(&c->dev);
out:
	ampsoc_pd_detach_multi(m);
	mdev_del(c);
	if (doms[0])
		provider_down(t);
}

/* The second attach fails: the first is undone. */
static void multi_unwinds(struct ampsoc_ktap_test *t)
{
	struct platform_device *c = NULL, *b = NULL, *plain = NULL;
	struct ampsoc_pd_multi *m = NULL;

	if (!provider_up(t))
		goto out;
	c = mdev_new(&defer_node);
	b = mdev_new(&bad_node);
	plain = mdev_new(&plain_node);
	if (!KTAP_EXPECT(t, c && b && plain))
		goto out;
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(&c->dev, &m), -EPROBE_DEFER);
	KTAP_EXPECT(t, !m);
	KTAP_EXPECT(t, !virt_in_sysfs(c, 0));
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(&b->dev, &m), -EINVAL);
	KTAP_EXPECT(t, !m);
	KTAP_EXPECT(t, !virt_in_sysfs(b, 0));
	KTAP_EXPECT_EQ(t, doms[0]->pd.device_count, 0);
	/* The consumer keeps no supplier link either. */
	KTAP_EXPECT(t, list_empty(&c->dev.links.suppliers));
	settle(doms, 2);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&doms[0]->pd));
	/* Nothing to attach: 0 and no result; bad arguments: -EINVAL. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(&plain->dev, &m), 0);
	KTAP_EXPECT(t, !m);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(NULL, &m), -EINVAL);
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach_multi(&c->dev, NULL), -EINVAL);
	ampsoc_pd_detach_multi(NULL);
out:
	ampsoc_pd_detach_multi(m);
	mdev_del(plain);
	mdev_del(b);
	mdev_del(c);
	if (doms[0])
		provider_down(t);
}

/* The explicit variant: a given domain, a consumer in a domain itself. */
static void add_virt_explicit(struct ampsoc_ktap_test *t)
{
	struct mpd *d0 = mpd_new("pdm_x0"), *d1 = mpd_new("pdm_x1");
	struct mpd *ds[] = { d0, d1 };
	struct platform_device *c = NULL;
	struct device *v = NULL;

	c = ampsoc_pdfx_node_dev_new(DRV_NAME "-nodrv", next_id++, NULL);
	if (!KTAP_EXPECT(t, d0 && d1 && c) ||
	    !KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&d1->pd, &c->dev), 0))
		goto out;
	KTAP_EXPECT(t, ampsoc_pd_add_virt(NULL, &c->dev, 1) == ERR_PTR(-EINVAL));
	KTAP_EXPECT(t, ampsoc_pd_add_virt(&d0->pd, NULL, 1) == ERR_PTR(-EINVAL));
	v = ampsoc_pd_add_virt(&d0->pd, &c->dev, 1);
	if (!KTAP_EXPECT(t, !IS_ERR_OR_NULL(v))) {
		v = NULL;
		goto out;
	}
	KTAP_EXPECT(t, ampsoc_pd_of_dev(v) == &d0->pd);
	KTAP_EXPECT(t, ampsoc_pd_of_dev(&c->dev) == &d1->pd);
	KTAP_EXPECT(t, virt_in_sysfs(c, 1));
	settle(ds, 2);
	KTAP_EXPECT(t, !ampsoc_pd_is_on(&d0->pd));
	/* Its domain cannot go while it is there. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove(&d0->pd), -EBUSY);
	ampsoc_pd_detach(v);
	v = NULL;
	KTAP_EXPECT(t, !virt_in_sysfs(c, 1));
	KTAP_EXPECT_EQ(t, d0->pd.device_count, 0);
out:
	ampsoc_pd_detach(v);
	mdev_del(c);
	KTAP_EXPECT_EQ(t, mpd_del(d1), 0);
	KTAP_EXPECT_EQ(t, mpd_del(d0), 0);
}

static const struct ampsoc_ktap_case multi_cases[] = {
	AMPSOC_KTAP_CASE(attach_by_id_and_name),
	AMPSOC_KTAP_CASE(attach_null_and_errors),
	AMPSOC_KTAP_CASE(consumer_rpm_drives_both),
	AMPSOC_KTAP_CASE(multi_unwinds),
	AMPSOC_KTAP_CASE(add_virt_explicit),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_multi, multi_cases),
};

static int __init pdmulti_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; nodes[i]; i++) {
		ret = software_node_register(nodes[i]);
		if (ret)
			goto err;
	}
	ret = platform_driver_register(&mdrv);
	if (ret)
		goto err;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
err:
	while (i-- > 0)
		software_node_unregister(nodes[i]);
	return ret;
}
module_init(pdmulti_init);

static void __exit pdmulti_exit(void)
{
	unsigned int i;

	platform_driver_unregister(&mdrv);
	for (i = ARRAY_SIZE(nodes) - 1; i-- > 0;)
		software_node_unregister(nodes[i]);
	ampsoc_ktap_done();
}
module_exit(pdmulti_exit);

MODULE_DESCRIPTION("ampsoc PM domains: multiple domains per device");
MODULE_LICENSE("GPL");

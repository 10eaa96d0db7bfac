// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP regression tests for power leaks and bugs of the ampsoc PM domain
 * core (issue 21, "Leaks and bugs"): each case states the contract from
 * docs/pmdomain.md or Linux 6.1's genpd and failed before its fix.
 *
 * Fake domains record their power calls; devices are real platform
 * devices, bound to a fake driver, so that the kernel's runtime PM drives
 * them.
 */
#include <ampsoc/ktap.h>
#include <ampsoc/pd_fixture.h>
#include <ampsoc/pm_domain.h>
#include <linux/clk-provider.h>
#include <linux/clk.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/platform_device.h>
#include <linux/pm_clock.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/prandom.h>
#include <linux/property.h>

#include "domain_internal.h"

#define DRV_NAME	"ampsoc-pdfix"
#define NODRV_NAME	"ampsoc-pdfix-nodrv"
#define MAX_FPD		16
/* Bound on every wait for something the core does in the background. */
#define WAIT_MS		10000

static unsigned int seed = 21;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "seed of the random runtime PM sequence");

static unsigned int ops = 3000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "random runtime PM operations in the QoS topology case");

/* ---- fake domains ---- */

struct fpd {
	struct ampsoc_pd pd;
	int fail_off;			/* power_off() error while > 0 times */
	unsigned int fail_off_times;
	unsigned int on_calls;
	unsigned int off_calls;
	unsigned int off_attempts;
	struct completion off_done;	/* a successful power_off() */
};

static struct fpd *fpds[MAX_FPD];
static DEFINE_MUTEX(fpds_lock);

static int fpd_power_on(struct ampsoc_pd *pd)
{
	struct fpd *d = container_of(pd, struct fpd, pd);

	d->on_calls++;
	return 0;
}

static int fpd_power_off(struct ampsoc_pd *pd)
{
	struct fpd *d = container_of(pd, struct fpd, pd);

	d->off_attempts++;
	if (d->fail_off_times) {
		d->fail_off_times--;
		return d->fail_off;
	}
	d->off_calls++;
	complete(&d->off_done);
	return 0;
}

/* A domain with @nstates idle states (the core's default one if none). */
static struct fpd *fpd_new_states(const char *name,
				  const struct ampsoc_pd_governor *gov,
				  bool is_off, struct ampsoc_pd_state *states,
				  unsigned int nstates)
{
	struct fpd *d = kzalloc(sizeof(*d), GFP_KERNEL);
	unsigned int i;

	if (!d)
		return NULL;
	d->pd.name = kstrdup(name, GFP_KERNEL);
	d->pd.power_on = fpd_power_on;
	d->pd.power_off = fpd_power_off;
	d->pd.states = states;
	d->pd.state_count = nstates;
	init_completion(&d->off_done);
	if (!d->pd.name || ampsoc_pd_init(&d->pd, gov, is_off)) {
		kfree(d->pd.name);
		kfree(d);
		return NULL;
	}
	mutex_lock(&fpds_lock);
	for (i = 0; i < MAX_FPD; i++) {
		if (!fpds[i]) {
			fpds[i] = d;
			break;
		}
	}
	mutex_unlock(&fpds_lock);
	return d;
}

static struct fpd *fpd_new(const char *name, const struct ampsoc_pd_governor *gov,
			   bool is_off)
{
	return fpd_new_states(name, gov, is_off, NULL, 0);
}

static int fpd_del(struct fpd *d)
{
	unsigned int i;
	int ret;

	if (!d)
		return 0;
	ret = ampsoc_pd_remove(&d->pd);
	if (ret)
		return ret;
	mutex_lock(&fpds_lock);
	for (i = 0; i < MAX_FPD; i++)
		if (fpds[i] == d)
			fpds[i] = NULL;
	mutex_unlock(&fpds_lock);
	kfree(d->pd.name);
	kfree(d);
	return 0;
}

static bool fpd_on(struct fpd *d)
{
	return ampsoc_pd_is_on(&d->pd);
}

/* Let queued power-off work run to its end (it may queue more). */
static void settle(void)
{
	unsigned int i, round;

	for (round = 0; round < 8; round++)
		for (i = 0; i < MAX_FPD; i++)
			if (fpds[i])
				flush_work(&fpds[i]->pd.power_off_work);
}

/* Wait for @d's next successful power_off(); false on timeout. */
static bool fpd_wait_off(struct fpd *d, unsigned int ms)
{
	return wait_for_completion_timeout(&d->off_done,
					   msecs_to_jiffies(ms)) != 0;
}

/* ---- fake devices ---- */

struct fdev_data {
	unsigned int rt_suspends;
	unsigned int rt_resumes;
};

/* Item 6: a resume callback that waits for the test to let it go on. */
static struct device *hold_dev;
static DECLARE_COMPLETION(hold_in);
static DECLARE_COMPLETION(hold_go);

static int fdrv_rt_suspend(struct device *dev)
{
	struct fdev_data *fd = dev_get_drvdata(dev);

	fd->rt_suspends++;
	return 0;
}

static int fdrv_rt_resume(struct device *dev)
{
	struct fdev_data *fd = dev_get_drvdata(dev);

	if (READ_ONCE(hold_dev) == dev) {
		complete(&hold_in);
		wait_for_completion(&hold_go);
	}
	fd->rt_resumes++;
	return 0;
}

static const struct dev_pm_ops fdrv_pm = {
	.runtime_suspend = fdrv_rt_suspend,
	.runtime_resume = fdrv_rt_resume,
};

static int fdrv_probe(struct platform_device *pdev)
{
	struct fdev_data *fd = devm_kzalloc(&pdev->dev, sizeof(*fd), GFP_KERNEL);

	if (!fd)
		return -ENOMEM;
	platform_set_drvdata(pdev, fd);
	pm_runtime_enable(&pdev->dev);
	return 0;
}

static int fdrv_remove(struct platform_device *pdev)
{
	pm_runtime_disable(&pdev->dev);
	return 0;
}

static struct platform_driver fdrv = {
	.probe = fdrv_probe,
	.remove = fdrv_remove,
	.driver = {
		.name = DRV_NAME,
		.pm = &fdrv_pm,
	},
};

static int fdev_next_id;

/* A device in @d, bound to the fake driver, runtime-suspended. */
static struct platform_device *fdev_new(struct fpd *d)
{
	return ampsoc_pdfx_dev_new(&d->pd, DRV_NAME, fdev_next_id++, true);
}

static void fdev_del(struct platform_device *pdev)
{
	ampsoc_pdfx_dev_del(pdev);
}

/* A new device in @d, idle, with @d off once the core settles; in *@pp. */
static bool fdev_new_idle(struct ampsoc_ktap_test *t, struct fpd *d,
			  struct platform_device **pp)
{
	*pp = fdev_new(d);
	if (!KTAP_EXPECT(t, *pp))
		return false;
	settle();
	return KTAP_EXPECT(t, !fpd_on(d));
}

/* ---- 1: a QoS-governed domain whose subdomains have no governor ---- */

#define QT_CHILDREN	3
#define QT_GRAND	9
#define QT_DEVS		50

/*
 * The topology of the issue: root > 3 children with the QoS governor >
 * 9 grandchildren without one, 50 devices in the children and
 * grandchildren, random runtime PM. Once every device is suspended, every
 * domain must be off: a subdomain without a governor sets no latency
 * constraint for its parents (as in 6.1, where it counts as -1, "none").
 */
static void qos_ungoverned_subdomains(struct ampsoc_ktap_test *t)
{
	struct fpd *root, *child[QT_CHILDREN] = {}, *grand[QT_GRAND] = {};
	struct platform_device *dev[QT_DEVS] = {};
	unsigned int refs[QT_DEVS] = {};
	struct rnd_state rnd;
	char name[24];
	unsigned int i, n;
	bool ok = true;

	root = fpd_new("pdx_root", NULL, false);
	if (!KTAP_EXPECT(t, root))
		return;
	for (i = 0; i < QT_CHILDREN; i++) {
		snprintf(name, sizeof(name), "pdx_child%u", i);
		child[i] = fpd_new(name, &ampsoc_pd_qos_gov, false);
		if (!KTAP_EXPECT(t, child[i]) ||
		    !KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&root->pd,
							       &child[i]->pd), 0))
			goto out;
	}
	for (i = 0; i < QT_GRAND; i++) {
		snprintf(name, sizeof(name), "pdx_grand%u", i);
		grand[i] = fpd_new(name, NULL, false);
		if (!KTAP_EXPECT(t, grand[i]) ||
		    !KTAP_EXPECT_EQ(t, ampsoc_pd_add_subdomain(&child[i / 3]->pd,
							       &grand[i]->pd), 0))
			goto out;
	}
	/* 45 devices in the grandchildren, 5 in the children. */
	for (i = 0; i < QT_DEVS; i++) {
		struct fpd *d = i < 45 ? grand[i % QT_GRAND] :
				child[i % QT_CHILDREN];

		dev[i] = fdev_new(d);
		if (!KTAP_EXPECT(t, dev[i]))
			goto out;
	}

	prandom_seed_state(&rnd, seed);
	for (n = 0; n < ops; n++) {
		u32 r = prandom_u32_state(&rnd);

		i = r % QT_DEVS;
		r /= QT_DEVS;
		if (refs[i] && (r & 1)) {
			refs[i]--;
			if (r & 2)
				pm_runtime_put(&dev[i]->dev);
			else
				pm_runtime_put_sync(&dev[i]->dev);
		} else if (refs[i] < 3) {
			if (pm_runtime_resume_and_get(&dev[i]->dev) < 0) {
				ok = false;
				break;
			}
			refs[i]++;
		}
	}
	KTAP_EXPECT(t, ok);
	for (i = 0; i < QT_DEVS; i++) {
		while (refs[i]) {
			refs[i]--;
			pm_runtime_put_sync(&dev[i]->dev);
		}
		pm_runtime_suspend(&dev[i]->dev);
		if (!pm_runtime_status_suspended(&dev[i]->dev)) {
			ampsoc_ktap_fail(t, "%s not suspended", dev_name(&dev[i]->dev));
			ok = false;
		}
	}
	settle();
	for (i = 0; i < QT_GRAND; i++)
		if (fpd_on(grand[i])) {
			ampsoc_ktap_fail(t, "%s still on", grand[i]->pd.name);
			ok = false;
		}
	for (i = 0; i < QT_CHILDREN; i++)
		if (fpd_on(child[i])) {
			ampsoc_ktap_fail(t, "%s still on", child[i]->pd.name);
			ok = false;
		}
	if (fpd_on(root)) {
		ampsoc_ktap_fail(t, "%s still on", root->pd.name);
		ok = false;
	}
	KTAP_EXPECT(t, ok);
	/* The hierarchy still works: a grandchild's device powers its chain. */
	if (KTAP_EXPECT(t, pm_runtime_resume_and_get(&dev[0]->dev) >= 0)) {
		bool chain = fpd_on(grand[0]) && fpd_on(child[0]) &&
			     fpd_on(root);

		KTAP_EXPECT(t, chain);
		pm_runtime_put_sync(&dev[0]->dev);
	}

out:
	for (i = 0; i < QT_DEVS; i++)
		fdev_del(dev[i]);
	settle();
	for (i = 0; i < QT_GRAND; i++)
		if (grand[i]) {
			ampsoc_pd_remove_subdomain(&child[i / 3]->pd, &grand[i]->pd);
			KTAP_EXPECT_EQ(t, fpd_del(grand[i]), 0);
		}
	for (i = 0; i < QT_CHILDREN; i++)
		if (child[i]) {
			ampsoc_pd_remove_subdomain(&root->pd, &child[i]->pd);
			KTAP_EXPECT_EQ(t, fpd_del(child[i]), 0);
		}
	KTAP_EXPECT_EQ(t, fpd_del(root), 0);
}

/* ---- 2: a vetoed or failed runtime power-off is retried ---- */

static unsigned int veto_left;

static int veto_once(struct notifier_block *nb, unsigned long ev, void *data)
{
	if (ev == AMPSOC_PD_NOTIFY_PRE_OFF && veto_left) {
		veto_left--;
		return notifier_from_errno(-EBUSY);
	}
	return NOTIFY_DONE;
}

static struct notifier_block veto_nb = { .notifier_call = veto_once };

/*
 * docs/pmdomain.md: a runtime power-off that a notifier vetoes or that
 * power_off() refuses is tried again later, with no other event, up to
 * AMPSOC_PD_RETRY_MAX times until the domain changes state.
 */
static void retry_after_veto(struct ampsoc_ktap_test *t)
{
	struct fpd *d = fpd_new("pdx_veto", NULL, false);
	struct platform_device *p;
	unsigned int i;

	if (!KTAP_EXPECT(t, d))
		return;
	if (!fdev_new_idle(t, d, &p))
		goto out;

	/* A notifier vetoes the first power-off. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_register(&d->pd, &veto_nb), 0);
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	reinit_completion(&d->off_done);
	veto_left = 1;
	pm_runtime_put_sync(&p->dev);
	KTAP_EXPECT(t, fpd_wait_off(d, WAIT_MS));
	KTAP_EXPECT(t, !fpd_on(d));
	KTAP_EXPECT_EQ(t, veto_left, 0);
	KTAP_EXPECT_EQ(t, ampsoc_pd_notifier_unregister(&d->pd, &veto_nb), 0);

	/* power_off() fails twice, then works. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	reinit_completion(&d->off_done);
	d->fail_off = -EIO;
	d->fail_off_times = 2;
	d->off_attempts = 0;
	pm_runtime_put_sync(&p->dev);
	KTAP_EXPECT(t, fpd_wait_off(d, WAIT_MS));
	KTAP_EXPECT(t, !fpd_on(d));
	KTAP_EXPECT_EQ(t, d->off_attempts, 3);

	/* A power_off() that keeps failing is retried a bounded number of times. */
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	d->fail_off_times = UINT_MAX;
	d->off_attempts = 0;
	pm_runtime_put_sync(&p->dev);
	for (i = 0; i < 2 * AMPSOC_PD_RETRY_MAX; i++)
		flush_delayed_work(&d->pd.retry_work);
	KTAP_EXPECT_EQ(t, d->off_attempts, 1 + AMPSOC_PD_RETRY_MAX);
	KTAP_EXPECT(t, !delayed_work_pending(&d->pd.retry_work));
	KTAP_EXPECT(t, fpd_on(d));
	/* The next event of the domain tries again, with a fresh count. */
	d->fail_off_times = 0;
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	pm_runtime_put_sync(&p->dev);
	KTAP_EXPECT(t, !fpd_on(d));
	KTAP_EXPECT_EQ(t, d->pd.retry_count, 0);

out:
	fdev_del(p);
	settle();
	KTAP_EXPECT_EQ(t, fpd_del(d), 0);
}

/*
 * docs/pmdomain.md: once the retries are spent, a device's PM QoS change
 * tries the refused power-off once more. A governor that found no state
 * within a 5 ms constraint agrees when the constraint becomes 100 ms.
 */
static void qos_relax_after_retries(struct ampsoc_ktap_test *t)
{
	/* 20 ms off+on: more than 5 ms, less than 100 ms. */
	static struct ampsoc_pd_state slow = {
		.power_off_latency_ns = 10 * NSEC_PER_MSEC,
		.power_on_latency_ns = 10 * NSEC_PER_MSEC,
		.fixed = true,
	};
	struct fpd *d = fpd_new_states("pdx_qos_relax", &ampsoc_pd_qos_gov,
				       false, &slow, 1);
	struct dev_pm_qos_request req = {};
	struct platform_device *p;
	unsigned int i;
	bool qos = false;

	if (!KTAP_EXPECT(t, d))
		return;
	if (!fdev_new_idle(t, d, &p))
		goto out;
	KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0);
	if (!KTAP_EXPECT(t, dev_pm_qos_add_request(&p->dev, &req,
						   DEV_PM_QOS_RESUME_LATENCY,
						   5 * USEC_PER_MSEC) >= 0))
		goto out_put;
	qos = true;

	/* Suspended, but no state fits: on, every retry refused too. */
	d->off_attempts = 0;
	pm_runtime_put_sync(&p->dev);
	KTAP_EXPECT(t, pm_runtime_status_suspended(&p->dev));
	for (i = 0; i < 2 * AMPSOC_PD_RETRY_MAX; i++)
		flush_delayed_work(&d->pd.retry_work);
	settle();
	KTAP_EXPECT(t, !delayed_work_pending(&d->pd.retry_work));
	KTAP_EXPECT_EQ(t, d->pd.retry_count, AMPSOC_PD_RETRY_MAX);
	KTAP_EXPECT_EQ(t, d->off_attempts, 0);
	if (!KTAP_EXPECT(t, fpd_on(d)))
		goto out;

	/* The constraint relaxes: the QoS change alone powers it off. */
	reinit_completion(&d->off_done);
	KTAP_EXPECT(t, dev_pm_qos_update_request(&req, 100 * USEC_PER_MSEC) >= 0);
	KTAP_EXPECT(t, fpd_wait_off(d, WAIT_MS));
	KTAP_EXPECT(t, !fpd_on(d));
	goto out;

out_put:
	pm_runtime_put_sync(&p->dev);
out:
	if (qos)
		dev_pm_qos_remove_request(&req);
	fdev_del(p);
	settle();
	KTAP_EXPECT_EQ(t, fpd_del(d), 0);
}

/* ---- 3: unused domains of a provider go off by themselves ---- */

static const struct property_entry uprov_props[] = {
	PROPERTY_ENTRY_U32("#power-domain-cells", 1),
	{ }
};

static const struct software_node uprov_node = {
	.name = "pdx-unused-provider",
	.properties = uprov_props,
};

static const struct software_node_ref_args ucons_refs[] = {
	SOFTWARE_NODE_REFERENCE(&uprov_node, 0),
};

static const struct property_entry ucons_props[] = {
	PROPERTY_ENTRY_REF_ARRAY("power-domains", ucons_refs),
	{ }
};

static const struct software_node ucons_node = {
	.name = "pdx-unused-consumer",
	.properties = ucons_props,
};

/*
 * docs/pmdomain.md: once a provider has registered its domains and
 * devices have probed, a domain whose devices have no driver and runtime
 * PM disabled is powered off, without the platform calling
 * ampsoc_pd_power_off_unused(); a domain in use stays on.
 */
static void unused_off_after_provider(struct ampsoc_ktap_test *t)
{
	const struct software_node *nodes[] = { &uprov_node, &ucons_node, NULL };
	struct fpd *idle = fpd_new("pdx_unused", NULL, false);
	struct fpd *used = fpd_new("pdx_used", NULL, false);
	struct platform_device *cons = NULL, *busy = NULL;
	struct ampsoc_pd *doms[2];
	struct fwnode_handle *fw;
	bool registered = false;

	if (!KTAP_EXPECT(t, idle && used))
		goto out_dom;
	doms[0] = &idle->pd;
	doms[1] = &used->pd;
	if (!KTAP_EXPECT_EQ(t, software_node_register_node_group(nodes), 0))
		goto out_dom;
	fw = software_node_fwnode(&uprov_node);

	busy = fdev_new(used);
	if (!KTAP_EXPECT(t, busy) ||
	    !KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&busy->dev), 0))
		goto out_nodes;

	cons = platform_device_alloc(NODRV_NAME, fdev_next_id++);
	if (!KTAP_EXPECT(t, cons))
		goto out_nodes;
	if (!KTAP_EXPECT_EQ(t, device_add_software_node(&cons->dev, &ucons_node), 0)) {
		platform_device_put(cons);
		cons = NULL;
		goto out_nodes;
	}
	if (!KTAP_EXPECT_EQ(t, platform_device_add(cons), 0)) {
		device_remove_software_node(&cons->dev);
		platform_device_put(cons);
		cons = NULL;
		goto out_nodes;
	}

	reinit_completion(&idle->off_done);
	KTAP_EXPECT_EQ(t, ampsoc_pd_provider_add(fw, doms, 2), 0);
	registered = true;
	/* Runtime PM disabled, no driver: it counts as needing power. */
	KTAP_EXPECT_EQ(t, ampsoc_pd_attach(&cons->dev, false), 1);
	KTAP_EXPECT(t, fpd_on(idle));

	KTAP_EXPECT(t, fpd_wait_off(idle, WAIT_MS));
	KTAP_EXPECT(t, !fpd_on(idle));
	KTAP_EXPECT(t, fpd_on(used));
	KTAP_EXPECT_EQ(t, used->off_calls, 1);	/* from fdev_new() only */

	pm_runtime_put_sync(&busy->dev);
	settle();
	KTAP_EXPECT(t, !fpd_on(used));

out_nodes:
	if (registered)
		KTAP_EXPECT_EQ(t, ampsoc_pd_provider_del(fw), 0);
	if (cons) {
		ampsoc_pd_detach(&cons->dev);
		platform_device_del(cons);
		device_remove_software_node(&cons->dev);
		platform_device_put(cons);
	}
	fdev_del(busy);
	software_node_unregister_node_group(nodes);
out_dom:
	settle();
	KTAP_EXPECT_EQ(t, fpd_del(idle), 0);
	KTAP_EXPECT_EQ(t, fpd_del(used), 0);
}

/* ---- 4: an IRQ-safe device added while runtime-suspended ---- */

/*
 * The first resume of an IRQ-safe device that was runtime-suspended (and
 * had runtime PM enabled) when it was added must work: its domain is
 * powered and it is counted from the start, as for any IRQ-safe device
 * (docs: such a device keeps its domain on).
 */
static void irq_safe_added_suspended(struct ampsoc_ktap_test *t)
{
	struct fpd *d = fpd_new("pdx_irqsafe", NULL, true);
	struct platform_device *p;
	int ret;

	if (!KTAP_EXPECT(t, d))
		return;
	p = platform_device_alloc(NODRV_NAME, fdev_next_id++);
	if (!KTAP_EXPECT(t, p))
		goto out_dom;
	if (!KTAP_EXPECT_EQ(t, platform_device_add(p), 0)) {
		platform_device_put(p);
		goto out_dom;
	}
	pm_runtime_irq_safe(&p->dev);
	pm_runtime_enable(&p->dev);
	KTAP_EXPECT(t, pm_runtime_status_suspended(&p->dev));
	if (!KTAP_EXPECT_EQ(t, ampsoc_pd_add_device(&d->pd, &p->dev), 0))
		goto out_dev;

	ret = pm_runtime_resume_and_get(&p->dev);
	KTAP_EXPECT_EQ(t, ret, 0);
	KTAP_EXPECT_EQ(t, p->dev.power.runtime_error, 0);
	KTAP_EXPECT(t, pm_runtime_active(&p->dev));
	KTAP_EXPECT(t, fpd_on(d));
	if (ret)
		goto out_remove;
	pm_runtime_put_sync(&p->dev);
	/* A second cycle works too and the domain stays on. */
	if (KTAP_EXPECT_EQ(t, pm_runtime_resume_and_get(&p->dev), 0))
		pm_runtime_put_sync(&p->dev);
	settle();
	KTAP_EXPECT(t, fpd_on(d));

out_remove:
	KTAP_EXPECT_EQ(t, ampsoc_pd_remove_device(&p->dev), 0);
	settle();
	KTAP_EXPECT(t, !fpd_on(d));
out_dev:
	pm_runtime_disable(&p->dev);
	platform_device_unregister(p);
out_dom:
	KTAP_EXPECT_EQ(t, fpd_del(d), 0);
}

/* ---- 6: measured latencies change only under the domain lock ---- */

struct hold_ctx {
	struct device *dev;
	struct completion done;
	int ret;
};

static int hold_thread(void *data)
{
	struct hold_ctx *c = data;

	c->ret = pm_runtime_resume_and_get(c->dev);
	complete(&c->done);
	return 0;
}

/*
 * The QoS governor reads a device's measured latencies under the domain
 * lock: a runtime resume running while another thread holds the lock must
 * not change them. The governor still learns the new value afterwards.
 */
static void latency_under_lock(struct ampsoc_ktap_test *t)
{
	struct fpd *d = fpd_new("pdx_lat", &ampsoc_pd_qos_gov, false);
	struct ampsoc_pd_dev *pdd;
	struct platform_device *p;
	struct task_struct *task;
	struct hold_ctx c = {};
	bool done;
	s64 v0, v1;

	if (!KTAP_EXPECT(t, d))
		return;
	p = fdev_new(d);
	if (!KTAP_EXPECT(t, p))
		goto out;
	pdd = container_of(p->dev.power.subsys_data->domain_data,
			   struct ampsoc_pd_dev, base);

	/*
	 * The largest resume latency ever measured is kept: forget the
	 * probe's, which a stall of a loaded host can make longer than the
	 * held resume below, so that only the held one counts.
	 */
	mutex_lock(&d->pd.lock);
	pdd->resume_latency_ns = 0;
	mutex_unlock(&d->pd.lock);

	c.dev = &p->dev;
	init_completion(&c.done);
	reinit_completion(&hold_in);
	reinit_completion(&hold_go);
	WRITE_ONCE(hold_dev, &p->dev);
	task = kthread_run(hold_thread, &c, "pdx_hold");
	if (!KTAP_EXPECT(t, !IS_ERR(task))) {
		WRITE_ONCE(hold_dev, NULL);
		goto out;
	}
	/* The resume is in the driver callback: the domain is on. */
	KTAP_EXPECT(t, wait_for_completion_timeout(&hold_in,
						   msecs_to_jiffies(WAIT_MS)));
	mutex_lock(&d->pd.lock);
	v0 = pdd->resume_latency_ns;
	complete(&hold_go);
	done = wait_for_completion_timeout(&c.done, msecs_to_jiffies(WAIT_MS));
	v1 = pdd->resume_latency_ns;
	mutex_unlock(&d->pd.lock);
	if (!done)
		wait_for_completion(&c.done);
	WRITE_ONCE(hold_dev, NULL);
	KTAP_EXPECT_EQ(t, c.ret, 0);
	KTAP_EXPECT(t, done);
	if (!KTAP_EXPECT_EQ(t, v1, v0))
		ampsoc_ktap_line(4, "# resume latency %lld -> %lld ns under a held lock",
				 v0, v1);
	/* The slow resume counts once the device suspends. */
	if (!c.ret)
		pm_runtime_put_sync(&p->dev);
	mutex_lock(&d->pd.lock);
	v1 = pdd->resume_latency_ns;
	mutex_unlock(&d->pd.lock);
	KTAP_EXPECT(t, v1 > v0);

out:
	fdev_del(p);
	settle();
	KTAP_EXPECT_EQ(t, fpd_del(d), 0);
}

/* ---- 5: our PM clocks and the kernel's pm_clk on one device ---- */

struct fclk {
	struct clk_hw hw;
	int prepared;
	int enabled;
	int fail_enable;
};

static int fclk_prepare(struct clk_hw *hw)
{
	container_of(hw, struct fclk, hw)->prepared++;
	return 0;
}

static void fclk_unprepare(struct clk_hw *hw)
{
	container_of(hw, struct fclk, hw)->prepared--;
}

static int fclk_enable(struct clk_hw *hw)
{
	struct fclk *c = container_of(hw, struct fclk, hw);

	if (c->fail_enable)
		return c->fail_enable;
	c->enabled++;
	return 0;
}

static void fclk_disable(struct clk_hw *hw)
{
	container_of(hw, struct fclk, hw)->enabled--;
}

static const struct clk_ops fclk_ops = {
	.prepare = fclk_prepare,
	.unprepare = fclk_unprepare,
	.enable = fclk_enable,
	.disable = fclk_disable,
};

/*
 * A driver may use the kernel's pm_clk_* (CONFIG_PM_CLK=y) and ours on the
 * same device: each side sees and switches only its own clocks. A failed
 * ampsoc_pm_clk_resume() gates again only the clocks it enabled.
 */
static void pm_clk_coexist(struct ampsoc_ktap_test *t)
{
	struct clk_init_data ia = { .name = "pdx_kclk", .ops = &fclk_ops };
	struct clk_init_data ib = { .name = "pdx_oclk", .ops = &fclk_ops };
	struct clk_init_data ic = { .name = "pdx_fclk", .ops = &fclk_ops };
	struct fclk a = {}, b = {}, f = {};
	struct clk *ka, *ob, *of;
	struct platform_device *p;
	bool clean = false;

	a.hw.init = &ia;
	b.hw.init = &ib;
	f.hw.init = &ic;
	if (!KTAP_EXPECT_EQ(t, clk_hw_register(NULL, &a.hw), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, clk_hw_register(NULL, &b.hw), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, clk_hw_register(NULL, &f.hw), 0))
		return;
	p = platform_device_alloc(NODRV_NAME, fdev_next_id++);
	if (!KTAP_EXPECT(t, p))
		return;
	if (!KTAP_EXPECT_EQ(t, dev_set_name(&p->dev, "%s.%d", NODRV_NAME, p->id), 0))
		return;
	ka = clk_hw_get_clk(&a.hw, "k");
	ob = clk_hw_get_clk(&b.hw, "o");
	of = clk_hw_get_clk(&f.hw, "f");
	if (!KTAP_EXPECT(t, !IS_ERR(ka) && !IS_ERR(ob) && !IS_ERR(of)))
		return;

	/* The kernel's list first, then ours. */
	if (!KTAP_EXPECT_EQ(t, pm_clk_create(&p->dev), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, pm_clk_add_clk(&p->dev, ka), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pm_clk_create(&p->dev), 0))
		return;
	if (!KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add_clk(&p->dev, ob), 0))
		return;
	/* Our list was empty, so the new clock starts gated. */
	if (!KTAP_EXPECT_EQ(t, b.enabled, 0))
		return;
	KTAP_EXPECT_EQ(t, b.prepared, 1);

	KTAP_EXPECT_EQ(t, pm_clk_resume(&p->dev), 0);
	if (!KTAP_EXPECT_EQ(t, a.enabled, 1) || !KTAP_EXPECT_EQ(t, b.enabled, 0))
		return;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_resume(&p->dev), 0);
	KTAP_EXPECT_EQ(t, b.enabled, 1);
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_suspend(&p->dev), 0);
	if (!KTAP_EXPECT_EQ(t, a.enabled, 1) || !KTAP_EXPECT_EQ(t, b.enabled, 0))
		return;
	KTAP_EXPECT_EQ(t, pm_clk_suspend(&p->dev), 0);
	if (!KTAP_EXPECT_EQ(t, a.enabled, 0) || !KTAP_EXPECT_EQ(t, b.enabled, 0))
		return;

	/* A failed resume of ours leaves the kernel's clock alone. */
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_add_clk(&p->dev, of), 0);
	KTAP_EXPECT_EQ(t, pm_clk_resume(&p->dev), 0);
	f.fail_enable = -EIO;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_resume(&p->dev), -EIO);
	KTAP_EXPECT_EQ(t, a.enabled, 1);
	KTAP_EXPECT_EQ(t, b.enabled, 0);
	KTAP_EXPECT_EQ(t, f.enabled, 0);
	f.fail_enable = 0;
	KTAP_EXPECT_EQ(t, ampsoc_pm_clk_resume(&p->dev), 0);
	KTAP_EXPECT_EQ(t, b.enabled + f.enabled, 2);
	KTAP_EXPECT_EQ(t, a.enabled, 1);
	clean = true;

	/* Each side tears down its own list. */
	pm_clk_destroy(&p->dev);
	KTAP_EXPECT_EQ(t, a.enabled + a.prepared, 0);
	KTAP_EXPECT_EQ(t, b.enabled + f.enabled, 2);
	ampsoc_pm_clk_destroy(&p->dev);
	KTAP_EXPECT_EQ(t, b.enabled + b.prepared + f.enabled + f.prepared, 0);
	KTAP_EXPECT(t, !p->dev.power.subsys_data);

	platform_device_put(p);
	if (clean) {
		clk_hw_unregister(&a.hw);
		clk_hw_unregister(&b.hw);
		clk_hw_unregister(&f.hw);
	}
}

static const struct ampsoc_ktap_case fix_cases[] = {
	AMPSOC_KTAP_CASE(qos_ungoverned_subdomains),
	AMPSOC_KTAP_CASE(retry_after_veto),
	AMPSOC_KTAP_CASE(qos_relax_after_retries),
	AMPSOC_KTAP_CASE(unused_off_after_provider),
	AMPSOC_KTAP_CASE(irq_safe_added_suspended),
	AMPSOC_KTAP_CASE(latency_under_lock),
	AMPSOC_KTAP_CASE(pm_clk_coexist),
	{}
};

static const struct ampsoc_ktap_suite suites[] = {
	AMPSOC_KTAP_SUITE(pd_fixes, fix_cases),
};

static int __init pdfix_init(void)
{
	int ret = platform_driver_register(&fdrv);

	if (ret)
		return ret;
	ampsoc_ktap_run(suites, ARRAY_SIZE(suites));
	return 0;
}
module_init(pdfix_init);

static void __exit pdfix_exit(void)
{
	platform_driver_unregister(&fdrv);
	ampsoc_ktap_done();
}
module_exit(pdfix_exit);

MODULE_DESCRIPTION("ampsoc PM domain regression tests (issue 21)");
MODULE_LICENSE("GPL");

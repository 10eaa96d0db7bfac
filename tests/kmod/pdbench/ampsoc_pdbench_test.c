// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: the cost of one runtime suspend+resume cycle of a device in
 * an ampsoc PM domain and in the kernel's built-in genpd, with identical
 * topologies built in the same boot: N devices (all idle but one) in one
 * domain, and one device at the bottom of a chain of DEPTH domains.
 *
 * A cycle is pm_runtime_get_sync() then pm_runtime_put_sync() on one
 * device, so the domain (and in the chain, every parent) powers on and
 * then off. Our parents power off from a work item: in the chain case the
 * cycle also waits for those (flush_work), so that both frameworks end a
 * cycle with everything off. Each figure is the best of a few rounds.
 *
 * The chain runs twice: with the seed's asynchronous parent power-off
 * ("depthN") and with AMPSOC_PD_FLAG_SYNC_OFF ("depthN_sync"), where the
 * parents go off inside the put as they do in genpd.
 *
 * Results: /sys/kernel/debug/ampsoc_pdbench/results, one line per case:
 *   <case> <ours ns/cycle> <genpd ns/cycle> <ours ns/put> <genpd ns/put>
 * where "put" is the pm_runtime_put_sync() alone: the device's suspend
 * latency, which our asynchronous parent power-off keeps short.
 */
#include <ampsoc/pm_domain.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

static unsigned int cycles = 2000;
module_param(cycles, uint, 0444);
MODULE_PARM_DESC(cycles, "suspend+resume cycles per measurement");

static char *sizes = "1,100,1000,10000";
module_param(sizes, charp, 0444);
MODULE_PARM_DESC(sizes, "comma-separated device counts for the flat cases");

static unsigned int depth = 8;
module_param(depth, uint, 0444);
MODULE_PARM_DESC(depth, "domains in the chain case");

#define MAX_CASES	8
#define ROUNDS		5
#define MAX_DEPTH	16

struct bench_result {
	char name[24];
	u64 ours_ns;
	u64 genpd_ns;
	u64 ours_put_ns;
	u64 genpd_put_ns;
	int err;
};

static struct bench_result results[MAX_CASES];
static unsigned int nresults;
static struct dentry *dbg_dir;

static int bench_rpm_nop(struct device *dev)
{
	return 0;
}

static const struct dev_pm_ops bench_pm = {
	.runtime_suspend = bench_rpm_nop,
	.runtime_resume = bench_rpm_nop,
};

static const struct device_type bench_type = {
	.name = "ampsoc_pdbench",
	.pm = &bench_pm,
};

static void bench_dev_release(struct device *dev)
{
	kfree(dev);
}

/* Light devices: initialised, never registered, runtime PM enabled. */
static struct device *bench_dev_new(unsigned int i)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return NULL;
	device_initialize(dev);
	dev->type = &bench_type;
	dev->release = bench_dev_release;
	if (dev_set_name(dev, "pdbench.%u", i)) {
		put_device(dev);
		return NULL;
	}
	return dev;
}

static int nop_power(struct ampsoc_pd *pd)
{
	return 0;
}

static int nop_genpd_power(struct generic_pm_domain *gpd)
{
	return 0;
}

/*
 * 6.1's pm_genpd_remove() reads the domain after its put_device(): free
 * it once pm_genpd_remove() has returned, not in release().
 */
static void genpd_release(struct device *dev)
{
}

/* One framework's topology: domains[0] is the root, devs[0] is measured. */
struct topo {
	bool genpd;
	bool sync;
	unsigned int ndom;
	unsigned int ndev;
	struct ampsoc_pd *pds[MAX_DEPTH];
	struct generic_pm_domain *gpds[MAX_DEPTH];
	struct device **devs;
};

static void topo_free(struct topo *t)
{
	unsigned int i;

	for (i = 0; t->devs && i < t->ndev; i++) {
		struct device *dev = t->devs[i];

		if (!dev)
			continue;
		pm_runtime_disable(dev);
		if (t->genpd)
			pm_genpd_remove_device(dev);
		else
			ampsoc_pd_remove_device(dev);
		put_device(dev);
	}
	kvfree(t->devs);
	for (i = t->ndom; i-- > 0;) {
		if (t->genpd && t->gpds[i]) {
			if (i)
				pm_genpd_remove_subdomain(t->gpds[i - 1], t->gpds[i]);
			if (!pm_genpd_remove(t->gpds[i])) {
				kfree(t->gpds[i]->name);
				kfree(t->gpds[i]);
			}
		} else if (!t->genpd && t->pds[i]) {
			if (i)
				ampsoc_pd_remove_subdomain(t->pds[i - 1], t->pds[i]);
			flush_work(&t->pds[i]->power_off_work);
			/* A domain that cannot go is leaked, never freed in use. */
			if (!ampsoc_pd_remove(t->pds[i])) {
				kfree(t->pds[i]->name);
				kfree(t->pds[i]);
			}
		}
	}
}

static int topo_build(struct topo *t, bool genpd, bool sync, unsigned int ndom,
		      unsigned int ndev)
{
	unsigned int i;
	int ret;

	memset(t, 0, sizeof(*t));
	t->genpd = genpd;
	t->sync = sync;
	t->ndom = ndom;
	t->ndev = ndev;
	for (i = 0; i < ndom; i++) {
		char *name = kasprintf(GFP_KERNEL, "pdbench_%s%u",
				       genpd ? "g" : "a", i);

		if (!name)
			return -ENOMEM;
		if (genpd) {
			struct generic_pm_domain *g = kzalloc(sizeof(*g), GFP_KERNEL);

			if (!g) {
				kfree(name);
				return -ENOMEM;
			}
			g->name = name;
			g->power_on = nop_genpd_power;
			g->power_off = nop_genpd_power;
			g->dev.release = genpd_release;
			ret = pm_genpd_init(g, NULL, false);
			if (ret) {
				kfree(name);
				kfree(g);
				return ret;
			}
			t->gpds[i] = g;
			if (i) {
				ret = pm_genpd_add_subdomain(t->gpds[i - 1], g);
				if (ret)
					return ret;
			}
		} else {
			struct ampsoc_pd *p = kzalloc(sizeof(*p), GFP_KERNEL);

			if (!p) {
				kfree(name);
				return -ENOMEM;
			}
			p->name = name;
			p->power_on = nop_power;
			p->power_off = nop_power;
			if (sync)
				p->flags |= AMPSOC_PD_FLAG_SYNC_OFF;
			ret = ampsoc_pd_init(p, NULL, false);
			if (ret) {
				kfree(name);
				kfree(p);
				return ret;
			}
			t->pds[i] = p;
			if (i) {
				ret = ampsoc_pd_add_subdomain(t->pds[i - 1], p);
				if (ret)
					return ret;
			}
		}
	}

	t->devs = kvcalloc(ndev, sizeof(*t->devs), GFP_KERNEL);
	if (!t->devs)
		return -ENOMEM;
	for (i = 0; i < ndev; i++) {
		struct device *dev = bench_dev_new(i);

		if (!dev)
			return -ENOMEM;
		t->devs[i] = dev;
		if (genpd)
			ret = pm_genpd_add_device(t->gpds[ndom - 1], dev);
		else
			ret = ampsoc_pd_add_device(t->pds[ndom - 1], dev);
		if (ret)
			return ret;
		pm_runtime_enable(dev);
		/* One cycle puts both frameworks in the same idle state. */
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			return ret;
		pm_runtime_put_sync(dev);
		cond_resched();
	}
	return 0;
}

static void topo_settle(struct topo *t)
{
	unsigned int i;

	if (t->genpd)
		return;
	for (i = t->ndom; i-- > 0;)
		flush_work(&t->pds[i]->power_off_work);
}

static int topo_measure(struct topo *t, u64 *ns_per_cycle, u64 *put_ns)
{
	struct device *dev = t->devs[0];
	unsigned int i, round;
	ktime_t t0, t1;
	int ret;

	/* Warm up (under TCG, code runs slowly the first time). */
	for (i = 0; i < cycles / 4; i++) {
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			return ret;
		pm_runtime_put_sync(dev);
	}
	/* The best of ROUNDS rounds: the host is shared, noise only adds. */
	*ns_per_cycle = U64_MAX;
	*put_ns = U64_MAX;
	for (round = 0; round < ROUNDS; round++) {
		unsigned int n = max(cycles / ROUNDS, 1U);
		u64 ns, put = 0;

		topo_settle(t);
		t0 = ktime_get();
		for (i = 0; i < n; i++) {
			ret = pm_runtime_resume_and_get(dev);
			if (ret)
				return ret;
			t1 = ktime_get();
			pm_runtime_put_sync(dev);
			put += ktime_to_ns(ktime_sub(ktime_get(), t1));
			if (t->ndom > 1 && !t->sync)
				topo_settle(t);
		}
		ns = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)), n);
		*ns_per_cycle = min(*ns_per_cycle, ns);
		*put_ns = min(*put_ns, div_u64(put, n));
		cond_resched();
	}
	/* Sanity: the device is idle and the root domain is off again. */
	if (!pm_runtime_suspended(dev))
		return -EIO;
	if (t->genpd ? t->gpds[0]->status != GENPD_STATE_OFF :
		       t->pds[0]->status != AMPSOC_PD_OFF)
		return -EIO;
	return 0;
}

static void run_case(const char *name, bool sync, unsigned int ndom,
		     unsigned int ndev)
{
	struct bench_result *r;
	struct topo t;
	int pass;

	if (nresults >= MAX_CASES)
		return;
	r = &results[nresults++];
	strscpy(r->name, name, sizeof(r->name));
	/* Alternate which framework goes first to spread cache effects. */
	for (pass = 0; pass < 2 && !r->err; pass++) {
		bool genpd = pass == (nresults & 1);

		r->err = topo_build(&t, genpd, sync, ndom, ndev);
		if (!r->err)
			r->err = topo_measure(&t, genpd ? &r->genpd_ns : &r->ours_ns,
					      genpd ? &r->genpd_put_ns :
						      &r->ours_put_ns);
		topo_free(&t);
	}
	pr_info("%s: ours %llu ns/cycle, genpd %llu ns/cycle, err %d\n",
		r->name, r->ours_ns, r->genpd_ns, r->err);
}

static int results_show(struct seq_file *s, void *data)
{
	unsigned int i;

	for (i = 0; i < nresults; i++) {
		if (results[i].err)
			seq_printf(s, "%s error %d\n", results[i].name,
				   results[i].err);
		else
			seq_printf(s, "%s %llu %llu %llu %llu\n", results[i].name,
				   results[i].ours_ns, results[i].genpd_ns,
				   results[i].ours_put_ns,
				   results[i].genpd_put_ns);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(results);

static int __init bench_init(void)
{
	char *list, *cur, *tok;
	char name[24];
	unsigned int n;

	list = kstrdup(sizes, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((tok = strsep(&cur, ",")) != NULL) {
		if (kstrtouint(tok, 0, &n) || !n || n > 100000)
			continue;
		snprintf(name, sizeof(name), "n%u", n);
		run_case(name, false, 1, n);
	}
	kfree(list);
	if (depth >= 1 && depth <= MAX_DEPTH) {
		snprintf(name, sizeof(name), "depth%u", depth);
		run_case(name, false, depth, 1);
		snprintf(name, sizeof(name), "depth%u_sync", depth);
		run_case(name, true, depth, 1);
	}
	dbg_dir = debugfs_create_dir("ampsoc_pdbench", NULL);
	debugfs_create_file("results", 0444, dbg_dir, NULL, &results_fops);
	return 0;
}
module_init(bench_init);

static void __exit bench_exit(void)
{
	debugfs_remove_recursive(dbg_dir);
}
module_exit(bench_exit);

MODULE_DESCRIPTION("ampsoc PM domains vs built-in genpd: runtime PM cycle cost");
MODULE_LICENSE("GPL");

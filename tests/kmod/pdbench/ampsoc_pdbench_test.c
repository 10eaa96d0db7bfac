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
 * parents go off inside the put as they do in genpd. The N-device case
 * also runs IRQ-safe ("irqsafe_nN": AMPSOC_PD_FLAG_IRQ_SAFE against
 * GENPD_FLAG_IRQ_SAFE, every device pm_runtime_irq_safe()), where both
 * frameworks take the domain's spinlock in the device's own callbacks.
 *
 * Results: /sys/kernel/debug/ampsoc_pdbench/results, one line per case:
 *   <case> <ours ns/cycle> <genpd ns/cycle> <ours ns/put> <genpd ns/put>
 *	<ours ns/call> <genpd ns/call>
 * where "put" is the pm_runtime_put_sync() alone: the device's suspend
 * latency, which our asynchronous parent power-off keeps short; and
 * "call" is the get and the put together, what the caller waits for,
 * without the wait for the parents' background power-off that "cycle"
 * includes (the same as "cycle" wherever nothing is left in background).
 *
 * The governed cases build both frameworks' topologies side by side and
 * measure them in interleaved rounds (ours, genpd, genpd, ours, ...), each
 * round's figure kept, so that host noise lands on both:
 *
 *  - qos_cycle_nN: one domain with the QoS governor (ours, and genpd's
 *    simple_qos_governor), N devices each with a resume-latency request,
 *    one device cycling get_sync/put_sync, the others suspended;
 *  - qos_samechg_nN: the same, with the request of another device of the
 *    domain (the last one; at N = 1 the measured device itself) changed
 *    before every cycle: the domain's cached constraint must be computed
 *    again, a walk of its N devices in genpd, one device's place in the
 *    domain's order of constraints in ours;
 *  - qos_otherchg_nN: the same, with the request of the one device of a
 *    second QoS-governed domain changed before every cycle: nothing of the
 *    measured domain changed, so its cost should not grow with N;
 *  - perf_set_nN: one domain with a set_performance_state() callback, all
 *    N devices active, N - 1 of them holding votes (1 to 3); the measured
 *    device asks for 4, then for 0 (which makes both frameworks look at the
 *    other votes again: genpd walks them, ours reads its count of votes by
 *    state); the figure is per request.
 *
 * simple_qos_governor is not exported by 6.1: the bench script finds its
 * address in /proc/kallsyms and passes it as qos_gov=, which is used only
 * if kallsyms names exactly that symbol there.
 *
 * Results: /sys/kernel/debug/ampsoc_pdbench/rounds, one line per case:
 *   <case> <ours, per round, comma-separated> <genpd, the same> <walks>
 * (ns per cycle or per request; walks: our device-list walks per 1000
 * cycles or requests), or "<case> error <errno>".
 */
#include <ampsoc/pm_domain.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pm_domain.h>
#include <linux/pm_qos.h>
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

static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "interleaved rounds of the governed cases (1-16)");

static unsigned long qos_gov;
module_param(qos_gov, ulong, 0444);
MODULE_PARM_DESC(qos_gov, "address of simple_qos_governor (/proc/kallsyms)");

#define MAX_CASES	16
#define ROUNDS		5
#define MAX_DEPTH	16
#define MAX_RCASES	24
#define MAX_ROUNDS	16

/*
 * Resume-latency requests, in us: far above any latency the bench has,
 * including a measured latency that a stall of the shared host inflated
 * (both frameworks keep the largest one seen, and a domain whose latencies
 * no longer fit stays on: the case would not measure what it says).
 */
#define QOS_BASE_US	1000000
#define QOS_CHG_US	2000000
/* The measured device's performance request: above every other vote. */
#define PERF_TOP	4

/* topo_build() flags */
#define TOPO_SYNC	BIT(0)	/* ours: AMPSOC_PD_FLAG_SYNC_OFF */
#define TOPO_QOS	BIT(1)	/* QoS governor, a request per device */
#define TOPO_PERF	BIT(2)	/* a set_performance_state() callback */
#define TOPO_IRQ	BIT(3)	/* IRQ-safe domains and devices */

struct bench_result {
	char name[24];
	u64 ours_ns;
	u64 genpd_ns;
	u64 ours_put_ns;
	u64 genpd_put_ns;
	u64 ours_call_ns;
	u64 genpd_call_ns;
	int err;
};

static struct bench_result results[MAX_CASES];
static unsigned int nresults;

/* A governed case: every round's figure for both frameworks. */
struct rounds_result {
	char name[24];
	u64 ours[MAX_ROUNDS];
	u64 genpd[MAX_ROUNDS];
	u64 walks;	/* our device-list walks during the measured rounds */
	u64 ops;	/* cycles or requests in those rounds */
	int err;
};

static struct rounds_result rresults[MAX_RCASES];
static unsigned int nrresults;
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

static int nop_perf(struct ampsoc_pd *pd, unsigned int state)
{
	return 0;
}

static int nop_genpd_perf(struct generic_pm_domain *gpd, unsigned int state)
{
	return 0;
}

/* genpd's QoS governor, if qos_gov= is where kallsyms puts it. */
static struct dev_power_governor *genpd_qos_gov(void)
{
	static const char want[] = "simple_qos_governor+0x0/";
	char sym[KSYM_SYMBOL_LEN];

	if (!qos_gov)
		return NULL;
	sprint_symbol(sym, qos_gov);
	if (strncmp(sym, want, sizeof(want) - 1))
		return NULL;
	return (struct dev_power_governor *)qos_gov;
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
	struct dev_pm_qos_request *reqs;	/* TOPO_QOS: one per device */
	bool held;	/* every device held active (perf_hold()) */
};

static void perf_release(struct topo *t);

static void topo_free(struct topo *t)
{
	unsigned int i;

	perf_release(t);
	for (i = 0; t->devs && i < t->ndev; i++) {
		struct device *dev = t->devs[i];

		if (!dev)
			continue;
		if (t->reqs && dev_pm_qos_request_active(&t->reqs[i]))
			dev_pm_qos_remove_request(&t->reqs[i]);
		pm_runtime_disable(dev);
		if (t->genpd)
			pm_genpd_remove_device(dev);
		else
			ampsoc_pd_remove_device(dev);
		put_device(dev);
	}
	kvfree(t->devs);
	kvfree(t->reqs);
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

/*
 * @tag tells the domains of two topologies of one framework apart (their
 * names must differ).
 */
static int topo_build(struct topo *t, bool genpd, unsigned int flags,
		      const char *tag, unsigned int ndom, unsigned int ndev)
{
	struct dev_power_governor *ggov = NULL;
	unsigned int i;
	int ret;

	memset(t, 0, sizeof(*t));
	t->genpd = genpd;
	t->sync = flags & TOPO_SYNC;
	t->ndom = ndom;
	t->ndev = ndev;
	if (genpd && (flags & TOPO_QOS)) {
		ggov = genpd_qos_gov();
		if (!ggov)
			return -ENOENT;
	}
	for (i = 0; i < ndom; i++) {
		char *name = kasprintf(GFP_KERNEL, "pdbench_%s%s%u",
				       genpd ? "g" : "a", tag, i);

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
			if (flags & TOPO_IRQ)
				g->flags |= GENPD_FLAG_IRQ_SAFE;
			if (flags & TOPO_PERF)
				g->set_performance_state = nop_genpd_perf;
			ret = pm_genpd_init(g, ggov, false);
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
			if (flags & TOPO_SYNC)
				p->flags |= AMPSOC_PD_FLAG_SYNC_OFF;
			if (flags & TOPO_IRQ)
				p->flags |= AMPSOC_PD_FLAG_IRQ_SAFE;
			if (flags & TOPO_PERF)
				p->set_performance_state = nop_perf;
			ret = ampsoc_pd_init(p, flags & TOPO_QOS ?
					     &ampsoc_pd_qos_gov : NULL, false);
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
	if (flags & TOPO_QOS) {
		t->reqs = kvcalloc(ndev, sizeof(*t->reqs), GFP_KERNEL);
		if (!t->reqs)
			return -ENOMEM;
	}
	for (i = 0; i < ndev; i++) {
		struct device *dev = bench_dev_new(i);

		ret = -ENOMEM;
		if (!dev)
			break;
		t->devs[i] = dev;
		if (genpd)
			ret = pm_genpd_add_device(t->gpds[ndom - 1], dev);
		else
			ret = ampsoc_pd_add_device(t->pds[ndom - 1], dev);
		if (ret)
			break;
		if (t->reqs) {
			ret = dev_pm_qos_add_request(dev, &t->reqs[i],
						     DEV_PM_QOS_RESUME_LATENCY,
						     QOS_BASE_US + i);
			if (ret < 0)
				break;
		}
		if (flags & TOPO_IRQ)
			pm_runtime_irq_safe(dev);
		pm_runtime_enable(dev);
		/* One cycle puts both frameworks in the same idle state. */
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			break;
		/*
		 * Under a QoS governor devs[0] stays active until every device
		 * is in: each addition invalidates the domain's constraint, and
		 * a governor asked with all devices idle would walk the list
		 * after each one, N^2/2 in all, in both frameworks.
		 */
		if (i || !t->reqs)
			pm_runtime_put_sync(dev);
		cond_resched();
	}
	if (t->reqs && i)
		pm_runtime_put_sync(t->devs[0]);
	return ret;
}

static void topo_settle(struct topo *t)
{
	unsigned int i;

	if (t->genpd)
		return;
	for (i = t->ndom; i-- > 0;)
		flush_work(&t->pds[i]->power_off_work);
}

/* Each figure the best of ROUNDS: cycle, put alone, get and put. */
struct topo_figures {
	u64 cycle_ns;
	u64 put_ns;
	u64 call_ns;
};

static int topo_measure(struct topo *t, struct topo_figures *f)
{
	struct device *dev = t->devs[0];
	unsigned int i, round;
	ktime_t t0, t1, tg;
	int ret;

	/* Warm up (under TCG, code runs slowly the first time). */
	for (i = 0; i < cycles / 4; i++) {
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			return ret;
		pm_runtime_put_sync(dev);
	}
	/* The best of ROUNDS rounds: the host is shared, noise only adds. */
	f->cycle_ns = U64_MAX;
	f->put_ns = U64_MAX;
	f->call_ns = U64_MAX;
	for (round = 0; round < ROUNDS; round++) {
		unsigned int n = max(cycles / ROUNDS, 1U);
		u64 ns, put = 0, call = 0;
		ktime_t t2;

		topo_settle(t);
		t0 = ktime_get();
		for (i = 0; i < n; i++) {
			tg = ktime_get();
			ret = pm_runtime_resume_and_get(dev);
			if (ret)
				return ret;
			t1 = ktime_get();
			pm_runtime_put_sync(dev);
			t2 = ktime_get();
			put += ktime_to_ns(ktime_sub(t2, t1));
			call += ktime_to_ns(ktime_sub(t2, tg));
			if (t->ndom > 1 && !t->sync)
				topo_settle(t);
		}
		ns = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)), n);
		f->cycle_ns = min(f->cycle_ns, ns);
		f->put_ns = min(f->put_ns, div_u64(put, n));
		f->call_ns = min(f->call_ns, div_u64(call, n));
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

static void run_case(const char *name, unsigned int flags, unsigned int ndom,
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
		struct topo_figures f;

		r->err = topo_build(&t, genpd, flags, "", ndom, ndev);
		if (!r->err)
			r->err = topo_measure(&t, &f);
		if (!r->err && genpd) {
			r->genpd_ns = f.cycle_ns;
			r->genpd_put_ns = f.put_ns;
			r->genpd_call_ns = f.call_ns;
		} else if (!r->err) {
			r->ours_ns = f.cycle_ns;
			r->ours_put_ns = f.put_ns;
			r->ours_call_ns = f.call_ns;
		}
		topo_free(&t);
	}
	pr_info("%s: ours %llu ns/cycle, genpd %llu ns/cycle, err %d\n",
		r->name, r->ours_ns, r->genpd_ns, r->err);
}

/* --- the governed cases: both frameworks side by side, rounds interleaved --- */

enum qos_change {
	QOS_NONE,	/* no request changes */
	QOS_SAME,	/* another device of the measured domain */
	QOS_OTHER,	/* the device of a second domain */
};

/* The two frameworks' topologies: [0] ours, [1] genpd. */
static struct topo gov_topo[2], side_topo[2];

static unsigned int round_cycles(void)
{
	return max(cycles / ROUNDS, 1U);
}

static bool topo_root_off(struct topo *t)
{
	return t->genpd ? t->gpds[0]->status == GENPD_STATE_OFF :
			  t->pds[0]->status == AMPSOC_PD_OFF;
}

/*
 * @n runtime PM cycles of devs[0], @chg (if any) changed before each one,
 * to a value the device's request never had, so that every change
 * reaches the notifiers. ns per cycle, change included, in @ns.
 */
static int qos_round(struct topo *t, struct dev_pm_qos_request *chg,
		     unsigned int n, u64 *ns)
{
	struct device *dev = t->devs[0];
	unsigned int i;
	ktime_t t0;
	int ret;

	t0 = ktime_get();
	for (i = 0; i < n; i++) {
		if (chg) {
			ret = dev_pm_qos_update_request(chg, QOS_CHG_US + (i & 1));
			if (ret < 0)
				return ret;
		}
		ret = pm_runtime_resume_and_get(dev);
		if (ret)
			return ret;
		pm_runtime_put_sync(dev);
	}
	*ns = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)), n);
	return 0;
}

static int perf_set(struct topo *t, struct device *dev, unsigned int state)
{
	if (t->genpd)
		return dev_pm_genpd_set_performance_state(dev, state);
	return ampsoc_pd_set_performance_state(dev, state);
}

/* Every device active (a suspended device's vote is withheld), N-1 votes. */
static int perf_hold(struct topo *t)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->ndev; i++) {
		ret = pm_runtime_resume_and_get(t->devs[i]);
		if (ret) {
			while (i--)
				pm_runtime_put_sync(t->devs[i]);
			return ret;
		}
	}
	t->held = true;
	for (i = 1; i < t->ndev; i++) {
		ret = perf_set(t, t->devs[i], 1 + i % 3);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static void perf_release(struct topo *t)
{
	unsigned int i;

	if (!t->held)
		return;
	for (i = 0; i < t->ndev; i++)
		perf_set(t, t->devs[i], 0);
	for (i = 0; i < t->ndev; i++) {
		pm_runtime_put_sync(t->devs[i]);
		cond_resched();
	}
	t->held = false;
}

/* @n times: devs[0] asks for PERF_TOP, then for 0. ns per request. */
static int perf_round(struct topo *t, unsigned int n, u64 *ns)
{
	struct device *dev = t->devs[0];
	unsigned int i;
	ktime_t t0;
	int ret;

	t0 = ktime_get();
	for (i = 0; i < n; i++) {
		ret = perf_set(t, dev, PERF_TOP);
		if (ret)
			return ret;
		ret = perf_set(t, dev, 0);
		if (ret)
			return ret;
	}
	*ns = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)), 2 * n);
	return 0;
}

/* The domain's state once devs[0] has withdrawn its request. */
static unsigned int perf_expected(struct topo *t)
{
	return min(t->ndev - 1, 3U);
}

static bool perf_check(struct topo *t)
{
	unsigned int st = t->genpd ? t->gpds[0]->performance_state :
				     t->pds[0]->performance_state;

	return st == perf_expected(t);
}

static int gov_round(unsigned int k, enum qos_change chg, bool perf,
		     unsigned int n, u64 *ns)
{
	struct topo *t = &gov_topo[k];
	struct dev_pm_qos_request *req = NULL;

	if (perf)
		return perf_round(t, n, ns);
	if (chg == QOS_SAME)
		req = &t->reqs[t->ndev - 1];
	else if (chg == QOS_OTHER)
		req = &side_topo[k].reqs[0];
	return qos_round(t, req, n, ns);
}

static int gov_build(unsigned int ndev, enum qos_change chg, bool perf)
{
	unsigned int k;
	int ret;

	for (k = 0; k < 2; k++) {
		ret = topo_build(&gov_topo[k], k, perf ? TOPO_PERF : TOPO_QOS,
				 "", 1, ndev);
		if (ret)
			return ret;
		if (perf) {
			ret = perf_hold(&gov_topo[k]);
			if (ret)
				return ret;
		}
		if (chg == QOS_OTHER) {
			ret = topo_build(&side_topo[k], k, TOPO_QOS, "x", 1, 1);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void run_gov_case(const char *name, unsigned int ndev,
			 enum qos_change chg, bool perf)
{
	unsigned int n = round_cycles(), nr = clamp(rounds, 1U, MAX_ROUNDS);
	struct rounds_result *r;
	unsigned int k, round, pass;
	u64 ns, w0;

	if (nrresults >= MAX_RCASES)
		return;
	r = &rresults[nrresults++];
	strscpy(r->name, name, sizeof(r->name));
	r->err = gov_build(ndev, chg, perf);
	/* Warm up both (under TCG, code runs slowly the first time). */
	for (k = 0; k < 2 && !r->err; k++)
		r->err = gov_round(k, chg, perf, max(n / 4, 1U), &ns);
	for (round = 0; round < nr && !r->err; round++) {
		for (pass = 0; pass < 2 && !r->err; pass++) {
			k = (round + pass) & 1;
			w0 = ampsoc_pd_dev_walks();
			r->err = gov_round(k, chg, perf, n,
					   k ? &r->genpd[round] : &r->ours[round]);
			if (!k) {
				r->walks += ampsoc_pd_dev_walks() - w0;
				r->ops += perf ? 2 * n : n;
			}
			cond_resched();
		}
	}
	/* Sanity: each framework ends where the case says it must. */
	for (k = 0; k < 2 && !r->err; k++) {
		struct topo *t = &gov_topo[k];

		if (perf ? !perf_check(t) :
			   !pm_runtime_suspended(t->devs[0]) || !topo_root_off(t)) {
			pr_warn("%s: %s: device %s, domain %s\n", r->name,
				k ? "genpd" : "ours",
				pm_runtime_suspended(t->devs[0]) ? "suspended" :
								   "active",
				topo_root_off(t) ? "off" : "on");
			r->err = -EIO;
		}
	}
	for (k = 0; k < 2; k++) {
		topo_free(&gov_topo[k]);
		if (chg == QOS_OTHER)
			topo_free(&side_topo[k]);
	}
	memset(gov_topo, 0, sizeof(gov_topo));
	memset(side_topo, 0, sizeof(side_topo));
	pr_info("%s: ours %llu, genpd %llu ns (last round), err %d\n", r->name,
		r->ours[nr - 1], r->genpd[nr - 1], r->err);
}

static void rounds_print(struct seq_file *s, const u64 *v, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		seq_printf(s, "%s%llu", i ? "," : " ", v[i]);
}

static int rounds_show(struct seq_file *s, void *data)
{
	unsigned int i, nr = clamp(rounds, 1U, MAX_ROUNDS);

	for (i = 0; i < nrresults; i++) {
		struct rounds_result *r = &rresults[i];

		if (r->err) {
			seq_printf(s, "%s error %d\n", r->name, r->err);
			continue;
		}
		seq_puts(s, r->name);
		rounds_print(s, r->ours, nr);
		rounds_print(s, r->genpd, nr);
		seq_printf(s, " %llu\n", r->ops ?
			   div64_u64(r->walks * 1000, r->ops) : 0);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rounds);

static int results_show(struct seq_file *s, void *data)
{
	unsigned int i;

	for (i = 0; i < nresults; i++) {
		if (results[i].err)
			seq_printf(s, "%s error %d\n", results[i].name,
				   results[i].err);
		else
			seq_printf(s, "%s %llu %llu %llu %llu %llu %llu\n",
				   results[i].name,
				   results[i].ours_ns, results[i].genpd_ns,
				   results[i].ours_put_ns,
				   results[i].genpd_put_ns,
				   results[i].ours_call_ns,
				   results[i].genpd_call_ns);
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
		run_case(name, 0, 1, n);
		snprintf(name, sizeof(name), "irqsafe_n%u", n);
		run_case(name, TOPO_IRQ, 1, n);
	}
	kfree(list);
	list = kstrdup(sizes, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((tok = strsep(&cur, ",")) != NULL) {
		if (kstrtouint(tok, 0, &n) || !n || n > 100000)
			continue;
		snprintf(name, sizeof(name), "qos_cycle_n%u", n);
		run_gov_case(name, n, QOS_NONE, false);
		snprintf(name, sizeof(name), "qos_samechg_n%u", n);
		run_gov_case(name, n, QOS_SAME, false);
		snprintf(name, sizeof(name), "qos_otherchg_n%u", n);
		run_gov_case(name, n, QOS_OTHER, false);
		snprintf(name, sizeof(name), "perf_set_n%u", n);
		run_gov_case(name, n, QOS_NONE, true);
	}
	kfree(list);
	if (depth >= 1 && depth <= MAX_DEPTH) {
		snprintf(name, sizeof(name), "depth%u", depth);
		run_case(name, 0, depth, 1);
		snprintf(name, sizeof(name), "depth%u_sync", depth);
		run_case(name, TOPO_SYNC, depth, 1);
	}
	dbg_dir = debugfs_create_dir("ampsoc_pdbench", NULL);
	debugfs_create_file("results", 0444, dbg_dir, NULL, &results_fops);
	debugfs_create_file("rounds", 0444, dbg_dir, NULL, &rounds_fops);
	return 0;
}
module_init(bench_init);

static void __exit bench_exit(void)
{
	debugfs_remove_recursive(dbg_dir);
}
module_exit(bench_exit);

MODULE_DESCRIPTION("ampsoc PM domains vs built-in genpd: runtime PM, QoS, performance states");
MODULE_LICENSE("GPL");

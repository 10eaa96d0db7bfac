// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: governors.
 *
 * The QoS governor keeps, per domain, the tightest resume-latency
 * constraint of its devices and of its subdomains. The devices' part is
 * kept in order as it changes: each device with a constraint sits in the
 * domain's qos_devs, an rbtree keyed by what its measured latencies leave
 * of its constraint, updated by its PM QoS notifier and when a latency
 * grows. The domain's value is cached and recomputed, from the tree's
 * first node and the subdomains' links, when something it is made of
 * changed; each change marks only the domain concerned (as 6.1's genpd
 * does). So neither a change nor the power-off decision walks the device
 * list: both cost the same with 1 or 10,000 devices.
 */
#include <linux/pm_qos.h>
#include <linux/rbtree.h>

#include "domain_internal.h"

static bool always_on_power_down_ok(struct ampsoc_pd *pd)
{
	return false;
}

const struct ampsoc_pd_governor ampsoc_pd_always_on_gov = {
	.name = "always_on",
	.power_down_ok = always_on_power_down_ok,
};
EXPORT_SYMBOL_GPL(ampsoc_pd_always_on_gov);

/* The device's resume-latency constraint in ns; -1 for none. */
static s64 pd_dev_qos_ns(struct device *dev)
{
	s32 us = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	if (!IS_ERR_OR_NULL(dev->power.qos))
		us = READ_ONCE(dev->power.qos->resume_latency.target_value);
	spin_unlock_irqrestore(&dev->power.lock, flags);

	if (us == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT || us < 0)
		return -1;
	return (s64)us * NSEC_PER_USEC;
}

/* Tighter first: the tree's first node is the domain's devices' bound. */
static bool pd_qos_before(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct ampsoc_pd_dev, qos_node)->qos_key_ns <
	       rb_entry(b, struct ampsoc_pd_dev, qos_node)->qos_key_ns;
}

/* Put @pdd where its constraint and latencies say (qos_lock held). */
static void pd_qos_place(struct ampsoc_pd_dev *pdd)
{
	struct ampsoc_pd *pd = pdd->pd;
	s64 key;

	lockdep_assert_held(&pd->qos_lock);
	if (!RB_EMPTY_NODE(&pdd->qos_node)) {
		rb_erase_cached(&pdd->qos_node, &pd->qos_devs);
		RB_CLEAR_NODE(&pdd->qos_node);
	}
	if (pdd->qos_gone || pdd->qos_req_ns < 0)
		return;
	key = pdd->qos_req_ns - READ_ONCE(pdd->suspend_latency_ns) -
	      READ_ONCE(pdd->resume_latency_ns);
	pdd->qos_key_ns = max_t(s64, key, 0);
	rb_add_cached(&pdd->qos_node, &pd->qos_devs, pd_qos_before);
}

/**
 * ampsoc_pd_qos_update() - move a device in its domain's order of constraints
 * @pdd: a device of a domain
 * @what: AMPSOC_PD_QOS_READ: read its constraint again, from its PM QoS
 *	notifier (serialised by the PM QoS mutex) and once when it joins,
 *	after the notifier is registered; under qos_lock, so the last reader
 *	leaves the last value. AMPSOC_PD_QOS_LATENCY: a measured latency
 *	grew (written under the domain lock before this). AMPSOC_PD_QOS_GONE:
 *	it left the domain's device list; a notifier still running for it
 *	after this changes nothing.
 *
 * Context: any but hard interrupt for AMPSOC_PD_QOS_READ (takes the
 * device's power.lock inside the domain's qos_lock); any otherwise.
 */
void ampsoc_pd_qos_update(struct ampsoc_pd_dev *pdd,
			  enum ampsoc_pd_qos_change what)
{
	struct ampsoc_pd *pd = pdd->pd;
	unsigned long flags;

	spin_lock_irqsave(&pd->qos_lock, flags);
	if (what == AMPSOC_PD_QOS_READ)
		pdd->qos_req_ns = pd_dev_qos_ns(pdd->base.dev);
	else if (what == AMPSOC_PD_QOS_GONE)
		pdd->qos_gone = true;
	pd_qos_place(pdd);
	spin_unlock_irqrestore(&pd->qos_lock, flags);
	ampsoc_pd_qos_invalidate(pd);
}

/*
 * Runs in the device's own runtime suspend, without the domain lock: the
 * latencies it reads are written only by this device's runtime PM
 * callbacks, which the PM core serialises with this one.
 */
static bool qos_suspend_ok(struct device *dev)
{
	struct ampsoc_pd_dev *pdd = ampsoc_pd_dev_data(dev);
	s64 c;

	if (!pdd)
		return true;
	c = pd_dev_qos_ns(dev);
	if (c < 0)
		return true;
	return c > pdd->suspend_latency_ns +
		   max(pdd->resume_latency_ns, pdd->resume_pending_ns);
}

static s64 pd_min_constraint(s64 a, s64 b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return min(a, b);
}

/* Recompute the cached constraint (lock held). */
static void pd_qos_refresh(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_link *link;
	struct rb_node *first;
	unsigned long flags;
	s64 c = -1;

	spin_lock_irqsave(&pd->qos_lock, flags);
	first = rb_first_cached(&pd->qos_devs);
	if (first)
		c = rb_entry(first, struct ampsoc_pd_dev, qos_node)->qos_key_ns;
	spin_unlock_irqrestore(&pd->qos_lock, flags);
	pd_for_each_child(pd, link)
		c = pd_min_constraint(c, READ_ONCE(link->child->qos_off_ns));
	pd->qos_constraint_ns = c;
}

/*
 * What this domain leaves of the constraint for its parents; a change
 * invalidates their cached values. The links are stable under @pd's lock
 * (linking takes both domains' locks).
 */
static void pd_qos_set_off(struct ampsoc_pd *pd, s64 off)
{
	struct ampsoc_pd_link *link;

	if (READ_ONCE(pd->qos_off_ns) == off)
		return;
	WRITE_ONCE(pd->qos_off_ns, off);
	pd_for_each_parent(pd, link)
		ampsoc_pd_qos_invalidate(link->parent);
}

static bool qos_power_down_ok(struct ampsoc_pd *pd)
{
	int i, fit = -1, best = -1;
	s64 c;

	/* xchg orders the reads of the refresh after a writer's release */
	if (atomic_xchg(&pd->qos_dirty, 0))
		pd_qos_refresh(pd);
	c = pd->qos_constraint_ns;

	for (i = pd->state_count - 1; i >= 0; i--) {
		struct ampsoc_pd_state *st = &pd->states[i];
		s64 cost = st->power_off_latency_ns + st->power_on_latency_ns;

		if (c >= 0 && cost > c)
			continue;
		if (fit < 0)
			fit = i;
		if (!pd->idle_avg_ns || st->residency_ns <= pd->idle_avg_ns) {
			best = i;
			break;
		}
	}
	if (best < 0) {
		/* No state pays off: the shallowest that fits, if any. */
		for (i = 0; i < (int)pd->state_count && fit >= 0; i++) {
			struct ampsoc_pd_state *st = &pd->states[i];

			if (c < 0 || st->power_off_latency_ns +
				     st->power_on_latency_ns <= c) {
				best = i;
				break;
			}
		}
	}
	if (best >= 0) {
		pd->state_idx = best;
		if (c >= 0)
			c -= pd->states[best].power_off_latency_ns +
			     pd->states[best].power_on_latency_ns;
	}
	pd_qos_set_off(pd, c);
	return best >= 0;
}

const struct ampsoc_pd_governor ampsoc_pd_qos_gov = {
	.name = "qos",
	.power_down_ok = qos_power_down_ok,
	.suspend_ok = qos_suspend_ok,
};
EXPORT_SYMBOL_GPL(ampsoc_pd_qos_gov);

// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: performance states.
 *
 * A domain's performance state is the largest request among its devices
 * (a runtime-suspended device's request is withheld) and its subdomains
 * (each link holds the subdomain's state in the parent's scale). A change
 * goes to the parents first, then to the domain's own provider callback;
 * a failure restores what the change had done. These are Linux 6.1's
 * semantics.
 *
 * Locking. 6.1 calls set_performance_state() with the domain's lock held
 * (and its parents' as it recurses). Here no provider callback runs under
 * a domain lock: every change is serialised by one mutex of its own,
 * ampsoc_pd_perf_lock, which also keeps the graph still (the graph
 * operations take it first), and no domain lock is taken: a device's
 * request, and its domain's perf_votes that count it, change under the
 * mutex alone.
 *
 * Aggregating. 6.1 walks the domain's devices when a request goes down.
 * Here perf_votes counts the requests by state: how many devices ask for
 * each state below AMPSOC_PD_VOTES_SMALL, with a bit per state in use, and
 * an rbtree, largest first, of the devices that ask for more (providers
 * whose states are large sparse numbers). The largest request is the
 * tree's first node or the highest bit, so a request costs the same with
 * one voter or ten thousand.
 * Lock order: ampsoc_pd_perf_lock, then ampsoc_pd_list_lock, then the
 * domain locks.
 *
 * Runtime PM: a device's runtime suspend sets perf_withheld and withdraws
 * its request, its resume clears the flag and applies the request again.
 * A request made while the flag is set is only recorded. The callbacks
 * look at the request without the mutex when they can (a device that never
 * asked for a state costs nothing), so the flag and the request are each
 * written, then the other one read, with a full barrier in between on both
 * sides: whichever of a request and a suspend (or resume) comes second
 * sees the first and finishes the job under the mutex.
 */
#include <linux/bitops.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>

#include "domain_internal.h"

/* Serialises every performance-state change and keeps the graph still. */
DEFINE_MUTEX(ampsoc_pd_perf_lock);

/* Larger requests first: the tree's first node is the largest. */
static bool pd_vote_before(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct ampsoc_pd_dev, perf_node)->performance_state >
	       rb_entry(b, struct ampsoc_pd_dev, perf_node)->performance_state;
}

/* Count @pdd's request, @pdd->performance_state, in its domain's votes. */
static void pd_vote_add(struct ampsoc_pd_votes *v, struct ampsoc_pd_dev *pdd)
{
	unsigned int state = pdd->performance_state;

	if (!state)
		return;
	if (state >= AMPSOC_PD_VOTES_SMALL) {
		rb_add_cached(&pdd->perf_node, &v->large, pd_vote_before);
		return;
	}
	if (!v->small[state]++)
		v->small_map |= BIT(state);
}

static void pd_vote_del(struct ampsoc_pd_votes *v, struct ampsoc_pd_dev *pdd)
{
	unsigned int state = pdd->performance_state;

	if (!state)
		return;
	if (state >= AMPSOC_PD_VOTES_SMALL) {
		rb_erase_cached(&pdd->perf_node, &v->large);
		return;
	}
	if (!--v->small[state])
		v->small_map &= ~BIT(state);
}

/* @pdd's request becomes @state, in the device and in the votes. */
static void pd_vote_set(struct ampsoc_pd_dev *pdd, unsigned int state)
{
	struct ampsoc_pd_votes *v = &pdd->pd->perf_votes;

	lockdep_assert_held(&ampsoc_pd_perf_lock);
	pd_vote_del(v, pdd);
	/* The debugfs readers use READ_ONCE(). */
	WRITE_ONCE(pdd->performance_state, state);
	pd_vote_add(v, pdd);
}

/* The largest request of @pd's devices, 0 if none. */
static unsigned int pd_vote_max(struct ampsoc_pd *pd)
{
	struct ampsoc_pd_votes *v = &pd->perf_votes;
	struct rb_node *first = rb_first_cached(&v->large);

	if (first)
		return rb_entry(first, struct ampsoc_pd_dev,
				perf_node)->performance_state;
	return v->small_map ? __fls(v->small_map) : 0;
}

/*
 * The state @pd needs if one of its requests becomes @state: 6.1's
 * reevaluation, which looks at the other requests only when @state is
 * lower than the current one (6.1 walks the devices; the votes give their
 * largest request). Performance mutex held.
 */
static unsigned int pd_perf_reeval(struct ampsoc_pd *pd, unsigned int state)
{
	struct ampsoc_pd_link *link;

	lockdep_assert_held(&ampsoc_pd_perf_lock);
	if (state >= pd->performance_state)
		return state;

	state = max(state, pd_vote_max(pd));

	/* Links: the graph does not change under the performance mutex. */
	pd_for_each_child(pd, link)
		state = max(state, link->performance_state);
	return state;
}

/* @pd's @state in @parent's scale, or a negative errno. */
static int pd_perf_xlate(struct ampsoc_pd *pd, struct ampsoc_pd *parent,
			 unsigned int state)
{
	int ret;

	if (!parent->set_performance_state || !pd->xlate_performance_state)
		return state;
	ret = pd->xlate_performance_state(pd, parent, state);
	if (ret < 0)
		pr_err("%s: cannot translate performance state %u for %s: %d\n",
		       pd->name, state, parent->name, ret);
	return ret;
}

/*
 * Set @pd's aggregated state: parents first, then @pd's provider. On an
 * error every parent changed so far gets its previous request back.
 * Performance mutex held; depth only bounds the recursion.
 */
static int pd_perf_set_domain(struct ampsoc_pd *pd, unsigned int state,
			      unsigned int depth)
{
	struct ampsoc_pd_link *link;
	unsigned int pstate;
	int ret = 0;

	if (state == pd->performance_state)
		return 0;

	pd_for_each_parent(pd, link) {
		struct ampsoc_pd *parent = link->parent;

		ret = pd_perf_xlate(pd, parent, state);
		if (ret < 0)
			goto err;
		link->prev_performance_state = link->performance_state;
		link->performance_state = ret;
		pstate = pd_perf_reeval(parent, ret);
		ret = pd_perf_set_domain(parent, pstate, depth + 1);
		if (ret) {
			link->performance_state = link->prev_performance_state;
			goto err;
		}
	}

	if (pd->set_performance_state) {
		ret = pd->set_performance_state(pd, state);
		if (ret)
			goto err;
	}
	WRITE_ONCE(pd->performance_state, state);
	return 0;

err:
	list_for_each_entry_continue_reverse(link, &pd->parent_links,
					     child_node) {
		struct ampsoc_pd *parent = link->parent;

		link->performance_state = link->prev_performance_state;
		pstate = pd_perf_reeval(parent, link->performance_state);
		if (pd_perf_set_domain(parent, pstate, depth + 1))
			pr_err("%s: failed to roll back to performance state %u\n",
			       parent->name, pstate);
	}
	return ret;
}

/* Make @state the request @pdd's domain counts. Performance mutex held. */
static int pd_perf_set_dev(struct ampsoc_pd_dev *pdd, unsigned int state)
{
	struct ampsoc_pd *pd = pdd->pd;
	unsigned int prev = pdd->performance_state;
	int ret;

	if (prev == state)
		return 0;
	pd_vote_set(pdd, state);
	ret = pd_perf_set_domain(pd, pd_perf_reeval(pd, state), 0);
	if (ret)
		pd_vote_set(pdd, prev);
	return ret;
}

/*
 * Withdraw the request of a device the core sees runtime-suspended and
 * keep it for its resume; a failure leaves it counted (6.1 keeps it then
 * too). Performance mutex held.
 */
static void pd_perf_withhold(struct ampsoc_pd_dev *pdd)
{
	unsigned int prev = pdd->performance_state;

	if (!READ_ONCE(pdd->perf_withheld) || !prev)
		return;
	if (!pd_perf_set_dev(pdd, 0))
		pdd->rpm_pstate = prev;
}

/* Apply a resumed device's withheld request again. Mutex held. */
static void pd_perf_reinstate(struct ampsoc_pd_dev *pdd)
{
	unsigned int state = pdd->rpm_pstate;

	if (READ_ONCE(pdd->perf_withheld) || !state)
		return;
	pdd->rpm_pstate = 0;
	/* As 6.1, a failure to restore is not the resume's failure. */
	pd_perf_set_dev(pdd, state);
}

/* A device of ours runtime-suspends: after stop(), before power-off. */
void ampsoc_pd_perf_suspend(struct ampsoc_pd_dev *pdd)
{
	WRITE_ONCE(pdd->perf_withheld, true);
	smp_mb();	/* the flag, then the request; pairs with the request's */
	if (!READ_ONCE(pdd->performance_state))
		return;
	mutex_lock(&ampsoc_pd_perf_lock);
	pd_perf_withhold(pdd);
	mutex_unlock(&ampsoc_pd_perf_lock);
}

/* A device of ours runtime-resumes (or failed to): after power-on. */
void ampsoc_pd_perf_resume(struct ampsoc_pd_dev *pdd)
{
	WRITE_ONCE(pdd->perf_withheld, false);
	smp_mb();	/* the flag, then the request; pairs with the request's */
	if (!READ_ONCE(pdd->rpm_pstate))
		return;
	mutex_lock(&ampsoc_pd_perf_lock);
	pd_perf_reinstate(pdd);
	mutex_unlock(&ampsoc_pd_perf_lock);
}

/* A device leaves its domain: drop its request. Performance mutex held. */
void ampsoc_pd_perf_forget(struct ampsoc_pd_dev *pdd)
{
	int ret;

	lockdep_assert_held(&ampsoc_pd_perf_lock);
	pdd->rpm_pstate = 0;
	ret = pd_perf_set_dev(pdd, 0);
	if (ret) {
		pr_err("%s: dropping a removed device's performance state: %d\n",
		       pdd->pd->name, ret);
		/* The device goes all the same, and its vote with it. */
		pd_vote_set(pdd, 0);
	}
}

/**
 * ampsoc_pd_set_performance_state - a device's performance-state request
 * @dev: a device in one of our domains
 * @state: the state it needs, 0 for none
 *
 * See include/ampsoc/pm_domain.h.
 *
 * Context: process context; may sleep (takes the performance mutex and
 * calls the providers).
 * Return: 0 on success or when the request is only recorded for a
 * runtime-suspended device; -ENODEV if @dev is in none of our domains;
 * the error of a provider's callback.
 */
int ampsoc_pd_set_performance_state(struct device *dev, unsigned int state)
{
	struct ampsoc_pd_dev *pdd;
	int ret = 0;

	if (!dev)
		return -ENODEV;
	pdd = ampsoc_pd_dev_data(dev);
	if (!pdd)
		return -ENODEV;

	mutex_lock(&ampsoc_pd_perf_lock);
	if (READ_ONCE(pdd->perf_withheld)) {
		WRITE_ONCE(pdd->rpm_pstate, state);
		smp_mb();	/* pairs with ampsoc_pd_perf_resume() */
		pd_perf_reinstate(pdd);
	} else {
		ret = pd_perf_set_dev(pdd, state);
		if (!ret)
			pdd->rpm_pstate = 0;
		smp_mb();	/* pairs with ampsoc_pd_perf_suspend() */
		pd_perf_withhold(pdd);
	}
	mutex_unlock(&ampsoc_pd_perf_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_set_performance_state);

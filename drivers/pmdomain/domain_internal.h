/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc_pd internals shared by the files of the module.
 */
#ifndef _AMPSOC_PD_INTERNAL_H
#define _AMPSOC_PD_INTERNAL_H

#include <ampsoc/pm_domain.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>

/**
 * struct ampsoc_pd_link - one parent/child edge of the domain graph
 * @parent: the parent domain
 * @child: the subdomain
 * @parent_node: entry in @parent's child_links
 * @child_node: entry in @child's parent_links
 * @performance_state: @child's performance state in @parent's scale, its
 *	request to @parent (performance mutex)
 * @prev_performance_state: the request before the change under way, for
 *	the rollback (performance mutex)
 */
struct ampsoc_pd_link {
	struct ampsoc_pd *parent;
	struct ampsoc_pd *child;
	unsigned int performance_state;
	unsigned int prev_performance_state;
	struct list_head parent_node;
	struct list_head child_node;
};

/**
 * struct ampsoc_pd_dev - what the core keeps per device
 * @base: dev->power.subsys_data->domain_data points here
 * @pd: the domain
 * @qos_nb: PM QoS resume-latency notifier
 * @qos_registered: @qos_nb is registered (the governor reads PM QoS)
 * @qos_node: in the domain's qos_devs while @qos_req_ns >= 0 (qos_lock)
 * @qos_req_ns: the device's resume-latency constraint, -1 for none, as the
 *	QoS notifier last read it (qos_lock)
 * @qos_key_ns: what @suspend_latency_ns and @resume_latency_ns leave of
 *	@qos_req_ns, at least 0: its order in qos_devs (qos_lock)
 * @qos_gone: the device left the domain: its QoS notifier changes nothing
 *	more (qos_lock)
 * @power_nb: the device's power notifier on the domain's chain, if any
 * @suspend_latency_ns: largest measured runtime suspend (driver + stop)
 * @resume_latency_ns: largest measured runtime resume (start + driver)
 * @resume_pending_ns: runtime resume measured without the domain lock,
 *	recorded in @resume_latency_ns by the next runtime suspend
 * @active: the device needs power; counted in ampsoc_pd.active_count
 * @synced: a runtime PM callback has run since the device was added, so
 *	@active reflects the PM core's view (a second suspend is unbalanced)
 * @skip: (AMPSOC_PD_FLAG_SLEEP_SKIP_OFF) the domain was off when this
 *	device's suspend/freeze/poweroff phase began: every later phase of
 *	the transition skips the device too
 * @wakeup_kept: the noirq phase left the domain on for wakeup
 * @stopped: the noirq phase stopped the device (start it on resume)
 * @performance_state: the device's request the domain counts now
 *	(performance mutex)
 * @perf_node: in its domain's perf_votes.large while @performance_state is
 *	AMPSOC_PD_VOTES_SMALL or more (performance mutex)
 * @rpm_pstate: the request withheld while the device is runtime-suspended
 *	(performance mutex)
 * @perf_withheld: the device is runtime-suspended as the core last saw it:
 *	a new request is only recorded in @rpm_pstate (written by the
 *	device's runtime PM callbacks, read under the performance mutex)
 */
struct ampsoc_pd_dev {
	struct pm_domain_data base;
	struct ampsoc_pd *pd;
	struct notifier_block qos_nb;
	bool qos_registered;
	struct rb_node qos_node;
	s64 qos_req_ns;
	s64 qos_key_ns;
	bool qos_gone;
	struct notifier_block *power_nb;
	s64 suspend_latency_ns;
	s64 resume_latency_ns;
	s64 resume_pending_ns;
	bool active;
	bool synced;
	bool skip;
	bool wakeup_kept;
	bool stopped;
	unsigned int performance_state;
	struct rb_node perf_node;
	unsigned int rpm_pstate;
	bool perf_withheld;
};

/* Retries of a refused runtime power-off, 1 ms then doubling (255 ms). */
#define AMPSOC_PD_RETRY_MAX	8

extern struct mutex ampsoc_pd_list_lock;
extern struct list_head ampsoc_pd_list;

/* domain.c */
bool ampsoc_pd_is_ours(struct device *dev);
struct ampsoc_pd_dev *ampsoc_pd_dev_data(struct device *dev);
bool ampsoc_pd_registered(struct ampsoc_pd *pd);
int ampsoc_pd_power_on_locked(struct ampsoc_pd *pd, unsigned int depth);
void ampsoc_pd_sync_power_off(struct ampsoc_pd *pd, unsigned int depth);
void ampsoc_pd_sync_power_on(struct ampsoc_pd *pd, unsigned int depth);
void ampsoc_pd_queue_power_off(struct ampsoc_pd *pd);
int ampsoc_pd_dev_start(struct ampsoc_pd *pd, struct device *dev);
int ampsoc_pd_dev_stop(struct ampsoc_pd *pd, struct device *dev);
u64 ampsoc_pd_now(void);
void ampsoc_pd_count_walk(void);

/* domain_governor.c */
enum ampsoc_pd_qos_change {
	AMPSOC_PD_QOS_READ,
	AMPSOC_PD_QOS_LATENCY,
	AMPSOC_PD_QOS_GONE,
};

void ampsoc_pd_qos_update(struct ampsoc_pd_dev *pdd,
			  enum ampsoc_pd_qos_change what);
void ampsoc_pd_unused_one(struct ampsoc_pd *pd);

/* domain_perf.c */
extern struct mutex ampsoc_pd_perf_lock;
void ampsoc_pd_perf_suspend(struct ampsoc_pd_dev *pdd);
void ampsoc_pd_perf_resume(struct ampsoc_pd_dev *pdd);
void ampsoc_pd_perf_forget(struct ampsoc_pd_dev *pdd);

/* domain_sleep.c */
void ampsoc_pd_set_sleep_ops(struct dev_pm_domain *domain);
bool ampsoc_pd_in_transition(void);
int ampsoc_pd_sleep_init(void);
void ampsoc_pd_sleep_exit(void);

/* domain_debugfs.c */
void ampsoc_pd_debugfs_init(void);
void ampsoc_pd_debugfs_exit(void);
void ampsoc_pd_debugfs_add(struct ampsoc_pd *pd);
void ampsoc_pd_debugfs_remove(struct ampsoc_pd *pd);

/* domain_sysfs.c */
int ampsoc_pd_sysfs_init(void);
void ampsoc_pd_sysfs_exit(void);
int ampsoc_pd_sysfs_add(struct ampsoc_pd *pd);
void ampsoc_pd_sysfs_remove(struct ampsoc_pd *pd);

/* domain_provider.c */
int ampsoc_pd_provider_init(void);
bool ampsoc_pd_wakeup_path(struct device *dev);
void ampsoc_pd_provider_exit(void);
bool ampsoc_pd_provider_uses(struct ampsoc_pd *pd);

/*
 * The domain lock: a mutex, or for an AMPSOC_PD_FLAG_IRQ_SAFE domain a
 * spinlock taken with interrupts off (the flags kept in the domain, as a
 * domain is locked once at a time). Children are locked before parents,
 * @depth being the lockdep subclass; an IRQ-safe domain has only IRQ-safe
 * parents, so a mutex is never taken under a spinlock.
 */
static inline bool ampsoc_pd_irq_safe(const struct ampsoc_pd *pd)
{
	return pd->flags & AMPSOC_PD_FLAG_IRQ_SAFE;
}

static inline void ampsoc_pd_lock_nested(struct ampsoc_pd *pd,
					 unsigned int depth)
	__acquires(&pd->slock)
{
	unsigned long flags;

	if (ampsoc_pd_irq_safe(pd)) {
		spin_lock_irqsave_nested(&pd->slock, flags, depth);
		pd->lock_flags = flags;
	} else {
		mutex_lock_nested(&pd->lock, depth);
		__acquire(&pd->slock);	/* one context for sparse */
	}
}

static inline void ampsoc_pd_lock(struct ampsoc_pd *pd)
	__acquires(&pd->slock)
{
	ampsoc_pd_lock_nested(pd, 0);
}

static inline void ampsoc_pd_unlock(struct ampsoc_pd *pd)
	__releases(&pd->slock)
{
	if (ampsoc_pd_irq_safe(pd)) {
		spin_unlock_irqrestore(&pd->slock, pd->lock_flags);
	} else {
		mutex_unlock(&pd->lock);
		__release(&pd->slock);
	}
}

static inline void ampsoc_pd_assert_held(struct ampsoc_pd *pd)
{
	if (ampsoc_pd_irq_safe(pd))
		lockdep_assert_held(&pd->slock);
	else
		lockdep_assert_held(&pd->lock);
}

#define pd_for_each_parent(pd, link) \
	list_for_each_entry(link, &(pd)->parent_links, child_node)
#define pd_for_each_child(pd, link) \
	list_for_each_entry(link, &(pd)->child_links, parent_node)

/*
 * The QoS governor's cached constraint of @pd is stale: a device's
 * constraint or latency, the device list or the subdomains changed. Any
 * context, any lock: the governor clears it under @pd's lock (with a full
 * barrier) before it reads what the cache is made of.
 */
static inline void ampsoc_pd_qos_invalidate(struct ampsoc_pd *pd)
{
	atomic_set_release(&pd->qos_dirty, 1);
}

#endif /* _AMPSOC_PD_INTERNAL_H */

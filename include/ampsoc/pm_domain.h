/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc generic I/O PM domains.
 *
 * A PM domain is a set of devices (and of other domains, its subdomains)
 * that share one power switch. A platform describes each switch with a
 * struct ampsoc_pd, fills in its callbacks, calls ampsoc_pd_init() and then
 * adds devices (explicitly, or by name through a provider and the device's
 * software-node "power-domains" reference). From then on the kernel's own
 * runtime PM and system sleep drive the domain through dev->pm_domain:
 *
 *  - a device's runtime suspend runs its driver callback, then the domain's
 *    per-device stop(); when no device of the domain needs power, no
 *    subdomain is on and the governor agrees, the domain powers off and
 *    its parents are asked (asynchronously) to do the same;
 *  - a runtime resume powers the parents on first, then the domain, then
 *    start()s the device and runs its driver callback;
 *  - system sleep runs every driver callback of every phase, as Linux 6.1
 *    does, stops every device in the noirq phase and powers the domains off
 *    synchronously, parents after children; resume_noirq powers them on
 *    again, parents first. A domain with AMPSOC_PD_FLAG_SLEEP_SKIP_OFF
 *    instead skips the devices it holds while it is off, and stays off.
 *
 * Locking rules for users of this API:
 *  - power_on()/power_off() and the power notifiers run with the domain's
 *    lock held: they must not call back into this API for the same domain,
 *    its parents or its subdomains, nor run runtime PM on their devices;
 *    in a domain with AMPSOC_PD_FLAG_IRQ_SAFE that lock is a spinlock held
 *    with interrupts off, and they must not sleep either;
 *  - dev_ops.start()/stop(), set_performance_state() and driver callbacks
 *    never run under a domain lock.
 *
 * The kernel's own genpd (pm_genpd_*) is independent: a device belongs to
 * at most one PM domain, ours or the kernel's.
 */
#ifndef _AMPSOC_PM_DOMAIN_H
#define _AMPSOC_PM_DOMAIN_H

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/fwnode.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pm.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct clk;
struct kobject;
struct dentry;

/* ampsoc_pd.flags */
/* Never powered off, neither at runtime nor during system sleep. */
#define AMPSOC_PD_FLAG_ALWAYS_ON	BIT(0)
/* Never powered off at runtime; powered off during system sleep. */
#define AMPSOC_PD_FLAG_RPM_ALWAYS_ON	BIT(1)
/* Stays on across system sleep while a device in the wakeup path is in it. */
#define AMPSOC_PD_FLAG_ACTIVE_WAKEUP	BIT(2)
/* dev_ops default to ampsoc_pm_clk_suspend()/ampsoc_pm_clk_resume(). */
#define AMPSOC_PD_FLAG_PM_CLK		BIT(3)
/*
 * A runtime power-off of this domain takes its parents that become idle
 * off in the same context, as mainline genpd does, instead of from their
 * work items (the seed's way, the default).
 */
#define AMPSOC_PD_FLAG_SYNC_OFF		BIT(4)
/*
 * The 2011 seed's system sleep, opt-in: a device whose domain is off when
 * its suspend (freeze, poweroff) phase begins gets none of its driver's
 * system-sleep callbacks in that transition (prepare and complete aside),
 * and the domain stays off. Without it, as in Linux 6.1, every callback
 * runs and resume_noirq powers the domain on. See docs/pmdomain.md for why
 * 6.1 stopped skipping.
 */
#define AMPSOC_PD_FLAG_SLEEP_SKIP_OFF	BIT(5)
/*
 * The domain's lock is a spinlock taken with interrupts off instead of a
 * mutex, so that runtime PM of its IRQ-safe devices (pm_runtime_irq_safe())
 * powers it on and off from atomic context, in the devices' own runtime
 * callbacks. power_on(), power_off(), the power notifiers and the
 * governor's power_down_ok() then run in atomic context and must not
 * sleep. Its parents must be IRQ-safe too (ampsoc_pd_add_subdomain()).
 * As Linux 6.1's GENPD_FLAG_IRQ_SAFE; see docs/pmdomain.md.
 */
#define AMPSOC_PD_FLAG_IRQ_SAFE		BIT(6)
/*
 * Stay on until sync: a domain the boot loader left on (initialised on)
 * is held on, against every power-off (runtime, unused, system sleep),
 * until its provider calls ampsoc_pd_sync_state() from its driver's
 * .sync_state callback, or until the core's stay_on_timeout_ms passes.
 * Not valid for a domain initialised off. See docs/pmdomain.md, "Stay on
 * until sync".
 */
#define AMPSOC_PD_FLAG_STAY_ON		BIT(7)

/**
 * enum ampsoc_pd_stay_on - where a domain's stay-on hold is
 * @AMPSOC_PD_STAY_ON_NONE: the domain was never held (no
 *	AMPSOC_PD_FLAG_STAY_ON)
 * @AMPSOC_PD_STAY_ON_HELD: held on until sync or the timeout
 * @AMPSOC_PD_STAY_ON_SYNCED: released by ampsoc_pd_sync_state()
 * @AMPSOC_PD_STAY_ON_TIMED_OUT: released by the timeout
 */
enum ampsoc_pd_stay_on {
	AMPSOC_PD_STAY_ON_NONE = 0,
	AMPSOC_PD_STAY_ON_HELD,
	AMPSOC_PD_STAY_ON_SYNCED,
	AMPSOC_PD_STAY_ON_TIMED_OUT,
};

/**
 * enum ampsoc_pd_status - power status of a domain
 * @AMPSOC_PD_ON: the domain is powered
 * @AMPSOC_PD_OFF: the domain is off, in idle state ampsoc_pd.state_idx
 */
enum ampsoc_pd_status {
	AMPSOC_PD_ON = 0,
	AMPSOC_PD_OFF,
};

/**
 * enum ampsoc_pd_notify - events sent to a domain's power notifiers
 * @AMPSOC_PD_NOTIFY_PRE_OFF: about to power off; NOTIFY_BAD vetoes it and
 *	the notifiers already called get @AMPSOC_PD_NOTIFY_ON (rollback)
 * @AMPSOC_PD_NOTIFY_OFF: the domain is off
 * @AMPSOC_PD_NOTIFY_PRE_ON: about to power on; NOTIFY_BAD vetoes it and
 *	the notifiers already called get @AMPSOC_PD_NOTIFY_OFF (rollback)
 * @AMPSOC_PD_NOTIFY_ON: the domain is on
 *
 * The notifier's data argument is the struct ampsoc_pd. Notifiers run with
 * the domain's lock held.
 */
enum ampsoc_pd_notify {
	AMPSOC_PD_NOTIFY_PRE_OFF = 0,
	AMPSOC_PD_NOTIFY_OFF,
	AMPSOC_PD_NOTIFY_PRE_ON,
	AMPSOC_PD_NOTIFY_ON,
};

/**
 * struct ampsoc_pd_state - one "off" (idle) state of a domain
 * @name: optional name, one word; shown instead of "S<index>" in the
 *	sysfs "states" file and the debugfs "idle_states" table (Linux 6.1
 *	always prints "S<index>"); NULL: "S<index>"
 * @power_off_latency_ns: time to enter the state
 * @power_on_latency_ns: time to leave it
 * @residency_ns: minimum time in the state for it to pay off
 * @fixed: the latencies come from the platform and are never updated from
 *	measurements (otherwise a measured latency larger than the given one
 *	replaces it)
 * @data: provider data
 * @usage: (core) times the domain entered this state
 * @rejected: (core) times power_off() refused this state
 * @idle_time_ns: (core) total time spent in this state
 *
 * States are ordered from the shallowest to the deepest.
 */
struct ampsoc_pd_state {
	const char *name;
	s64 power_off_latency_ns;
	s64 power_on_latency_ns;
	s64 residency_ns;
	bool fixed;
	void *data;
	u64 usage;
	u64 rejected;
	u64 idle_time_ns;
};

struct ampsoc_pd;

/**
 * struct ampsoc_pd_governor - decides whether and how deep a domain goes off
 * @name: shown in sysfs ("governor"); the core's are "always_on" and
 *	"qos", and a domain without a governor shows "none"
 * @power_down_ok: called with the domain's lock held when the domain could
 *	power off; returns true to allow it and sets ampsoc_pd.state_idx to
 *	the state to enter. NULL means "always allowed, deepest state" (Linux
 *	6.1 picks the shallowest state; see docs/pmdomain.md).
 * @suspend_ok: called without any domain lock before a device of the
 *	domain runtime-suspends; false makes the suspend fail with -EBUSY.
 *	NULL means "always allowed".
 */
struct ampsoc_pd_governor {
	const char *name;
	bool (*power_down_ok)(struct ampsoc_pd *pd);
	bool (*suspend_ok)(struct device *dev);
};

/*
 * "always_on": never powers the domain off at runtime (system sleep still
 * does). Using it sets AMPSOC_PD_FLAG_RPM_ALWAYS_ON.
 */
extern const struct ampsoc_pd_governor ampsoc_pd_always_on_gov;
/*
 * "qos": honours every device's PM QoS resume latency (power/pm_qos_resume_latency_us)
 * against the measured device suspend/resume latencies and the states'
 * power off/on latencies (measured unless fixed), and picks the deepest
 * state that fits and whose residency fits the domain's recent idle times.
 */
extern const struct ampsoc_pd_governor ampsoc_pd_qos_gov;

/**
 * struct ampsoc_pd_dev_ops - per-device callbacks of a domain
 * @start: make the device usable again (e.g. ungate its clocks)
 * @stop: make it quiescent (e.g. gate its clocks)
 *
 * Called without any domain lock, from runtime PM and from the noirq phases
 * of system sleep.
 */
struct ampsoc_pd_dev_ops {
	int (*start)(struct device *dev);
	int (*stop)(struct device *dev);
};

/* Performance states counted one by one in struct ampsoc_pd_votes. */
#define AMPSOC_PD_VOTES_SMALL	32

/**
 * struct ampsoc_pd_votes - a domain's device performance requests, ordered
 * @small_map: bit s is set while @small[s] is not 0
 * @small: for s from 1 to AMPSOC_PD_VOTES_SMALL - 1, how many devices
 *	request state s
 * @large: the devices that request AMPSOC_PD_VOTES_SMALL or more, largest
 *	first
 *
 * Private to the core, under its performance mutex: the largest request is
 * found without looking at every device.
 */
struct ampsoc_pd_votes {
	u32 small_map;
	unsigned int small[AMPSOC_PD_VOTES_SMALL];
	struct rb_root_cached large;
};

/**
 * struct ampsoc_pd - a generic I/O PM domain
 * @name: unique name (debugfs/sysfs directory name); set before init
 * @flags: AMPSOC_PD_FLAG_*; set before init
 * @power_on: power the domain on (NULL: nothing to do); lock held; in
 *	atomic context for an AMPSOC_PD_FLAG_IRQ_SAFE domain
 * @power_off: power it off into states[state_idx] (NULL: nothing to do);
 *	lock held, atomic context for an IRQ-safe domain; an error keeps the
 *	domain on
 * @dev_ops: per-device start/stop
 * @states: idle states, shallowest first; NULL for one default state
 * @state_count: number of @states
 * @set_performance_state: set the domain's performance state (NULL:
 *	nothing to do, the state is still aggregated and propagated to the
 *	parents); called under the core's performance mutex, never under a
 *	domain lock; an error keeps the previous state
 * @xlate_performance_state: translate this domain's performance state
 *	into @parent's scale (NULL: the same number, as 6.1 without
 *	"required-opps"); not called when @parent has no
 *	set_performance_state; a negative errno fails the request
 * @stay_on_release: (AMPSOC_PD_FLAG_STAY_ON) the hold is about to end,
 *	@timeout true when the timeout ends it (NULL: nothing to do); tell
 *	the hardware or firmware that the domain may go off from now on.
 *	Called with the domain's lock held, same rules as @power_off; an
 *	error keeps the hold (the domain stays on)
 *
 * The fields from @domain on are owned by the core; read them only through
 * the API or for diagnostics.
 *
 * @domain: the dev_pm_domain installed as dev->pm_domain
 * @gov: governor given to ampsoc_pd_init()
 * @state_idx: idle state chosen for (or entered by) the last power off
 * @performance_state: aggregated performance state: the largest request of
 *	the domain's devices and subdomains (changed under the core's
 *	performance mutex)
 * @status: AMPSOC_PD_ON or AMPSOC_PD_OFF
 * @lock: serialises everything below; child domains are locked before
 *	their parents (lockdep subclass = depth); a mutex, unless the domain
 *	is IRQ-safe
 * @slock: @lock of an AMPSOC_PD_FLAG_IRQ_SAFE domain: a spinlock taken
 *	with interrupts off, same rules
 * @lock_flags: the interrupt state @slock saved
 * @node: entry in the core's list of domains
 * @parent_links: links to this domain's parents (this is the child)
 * @child_links: links to this domain's subdomains (this is the parent)
 * @dev_list: devices in the domain
 * @power_off_work: asynchronous power off
 * @retry_work: deferred retry of a refused runtime power off
 * @retry_count: retries queued since the domain last changed state
 * @notifiers: power notifier chain
 * @sd_count: number of subdomains that are on
 * @device_count: number of devices in the domain
 * @active_count: number of devices that need power (not runtime-suspended)
 * @prepared_count: devices between prepare and complete of a system sleep
 * @suspended_count: devices stopped by the noirq phase of a system sleep
 * @default_state: the state used when @states is NULL
 * @on_count: accounting: times powered on
 * @off_count: accounting: times powered off
 * @on_time_ns: accounting: total time on (up to @accounting_time)
 * @accounting_time: accounting: monotonic ns of the last status change
 * @idle_avg_ns: recent idle time, an exponential moving average
 * @qos_dirty: QoS governor cache: non-zero when @qos_constraint_ns is stale
 * @qos_lock: protects @qos_devs and each device's place in it
 * @qos_devs: QoS governor: the devices with a resume-latency constraint,
 *	tightest first, keyed by what their own latencies leave of it
 * @qos_constraint_ns: QoS governor cache: tightest latency constraint
 * @qos_off_ns: latency constraint seen by this domain's parents
 * @warned: one-time misuse warnings already printed for this domain
 * @dbg_dir: debugfs directory
 * @kobj: sysfs directory
 * @removing: ampsoc_pd_remove() is under way
 * @stay_on: enum ampsoc_pd_stay_on: the stay-on hold, under @lock
 * @stay_on_work: the stay-on timeout
 * @stay_on_ms: the timeout it was started with (for the log)
 * @perf_votes: its devices' non-zero performance requests (performance
 *	mutex)
 */
struct ampsoc_pd {
	const char *name;
	unsigned int flags;
	int (*power_on)(struct ampsoc_pd *pd);
	int (*power_off)(struct ampsoc_pd *pd);
	struct ampsoc_pd_dev_ops dev_ops;
	struct ampsoc_pd_state *states;
	unsigned int state_count;
	int (*set_performance_state)(struct ampsoc_pd *pd, unsigned int state);
	int (*xlate_performance_state)(struct ampsoc_pd *pd,
				       struct ampsoc_pd *parent,
				       unsigned int state);
	int (*stay_on_release)(struct ampsoc_pd *pd, bool timeout);

	/* private to the core */
	struct dev_pm_domain domain;
	const struct ampsoc_pd_governor *gov;
	unsigned int state_idx;
	unsigned int performance_state;
	enum ampsoc_pd_status status;
	union {
		struct mutex lock;	/* see @lock above */
		struct {
			spinlock_t slock;	/* see @slock above */
			unsigned long lock_flags;
		};
	};
	struct list_head node;
	struct list_head parent_links;
	struct list_head child_links;
	struct list_head dev_list;
	struct work_struct power_off_work;
	struct delayed_work retry_work;
	unsigned int retry_count;
	struct raw_notifier_head notifiers;
	atomic_t sd_count;
	unsigned int device_count;
	unsigned int active_count;
	unsigned int prepared_count;
	unsigned int suspended_count;
	struct ampsoc_pd_state default_state;
	u64 on_count;
	u64 off_count;
	u64 on_time_ns;
	u64 accounting_time;
	s64 idle_avg_ns;
	atomic_t qos_dirty;
	spinlock_t qos_lock;	/* see @qos_lock above */
	struct rb_root_cached qos_devs;
	s64 qos_constraint_ns;
	s64 qos_off_ns;
	unsigned long warned;
	struct dentry *dbg_dir;
	struct kobject *kobj;
	bool removing;
	u8 stay_on;
	struct delayed_work stay_on_work;
	unsigned int stay_on_ms;
	struct ampsoc_pd_votes perf_votes;
};

/* Domains */

/**
 * ampsoc_pd_init() - register a domain with the core
 * @pd: the domain; name, flags, callbacks and states set by the caller
 * @gov: governor (&ampsoc_pd_qos_gov, &ampsoc_pd_always_on_gov, your own)
 *	or NULL: power off whenever nothing needs the domain, deepest state
 * @is_off: the hardware is off now (the domain starts off)
 *
 * The name must be unique, non-empty and without '/'; it names the
 * debugfs and sysfs directories.
 *
 * A domain with AMPSOC_PD_FLAG_STAY_ON is held on from now on, and its
 * stay-on timeout (the core's stay_on_timeout_ms) starts.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for a NULL domain, a bad name, states
 * without a count, or an ALWAYS_ON or STAY_ON domain that is off;
 * -EEXIST if @pd or a domain of the same name is registered; -ENOMEM.
 */
int ampsoc_pd_init(struct ampsoc_pd *pd, const struct ampsoc_pd_governor *gov,
		   bool is_off);

/**
 * ampsoc_pd_remove() - unregister a domain
 * @pd: a domain registered with ampsoc_pd_init()
 *
 * The domain must have no device, no subdomain, no power notifier and no
 * provider. Its links to its parents are dropped (a parent that this
 * domain kept on is queued for power-off); its hardware is left as it is.
 * Waits for the domain's pending power-off work.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if @pd is not registered; -EBUSY while
 * devices, subdomains, notifiers or a provider remain; -EAGAIN during a
 * system sleep transition.
 */
int ampsoc_pd_remove(struct ampsoc_pd *pd);

/**
 * ampsoc_pd_find() - look a registered domain up by name
 * @name: the domain's name
 *
 * Context: process context; may sleep (takes the core's list mutex).
 * Return: the domain, or NULL if none has that name (or @name is NULL).
 */
struct ampsoc_pd *ampsoc_pd_find(const char *name);

/**
 * ampsoc_pd_is_on() - whether a domain is powered
 * @pd: a registered domain
 *
 * The answer may be stale as soon as the lock is dropped.
 *
 * Context: process context; sleeps (takes the domain's mutex), so never
 * from atomic context or from the domain's own callbacks or notifiers.
 * Return: true if @pd is on; false if it is off or NULL.
 */
bool ampsoc_pd_is_on(struct ampsoc_pd *pd);

/**
 * ampsoc_pd_power_off_unused() - let domains nobody uses power off
 *
 * A device that has no driver and runtime PM disabled stops counting as
 * needing power, and every registered domain is queued for power-off: the
 * power-off itself happens later, on pm_wq, for each domain that nothing
 * needs and whose governor agrees. The domains of a provider get the same
 * sweep by themselves, unused_delay_ms after the last
 * ampsoc_pd_provider_add() (docs/pmdomain.md); a platform calls this for
 * domains no provider lists, once consumers had the chance to probe.
 * Calling it again is harmless.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pd_power_off_unused(void);

/**
 * ampsoc_pd_sync_state() - end a domain's stay-on hold: its consumers probed
 * @pd: a registered domain
 *
 * For a provider's driver's .sync_state callback, which the driver core
 * runs once every consumer device linked to the provider's device (a
 * managed device link) has bound. If @pd is held (AMPSOC_PD_FLAG_STAY_ON,
 * no earlier sync, no timeout yet), its stay_on_release() callback is
 * called, the hold ends and the domain is queued for power-off: it goes
 * off if nothing needs it. Otherwise nothing happens.
 *
 * Context: process context; may sleep (cancels the timeout).
 * Return: 0 on success, also when @pd was not held; -EINVAL if @pd is
 * NULL or not registered; or the error of stay_on_release(), the domain
 * then still held until a later call succeeds or, if it has not fired
 * yet, the timeout releases it.
 */
int ampsoc_pd_sync_state(struct ampsoc_pd *pd);

/**
 * ampsoc_pd_dev_walks() - device-list walks so far (diagnostics)
 *
 * Runtime suspend and resume, the power-off decision (with any of the
 * core's governors), a resume-latency constraint that changes and a
 * performance-state request never walk a device list: the QoS governor
 * keeps its domain's devices in the order of their constraints, and the
 * performance votes are counted by state. Debugfs and sysfs reads and
 * ampsoc_pd_power_off_unused() walk. So the count is flat while runtime
 * PM, PM QoS and performance requests run.
 *
 * Context: any.
 * Return: the number of device-list walks since the module was loaded.
 */
u64 ampsoc_pd_dev_walks(void);

/* Devices */

/**
 * ampsoc_pd_add_device() - put a device in a domain
 * @pd: a registered domain
 * @dev: a device in no PM domain and not bound to a driver
 *
 * The device counts as needing power unless runtime PM is enabled and it
 * is runtime-suspended; if it needs power, the domain (and its parents) is
 * powered on now.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL arguments, an unregistered
 * domain, or a device already in a PM domain that has per-device domain
 * data (one of ours, or the kernel's genpd), as 6.1's
 * pm_genpd_add_device() answers; -EBUSY for a device bound to a driver or
 * with another dev->pm_domain (which 6.1 would overwrite); -EAGAIN during
 * a system sleep transition; -ENOMEM; or the error of powering the domain
 * on.
 */
int ampsoc_pd_add_device(struct ampsoc_pd *pd, struct device *dev);

/**
 * ampsoc_pd_remove_device() - take a device out of its domain
 * @dev: a device added with ampsoc_pd_add_device() or ampsoc_pd_attach()
 *
 * The device's performance-state request is withdrawn first (the domains
 * re-aggregated; a provider's error is logged and ignored), then
 * dev->pm_domain is cleared and the device's notifier, if any, removed.
 * The domain is queued for power-off if no device needs it any more; the
 * device's own power state is not touched. Unbind the driver first.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if @dev is NULL or in none of our domains;
 * -EAGAIN during a system sleep transition.
 */
int ampsoc_pd_remove_device(struct device *dev);

/**
 * ampsoc_pd_set_performance_state() - a device's performance-state request
 * @dev: a device in one of our domains
 * @state: the state it needs; 0 withdraws its request
 *
 * The domain's performance state is the largest request of its devices
 * and of its subdomains (each subdomain's state translated into the
 * domain's scale by the subdomain's xlate_performance_state()); a change
 * is propagated to the parents before the domain's own
 * set_performance_state() is called, and a failure anywhere restores
 * every domain this call changed. While the device is runtime-suspended
 * its request is withheld (its domain does not count it) and applied again
 * by its runtime resume, as in Linux 6.1. The providers' callbacks run
 * under the core's performance mutex but under no domain lock
 * (docs/pmdomain.md): they may call ampsoc_pd_is_on(), but must not call
 * this function nor runtime-resume or suspend a device of ours that has a
 * request.
 *
 * Context: process context; may sleep.
 * Return: 0 on success (also when the request is only recorded because
 * the device is runtime-suspended); -ENODEV if @dev is NULL or in none
 * of our domains; or the error of a set_performance_state() or
 * xlate_performance_state() callback, the request then unchanged.
 */
int ampsoc_pd_set_performance_state(struct device *dev, unsigned int state);

/**
 * ampsoc_pd_of_dev() - the domain a device is in
 * @dev: any device, or NULL
 *
 * Context: any.
 * Return: the ampsoc domain of @dev, or NULL if it is in none of ours.
 */
struct ampsoc_pd *ampsoc_pd_of_dev(struct device *dev);

/* Subdomains (a domain may have several parents) */

/**
 * ampsoc_pd_add_subdomain() - make @child a subdomain of @parent
 * @parent: a registered domain
 * @child: a registered domain; it may already have other parents
 *
 * An "on" child cannot be linked under an "off" parent (power the parent
 * on first, e.g. through one of its devices): the hardware rule "a parent
 * is on while a child is" would be broken. An on child counts in the
 * parent's sd_count from now on.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL or unregistered domains, a link
 * that would close a cycle (including @parent == @child), or an on child
 * under an off parent; -EEXIST for a duplicate link; -EAGAIN during a
 * system sleep transition; -ENOMEM.
 */
int ampsoc_pd_add_subdomain(struct ampsoc_pd *parent, struct ampsoc_pd *child);

/**
 * ampsoc_pd_remove_subdomain() - undo ampsoc_pd_add_subdomain()
 * @parent: the parent domain
 * @child: the subdomain; it must have no devices and no subdomains
 *
 * If @child is on, it stops counting in @parent's sd_count, and @parent is
 * queued for power-off when that was the last subdomain keeping it on;
 * @child itself keeps its power state.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL or unregistered domains or no
 * such link; -EBUSY if @child still has devices or subdomains (as 6.1's
 * pm_genpd_remove_subdomain()); -EAGAIN during a system sleep transition.
 */
int ampsoc_pd_remove_subdomain(struct ampsoc_pd *parent,
			       struct ampsoc_pd *child);

/* Power notifiers (enum ampsoc_pd_notify) */

/**
 * ampsoc_pd_notifier_register() - add a power notifier to a domain
 * @pd: a registered domain
 * @nb: notifier; called with an enum ampsoc_pd_notify event and @pd as
 *	data, under the domain's lock (it must not call this API for @pd,
 *	its parents or its subdomains)
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL arguments, a NULL
 * notifier_call or an unregistered domain; -EEXIST if @nb is already on
 * the chain.
 */
int ampsoc_pd_notifier_register(struct ampsoc_pd *pd, struct notifier_block *nb);

/**
 * ampsoc_pd_notifier_unregister() - remove a power notifier from a domain
 * @pd: the domain
 * @nb: a notifier added with ampsoc_pd_notifier_register()
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for NULL arguments or an unregistered
 * domain; -ENOENT if @nb is not on the chain.
 */
int ampsoc_pd_notifier_unregister(struct ampsoc_pd *pd,
				  struct notifier_block *nb);

/**
 * ampsoc_pd_dev_add_notifier() - a device's power notifier on its domain
 * @dev: a device in one of our domains
 * @nb: notifier, as for ampsoc_pd_notifier_register(); one per device
 *
 * The notifier goes away with the device (ampsoc_pd_remove_device()).
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if @dev is in none of our domains or @nb
 * (or its notifier_call) is NULL; -EEXIST if the device already has a
 * notifier or @nb is already on the domain's chain.
 */
int ampsoc_pd_dev_add_notifier(struct device *dev, struct notifier_block *nb);

/**
 * ampsoc_pd_dev_remove_notifier() - remove a device's power notifier
 * @dev: a device in one of our domains
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if @dev is in none of our domains; -ENOENT
 * if it has no notifier.
 */
int ampsoc_pd_dev_remove_notifier(struct device *dev);

/*
 * Providers and attach by name. A provider's firmware node (a software
 * node on this platform) carries "#power-domain-cells" = <0> (one domain)
 * or <1> (an array indexed by the cell). A consumer's node names its domain
 * like a DT binding would:
 *   PROPERTY_ENTRY_REF("power-domains", &provider_node, 2)
 * optionally with several references and "power-domain-names".
 */

/**
 * ampsoc_pd_provider_add() - register domains under a firmware node
 * @fwnode: the provider's node; it should carry "#power-domain-cells"
 * @domains: registered domains; a reference's cell indexes this array
 * @num: number of @domains (1 for a provider with zero cells), at most 4096
 *
 * The array is copied. The domains cannot be removed while the provider
 * is registered.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for bad arguments or an unregistered
 * domain; -EEXIST if @fwnode already provides domains; -ENOMEM.
 */
int ampsoc_pd_provider_add(struct fwnode_handle *fwnode,
			   struct ampsoc_pd **domains, unsigned int num);

/**
 * ampsoc_pd_provider_del() - unregister a provider
 * @fwnode: the node given to ampsoc_pd_provider_add()
 *
 * Devices already attached stay in their domains.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -ENOENT if @fwnode provides nothing.
 */
int ampsoc_pd_provider_del(struct fwnode_handle *fwnode);

/**
 * ampsoc_pd_attach() - put a device in the domain its node names
 * @dev: a device with a firmware node, in no PM domain, not bound
 * @power_on: also power the domain (and its parents) on now
 *
 * Uses the first "power-domains" reference of the device's node and
 * ampsoc_pd_add_device(). Without @power_on the domain is powered on only
 * if the device counts as needing power (runtime PM disabled or active).
 * With @power_on the domain stays on until the device's first runtime
 * suspend, ampsoc_pd_power_off_unused() or another power-off of the
 * domain.
 *
 * Context: process context; may sleep.
 * Return: 1 if the device was attached; 0 if it has no firmware node or
 * its node names no domain (nothing to do, not an error); -EPROBE_DEFER if
 * the provider is not registered yet; -EINVAL for a reference that
 * resolves to no domain; or an error of ampsoc_pd_add_device() (-EINVAL
 * for a device already in a domain) or of powering the domain on.
 */
int ampsoc_pd_attach(struct device *dev, bool power_on);

/**
 * ampsoc_pd_attach_by_name() - attach to a domain named in power-domain-names
 * @dev: a device with a firmware node, in no PM domain, not bound
 * @name: an entry of the node's "power-domain-names"
 * @power_on: as for ampsoc_pd_attach()
 *
 * Context: process context; may sleep.
 * Return: 1 if attached; -EINVAL for NULL arguments or a device without a
 * firmware node; -ENODATA or -EINVAL if @name is not listed; 0 if the
 * matching "power-domains" entry is missing; otherwise as for
 * ampsoc_pd_attach().
 */
int ampsoc_pd_attach_by_name(struct device *dev, const char *name,
			     bool power_on);

/**
 * ampsoc_pd_detach() - take a device out of its domain, if it is in ours
 * @dev: the device, or NULL
 *
 * ampsoc_pd_remove_device() for a device in one of our domains; nothing
 * for any other. A refusal (during a system sleep transition) is logged.
 * A virtual device of ampsoc_pd_attach_by_id() first has runtime PM
 * disabled, and is unregistered once out of its domain (its memory goes
 * with its last reference); one the domain refused to let go stays
 * registered and in the domain, as 6.1 leaves it.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pd_detach(struct device *dev);

/*
 * Multiple domains per device (docs/pmdomain.md, "Multiple domains per
 * device"). A device is in at most one PM domain; one with several, e.g.
 * a remote core's own domain and its memory's, stays in none itself and
 * gets a virtual device per domain, as in Linux 6.1. The consumer links
 * itself to them (device_link_add() with DL_FLAG_STATELESS |
 * DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE) so that its runtime PM powers
 * all its domains. ampsoc_pd_attach_by_id() mirrors 6.1's
 * dev_pm_domain_attach_by_id(), ampsoc_pd_attach_virt_by_name() its
 * dev_pm_domain_attach_by_name() (ampsoc_pd_attach_by_name() above is
 * older and attaches the device itself), ampsoc_pd_detach() of a virtual
 * device its dev_pm_domain_detach().
 */

/* At most this many "power-domains" entries for ampsoc_pd_attach_multi(). */
#define AMPSOC_PD_MULTI_MAX	16

/**
 * struct ampsoc_pd_multi - a device's domains, from ampsoc_pd_attach_multi()
 * @num: number of domains attached
 * @virt: the virtual devices, by "power-domains" index
 * @links: the device links from the consumer to each of @virt
 */
struct ampsoc_pd_multi {
	unsigned int num;
	struct device **virt;
	struct device_link *links[];
};

/**
 * ampsoc_pd_attach_by_id() - attach one of a device's domains, by index
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @index: the entry of its node's "power-domains"
 *
 * As 6.1's dev_pm_domain_attach_by_id(): a virtual device named
 * "ampsoc_pd:<index>:<dev_name>" is registered on the "ampsoc_pd" bus,
 * added to the domain the entry names, and given runtime PM (enabled,
 * suspended). The domain is not powered on for it; it is queued for
 * power-off. It holds a reference to @dev, and is in the system-sleep
 * wakeup path whenever @dev is (an extension: 6.1's is not). A node
 * with a single entry gets a virtual device for index 0 too, as in 6.1
 * (ampsoc_pd_attach() puts the device itself in it).
 * Detach with ampsoc_pd_detach() on the returned device.
 *
 * Context: process context; may sleep.
 * Return: the virtual device; NULL if @dev has no firmware node or its
 * node has no entry @index (as 6.1: index out of range is not an error);
 * ERR_PTR(-EINVAL) for a NULL @dev or an entry that resolves to no
 * domain; ERR_PTR(-EEXIST) if @dev is in a PM domain itself;
 * ERR_PTR(-EPROBE_DEFER) if the provider is not registered yet;
 * ERR_PTR(-ENOMEM); or the error of registering the virtual device or of
 * ampsoc_pd_add_device().
 */
struct device *ampsoc_pd_attach_by_id(struct device *dev, unsigned int index);

/**
 * ampsoc_pd_attach_virt_by_name() - attach one of a device's domains, by name
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @name: an entry of its node's "power-domain-names"
 *
 * As 6.1's dev_pm_domain_attach_by_name(): ampsoc_pd_attach_by_id() at
 * the index of @name.
 *
 * Context: process context; may sleep.
 * Return: the virtual device; NULL if @dev has no firmware node or @name
 * is not listed; ERR_PTR(-EINVAL) for a NULL argument; otherwise as for
 * ampsoc_pd_attach_by_id().
 */
struct device *ampsoc_pd_attach_virt_by_name(struct device *dev,
					     const char *name);

/**
 * ampsoc_pd_add_virt() - a virtual device of a device in a given domain
 * @pd: a registered domain
 * @dev: the consumer; unlike for ampsoc_pd_attach_by_id() it may be in
 *	a PM domain itself (its main one)
 * @index: the number in the virtual device's name
 *
 * An extension, the explicit counterpart of ampsoc_pd_attach_by_id() as
 * ampsoc_pd_add_device() is of ampsoc_pd_attach(): no firmware node is
 * read. The virtual device, "ampsoc_pd:<index>:<dev_name>" on the
 * "ampsoc_pd" bus, is added to @pd as ampsoc_pd_attach_by_id() adds it
 * (runtime PM enabled and suspended, the domain not powered on for it).
 * It holds a reference to @dev, and is in the system-sleep wakeup path
 * whenever @dev is (for AMPSOC_PD_FLAG_ACTIVE_WAKEUP). Detach with
 * ampsoc_pd_detach().
 *
 * Context: process context; may sleep.
 * Return: the virtual device; ERR_PTR(-EINVAL) for NULL arguments;
 * ERR_PTR(-ENOMEM); or the error of registering the device (-EEXIST for
 * a name in use) or of ampsoc_pd_add_device().
 */
struct device *ampsoc_pd_add_virt(struct ampsoc_pd *pd, struct device *dev,
				  unsigned int index);

/**
 * ampsoc_pd_attach_multi() - attach every domain of a device, with links
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @out: where the result goes; set to NULL when nothing is attached
 *
 * An extension: 6.1 has no such helper (later kernels added
 * dev_pm_domain_attach_list()). ampsoc_pd_attach_by_id() for each of the
 * first AMPSOC_PD_MULTI_MAX "power-domains" entries, and a device link
 * from @dev to each virtual device (DL_FLAG_STATELESS |
 * DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE), which powers every domain on
 * now; @dev's runtime suspend lets them power off, its runtime resume
 * powers them on. On failure everything already done is undone, last
 * first.
 *
 * Context: process context; may sleep.
 * Return: the number of domains attached, 0 if @dev has no firmware node
 * or its node names no domain; -EINVAL for NULL arguments; -EEXIST if
 * @dev is in a PM domain itself; -ENODEV if a link cannot be made;
 * -ENOMEM; or the error of ampsoc_pd_attach_by_id() for an entry
 * (-EPROBE_DEFER, -EINVAL, ...).
 */
int ampsoc_pd_attach_multi(struct device *dev, struct ampsoc_pd_multi **out);

/**
 * ampsoc_pd_detach_multi() - undo ampsoc_pd_attach_multi()
 * @m: its result, or NULL
 *
 * Each link is deleted and each virtual device detached (unregistered),
 * last first. Call it before unbinding or unregistering the consumer.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pd_detach_multi(struct ampsoc_pd_multi *m);

/*
 * PM clocks: a per-device list of Common Clock Framework clocks, prepared
 * when added, enabled by ampsoc_pm_clk_resume() and disabled by
 * ampsoc_pm_clk_suspend(); with AMPSOC_PD_FLAG_PM_CLK these are the
 * domain's start/stop.
 */

/**
 * ampsoc_pm_clk_create() - give a device an empty PM clock list
 * @dev: the device
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for a NULL device; -ENOMEM.
 */
int ampsoc_pm_clk_create(struct device *dev);

/**
 * ampsoc_pm_clk_destroy() - drop every PM clock of a device, and its list
 * @dev: a device given a list by ampsoc_pm_clk_create()
 *
 * Each clock is gated if the list had it enabled, unprepared and put.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pm_clk_destroy(struct device *dev);

/**
 * ampsoc_pm_clk_add() - add a clock, by connection id, to a device's list
 * @dev: a device given a list by ampsoc_pm_clk_create()
 * @con_id: connection id for clk_get() (may be NULL)
 *
 * The clock is prepared now and left gated.
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL if the device has no list; the error of
 * clk_get() or clk_prepare(); -ENOMEM.
 */
int ampsoc_pm_clk_add(struct device *dev, const char *con_id);

/**
 * ampsoc_pm_clk_add_clk() - add a clock the caller already holds
 * @dev: a device given a list by ampsoc_pm_clk_create()
 * @clk: the clock; the list takes over the caller's reference, also when
 *	adding fails
 *
 * Context: process context; may sleep.
 * Return: 0 on success; -EINVAL for a NULL or error clock or a device
 * without a list; the error of clk_prepare(); -ENOMEM.
 */
int ampsoc_pm_clk_add_clk(struct device *dev, struct clk *clk);

/**
 * ampsoc_pm_clk_remove() - remove a clock added by connection id
 * @dev: the device
 * @con_id: the connection id it was added with
 *
 * Nothing happens if no such clock is on the list.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pm_clk_remove(struct device *dev, const char *con_id);

/**
 * ampsoc_pm_clk_remove_clk() - remove a clock added by ampsoc_pm_clk_add_clk()
 * @dev: the device
 * @clk: the clock
 *
 * Nothing happens if @clk is not on the list.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pm_clk_remove_clk(struct device *dev, struct clk *clk);

/**
 * ampsoc_pm_clk_suspend() - gate every PM clock of a device
 * @dev: the device
 *
 * Last added first. The domain's default stop() with AMPSOC_PD_FLAG_PM_CLK.
 *
 * Context: any; does not sleep (the clocks are already prepared).
 * Return: 0 (a device without a list has nothing to do).
 */
int ampsoc_pm_clk_suspend(struct device *dev);

/**
 * ampsoc_pm_clk_resume() - ungate every PM clock of a device
 * @dev: the device
 *
 * In the order they were added. The domain's default start() with
 * AMPSOC_PD_FLAG_PM_CLK.
 *
 * Context: any; does not sleep (the clocks are already prepared).
 * Return: 0 on success, or the first clk_enable() error, in which case
 * the clocks this call enabled are gated again.
 */
int ampsoc_pm_clk_resume(struct device *dev);

#endif /* _AMPSOC_PM_DOMAIN_H */

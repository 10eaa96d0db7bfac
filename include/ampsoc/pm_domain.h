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
 *  - system sleep stops every device in the noirq phase and powers the
 *    domains off synchronously, parents after children; domains that were
 *    off at runtime stay off and their devices are skipped.
 *
 * Locking rules for users of this API:
 *  - power_on()/power_off() and the power notifiers run with the domain's
 *    lock held: they must not call back into this API for the same domain,
 *    its parents or its subdomains, nor run runtime PM on their devices;
 *  - dev_ops.start()/stop() and driver callbacks never run under a domain
 *    lock.
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
 * @name: optional name, shown in debugfs/sysfs ("S<index>" if NULL)
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
 * @name: shown in debugfs and sysfs
 * @power_down_ok: called with the domain's lock held when the domain could
 *	power off; returns true to allow it and sets ampsoc_pd.state_idx to
 *	the state to enter. NULL means "always allowed, deepest state".
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
 * Never powers the domain off at runtime (system sleep still does). Using
 * it sets AMPSOC_PD_FLAG_RPM_ALWAYS_ON.
 */
extern const struct ampsoc_pd_governor ampsoc_pd_always_on_gov;
/*
 * Honours every device's PM QoS resume latency (power/pm_qos_resume_latency_us)
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

/**
 * struct ampsoc_pd - a generic I/O PM domain
 * @name: unique name (debugfs/sysfs directory name); set before init
 * @flags: AMPSOC_PD_FLAG_*; set before init
 * @power_on: power the domain on (NULL: nothing to do); lock held
 * @power_off: power it off into states[state_idx] (NULL: nothing to do);
 *	lock held; an error keeps the domain on
 * @dev_ops: per-device start/stop
 * @states: idle states, shallowest first; NULL for one default state
 * @state_count: number of @states
 *
 * The fields from @domain on are owned by the core; read them only through
 * the API or for diagnostics.
 *
 * @domain: the dev_pm_domain installed as dev->pm_domain
 * @gov: governor given to ampsoc_pd_init()
 * @state_idx: idle state chosen for (or entered by) the last power off
 * @status: AMPSOC_PD_ON or AMPSOC_PD_OFF
 * @lock: serialises everything below; child domains are locked before
 *	their parents (lockdep subclass = depth)
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
 * @qos_gen: QoS governor cache: generation the cache was computed for
 * @qos_constraint_ns: QoS governor cache: tightest latency constraint
 * @qos_off_ns: latency constraint seen by this domain's parents
 * @warned: one-time misuse warnings already printed for this domain
 * @dbg_dir: debugfs directory
 * @kobj: sysfs directory
 * @removing: ampsoc_pd_remove() is under way
 */
struct ampsoc_pd {
	const char *name;
	unsigned int flags;
	int (*power_on)(struct ampsoc_pd *pd);
	int (*power_off)(struct ampsoc_pd *pd);
	struct ampsoc_pd_dev_ops dev_ops;
	struct ampsoc_pd_state *states;
	unsigned int state_count;

	/* private to the core */
	struct dev_pm_domain domain;
	const struct ampsoc_pd_governor *gov;
	unsigned int state_idx;
	enum ampsoc_pd_status status;
	struct mutex lock;	/* see @lock above */
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
	u64 qos_gen;
	s64 qos_constraint_ns;
	s64 qos_off_ns;
	unsigned long warned;
	struct dentry *dbg_dir;
	struct kobject *kobj;
	bool removing;
};

/* Domains */
int ampsoc_pd_init(struct ampsoc_pd *pd, const struct ampsoc_pd_governor *gov,
		   bool is_off);
int ampsoc_pd_remove(struct ampsoc_pd *pd);
struct ampsoc_pd *ampsoc_pd_find(const char *name);
bool ampsoc_pd_is_on(struct ampsoc_pd *pd);
void ampsoc_pd_power_off_unused(void);
/* Diagnostics: device-list walks so far (flat while runtime PM runs). */
u64 ampsoc_pd_dev_walks(void);

/* Devices */
int ampsoc_pd_add_device(struct ampsoc_pd *pd, struct device *dev);
int ampsoc_pd_remove_device(struct device *dev);
struct ampsoc_pd *ampsoc_pd_of_dev(struct device *dev);

/* Subdomains (a domain may have several parents) */
int ampsoc_pd_add_subdomain(struct ampsoc_pd *parent, struct ampsoc_pd *child);
int ampsoc_pd_remove_subdomain(struct ampsoc_pd *parent,
			       struct ampsoc_pd *child);

/* Power notifiers (enum ampsoc_pd_notify) */
int ampsoc_pd_notifier_register(struct ampsoc_pd *pd, struct notifier_block *nb);
int ampsoc_pd_notifier_unregister(struct ampsoc_pd *pd,
				  struct notifier_block *nb);
int ampsoc_pd_dev_add_notifier(struct device *dev, struct notifier_block *nb);
int ampsoc_pd_dev_remove_notifier(struct device *dev);

/*
 * Providers and attach by name. A provider's firmware node (a software
 * node on this platform) carries "#power-domain-cells" = <0> (one domain)
 * or <1> (an array indexed by the cell). A consumer's node names its domain
 * like a DT binding would:
 *   PROPERTY_ENTRY_REF("power-domains", &provider_node, 2)
 * optionally with several references and "power-domain-names".
 */
int ampsoc_pd_provider_add(struct fwnode_handle *fwnode,
			   struct ampsoc_pd **domains, unsigned int num);
int ampsoc_pd_provider_del(struct fwnode_handle *fwnode);
int ampsoc_pd_attach(struct device *dev, bool power_on);
int ampsoc_pd_attach_by_name(struct device *dev, const char *name,
			     bool power_on);
void ampsoc_pd_detach(struct device *dev);

/*
 * PM clocks: a per-device list of Common Clock Framework clocks, prepared
 * when added, enabled by ampsoc_pm_clk_resume() and disabled by
 * ampsoc_pm_clk_suspend(); with AMPSOC_PD_FLAG_PM_CLK these are the
 * domain's start/stop.
 */
int ampsoc_pm_clk_create(struct device *dev);
void ampsoc_pm_clk_destroy(struct device *dev);
int ampsoc_pm_clk_add(struct device *dev, const char *con_id);
int ampsoc_pm_clk_add_clk(struct device *dev, struct clk *clk);
void ampsoc_pm_clk_remove(struct device *dev, const char *con_id);
void ampsoc_pm_clk_remove_clk(struct device *dev, struct clk *clk);
int ampsoc_pm_clk_suspend(struct device *dev);
int ampsoc_pm_clk_resume(struct device *dev);

#endif /* _AMPSOC_PM_DOMAIN_H */

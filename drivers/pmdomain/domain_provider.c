// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: providers, and consumers that name their
 * domain through a firmware-node "power-domains" reference (a software
 * node here, since the target kernel has no device tree).
 */
#include <linux/device/driver.h>
#include <linux/moduleparam.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "domain_internal.h"

/**
 * struct pd_provider - a firmware node that provides domains
 * @node: entry in pd_providers
 * @fwnode: the provider's node (a reference is held)
 * @domains: the domains, indexed by a reference's cell
 * @num: number of @domains
 * @swept: the unused-domain sweep has run over @domains
 */
struct pd_provider {
	struct list_head node;
	struct fwnode_handle *fwnode;
	struct ampsoc_pd **domains;
	unsigned int num;
	bool swept;
};

/* Protected by ampsoc_pd_list_lock. */
static LIST_HEAD(pd_providers);

/*
 * The equivalent of 6.1's late_initcall_sync(genpd_power_off_unused) for
 * domains that come and go with modules: unused_delay_ms after the last
 * provider registration, once every pending probe has finished, the
 * domains of the providers not swept yet lose their devices that cannot
 * be in use (no driver, runtime PM disabled) and power off if idle.
 */
static unsigned int unused_delay_ms = 2000;
module_param(unused_delay_ms, uint, 0644);
MODULE_PARM_DESC(unused_delay_ms,
		 "ms after a provider registers before its unused domains are powered off (0: never)");

static void pd_unused_work_fn(struct work_struct *work)
{
	struct pd_provider *p;
	unsigned int i;

	/* Consumers probing (deferred or asynchronously) get their chance. */
	wait_for_device_probe();
	mutex_lock(&ampsoc_pd_list_lock);
	list_for_each_entry(p, &pd_providers, node) {
		if (p->swept)
			continue;
		p->swept = true;
		for (i = 0; i < p->num; i++)
			ampsoc_pd_unused_one(p->domains[i]);
	}
	mutex_unlock(&ampsoc_pd_list_lock);
}

static DECLARE_DELAYED_WORK(pd_unused_work, pd_unused_work_fn);

static struct pd_provider *pd_provider_find(struct fwnode_handle *fwnode)
{
	struct pd_provider *p;

	list_for_each_entry(p, &pd_providers, node)
		if (p->fwnode == fwnode)
			return p;
	return NULL;
}

/* List lock held. */
bool ampsoc_pd_provider_uses(struct ampsoc_pd *pd)
{
	struct pd_provider *p;
	unsigned int i;

	list_for_each_entry(p, &pd_providers, node)
		for (i = 0; i < p->num; i++)
			if (p->domains[i] == pd)
				return true;
	return false;
}

/**
 * ampsoc_pd_provider_add - register domains under a firmware node
 * @fwnode: the provider's node; it should carry "#power-domain-cells"
 * @domains: registered domains; the cell of a reference indexes this array
 * @num: number of @domains (1 for a provider with zero cells)
 *
 * The domains cannot be removed while the provider is registered. The
 * module parameter unused_delay_ms (2000 by default) after the last
 * registration, once pending probes have finished, the domains of new
 * providers stop counting their devices that have no driver and runtime
 * PM disabled, and power off if nothing else needs them.
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -EINVAL for bad arguments or an unregistered
 * domain, -EEXIST if @fwnode already provides domains, -ENOMEM.
 */
int ampsoc_pd_provider_add(struct fwnode_handle *fwnode,
			   struct ampsoc_pd **domains, unsigned int num)
{
	struct pd_provider *p;
	unsigned int i;
	int ret = 0;

	if (IS_ERR_OR_NULL(fwnode) || !domains || !num || num > 4096)
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->domains = kmemdup(domains, num * sizeof(*domains), GFP_KERNEL);
	if (!p->domains) {
		kfree(p);
		return -ENOMEM;
	}
	p->num = num;
	p->fwnode = fwnode_handle_get(fwnode);

	mutex_lock(&ampsoc_pd_list_lock);
	for (i = 0; i < num && !ret; i++)
		if (!ampsoc_pd_registered(domains[i]))
			ret = -EINVAL;
	if (!ret && pd_provider_find(fwnode))
		ret = -EEXIST;
	if (!ret)
		list_add_tail(&p->node, &pd_providers);
	mutex_unlock(&ampsoc_pd_list_lock);
	if (ret) {
		fwnode_handle_put(p->fwnode);
		kfree(p->domains);
		kfree(p);
		return ret;
	}
	/* Each registration moves the sweep back: one sweep for a batch. */
	if (READ_ONCE(unused_delay_ms))
		mod_delayed_work(system_wq, &pd_unused_work,
				 msecs_to_jiffies(READ_ONCE(unused_delay_ms)));
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_provider_add);

static void pd_provider_free(struct pd_provider *p)
{
	fwnode_handle_put(p->fwnode);
	kfree(p->domains);
	kfree(p);
}

/**
 * ampsoc_pd_provider_del - unregister a provider
 * @fwnode: the node given to ampsoc_pd_provider_add()
 *
 * Devices already attached stay in their domains.
 *
 * Context: process context; may sleep.
 * Return: 0 on success, -ENOENT if @fwnode provides nothing.
 */
int ampsoc_pd_provider_del(struct fwnode_handle *fwnode)
{
	struct pd_provider *p;

	mutex_lock(&ampsoc_pd_list_lock);
	p = pd_provider_find(fwnode);
	if (p)
		list_del(&p->node);
	mutex_unlock(&ampsoc_pd_list_lock);
	if (!p)
		return -ENOENT;
	pd_provider_free(p);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_provider_del);

/*
 * The bus of the virtual devices that stand in for a consumer in its
 * second, third, ... domain (6.1 puts its own on a bus named "genpd",
 * which exists already in the running kernel, hence our prefix).
 */
static struct bus_type ampsoc_pd_bus = {
	.name = "ampsoc_pd",
};

int ampsoc_pd_provider_init(void)
{
	return bus_register(&ampsoc_pd_bus);
}

void ampsoc_pd_provider_exit(void)
{
	struct pd_provider *p, *tmp;

	cancel_delayed_work_sync(&pd_unused_work);
	list_for_each_entry_safe(p, tmp, &pd_providers, node) {
		list_del(&p->node);
		pd_provider_free(p);
	}
	/* Every virtual device belongs to a consumer module, gone by now. */
	bus_unregister(&ampsoc_pd_bus);
}

/*
 * Resolve reference @index of @fwnode's "power-domains". Returns 0 with
 * *pdp NULL when there is no such reference, 0 with the domain, or an
 * errno: -EPROBE_DEFER (no provider yet), -EINVAL (nothing at that cell).
 */
static int pd_resolve(struct fwnode_handle *fwnode, unsigned int index,
		      struct ampsoc_pd **pdp)
{
	struct fwnode_reference_args args;
	struct ampsoc_pd *pd = NULL;
	struct pd_provider *p;
	int ret;

	*pdp = NULL;
	ret = fwnode_property_get_reference_args(fwnode, "power-domains",
						 "#power-domain-cells", 0,
						 index, &args);
	if (ret == -ENOENT || ret == -EINVAL)
		return 0;	/* no such reference: not ours to attach */
	if (ret)
		return ret;

	mutex_lock(&ampsoc_pd_list_lock);
	p = pd_provider_find(args.fwnode);
	if (!p) {
		ret = -EPROBE_DEFER;
	} else if (args.nargs == 0) {
		if (p->num == 1)
			pd = p->domains[0];
		else
			ret = -EINVAL;
	} else if (args.nargs == 1 && args.args[0] < p->num) {
		pd = p->domains[args.args[0]];
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&ampsoc_pd_list_lock);
	fwnode_handle_put(args.fwnode);
	if (ret) {
		if (ret != -EPROBE_DEFER)
			pr_err("%pfwP: bad power-domains reference %u: %d\n",
			       fwnode, index, ret);
		return ret;
	}
	*pdp = pd;
	return 0;
}

static int pd_attach_index(struct device *dev, unsigned int index,
			   bool power_on)
{
	struct fwnode_handle *fwnode = dev_fwnode(dev);
	struct ampsoc_pd *pd;
	int ret;

	if (!fwnode)
		return 0;
	ret = pd_resolve(fwnode, index, &pd);
	if (ret || !pd)
		return ret;

	ret = ampsoc_pd_add_device(pd, dev);
	if (ret)
		return ret;
	if (power_on) {
		ampsoc_pd_lock(pd);
		ret = ampsoc_pd_power_on_locked(pd, 0);
		ampsoc_pd_unlock(pd);
		if (ret) {
			ampsoc_pd_remove_device(dev);
			return ret;
		}
	}
	return 1;
}

/**
 * ampsoc_pd_attach - put a device in the domain its node names
 * @dev: a device with a firmware node, not in any PM domain
 * @power_on: also power the domain on now
 *
 * Uses the first "power-domains" reference of the device's node.
 *
 * Context: process context; may sleep.
 * Return: 1 if attached, 0 if the node names no domain, -EPROBE_DEFER if
 * the provider is not registered yet, -EINVAL for a reference that
 * resolves to no domain, or an error of ampsoc_pd_add_device().
 */
int ampsoc_pd_attach(struct device *dev, bool power_on)
{
	if (!dev)
		return -EINVAL;
	return pd_attach_index(dev, 0, power_on);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_attach);

/**
 * ampsoc_pd_attach_by_name - attach to the domain named in power-domain-names
 * @dev: a device with a firmware node, not in any PM domain
 * @name: an entry of the node's "power-domain-names"
 * @power_on: also power the domain on now
 *
 * Context: process context; may sleep.
 * Return: 1 if attached, -ENODATA or -EINVAL if @name is not listed, or as
 * for ampsoc_pd_attach().
 */
int ampsoc_pd_attach_by_name(struct device *dev, const char *name,
			     bool power_on)
{
	int index;

	if (!dev || !name || !dev_fwnode(dev))
		return -EINVAL;
	index = fwnode_property_match_string(dev_fwnode(dev),
					     "power-domain-names", name);
	if (index < 0)
		return index;
	return pd_attach_index(dev, index, power_on);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_attach_by_name);

/**
 * struct pd_virt - a virtual device standing for a consumer in a domain
 * @dev: the device on the ampsoc_pd bus
 * @consumer: the device it stands for (a reference is held)
 */
struct pd_virt {
	struct device dev;
	struct device *consumer;
};

static void pd_virt_release(struct device *dev)
{
	struct pd_virt *v = container_of(dev, struct pd_virt, dev);

	put_device(v->consumer);
	kfree(v);
}

static bool pd_is_virt(struct device *dev)
{
	return dev->bus == &ampsoc_pd_bus;
}

/*
 * System sleep: a virtual device is in the wakeup path when its consumer
 * is, so that an ACTIVE_WAKEUP domain stays on for a consumer that keeps
 * running (6.1 passes the wakeup path on to parents only).
 */
bool ampsoc_pd_wakeup_path(struct device *dev)
{
	if (device_wakeup_path(dev))
		return true;
	return pd_is_virt(dev) &&
	       device_wakeup_path(container_of(dev, struct pd_virt,
					       dev)->consumer);
}

/**
 * ampsoc_pd_attach_by_id - attach one of a device's domains, by index
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @index: the entry of its node's "power-domains"
 *
 * As 6.1's dev_pm_domain_attach_by_id(): a virtual device named
 * "ampsoc_pd:<index>:<dev_name>" is registered on the "ampsoc_pd" bus,
 * added to the domain, and given runtime PM (enabled, suspended). The
 * domain is not powered on; it is queued for power-off. The caller links
 * @dev to the virtual device (device_link_add()) so that its runtime PM
 * drives the domain.
 *
 * Context: process context; may sleep.
 * Return: the virtual device; NULL if @dev has no firmware node or its
 * node has no reference @index; ERR_PTR(-EINVAL) for a NULL @dev or a
 * reference that resolves to no domain, ERR_PTR(-EEXIST) if @dev is in a
 * PM domain, ERR_PTR(-EPROBE_DEFER) if the provider is not registered,
 * ERR_PTR(-ENOMEM), or the error of registering the device or of
 * ampsoc_pd_add_device().
 */
struct device *ampsoc_pd_attach_by_id(struct device *dev, unsigned int index)
{
	struct ampsoc_pd *pd;
	int ret;

	if (!dev)
		return ERR_PTR(-EINVAL);
	if (dev->pm_domain)
		return ERR_PTR(-EEXIST);
	if (!dev_fwnode(dev))
		return NULL;
	ret = pd_resolve(dev_fwnode(dev), index, &pd);
	if (ret)
		return ERR_PTR(ret);
	if (!pd)
		return NULL;
	return ampsoc_pd_add_virt(pd, dev, index);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_attach_by_id);

/**
 * ampsoc_pd_add_virt - a virtual device of a device in a given domain
 * @pd: a registered domain
 * @dev: the consumer; it may be in a domain itself
 * @index: the number in the virtual device's name
 *
 * Context: process context; may sleep.
 * Return: the virtual device; ERR_PTR(-EINVAL) for NULL arguments,
 * ERR_PTR(-ENOMEM), or the error of registering the device or of
 * ampsoc_pd_add_device().
 */
struct device *ampsoc_pd_add_virt(struct ampsoc_pd *pd, struct device *dev,
				  unsigned int index)
{
	struct device *virt;
	struct pd_virt *v;
	int ret;

	if (!pd || !dev)
		return ERR_PTR(-EINVAL);
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return ERR_PTR(-ENOMEM);
	v->consumer = get_device(dev);
	virt = &v->dev;
	device_initialize(virt);
	virt->bus = &ampsoc_pd_bus;
	virt->release = pd_virt_release;
	ret = dev_set_name(virt, "ampsoc_pd:%u:%s", index, dev_name(dev));
	if (!ret)
		ret = device_add(virt);
	if (ret) {
		put_device(virt);
		return ERR_PTR(ret);
	}
	/*
	 * Enabled before it joins: a suspended device does not count as
	 * needing power, so the domain is not powered on for it (as 6.1,
	 * which enables runtime PM right after the attach).
	 */
	pm_runtime_enable(virt);
	ret = ampsoc_pd_add_device(pd, virt);
	if (ret) {
		pm_runtime_disable(virt);
		device_unregister(virt);
		return ERR_PTR(ret);
	}
	ampsoc_pd_queue_power_off(pd);
	return virt;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_add_virt);

/**
 * ampsoc_pd_attach_virt_by_name - attach one of a device's domains, by name
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @name: an entry of its node's "power-domain-names"
 *
 * As 6.1's dev_pm_domain_attach_by_name(): ampsoc_pd_attach_by_id() with
 * the index of @name.
 *
 * Context: process context; may sleep.
 * Return: the virtual device; NULL if @dev has no firmware node or @name
 * is not listed; otherwise as for ampsoc_pd_attach_by_id().
 */
struct device *ampsoc_pd_attach_virt_by_name(struct device *dev,
					     const char *name)
{
	int index;

	if (!dev || !name)
		return ERR_PTR(-EINVAL);
	if (dev->pm_domain)
		return ERR_PTR(-EEXIST);
	if (!dev_fwnode(dev))
		return NULL;
	index = fwnode_property_match_string(dev_fwnode(dev),
					     "power-domain-names", name);
	if (index < 0)
		return NULL;
	return ampsoc_pd_attach_by_id(dev, index);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_attach_virt_by_name);

/**
 * ampsoc_pd_detach - take a device out of its domain, if it is in one of ours
 * @dev: the device
 *
 * A virtual device of ampsoc_pd_attach_by_id() also loses its runtime PM
 * and is unregistered (and freed once its last reference goes).
 *
 * Context: process context; may sleep.
 */
void ampsoc_pd_detach(struct device *dev)
{
	bool virt;
	int ret;

	if (!dev)
		return;
	virt = pd_is_virt(dev);
	if (virt)
		pm_runtime_disable(dev);
	if (ampsoc_pd_of_dev(dev)) {
		ret = ampsoc_pd_remove_device(dev);
		if (ret) {
			/* Still in the domain: it must stay registered. */
			dev_err(dev, "cannot detach from PM domain: %d\n", ret);
			return;
		}
	}
	if (virt)
		device_unregister(dev);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_detach);

/**
 * ampsoc_pd_attach_multi - attach every domain of a device, with links
 * @dev: the consumer, with a firmware node; in no PM domain itself
 * @out: where to store the result; NULL when nothing was attached
 *
 * An extension (6.1 has no such helper; later kernels added
 * dev_pm_domain_attach_list()): ampsoc_pd_attach_by_id() for each
 * "power-domains" entry, then a device link from @dev to each virtual
 * device with DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE,
 * which powers the domains on now; @dev's runtime suspend lets them go
 * off, its runtime resume powers them on. On failure, what was done is
 * undone, last first.
 *
 * Context: process context; may sleep.
 * Return: the number of domains attached (0: the node names none); or
 * -EINVAL for NULL arguments, -ENODEV if a link cannot be made, -ENOMEM,
 * or an error of ampsoc_pd_attach_by_id().
 */
int ampsoc_pd_attach_multi(struct device *dev, struct ampsoc_pd_multi **out)
{
	struct fwnode_reference_args args;
	struct ampsoc_pd_multi *m;
	unsigned int n, i;
	int ret;

	if (!dev || !out)
		return -EINVAL;
	*out = NULL;
	if (dev->pm_domain)
		return -EEXIST;
	if (!dev_fwnode(dev))
		return 0;
	for (n = 0; n < AMPSOC_PD_MULTI_MAX; n++) {
		if (fwnode_property_get_reference_args(dev_fwnode(dev),
						       "power-domains",
						       "#power-domain-cells",
						       0, n, &args))
			break;
		fwnode_handle_put(args.fwnode);
	}
	if (!n)
		return 0;
	m = kzalloc(struct_size(m, links, n), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->virt = kcalloc(n, sizeof(*m->virt), GFP_KERNEL);
	if (!m->virt) {
		kfree(m);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct device *virt = ampsoc_pd_attach_by_id(dev, i);

		if (IS_ERR_OR_NULL(virt)) {
			ret = virt ? PTR_ERR(virt) : -EINVAL;
			goto err;
		}
		m->virt[i] = virt;
		m->num = i + 1;
		m->links[i] = device_link_add(dev, virt, DL_FLAG_STATELESS |
					      DL_FLAG_PM_RUNTIME |
					      DL_FLAG_RPM_ACTIVE);
		if (!m->links[i]) {
			ret = -ENODEV;
			goto err;
		}
	}
	*out = m;
	return n;

err:
	if (ret != -EPROBE_DEFER)
		dev_err(dev, "cannot attach PM domain %u: %d\n", i, ret);
	ampsoc_pd_detach_multi(m);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_pd_attach_multi);

/**
 * ampsoc_pd_detach_multi - undo ampsoc_pd_attach_multi()
 * @m: its result, or NULL
 *
 * Each link is deleted and each virtual device detached, last first.
 *
 * Context: process context; may sleep.
 */
void ampsoc_pd_detach_multi(struct ampsoc_pd_multi *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = m->num; i-- > 0;) {
		if (m->links[i])
			device_link_del(m->links[i]);
		ampsoc_pd_detach(m->virt[i]);
	}
	kfree(m->virt);
	kfree(m);
}
EXPORT_SYMBOL_GPL(ampsoc_pd_detach_multi);

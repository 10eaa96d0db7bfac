// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: read-only sysfs view,
 * /sys/kernel/ampsoc_pd/<domain>/ (see docs/ABI/testing/sysfs-kernel-ampsoc_pd).
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "domain_internal.h"

static struct kobject *pd_sysfs_root;

struct pd_kobj {
	struct kobject kobj;
	struct ampsoc_pd *pd;
};

static struct ampsoc_pd *kobj_pd(struct kobject *kobj)
{
	return container_of(kobj, struct pd_kobj, kobj)->pd;
}

static ssize_t current_state_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct ampsoc_pd *pd = kobj_pd(kobj);
	ssize_t n;

	ampsoc_pd_lock(pd);
	if (pd->status == AMPSOC_PD_OFF)
		n = sysfs_emit(buf, "off-%u\n", pd->state_idx);
	else
		n = sysfs_emit(buf, "on\n");
	ampsoc_pd_unlock(pd);
	return n;
}

#define PD_COUNT_ATTR(_name, expr)					\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct ampsoc_pd *pd = kobj_pd(kobj);				\
	unsigned long long v;						\
									\
	ampsoc_pd_lock(pd);						\
	v = (expr);							\
	ampsoc_pd_unlock(pd);					\
	return sysfs_emit(buf, "%llu\n", v);				\
}

PD_COUNT_ATTR(device_count, pd->device_count)
PD_COUNT_ATTR(active_count, pd->active_count)
PD_COUNT_ATTR(sd_count, atomic_read(&pd->sd_count))
PD_COUNT_ATTR(on_count, pd->on_count)
PD_COUNT_ATTR(off_count, pd->off_count)

static ssize_t governor_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ampsoc_pd *pd = kobj_pd(kobj);

	return sysfs_emit(buf, "%s\n", pd->gov && pd->gov->name ?
			  pd->gov->name : "none");
}

/* One name per line; a list longer than a page is cut at a line end. */
static ssize_t devices_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct ampsoc_pd *pd = kobj_pd(kobj);
	struct ampsoc_pd_dev *pdd;
	int n = 0;

	ampsoc_pd_lock(pd);
	ampsoc_pd_count_walk();
	list_for_each_entry(pdd, &pd->dev_list, base.list_node) {
		const char *name = dev_name(pdd->base.dev);

		if (n + strlen(name) + 2 > PAGE_SIZE)
			break;
		n += sysfs_emit_at(buf, n, "%s\n", name);
	}
	ampsoc_pd_unlock(pd);
	return n;
}

static ssize_t pd_links_show(struct ampsoc_pd *pd, char *buf, bool children)
{
	struct ampsoc_pd_link *link;
	int n = 0;

	ampsoc_pd_lock(pd);
	if (children) {
		pd_for_each_child(pd, link)
			if (n + strlen(link->child->name) + 2 <= PAGE_SIZE)
				n += sysfs_emit_at(buf, n, "%s\n",
						   link->child->name);
	} else {
		pd_for_each_parent(pd, link)
			if (n + strlen(link->parent->name) + 2 <= PAGE_SIZE)
				n += sysfs_emit_at(buf, n, "%s\n",
						   link->parent->name);
	}
	ampsoc_pd_unlock(pd);
	return n;
}

static ssize_t sub_domains_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return pd_links_show(kobj_pd(kobj), buf, true);
}

static ssize_t parents_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return pd_links_show(kobj_pd(kobj), buf, false);
}

static ssize_t states_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct ampsoc_pd *pd = kobj_pd(kobj);
	unsigned int i;
	int n = 0;

	ampsoc_pd_lock(pd);
	for (i = 0; i < pd->state_count && n < PAGE_SIZE - 128; i++) {
		struct ampsoc_pd_state *st = &pd->states[i];

		/* The state's name when the platform gave one, else S<i>. */
		if (st->name)
			n += sysfs_emit_at(buf, n, "%.32s ", st->name);
		else
			n += sysfs_emit_at(buf, n, "S%u ", i);
		n += sysfs_emit_at(buf, n, "%lld %lld %lld %llu %llu %llu\n",
				   st->power_off_latency_ns,
				   st->power_on_latency_ns, st->residency_ns,
				   st->usage, st->rejected, st->idle_time_ns);
	}
	ampsoc_pd_unlock(pd);
	return n;
}

static struct kobj_attribute pd_attrs[] = {
	__ATTR_RO(current_state),
	__ATTR_RO(device_count),
	__ATTR_RO(active_count),
	__ATTR_RO(sd_count),
	__ATTR_RO(on_count),
	__ATTR_RO(off_count),
	__ATTR_RO(governor),
	__ATTR_RO(devices),
	__ATTR_RO(sub_domains),
	__ATTR_RO(parents),
	__ATTR_RO(states),
};

static struct attribute *pd_attr_ptrs[ARRAY_SIZE(pd_attrs) + 1];

static const struct attribute_group pd_group = {
	.attrs = pd_attr_ptrs,
};

static const struct attribute_group *pd_groups[] = {
	&pd_group,
	NULL,
};

static void pd_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct pd_kobj, kobj));
}

static const struct kobj_type pd_ktype = {
	.release = pd_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = pd_groups,
};

int ampsoc_pd_sysfs_add(struct ampsoc_pd *pd)
{
	struct pd_kobj *pk;
	int ret;

	pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	if (!pk)
		return -ENOMEM;
	pk->pd = pd;
	ret = kobject_init_and_add(&pk->kobj, &pd_ktype, pd_sysfs_root, "%s",
				   pd->name);
	if (ret) {
		kobject_put(&pk->kobj);
		return ret;
	}
	pd->kobj = &pk->kobj;
	return 0;
}

void ampsoc_pd_sysfs_remove(struct ampsoc_pd *pd)
{
	if (!pd->kobj)
		return;
	/* kobject_del() waits for show() calls in flight. */
	kobject_del(pd->kobj);
	kobject_put(pd->kobj);
	pd->kobj = NULL;
}

int ampsoc_pd_sysfs_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pd_attrs); i++)
		pd_attr_ptrs[i] = &pd_attrs[i].attr;
	pd_sysfs_root = kobject_create_and_add("ampsoc_pd", kernel_kobj);
	return pd_sysfs_root ? 0 : -ENOMEM;
}

void ampsoc_pd_sysfs_exit(void)
{
	kobject_put(pd_sysfs_root);
}

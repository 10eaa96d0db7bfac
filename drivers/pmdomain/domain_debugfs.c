// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc generic I/O PM domains: debugfs, in the exact formats of Linux
 * 6.1's pm_genpd directory, under /sys/kernel/debug/ampsoc_pd/.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "domain_internal.h"

static struct dentry *pd_debugfs_root;

/*
 * The files are created "unsafe" (no proxy) so that they keep read_iter and
 * can be read with kernel_read() by the self-test; each show() pins the
 * file against removal itself, as debugfs requires then.
 */
#define PD_DEBUGFS_FILE(__name)						\
static int __name##_show_pinned(struct seq_file *s, void *data)		\
{									\
	struct dentry *d = s->file->f_path.dentry;			\
	int ret = debugfs_file_get(d);					\
									\
	if (ret)							\
		return ret;						\
	ret = __name##_show(s, data);					\
	debugfs_file_put(d);						\
	return ret;							\
}									\
									\
static int __name##_open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name##_show_pinned, inode->i_private); \
}									\
									\
static const struct file_operations __name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = __name##_open,						\
	.read_iter = seq_read_iter,					\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

static void pd_rpm_status(struct seq_file *s, struct device *dev)
{
	static const char * const names[] = {
		[RPM_ACTIVE] = "active",
		[RPM_RESUMING] = "resuming",
		[RPM_SUSPENDED] = "suspended",
		[RPM_SUSPENDING] = "suspending",
	};
	const char *p = "";

	if (dev->power.runtime_error)
		p = "error";
	else if (dev->power.disable_depth)
		p = "unsupported";
	else if (dev->power.runtime_status < ARRAY_SIZE(names))
		p = names[dev->power.runtime_status];
	seq_printf(s, "%-25s  ", p);
}

/* Under the lock of an IRQ-safe domain nothing may sleep (as 6.1). */
static gfp_t pd_gfp(struct ampsoc_pd *pd)
{
	return ampsoc_pd_irq_safe(pd) ? GFP_ATOMIC : GFP_KERNEL;
}

static void pd_summary_one(struct seq_file *s, struct ampsoc_pd *pd)
{
	struct ampsoc_pd_link *link;
	struct ampsoc_pd_dev *pdd;
	char state[16];

	ampsoc_pd_lock(pd);
	if (pd->status == AMPSOC_PD_OFF)
		snprintf(state, sizeof(state), "off-%u", pd->state_idx);
	else if (pd->stay_on == AMPSOC_PD_STAY_ON_HELD)
		snprintf(state, sizeof(state), "on (stay-on)");
	else
		snprintf(state, sizeof(state), "on");
	seq_printf(s, "%-30s  %-49s  %u", pd->name, state,
		   READ_ONCE(pd->performance_state));

	pd_for_each_child(pd, link) {
		if (list_is_first(&link->parent_node, &pd->child_links))
			seq_printf(s, "\n%48s", " ");
		seq_puts(s, link->child->name);
		if (!list_is_last(&link->parent_node, &pd->child_links))
			seq_puts(s, ", ");
	}

	ampsoc_pd_count_walk();
	list_for_each_entry(pdd, &pd->dev_list, base.list_node) {
		char *path = kobject_get_path(&pdd->base.dev->kobj, pd_gfp(pd));

		if (!path)
			continue;
		seq_printf(s, "\n    %-50s  ", path);
		pd_rpm_status(s, pdd->base.dev);
		seq_put_decimal_ull(s, "", READ_ONCE(pdd->performance_state));
		kfree(path);
	}
	seq_puts(s, "\n");
	ampsoc_pd_unlock(pd);
}

static int pd_summary_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd;

	seq_puts(s, "domain                          status          children                           performance\n");
	seq_puts(s, "    /device                                             runtime status\n");
	seq_puts(s, "----------------------------------------------------------------------------------------------\n");
	mutex_lock(&ampsoc_pd_list_lock);
	/* Newest first, as 6.1 (which adds each domain at its list's head). */
	list_for_each_entry_reverse(pd, &ampsoc_pd_list, node)
		pd_summary_one(s, pd);
	mutex_unlock(&ampsoc_pd_list_lock);
	return 0;
}

PD_DEBUGFS_FILE(pd_summary);

static int current_state_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;

	ampsoc_pd_lock(pd);
	if (pd->status == AMPSOC_PD_OFF)
		seq_printf(s, "off-%u\n", pd->state_idx);
	else
		seq_puts(s, "on\n");
	ampsoc_pd_unlock(pd);
	return 0;
}

PD_DEBUGFS_FILE(current_state);

static int sub_domains_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;
	struct ampsoc_pd_link *link;

	ampsoc_pd_lock(pd);
	pd_for_each_child(pd, link)
		seq_printf(s, "%s\n", link->child->name);
	ampsoc_pd_unlock(pd);
	return 0;
}

PD_DEBUGFS_FILE(sub_domains);

/* Time in the current status not yet folded into the totals (lock held). */
static u64 pd_pending_ns(struct ampsoc_pd *pd)
{
	u64 now = ampsoc_pd_now();

	return now > pd->accounting_time ? now - pd->accounting_time : 0;
}

static int idle_states_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;
	u64 idle = 0;
	unsigned int i;

	ampsoc_pd_lock(pd);
	seq_puts(s, "State          Time Spent(ms) Usage          Rejected\n");
	/* As 6.1 does, the running total carries over from row to row. */
	for (i = 0; i < pd->state_count; i++) {
		idle += pd->states[i].idle_time_ns;
		if (pd->status == AMPSOC_PD_OFF && pd->state_idx == i)
			idle += pd_pending_ns(pd);
		idle = div_u64(idle, NSEC_PER_MSEC);
		/*
		 * 6.1 prints S<i> whatever the state is called; a name the
		 * platform gave takes the same 14 columns here.
		 */
		if (pd->states[i].name)
			seq_printf(s, "%-14s ", pd->states[i].name);
		else
			seq_printf(s, "S%-13i ", i);
		seq_printf(s, "%-14llu %-14llu %llu\n", idle,
			   pd->states[i].usage, pd->states[i].rejected);
	}
	ampsoc_pd_unlock(pd);
	return 0;
}

PD_DEBUGFS_FILE(idle_states);

static int active_time_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;
	u64 t;

	ampsoc_pd_lock(pd);
	t = pd->on_time_ns;
	if (pd->status == AMPSOC_PD_ON)
		t += pd_pending_ns(pd);
	ampsoc_pd_unlock(pd);
	seq_printf(s, "%llu ms\n", div_u64(t, NSEC_PER_MSEC));
	return 0;
}

PD_DEBUGFS_FILE(active_time);

static int total_idle_time_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;
	unsigned int i;
	u64 t = 0;

	ampsoc_pd_lock(pd);
	for (i = 0; i < pd->state_count; i++) {
		t += pd->states[i].idle_time_ns;
		if (pd->status == AMPSOC_PD_OFF && pd->state_idx == i)
			t += pd_pending_ns(pd);
	}
	ampsoc_pd_unlock(pd);
	seq_printf(s, "%llu ms\n", div_u64(t, NSEC_PER_MSEC));
	return 0;
}

PD_DEBUGFS_FILE(total_idle_time);

static int devices_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;
	struct ampsoc_pd_dev *pdd;

	ampsoc_pd_lock(pd);
	ampsoc_pd_count_walk();
	list_for_each_entry(pdd, &pd->dev_list, base.list_node) {
		char *path = kobject_get_path(&pdd->base.dev->kobj, pd_gfp(pd));

		if (!path)
			continue;
		seq_printf(s, "%s\n", path);
		kfree(path);
	}
	ampsoc_pd_unlock(pd);
	return 0;
}

PD_DEBUGFS_FILE(devices);

/*
 * The performance mutex is not taken: a read does not wait for a
 * provider's callback, and shows the last state set.
 */
static int perf_state_show(struct seq_file *s, void *data)
{
	struct ampsoc_pd *pd = s->private;

	seq_printf(s, "%u\n", READ_ONCE(pd->performance_state));
	return 0;
}

PD_DEBUGFS_FILE(perf_state);

/* Not in 6.1: where the stay-on hold of an AMPSOC_PD_FLAG_STAY_ON domain is. */
static int stay_on_show(struct seq_file *s, void *data)
{
	static const char * const names[] = {
		[AMPSOC_PD_STAY_ON_NONE] = "none",
		[AMPSOC_PD_STAY_ON_HELD] = "held",
		[AMPSOC_PD_STAY_ON_SYNCED] = "released-sync",
		[AMPSOC_PD_STAY_ON_TIMED_OUT] = "released-timeout",
	};
	struct ampsoc_pd *pd = s->private;
	u8 st;

	ampsoc_pd_lock(pd);
	st = pd->stay_on;
	ampsoc_pd_unlock(pd);
	seq_printf(s, "%s\n", st < ARRAY_SIZE(names) ? names[st] : "?");
	return 0;
}

PD_DEBUGFS_FILE(stay_on);

/* List lock held. */
void ampsoc_pd_debugfs_add(struct ampsoc_pd *pd)
{
	struct dentry *d;

	if (!pd_debugfs_root)
		return;
	d = debugfs_create_dir(pd->name, pd_debugfs_root);
	pd->dbg_dir = d;
	debugfs_create_file_unsafe("current_state", 0444, d, pd,
				   &current_state_fops);
	debugfs_create_file_unsafe("sub_domains", 0444, d, pd, &sub_domains_fops);
	debugfs_create_file_unsafe("idle_states", 0444, d, pd, &idle_states_fops);
	debugfs_create_file_unsafe("active_time", 0444, d, pd, &active_time_fops);
	debugfs_create_file_unsafe("total_idle_time", 0444, d, pd,
				   &total_idle_time_fops);
	debugfs_create_file_unsafe("devices", 0444, d, pd, &devices_fops);
	/* As 6.1: only a domain with the callback has the file. */
	if (pd->set_performance_state)
		debugfs_create_file_unsafe("perf_state", 0444, d, pd,
					   &perf_state_fops);
	if (pd->flags & AMPSOC_PD_FLAG_STAY_ON)
		debugfs_create_file_unsafe("stay_on", 0444, d, pd,
					   &stay_on_fops);
}

void ampsoc_pd_debugfs_remove(struct ampsoc_pd *pd)
{
	debugfs_remove_recursive(pd->dbg_dir);
	pd->dbg_dir = NULL;
}

void ampsoc_pd_debugfs_init(void)
{
	pd_debugfs_root = debugfs_create_dir("ampsoc_pd", NULL);
	debugfs_create_file_unsafe("pm_genpd_summary", 0444, pd_debugfs_root,
				   NULL, &pd_summary_fops);
}

void ampsoc_pd_debugfs_exit(void)
{
	debugfs_remove_recursive(pd_debugfs_root);
	pd_debugfs_root = NULL;
}

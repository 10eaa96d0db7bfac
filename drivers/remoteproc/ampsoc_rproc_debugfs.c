// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/remoteproc/remoteprocN: name, recovery, crash,
 * coredump, resource_table, carveout_memories and one traceN file per
 * trace buffer, as mainline. Two more for benchmarks: load_stats (what the
 * last firmware load cost) and memcpy_bench (a plain memcpy() into the
 * same device memory, the baseline for the load).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "ampsoc_rproc_internal.h"

static struct dentry *arp_dbg_root;

static ssize_t arp_trace_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct arp_trace *t = file->private_data;

	/* The remote writes the buffer concurrently: show up to its NUL. */
	return simple_read_from_buffer(ubuf, count, ppos, t->va,
				       strnlen(t->va, t->len));
}

static const struct file_operations arp_trace_fops = {
	.open = simple_open,
	.read = arp_trace_read,
	.llseek = generic_file_llseek,
};

/**
 * arp_debugfs_add_trace() - publish a trace buffer as traceN
 * @rproc: the processor
 * @t: the trace buffer
 *
 * Context: Process context.
 */
void arp_debugfs_add_trace(struct ampsoc_rproc *rproc, struct arp_trace *t)
{
	char name[16];

	if (!rproc->dbg_dir)
		return;
	snprintf(name, sizeof(name), "trace%u", t->index);
	t->file = debugfs_create_file(name, 0400, rproc->dbg_dir, t,
				      &arp_trace_fops);
}

static ssize_t arp_name_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[100];
	int n;

	n = scnprintf(buf, sizeof(buf), "name: %s\n", rproc->name);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations arp_name_fops = {
	.open = simple_open,
	.read = arp_name_read,
	.llseek = generic_file_llseek,
};

static ssize_t arp_recovery_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	const char *s = rproc->recovery_disabled ? "disabled\n" : "enabled\n";

	return simple_read_from_buffer(ubuf, count, ppos, s, strlen(s));
}

static ssize_t arp_recovery_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[10];
	int ret = 0;

	if (count < 1 || count > sizeof(buf) - 1)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sysfs_streq(buf, "enabled")) {
		if (mutex_lock_interruptible(&rproc->lock))
			return -EINTR;
		rproc->recovery_disabled = false;
		if (rproc->state == AMPSOC_RPROC_CRASHED && !rproc->deleting)
			ret = arp_recover_locked(rproc);
		mutex_unlock(&rproc->lock);
	} else if (sysfs_streq(buf, "disabled")) {
		rproc->recovery_disabled = true;
	} else if (sysfs_streq(buf, "recover")) {
		ret = ampsoc_rproc_trigger_recovery(rproc);
	} else {
		return -EINVAL;
	}
	return ret ? ret : count;
}

static const struct file_operations arp_recovery_fops = {
	.open = simple_open,
	.read = arp_recovery_read,
	.write = arp_recovery_write,
	.llseek = generic_file_llseek,
};

static ssize_t arp_crash_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	unsigned int type;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &type);
	if (ret)
		return ret;
	if (type > AMPSOC_RPROC_FATAL_ERROR)
		return -EINVAL;
	ampsoc_rproc_report_crash(rproc, type);
	return count;
}

static const struct file_operations arp_crash_fops = {
	.open = simple_open,
	.write = arp_crash_write,
	.llseek = generic_file_llseek,
};

static ssize_t arp_coredump_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[20];
	int n;

	n = scnprintf(buf, sizeof(buf), "%s\n",
		      ampsoc_rproc_dump_names[rproc->dump_conf]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t arp_coredump_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[20];
	int i;

	if (count < 1 || count > sizeof(buf) - 1)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	i = sysfs_match_string(ampsoc_rproc_dump_names, buf);
	if (i < 0)
		return -EINVAL;
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	if (rproc->state == AMPSOC_RPROC_CRASHED) {
		mutex_unlock(&rproc->lock);
		return -EBUSY;
	}
	rproc->dump_conf = i;
	mutex_unlock(&rproc->lock);
	return count;
}

static const struct file_operations arp_coredump_fops = {
	.open = simple_open,
	.read = arp_coredump_read,
	.write = arp_coredump_write,
	.llseek = generic_file_llseek,
};

static void arp_show_name(struct seq_file *s, const char *what, const u8 *name)
{
	seq_printf(s, "  %s %.*s\n", what, AMPSOC_RSC_NAME_LEN, name);
}

static void arp_show_vdev(struct seq_file *s, const struct ampsoc_rsc_vdev *v)
{
	unsigned int j;

	seq_printf(s, "  ID %d\n", v->id);
	seq_printf(s, "  Notify ID %d\n", v->notifyid);
	seq_printf(s, "  Device features 0x%x\n", v->dfeatures);
	seq_printf(s, "  Guest features 0x%x\n", v->gfeatures);
	seq_printf(s, "  Config length 0x%x\n", v->config_len);
	seq_printf(s, "  Status 0x%x\n", v->status);
	seq_printf(s, "  Number of vrings %d\n", v->num_of_vrings);
	seq_printf(s, "  Reserved (should be zero) [%d][%d]\n\n",
		   v->reserved[0], v->reserved[1]);
	for (j = 0; j < v->num_of_vrings; j++) {
		const struct ampsoc_rsc_vring *r = &v->vring[j];

		seq_printf(s, "  Vring %d\n", j);
		seq_printf(s, "    Device Address 0x%x\n", r->da);
		seq_printf(s, "    Alignment %d\n", r->align);
		seq_printf(s, "    Number of buffers %d\n", r->num);
		seq_printf(s, "    Notify ID %d\n", r->notifyid);
		seq_printf(s, "    Physical Address 0x%x\n\n", r->pa);
	}
}

/*
 * Print the table in use. Entries were validated at boot; the firmware may
 * rewrite the loaded copy since, so only the offsets and sizes checked then
 * are trusted and everything else is printed as plain numbers.
 */
static int arp_rsc_table_show(struct seq_file *s, void *unused)
{
	struct ampsoc_rproc *rproc = s->private;
	struct ampsoc_rsc_table *hdr;
	const struct ampsoc_rsc_table *orig;
	unsigned int i;
	u8 *copy;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	orig = rproc->cached_table;
	if (!rproc->table_ptr || !orig) {
		seq_puts(s, "No resource table found\n");
		goto out;
	}
	copy = kmemdup(rproc->table_ptr, rproc->table_sz, GFP_KERNEL);
	if (!copy)
		goto out;
	hdr = (void *)copy;
	seq_printf(s, "Resource Table:\n  Version %d\n  Number of entries %d\n  Reserved (should be zero) [%d][%d]\n\n",
		   hdr->ver, orig->num, hdr->reserved[0], hdr->reserved[1]);
	for (i = 0; i < orig->num; i++) {
		u32 off = orig->offset[i];
		const struct ampsoc_rsc_hdr *rh = (const void *)orig + off;
		void *rsc = copy + off + sizeof(*rh);

		switch (rh->type) {
		case AMPSOC_RSC_CARVEOUT: {
			struct ampsoc_rsc_carveout *c = rsc;

			seq_printf(s, "Entry %d is of type %s\n", i, "carveout");
			seq_printf(s, "  Device Address 0x%x\n", c->da);
			seq_printf(s, "  Physical Address 0x%x\n", c->pa);
			seq_printf(s, "  Length 0x%x Bytes\n", c->len);
			seq_printf(s, "  Flags 0x%x\n", c->flags);
			seq_printf(s, "  Reserved (should be zero) [%d]\n",
				   c->reserved);
			arp_show_name(s, "Name", c->name);
			seq_puts(s, "\n");
			break;
		}
		case AMPSOC_RSC_DEVMEM: {
			struct ampsoc_rsc_devmem *m = rsc;

			seq_printf(s, "Entry %d is of type %s\n", i, "devmem");
			seq_printf(s, "  Device Address 0x%x\n", m->da);
			seq_printf(s, "  Physical Address 0x%x\n", m->pa);
			seq_printf(s, "  Length 0x%x Bytes\n", m->len);
			seq_printf(s, "  Flags 0x%x\n", m->flags);
			seq_printf(s, "  Reserved (should be zero) [%d]\n",
				   m->reserved);
			arp_show_name(s, "Name", m->name);
			seq_puts(s, "\n");
			break;
		}
		case AMPSOC_RSC_TRACE: {
			struct ampsoc_rsc_trace *t = rsc;

			seq_printf(s, "Entry %d is of type %s\n", i, "trace");
			seq_printf(s, "  Device Address 0x%x\n", t->da);
			seq_printf(s, "  Length 0x%x Bytes\n", t->len);
			seq_printf(s, "  Reserved (should be zero) [%d]\n",
				   t->reserved);
			arp_show_name(s, "Name", t->name);
			seq_puts(s, "\n");
			break;
		}
		case AMPSOC_RSC_VDEV: {
			struct ampsoc_rsc_vdev *v = rsc;
			const struct ampsoc_rsc_vdev *ov =
				(const void *)rh->data;

			/* The ring count comes from the validated copy. */
			v->num_of_vrings = ov->num_of_vrings;
			seq_printf(s, "Entry %d is of type %s\n", i, "vdev");
			arp_show_vdev(s, v);
			break;
		}
		default:
			seq_printf(s, "Entry %d is of vendor type %u\n\n", i,
				   rh->type);
			break;
		}
	}
	kfree(copy);
out:
	mutex_unlock(&rproc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arp_rsc_table);

static int arp_carveouts_show(struct seq_file *s, void *unused)
{
	struct ampsoc_rproc *rproc = s->private;
	struct arp_carveout *c;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	list_for_each_entry(c, &rproc->carveouts, node) {
		seq_puts(s, "Carveout memory entry:\n");
		seq_printf(s, "\tName: %s\n", c->name);
		seq_printf(s, "\tVirtual address: %pK\n", c->va);
		if (c->pa == AMPSOC_RPROC_NO_PA)
			seq_puts(s, "\tDMA address: none\n");
		else
			seq_printf(s, "\tDMA address: %pa\n", &c->pa);
		seq_printf(s, "\tDevice address: 0x%llx\n", c->da);
		seq_printf(s, "\tLength: 0x%zx Bytes\n\n", c->len);
	}
	mutex_unlock(&rproc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arp_carveouts);

static int arp_load_stats_show(struct seq_file *s, void *unused)
{
	struct ampsoc_rproc *rproc = s->private;

	mutex_lock(&rproc->lock);
	seq_printf(s, "fw_bytes %zu request_ns %llu load_bytes %llu load_ns %llu\n",
		   rproc->load_fw_bytes, rproc->load_request_ns,
		   rproc->load_bytes, rproc->load_ns);
	mutex_unlock(&rproc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arp_load_stats);

static ssize_t arp_memcpy_bench_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[64];
	int n;

	mutex_lock(&rproc->lock);
	n = scnprintf(buf, sizeof(buf), "bytes %llu ns %llu\n",
		      rproc->memcpy_bytes, rproc->memcpy_ns);
	mutex_unlock(&rproc->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

/*
 * "DA LEN": copy LEN bytes from a vmalloc() buffer (where the firmware
 * loader keeps an image) to device address DA with memcpy(), as the ELF
 * loader does, and keep the time. Only while the processor is offline, so
 * that nothing running is overwritten; the range must be device memory.
 */
static ssize_t arp_memcpy_bench_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct ampsoc_rproc *rproc = file->private_data;
	char buf[48];
	u64 da, len;
	ktime_t t0;
	void *src = NULL, *dst;
	int ret = 0;

	if (count < 1 || count > sizeof(buf) - 1)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%llx %llu", &da, &len) != 2 || !len ||
	    len > SIZE_MAX)
		return -EINVAL;

	mutex_lock(&rproc->lock);
	if (rproc->state != AMPSOC_RPROC_OFFLINE) {
		ret = -EBUSY;
		goto out;
	}
	dst = ampsoc_rproc_da_to_va(rproc, da, len);
	if (!dst) {
		ret = -ERANGE;
		goto out;
	}
	/* Bounded by the device memory the range was found in. */
	src = vmalloc(len);
	if (!src) {
		ret = -ENOMEM;
		goto out;
	}
	memset(src, 0x5a, len);
	t0 = ktime_get();
	memcpy(dst, src, len);
	rproc->memcpy_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	rproc->memcpy_bytes = len;
out:
	mutex_unlock(&rproc->lock);
	vfree(src);
	return ret ? ret : count;
}

static const struct file_operations arp_memcpy_bench_fops = {
	.open = simple_open,
	.read = arp_memcpy_bench_read,
	.write = arp_memcpy_bench_write,
	.llseek = generic_file_llseek,
};

/**
 * arp_debugfs_add() - create a processor's debugfs directory
 * @rproc: the processor
 *
 * Context: Process context.
 */
void arp_debugfs_add(struct ampsoc_rproc *rproc)
{
	struct dentry *d;

	if (!arp_dbg_root)
		return;
	d = debugfs_create_dir(dev_name(&rproc->dev), arp_dbg_root);
	if (IS_ERR(d))
		return;
	rproc->dbg_dir = d;
	debugfs_create_file("name", 0400, d, rproc, &arp_name_fops);
	debugfs_create_file("recovery", 0600, d, rproc, &arp_recovery_fops);
	debugfs_create_file("crash", 0200, d, rproc, &arp_crash_fops);
	debugfs_create_file("coredump", 0600, d, rproc, &arp_coredump_fops);
	debugfs_create_file("resource_table", 0400, d, rproc,
			    &arp_rsc_table_fops);
	debugfs_create_file("carveout_memories", 0400, d, rproc,
			    &arp_carveouts_fops);
	debugfs_create_file("load_stats", 0400, d, rproc,
			    &arp_load_stats_fops);
	debugfs_create_file("memcpy_bench", 0600, d, rproc,
			    &arp_memcpy_bench_fops);
}

/**
 * arp_debugfs_remove() - remove a processor's debugfs directory
 * @rproc: the processor
 *
 * Context: Process context.
 */
void arp_debugfs_remove(struct ampsoc_rproc *rproc)
{
	debugfs_remove_recursive(rproc->dbg_dir);
	rproc->dbg_dir = NULL;
}

/**
 * arp_debugfs_init() - create /sys/kernel/debug/remoteproc
 *
 * Context: Module init.
 */
void arp_debugfs_init(void)
{
	struct dentry *d = debugfs_create_dir("remoteproc", NULL);

	arp_dbg_root = IS_ERR(d) ? NULL : d;
}

/**
 * arp_debugfs_exit() - remove /sys/kernel/debug/remoteproc
 *
 * Context: Module exit.
 */
void arp_debugfs_exit(void)
{
	debugfs_remove_recursive(arp_dbg_root);
}

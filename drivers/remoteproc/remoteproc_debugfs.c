// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/remoteproc/remoteprocN: name, recovery, crash,
 * coredump, resource_table, carveout_memories and one traceN file per
 * trace buffer, with mainline 6.1's formats and write semantics. Two more
 * for benchmarks (ampsoc): load_stats (what the last firmware load cost)
 * and memcpy_bench (a plain memcpy() into the same device memory, the
 * baseline for the load).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "remoteproc_internal.h"

static struct dentry *ampsoc_rproc_dbg_root;

/*
 * mainline's debugfs writes: at most @max bytes, one trailing newline
 * dropped, then compared with a prefix of each word ("en" means enabled).
 */
static int ampsoc_rproc_dbg_copy(char *buf, size_t max, const char __user *ubuf,
				 size_t count)
{
	if (count < 1 || count > max)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	buf[count] = '\0';
	return 0;
}

static ssize_t ampsoc_rproc_trace_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct ampsoc_rproc_trace *t = file->private_data;
	struct rproc_mem_entry *trace = &t->trace_mem;
	char buf[100];
	void *va;
	size_t len;

	va = ampsoc_rproc_da_to_va(t->rproc, trace->da, trace->len, NULL);
	if (!va) {
		len = scnprintf(buf, sizeof(buf), "Trace %s not available\n",
				trace->name);
		va = buf;
	} else {
		/* The remote writes the buffer concurrently: up to its NUL. */
		len = strnlen(va, trace->len);
	}
	return simple_read_from_buffer(ubuf, count, ppos, va, len);
}

static const struct file_operations ampsoc_rproc_trace_fops = {
	.open = simple_open,
	.read = ampsoc_rproc_trace_read,
	.llseek = generic_file_llseek,
};

/**
 * ampsoc_rproc_create_trace_file() - publish a trace buffer
 * @name: "traceN"
 * @rproc: the processor
 * @trace: the trace buffer
 *
 * Context: Process context.
 * Return: the file, or NULL or an error pointer (debugfs_remove() accepts
 * both).
 */
struct dentry *ampsoc_rproc_create_trace_file(const char *name, struct rproc *rproc,
					      struct ampsoc_rproc_trace *trace)
{
	if (!rproc->dbg_dir)
		return NULL;
	return debugfs_create_file(name, 0400, rproc->dbg_dir, trace,
				   &ampsoc_rproc_trace_fops);
}

static ssize_t ampsoc_rproc_name_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	char buf[100];
	int n;

	n = scnprintf(buf, sizeof(buf), "%.98s\n", rproc->name);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static const struct file_operations ampsoc_rproc_name_fops = {
	.open = simple_open,
	.read = ampsoc_rproc_name_read,
	.llseek = generic_file_llseek,
};

static ssize_t ampsoc_rproc_recovery_read(struct file *file, char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	const char *s = rproc->recovery_disabled ? "disabled\n" : "enabled\n";

	return simple_read_from_buffer(ubuf, count, ppos, s, strlen(s));
}

static ssize_t ampsoc_rproc_recovery_write(struct file *file, const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	char buf[11];
	int ret;

	ret = ampsoc_rproc_dbg_copy(buf, sizeof(buf) - 1, ubuf, count);
	if (ret)
		return ret;
	if (!strncmp(buf, "enabled", count)) {
		rproc->recovery_disabled = false;
		ampsoc_rproc_trigger_recovery(rproc);
	} else if (!strncmp(buf, "disabled", count)) {
		rproc->recovery_disabled = true;
	} else if (!strncmp(buf, "recover", count)) {
		ampsoc_rproc_trigger_recovery(rproc);
	} else {
		return -EINVAL;
	}
	return count;
}

static const struct file_operations ampsoc_rproc_recovery_fops = {
	.open = simple_open,
	.read = ampsoc_rproc_recovery_read,
	.write = ampsoc_rproc_recovery_write,
	.llseek = generic_file_llseek,
};

/* As mainline, any number: out of range is reported as "unknown". */
static ssize_t ampsoc_rproc_crash_write(struct file *file, const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	unsigned int type;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &type);
	if (ret < 0)
		return ret;
	ampsoc_rproc_report_crash(rproc, type);
	return count;
}

static const struct file_operations ampsoc_rproc_crash_fops = {
	.open = simple_open,
	.write = ampsoc_rproc_crash_write,
	.llseek = generic_file_llseek,
};

static ssize_t ampsoc_rproc_coredump_read(struct file *file, char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	char buf[20];
	int n;

	n = scnprintf(buf, sizeof(buf), "%s\n",
		      ampsoc_rproc_dump_name(rproc->dump_conf));
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t ampsoc_rproc_coredump_write(struct file *file, const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	char buf[21];
	int ret;

	ret = ampsoc_rproc_dbg_copy(buf, sizeof(buf) - 1, ubuf, count);
	if (ret)
		return ret;
	if (READ_ONCE(rproc->state) == RPROC_CRASHED) {
		dev_err(&rproc->dev, "can't change coredump configuration\n");
		return -EBUSY;
	}
	if (!strncmp(buf, "disabled", count)) {
		rproc->dump_conf = RPROC_COREDUMP_DISABLED;
	} else if (!strncmp(buf, "enabled", count)) {
		rproc->dump_conf = RPROC_COREDUMP_ENABLED;
	} else if (!strncmp(buf, "inline", count)) {
		rproc->dump_conf = RPROC_COREDUMP_INLINE;
	} else {
		dev_err(&rproc->dev, "Invalid coredump configuration\n");
		return -EINVAL;
	}
	return count;
}

static const struct file_operations ampsoc_rproc_coredump_fops = {
	.open = simple_open,
	.read = ampsoc_rproc_coredump_read,
	.write = ampsoc_rproc_coredump_write,
	.llseek = generic_file_llseek,
};

static void ampsoc_rproc_show_vdev(struct seq_file *s, const struct fw_rsc_vdev *v,
				   unsigned int nvrings)
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
	for (j = 0; j < nvrings; j++) {
		const struct fw_rsc_vdev_vring *r = &v->vring[j];

		seq_printf(s, "  Vring %d\n", j);
		seq_printf(s, "    Device Address 0x%x\n", r->da);
		seq_printf(s, "    Alignment %d\n", r->align);
		seq_printf(s, "    Number of buffers %d\n", r->num);
		seq_printf(s, "    Notify ID %d\n", r->notifyid);
		seq_printf(s, "    Physical Address 0x%x\n\n", r->pa);
	}
}

/*
 * The table in effect, as mainline prints it. The remote may rewrite the
 * loaded table at any time: a snapshot is printed, and every entry is
 * bounds-checked against the snapshot before it is read.
 */
static int ampsoc_rproc_rsc_table_show(struct seq_file *s, void *unused)
{
	static const char * const types[] = {
		"carveout", "devmem", "trace", "vdev",
	};
	struct rproc *rproc = s->private;
	struct resource_table *t;
	size_t sz;
	u32 i, num;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	if (!rproc->table_ptr) {
		mutex_unlock(&rproc->lock);
		seq_puts(s, "No resource table found\n");
		return 0;
	}
	sz = rproc->table_sz;
	t = kmemdup(rproc->table_ptr, sz, GFP_KERNEL);
	mutex_unlock(&rproc->lock);
	if (!t)
		return -ENOMEM;
	num = sz < sizeof(*t) ? 0 :
	      min_t(u64, t->num, (sz - sizeof(*t)) / sizeof(u32));
	for (i = 0; i < num; i++) {
		u32 off = t->offset[i];
		struct fw_rsc_hdr *hdr = (void *)t + off;
		void *rsc = hdr->data;
		size_t avail;

		if (off < sizeof(*t) || off >= sz || sz - off < sizeof(*hdr))
			break;
		avail = sz - off - sizeof(*hdr);
		if (hdr->type < RSC_LAST &&
		    avail < ampsoc_fw_rsc_min_size(hdr->type))
			break;
		switch (hdr->type) {
		case RSC_CARVEOUT:
		case RSC_DEVMEM: {
			/* the same layout */
			struct fw_rsc_carveout *c = rsc;

			seq_printf(s, "Entry %d is of type %s\n", i, types[hdr->type]);
			seq_printf(s, "  Device Address 0x%x\n", c->da);
			seq_printf(s, "  Physical Address 0x%x\n", c->pa);
			seq_printf(s, "  Length 0x%x Bytes\n", c->len);
			seq_printf(s, "  Flags 0x%x\n", c->flags);
			seq_printf(s, "  Reserved (should be zero) [%d]\n", c->reserved);
			seq_printf(s, "  Name %.32s\n\n", c->name);
			break;
		}
		case RSC_TRACE: {
			struct fw_rsc_trace *tr = rsc;

			seq_printf(s, "Entry %d is of type %s\n", i, types[hdr->type]);
			seq_printf(s, "  Device Address 0x%x\n", tr->da);
			seq_printf(s, "  Length 0x%x Bytes\n", tr->len);
			seq_printf(s, "  Reserved (should be zero) [%d]\n", tr->reserved);
			seq_printf(s, "  Name %.32s\n\n", tr->name);
			break;
		}
		case RSC_VDEV: {
			struct fw_rsc_vdev *v = rsc;
			unsigned int n = v->num_of_vrings;

			/* Only the vrings that fit in the snapshot. */
			n = min_t(size_t, n, (avail - sizeof(*v)) /
					     sizeof(struct fw_rsc_vdev_vring));
			seq_printf(s, "Entry %d is of type %s\n", i, types[hdr->type]);
			ampsoc_rproc_show_vdev(s, v, n);
			break;
		}
		default:
			seq_printf(s, "Unknown resource type found: %d [hdr: %pK]\n",
				   hdr->type, hdr);
			break;
		}
	}
	kfree(t);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ampsoc_rproc_rsc_table);

static int ampsoc_rproc_carveouts_show(struct seq_file *s, void *unused)
{
	struct rproc *rproc = s->private;
	struct rproc_mem_entry *c;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	list_for_each_entry(c, &rproc->carveouts, node) {
		seq_puts(s, "Carveout memory entry:\n");
		seq_printf(s, "\tName: %s\n", c->name);
		seq_printf(s, "\tVirtual address: %pK\n", c->va);
		seq_printf(s, "\tDMA address: %pad\n", &c->dma);
		seq_printf(s, "\tDevice address: 0x%x\n", c->da);
		seq_printf(s, "\tLength: 0x%zx Bytes\n\n", c->len);
	}
	mutex_unlock(&rproc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ampsoc_rproc_carveouts);

static int ampsoc_rproc_load_stats_show(struct seq_file *s, void *unused)
{
	struct rproc *rproc = s->private;
	struct ampsoc_rproc_state *ampsoc = rproc->ampsoc;

	/*
	 * Interruptible, as every reader here: crash handling holds the lock
	 * while an "inline" coredump waits for userspace to collect it.
	 */
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	seq_printf(s, "fw_bytes %zu request_ns %llu load_bytes %llu load_ns %llu path %s\n",
		   ampsoc->load_fw_bytes, ampsoc->load_request_ns, ampsoc->load_bytes,
		   ampsoc->load_ns,
		   ampsoc->load_direct ? "direct" : "request_firmware");
	mutex_unlock(&rproc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ampsoc_rproc_load_stats);

static ssize_t ampsoc_rproc_memcpy_bench_read(struct file *file, char __user *ubuf,
					      size_t count, loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
	char buf[64];
	int n;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	n = scnprintf(buf, sizeof(buf), "bytes %llu ns %llu\n",
		      rproc->ampsoc->memcpy_bytes, rproc->ampsoc->memcpy_ns);
	mutex_unlock(&rproc->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

/*
 * "DA LEN": copy LEN bytes from a vmalloc() buffer (where the firmware
 * loader keeps an image) to device address DA with memcpy(), as the ELF
 * loader does, and keep the time. Only while the processor is offline, so
 * that nothing running is overwritten; the range must be device memory.
 */
static ssize_t ampsoc_rproc_memcpy_bench_write(struct file *file,
					       const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct rproc *rproc = file->private_data;
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

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	if (rproc->state != RPROC_OFFLINE) {
		ret = -EBUSY;
		goto out;
	}
	dst = ampsoc_rproc_da_to_va(rproc, da, len, NULL);
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
	rproc->ampsoc->memcpy_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	rproc->ampsoc->memcpy_bytes = len;
out:
	mutex_unlock(&rproc->lock);
	vfree(src);
	return ret ? ret : count;
}

static const struct file_operations ampsoc_rproc_memcpy_bench_fops = {
	.open = simple_open,
	.read = ampsoc_rproc_memcpy_bench_read,
	.write = ampsoc_rproc_memcpy_bench_write,
	.llseek = generic_file_llseek,
};

/**
 * ampsoc_rproc_create_debug_dir() - create a processor's debugfs directory
 * @rproc: the processor
 *
 * Context: Process context.
 */
void ampsoc_rproc_create_debug_dir(struct rproc *rproc)
{
	struct dentry *d;

	if (!ampsoc_rproc_dbg_root)
		return;
	d = debugfs_create_dir(dev_name(&rproc->dev), ampsoc_rproc_dbg_root);
	if (IS_ERR(d))
		return;
	rproc->dbg_dir = d;
	debugfs_create_file("name", 0400, d, rproc, &ampsoc_rproc_name_fops);
	debugfs_create_file("recovery", 0600, d, rproc, &ampsoc_rproc_recovery_fops);
	debugfs_create_file("crash", 0200, d, rproc, &ampsoc_rproc_crash_fops);
	debugfs_create_file("coredump", 0600, d, rproc, &ampsoc_rproc_coredump_fops);
	debugfs_create_file("resource_table", 0400, d, rproc,
			    &ampsoc_rproc_rsc_table_fops);
	debugfs_create_file("carveout_memories", 0400, d, rproc,
			    &ampsoc_rproc_carveouts_fops);
	debugfs_create_file("load_stats", 0400, d, rproc,
			    &ampsoc_rproc_load_stats_fops);
	debugfs_create_file("memcpy_bench", 0600, d, rproc,
			    &ampsoc_rproc_memcpy_bench_fops);
}

/**
 * ampsoc_rproc_delete_debug_dir() - remove a processor's debugfs directory
 * @rproc: the processor
 *
 * Context: Process context.
 */
void ampsoc_rproc_delete_debug_dir(struct rproc *rproc)
{
	debugfs_remove_recursive(rproc->dbg_dir);
	rproc->dbg_dir = NULL;
}

/**
 * ampsoc_rproc_debugfs_init() - create /sys/kernel/debug/remoteproc
 *
 * Context: Module init.
 */
void ampsoc_rproc_debugfs_init(void)
{
	struct dentry *d = debugfs_create_dir("remoteproc", NULL);

	ampsoc_rproc_dbg_root = IS_ERR(d) ? NULL : d;
}

/**
 * ampsoc_rproc_debugfs_exit() - remove /sys/kernel/debug/remoteproc
 *
 * Context: Module exit.
 */
void ampsoc_rproc_debugfs_exit(void)
{
	debugfs_remove_recursive(ampsoc_rproc_dbg_root);
}

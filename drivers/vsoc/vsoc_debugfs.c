// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc debugfs: /sys/kernel/debug/vsoc/vsocN/
 *   board      the validated board description
 *   telemetry  the model's telemetry page, one object per line
 *   iters      iterations of the measurements below (default 1000,
 *              used between 1 and 100000)
 *   ping       guest -> model -> guest doorbell round trips
 *   loopback   guest -> guest doorbell round trips (transport baseline)
 *   rt         model -> guest -> model round trips, timed by the model
 *   shm_bw     copy bandwidth to and from shared memory, and RAM to RAM
 * The measurement files run when read and print "key value" pairs.
 */
#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vsoc_internal.h"

static struct dentry *vsoc_debugfs_root;

static const char *const pwr_state[] = { "off", "on", "going_on", "going_off" };

static const char *pwr_name(u32 st)
{
	return st < ARRAY_SIZE(pwr_state) ? pwr_state[st] : "invalid";
}

static void show_area(struct seq_file *m, const char *what,
		      const struct vsoc_shm_area *a)
{
	seq_printf(m, "%s 0x%llx+0x%llx\n", what, a->offset, a->size);
}

static int board_show(struct seq_file *m, void *v)
{
	struct vsoc *soc = m->private;
	const struct vsoc_board *b = soc->board;
	unsigned int i;

	seq_printf(m, "board %s version %u.%u shm 0x%llx model_peer %u guest_peer %u vectors %u\n",
		   b->name, b->version >> 16, b->version & 0xffff, b->shm_size,
		   b->model_peer, b->guest_peer, b->nr_vectors);
	show_area(m, "telemetry", &b->telemetry);
	show_area(m, "pwr", &b->pwr);
	show_area(m, "clk", &b->clk);
	show_area(m, "echo", &b->echo);
	for (i = 0; i < b->nr_domains; i++) {
		const struct vsoc_domain_info *d = &b->domains[i];

		seq_printf(m, "domain %u %s parent %s flags 0x%x on_ns %llu off_ns %llu initial %s\n",
			   i, d->name,
			   d->parent == VSOC_NONE ? "-" : b->domains[d->parent].name,
			   d->flags, d->on_latency_ns, d->off_latency_ns,
			   d->initially_on ? "on" : "off");
	}
	for (i = 0; i < b->nr_levels; i++) {
		const struct vsoc_level_info *l = &b->levels[i];

		seq_printf(m, "level %s %u voltage_uv %u power_uw %u\n",
			   b->domains[l->domain].name, l->level, l->voltage_uv,
			   l->power_uw);
	}
	for (i = 0; i < b->nr_clocks; i++) {
		const struct vsoc_clock_info *c = &b->clocks[i];

		seq_printf(m, "clock %u %s parent %s flags 0x%x rate %llu min %llu max %llu initial %s\n",
			   i, c->name,
			   c->parent == VSOC_NONE ? "-" : b->clocks[c->parent].name,
			   c->flags, c->rate_hz, c->min_rate_hz, c->max_rate_hz,
			   c->initially_on ? "on" : "off");
	}
	for (i = 0; i < b->nr_periphs; i++) {
		const struct vsoc_periph_info *p = &b->periphs[i];
		struct device *dev = vsoc_find_child(soc,
						     vsoc_periph_dev_name(p->type), i);

		seq_printf(m, "periph %u %s type %u domain %s clock %s vector %u device %s\n",
			   i, p->name, p->type, b->domains[p->domain].name,
			   p->clock == VSOC_NONE ? "-" : b->clocks[p->clock].name,
			   p->vector, dev ? dev_name(dev) : "-");
	}
	for (i = 0; i < b->nr_cores; i++) {
		const struct vsoc_core_info *c = &b->cores[i];
		struct device *dev = vsoc_find_child(soc, VSOC_DEV_RPROC, i);

		seq_printf(m, "core %u %s domain %s peer %u mems %u tx %d rx %d device %s firewall %s resmgr_domains 0x%x resmgr_clocks 0x%x\n",
			   i, c->name, b->domains[c->domain].name, c->peer,
			   c->nr_mems, (int)c->mbox_tx, (int)c->mbox_rx,
			   dev ? dev_name(dev) : "-",
			   c->flags & VSOC_CORE_F_FIREWALL ? "on" : "off",
			   c->resmgr_domains, c->resmgr_clocks);
	}
	for (i = 0; i < b->nr_mems; i++) {
		const struct vsoc_mem_info *me = &b->mems[i];

		seq_printf(m, "mem %u %s core %u da 0x%llx shm 0x%llx+0x%llx flags 0x%x\n",
			   i, me->name, me->core, me->da, me->shm.offset,
			   me->shm.size, me->flags);
	}
	for (i = 0; i < b->nr_mboxes; i++) {
		const struct vsoc_mbox_info *mb = &b->mboxes[i];

		seq_printf(m, "mbox %u %s from %d to %d peer %u vector %u depth %u\n",
			   i, mb->name, (int)(s16)mb->from, (int)(s16)mb->to,
			   mb->peer, mb->vector, mb->depth);
	}
	/* src -1: any (RPMSG_ADDR_ANY), as tx/rx -1 above mean none */
	for (i = 0; i < b->nr_chans; i++) {
		const struct vsoc_chan_info *ch = &b->chans[i];

		seq_printf(m, "chan %u %s core %u dst %u src %d\n",
			   i, ch->name, ch->core, ch->dst, (int)ch->src);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(board);

static int telemetry_show(struct seq_file *m, void *v)
{
	struct vsoc *soc = m->private;
	const struct vsoc_board *b = soc->board;
	struct vsoc_telemetry *t;
	unsigned int i, n;
	int ret;

	t = kmalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	ret = vsoc_telemetry_read(soc, t);
	if (ret)
		goto out;
	seq_printf(m, "now_ns %llu\nviolations %u\ngarbage %u\nlost_doorbells %u\nfaults 0x%x\nenergy_uj %llu\nfirewall_faults %u\n",
		   le64_to_cpu(t->now_ns), le32_to_cpu(t->violations),
		   le32_to_cpu(t->garbage), le32_to_cpu(t->lost_doorbells),
		   le32_to_cpu(t->faults_active),
		   le64_to_cpu(t->energy_total_uj),
		   le32_to_cpu(t->fw_faults));
	for (i = 0; i < b->nr_domains; i++) {
		const struct vsoc_telem_domain *d = &t->domains[i];

		seq_printf(m, "domain %s state %s on_count %u off_count %u failed_count %u energy_uj %llu\n",
			   b->domains[i].name, pwr_name(le32_to_cpu(d->state)),
			   le32_to_cpu(d->on_count), le32_to_cpu(d->off_count),
			   le32_to_cpu(d->failed_count),
			   le64_to_cpu(d->energy_uj));
	}
	for (i = 0; i < b->nr_clocks; i++) {
		const struct vsoc_telem_clock *c = &t->clocks[i];

		seq_printf(m, "clock %s state %s ungate_count %u gate_count %u rate_count %u rate_hz %llu\n",
			   b->clocks[i].name,
			   le32_to_cpu(c->state) == VSOC_CLK_RUNNING ? "running" : "gated",
			   le32_to_cpu(c->ungate_count),
			   le32_to_cpu(c->gate_count),
			   le32_to_cpu(c->rate_count), le64_to_cpu(c->rate_hz));
	}
	for (i = 0; i < b->nr_domains; i++)
		if (b->domains[i].nr_levels)
			seq_printf(m, "level %s current %u\n", b->domains[i].name,
				   le32_to_cpu(t->level[i]));
	for (i = 0; i < b->nr_levels; i++)
		seq_printf(m, "level_energy %s %u energy_uj %llu\n",
			   b->domains[b->levels[i].domain].name,
			   b->levels[i].level,
			   le64_to_cpu(t->level_energy_uj[i]));
	for (i = 0; i < b->nr_periphs; i++)
		seq_printf(m, "periph %s busy %u ops %u\n", b->periphs[i].name,
			   !!(le32_to_cpu(t->periph_busy) & BIT(i)),
			   le32_to_cpu(t->periph_ops[i]));
	n = min_t(u32, le32_to_cpu(t->violations), VSOC_TELEM_VIOLATIONS);
	for (i = 0; i < n; i++) {
		const struct vsoc_telem_violation *vi =
			&t->last[(le32_to_cpu(t->violations) - n + i) %
				 VSOC_TELEM_VIOLATIONS];

		seq_printf(m, "violation %u time_ns %llu rule %u obj_kind %u obj_index %u\n",
			   le32_to_cpu(vi->seq), le64_to_cpu(vi->time_ns),
			   le32_to_cpu(vi->rule), le32_to_cpu(vi->obj_kind),
			   le32_to_cpu(vi->obj_index));
	}
out:
	kfree(t);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(telemetry);

struct vsoc_stats {
	u64 n, total, min, max;
};

static void stats_add(struct vsoc_stats *s, u64 ns)
{
	if (!s->n || ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->total += ns;
	s->n++;
}

/*
 * "iters" takes any u32 from userspace; a read runs that many round trips
 * with the file held, so bound it (100000 take a few seconds here).
 */
#define VSOC_ITERS_MAX	100000

static unsigned int vsoc_iters(struct vsoc *soc)
{
	return clamp_t(u32, READ_ONCE(soc->iters), 1, VSOC_ITERS_MAX);
}

static int ping_common(struct seq_file *m, bool loopback)
{
	struct vsoc *soc = m->private;
	unsigned int i, iters = vsoc_iters(soc);
	struct vsoc_stats s = {};
	u64 ns;
	int ret = 0;

	for (i = 0; i < iters; i++) {
		ret = vsoc_ping(soc, loopback, &ns);
		if (ret)
			break;
		stats_add(&s, ns);
	}
	seq_printf(m, "count %llu avg_ns %llu min_ns %llu max_ns %llu status %d\n",
		   s.n, s.n ? div64_u64(s.total, s.n) : 0, s.min, s.max, ret);
	return 0;
}

static int ping_show(struct seq_file *m, void *v)
{
	return ping_common(m, false);
}
DEFINE_SHOW_ATTRIBUTE(ping);

static int loopback_show(struct seq_file *m, void *v)
{
	return ping_common(m, true);
}
DEFINE_SHOW_ATTRIBUTE(loopback);

static int rt_show(struct seq_file *m, void *v)
{
	struct vsoc *soc = m->private;
	u64 total = 0;
	u32 done = 0;
	int ret;

	ret = vsoc_echo_rt(soc, vsoc_iters(soc), &total, &done);
	seq_printf(m, "count %u avg_ns %llu status %d\n", done,
		   done ? div64_u64(total, done) : 0, ret);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rt);

/*
 * Bandwidth over the largest region nobody uses at the moment: a remote
 * core's memory while no remoteproc driver is bound to it, else the data
 * window of an unbound DMA engine.
 */
static int pick_scratch(struct vsoc *soc, struct vsoc_shm_area *a)
{
	const struct vsoc_board *b = soc->board;
	unsigned int i;

	a->size = 0;
	for (i = 0; i < b->nr_mems; i++) {
		struct device *d = vsoc_find_child(soc, VSOC_DEV_RPROC,
						   b->mems[i].core);

		if (d && !d->driver && b->mems[i].shm.size > a->size)
			*a = b->mems[i].shm;
	}
	for (i = 0; i < b->nr_periphs && !a->size; i++) {
		struct device *d = vsoc_find_child(soc, VSOC_DEV_DMA, i);

		if (d && !d->driver)
			*a = b->periphs[i].data;
	}
	return a->size ? 0 : -EBUSY;
}

static u64 mbps(u64 bytes, u64 ns)
{
	return ns ? div64_u64(bytes * 1000, ns) : 0;
}

static int shm_bw_show(struct seq_file *m, void *v)
{
	struct vsoc *soc = m->private;
	struct vsoc_shm_area a;
	u64 len, bytes, t_to, t_from, t_ram;
	void *buf, *buf2;
	ktime_t t0;
	unsigned int i, rounds;
	int ret;

	ret = pick_scratch(soc, &a);
	if (ret) {
		seq_puts(m, "status -16\n");
		return 0;
	}
	len = min_t(u64, a.size, SZ_1M);
	rounds = clamp_t(unsigned int, vsoc_iters(soc) / 10, 1, 1000);
	buf = vmalloc(len);
	buf2 = vmalloc(len);
	if (!buf || !buf2) {
		ret = -ENOMEM;
		goto out;
	}
	memset(buf, 0x5a, len);
	memset(buf2, 0, len);
	bytes = len * rounds;

	t0 = ktime_get();
	for (i = 0; i < rounds; i++)
		memcpy_toio(soc->shm + a.offset, buf, len);
	t_to = ktime_to_ns(ktime_sub(ktime_get(), t0));
	t0 = ktime_get();
	for (i = 0; i < rounds; i++)
		memcpy_fromio(buf2, soc->shm + a.offset, len);
	t_from = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (memcmp(buf, buf2, len))
		ret = -EIO;
	t0 = ktime_get();
	for (i = 0; i < rounds; i++)
		memcpy(buf2, buf, len);
	t_ram = ktime_to_ns(ktime_sub(ktime_get(), t0));
	seq_printf(m, "bytes %llu to_shm_mbps %llu from_shm_mbps %llu ram_mbps %llu status %d\n",
		   bytes, mbps(bytes, t_to), mbps(bytes, t_from),
		   mbps(bytes, t_ram), ret);
out:
	vfree(buf);
	vfree(buf2);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(shm_bw);

/**
 * vsoc_debugfs_init() - create the SoC's debugfs directory
 * @soc: the SoC
 *
 * Context: Process context.
 */
void vsoc_debugfs_init(struct vsoc *soc)
{
	char name[16];

	snprintf(name, sizeof(name), "vsoc%d", soc->id);
	soc->iters = 1000;
	soc->debugfs = debugfs_create_dir(name, vsoc_debugfs_root);
	debugfs_create_file("board", 0444, soc->debugfs, soc, &board_fops);
	debugfs_create_file("telemetry", 0444, soc->debugfs, soc,
			    &telemetry_fops);
	debugfs_create_u32("iters", 0644, soc->debugfs, &soc->iters);
	debugfs_create_file("ping", 0444, soc->debugfs, soc, &ping_fops);
	debugfs_create_file("loopback", 0444, soc->debugfs, soc,
			    &loopback_fops);
	debugfs_create_file("rt", 0444, soc->debugfs, soc, &rt_fops);
	debugfs_create_file("shm_bw", 0444, soc->debugfs, soc, &shm_bw_fops);
}

/**
 * vsoc_debugfs_exit() - remove the SoC's debugfs directory
 * @soc: the SoC
 *
 * Context: Process context. Waits for readers of its files to finish.
 */
void vsoc_debugfs_exit(struct vsoc *soc)
{
	debugfs_remove(soc->debugfs);
	soc->debugfs = NULL;
}

/**
 * vsoc_debugfs_root_init() - create /sys/kernel/debug/vsoc
 *
 * Context: Module init.
 */
void vsoc_debugfs_root_init(void)
{
	vsoc_debugfs_root = debugfs_create_dir("vsoc", NULL);
}

/**
 * vsoc_debugfs_root_exit() - remove /sys/kernel/debug/vsoc
 *
 * Context: Module exit, after every SoC is gone.
 */
void vsoc_debugfs_root_exit(void)
{
	debugfs_remove(vsoc_debugfs_root);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc board table: copy it out of shared memory once, then validate the
 * copy completely before anything uses it. The model is another process
 * and the table is input like any other: every offset, count, index and
 * name is checked, and the first problem is reported with its location.
 */
#include <linux/ctype.h>
#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <uapi/ampsoc/core_fault.h>

#include "vsoc_internal.h"

#define bad(soc, fmt, ...)						\
	({								\
		dev_err((soc)->dev, "board table: " fmt "\n",		\
			##__VA_ARGS__);					\
		-EINVAL;						\
	})

struct vsoc_region {
	u64 start;
	u64 size;
	const char *what;
	const char *name;
};

struct vsoc_parse {
	struct vsoc *soc;
	const u8 *tbl;
	u32 size;
	struct vsoc_region *regions;
	unsigned int nregions;
	unsigned int maxregions;
};

static int copy_name(struct vsoc *soc, char *dst, const char *src,
		     const char *what, unsigned int i)
{
	if (!memchr(src, '\0', VSOC_NAME_LEN))
		return bad(soc, "%s[%u]: name is not NUL-terminated", what, i);
	if (!src[0])
		return bad(soc, "%s[%u]: empty name", what, i);
	memcpy(dst, src, VSOC_NAME_LEN);
	return 0;
}

/* Fetch entry @i of @arr into @out (zero-filling what an old writer lacks). */
static void get_entry(const struct vsoc_parse *p, const struct vsoc_array *arr,
		      unsigned int i, void *out, size_t len)
{
	u32 off = le32_to_cpu(arr->offset) + i * le32_to_cpu(arr->stride);

	memcpy(out, p->tbl + off, len);
}

static int check_array(struct vsoc_parse *p, const struct vsoc_array *arr,
		       const char *what, size_t entsize, unsigned int max,
		       u32 header_size)
{
	u64 off = le32_to_cpu(arr->offset);
	u64 count = le32_to_cpu(arr->count);
	u64 stride = le32_to_cpu(arr->stride);

	if (count > max)
		return bad(p->soc, "%s: %llu entries, at most %u allowed",
			   what, count, max);
	if (!count)
		return 0;
	if (stride < entsize)
		return bad(p->soc, "%s: stride %llu smaller than an entry (%zu)",
			   what, stride, entsize);
	if (off < header_size || off + count * stride > p->size)
		return bad(p->soc,
			   "%s: entries at [%llu, %llu) outside the table [%u, %u)",
			   what, off, off + count * stride, header_size,
			   p->size);
	/* docs/shm-abi.md: entries hold 64-bit fields, kept 8-aligned */
	if ((off | stride) & 7)
		return bad(p->soc, "%s: offset %llu or stride %llu not 8-aligned",
			   what, off, stride);
	return 0;
}

static int add_region(struct vsoc_parse *p, const struct vsoc_shm_area *a,
		      const char *what, const char *name, u64 minsize)
{
	struct vsoc_region *r;

	if (a->size < minsize)
		return bad(p->soc, "%s %s: area of %llu bytes, need %llu",
			   what, name, a->size, minsize);
	if (!a->size)
		return 0;
	if (a->offset >= p->soc->board->shm_size ||
	    a->size > p->soc->board->shm_size - a->offset)
		return bad(p->soc,
			   "%s %s: area [%#llx, +%#llx) outside shared memory (%#llx)",
			   what, name, a->offset, a->size,
			   p->soc->board->shm_size);
	if (a->offset & 7)
		return bad(p->soc, "%s %s: area at %#llx not 8-aligned", what,
			   name, a->offset);
	if (p->nregions == p->maxregions)
		return bad(p->soc, "too many areas");
	r = &p->regions[p->nregions++];
	r->start = a->offset;
	r->size = a->size;
	r->what = what;
	r->name = name;
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct vsoc_region *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return 0;
}

static int check_overlaps(struct vsoc_parse *p)
{
	unsigned int i;

	sort(p->regions, p->nregions, sizeof(*p->regions), cmp_region, NULL);
	for (i = 1; i < p->nregions; i++) {
		const struct vsoc_region *a = &p->regions[i - 1];
		const struct vsoc_region *b = &p->regions[i];

		if (a->start + a->size > b->start)
			return bad(p->soc, "%s %s [%#llx, +%#llx) overlaps %s %s [%#llx, +%#llx)",
				   a->what, a->name, a->start, a->size,
				   b->what, b->name, b->start, b->size);
	}
	return 0;
}

static void get_area(struct vsoc_shm_area *dst, const struct vsoc_area *src)
{
	dst->offset = le64_to_cpu(src->offset);
	dst->size = le64_to_cpu(src->size);
}

/* Walk up from every node: a path longer than the node count is a cycle. */
static int check_forest(struct vsoc *soc, const char *what, unsigned int n,
			u32 (*parent)(const struct vsoc_board *, unsigned int),
			const char *(*name)(const struct vsoc_board *, unsigned int))
{
	const struct vsoc_board *b = soc->board;
	unsigned int i, steps;

	for (i = 0; i < n; i++) {
		u32 cur = parent(b, i);

		for (steps = 0; cur != VSOC_NONE; steps++) {
			if (cur >= n)
				return bad(soc, "%s[%u] (%s): parent %u out of range (%u entries)",
					   what, i, name(b, i), cur, n);
			if (steps >= n || cur == i)
				return bad(soc, "%s[%u] (%s): cycle in the hierarchy",
					   what, i, name(b, i));
			cur = parent(b, cur);
		}
	}
	return 0;
}

static u32 dom_parent(const struct vsoc_board *b, unsigned int i)
{
	return b->domains[i].parent;
}

static const char *dom_name(const struct vsoc_board *b, unsigned int i)
{
	return b->domains[i].name;
}

static u32 clk_parent(const struct vsoc_board *b, unsigned int i)
{
	return b->clocks[i].parent;
}

static const char *clk_name(const struct vsoc_board *b, unsigned int i)
{
	return b->clocks[i].name;
}

static int parse_domains(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i;
	int ret;

	b->nr_domains = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_domains; i++) {
		struct vsoc_domain_info *d = &b->domains[i];
		struct vsoc_domain_desc e;
		u32 st;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, d->name, e.name, "domains", i);
		if (ret)
			return ret;
		d->parent = le32_to_cpu(e.parent);
		d->flags = le32_to_cpu(e.flags);
		d->on_latency_ns = le64_to_cpu(e.on_latency_ns);
		d->off_latency_ns = le64_to_cpu(e.off_latency_ns);
		st = le32_to_cpu(e.initial_state);
		if (st != VSOC_PWR_ON && st != VSOC_PWR_OFF)
			return bad(p->soc, "domains[%u] (%s): bad initial state %u",
				   i, d->name, st);
		d->initially_on = st == VSOC_PWR_ON;
		/* 1.5: levels, in what 1.4 kept reserved (zero) */
		if ((b->version & 0xffff) >= 5) {
			d->first_level = le16_to_cpu(e.first_level);
			d->nr_levels = le16_to_cpu(e.nr_levels);
		}
		if ((d->flags & VSOC_DOMAIN_STAY_ON) && !d->initially_on)
			return bad(p->soc, "domains[%u] (%s): stay-on domain starts off",
				   i, d->name);
		if (d->on_latency_ns > 10 * NSEC_PER_SEC ||
		    d->off_latency_ns > 10 * NSEC_PER_SEC)
			return bad(p->soc, "domains[%u] (%s): latency above 10 s",
				   i, d->name);
		/* 1.6: polled with interrupts off, so it must be quick */
		if ((d->flags & VSOC_DOMAIN_IRQ_SAFE) &&
		    (d->on_latency_ns > VSOC_IRQ_SAFE_MAX_LATENCY_NS ||
		     d->off_latency_ns > VSOC_IRQ_SAFE_MAX_LATENCY_NS))
			return bad(p->soc, "domains[%u] (%s): IRQ-safe with latency above %u ns",
				   i, d->name, VSOC_IRQ_SAFE_MAX_LATENCY_NS);
	}
	ret = check_forest(p->soc, "domains", b->nr_domains, dom_parent,
			   dom_name);
	if (ret)
		return ret;
	/* An IRQ-safe domain's requests are made under its parents' locks. */
	for (i = 0; i < b->nr_domains; i++) {
		const struct vsoc_domain_info *d = &b->domains[i];

		if ((d->flags & VSOC_DOMAIN_IRQ_SAFE) && d->parent != VSOC_NONE &&
		    !(b->domains[d->parent].flags & VSOC_DOMAIN_IRQ_SAFE))
			return bad(p->soc, "domains[%u] (%s): IRQ-safe under %s, which is not",
				   i, d->name, b->domains[d->parent].name);
	}
	return 0;
}

/* ABI 1.5: domain @i's levels rise; a PERF_PARENT_GE child's are its parent's. */
static int check_domain_levels(struct vsoc_parse *p, unsigned int i)
{
	const struct vsoc_board *b = p->soc->board;
	const struct vsoc_domain_info *d = &b->domains[i], *pd;
	const struct vsoc_level_info *l = &b->levels[d->first_level];
	unsigned int j, k;

	for (j = 0; j < d->nr_levels; j++) {
		if (l[j].domain != i)
			return bad(p->soc, "domains[%u] (%s): level entry %u is domain %u's",
				   i, d->name, d->first_level + j, l[j].domain);
		if (j && (l[j].level <= l[j - 1].level ||
			  l[j].voltage_uv < l[j - 1].voltage_uv ||
			  l[j].power_uw < l[j - 1].power_uw))
			return bad(p->soc, "domains[%u] (%s): level %u does not rise above %u",
				   i, d->name, l[j].level, l[j - 1].level);
	}
	/* 1.6: levels are set in process context only */
	if ((d->flags & VSOC_DOMAIN_IRQ_SAFE) && d->nr_levels)
		return bad(p->soc, "domains[%u] (%s): IRQ-safe with performance levels",
			   i, d->name);
	if (!(d->flags & VSOC_DOMAIN_PERF_PARENT_GE))
		return 0;
	if (!d->nr_levels || d->parent == VSOC_NONE)
		return bad(p->soc, "domains[%u] (%s): parent_ge without levels or parent",
			   i, d->name);
	pd = &b->domains[d->parent];
	for (j = 0; j < d->nr_levels; j++) {
		for (k = 0; k < pd->nr_levels; k++)
			if (b->levels[pd->first_level + k].level == l[j].level)
				break;
		if (k == pd->nr_levels)
			return bad(p->soc, "domains[%u] (%s): level %u is not one of parent %s's",
				   i, d->name, l[j].level, pd->name);
	}
	return 0;
}

/*
 * ABI 1.5: the performance levels. Each domain's are consecutive entries
 * of its own, sorted by strictly increasing number, with voltage and power
 * never falling; a PERF_PARENT_GE domain's levels are all its parent's.
 */
static int parse_levels(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i;
	int ret;

	b->nr_levels = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_levels; i++) {
		struct vsoc_level_info *l = &b->levels[i];
		struct vsoc_level_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		l->domain = le32_to_cpu(e.domain);
		l->level = le32_to_cpu(e.level);
		l->voltage_uv = le32_to_cpu(e.voltage_uv);
		l->power_uw = le32_to_cpu(e.power_uw);
		if (l->domain >= b->nr_domains || !l->level ||
		    l->level > VSOC_MAX_LEVEL || !l->voltage_uv ||
		    l->voltage_uv > VSOC_MAX_LEVEL_UV)
			return bad(p->soc, "levels[%u]: domain %u, level %u, %u uV out of range",
				   i, l->domain, l->level, l->voltage_uv);
	}
	for (i = 0; i < b->nr_domains; i++) {
		const struct vsoc_domain_info *d = &b->domains[i];

		if (d->nr_levels > VSOC_MAX_DOMAIN_LEVELS ||
		    d->first_level > b->nr_levels ||
		    d->nr_levels > b->nr_levels - d->first_level)
			return bad(p->soc, "domains[%u] (%s): levels [%u, +%u) out of range (%u)",
				   i, d->name, d->first_level, d->nr_levels,
				   b->nr_levels);
	}
	/* Every range is in bounds now, a parent's too (it may come later). */
	for (i = 0; i < b->nr_domains; i++) {
		ret = check_domain_levels(p, i);
		if (ret)
			return ret;
	}
	/* Every entry belongs to the domain it names. */
	for (i = 0; i < b->nr_levels; i++) {
		const struct vsoc_domain_info *d = &b->domains[b->levels[i].domain];

		if (i < d->first_level || i >= d->first_level + d->nr_levels)
			return bad(p->soc, "levels[%u]: outside domain %s's levels",
				   i, d->name);
	}
	return 0;
}

static int parse_clocks(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i;
	int ret;

	b->nr_clocks = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_clocks; i++) {
		struct vsoc_clock_info *c = &b->clocks[i];
		struct vsoc_clock_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, c->name, e.name, "clocks", i);
		if (ret)
			return ret;
		c->parent = le32_to_cpu(e.parent);
		c->flags = le32_to_cpu(e.flags);
		c->rate_hz = le64_to_cpu(e.rate_hz);
		c->min_rate_hz = le64_to_cpu(e.min_rate_hz);
		c->max_rate_hz = le64_to_cpu(e.max_rate_hz);
		c->initially_on = le32_to_cpu(e.initial_on) != 0;
		if (c->min_rate_hz > c->max_rate_hz ||
		    c->rate_hz < c->min_rate_hz || c->rate_hz > c->max_rate_hz)
			return bad(p->soc, "clocks[%u] (%s): rate %llu outside [%llu, %llu]",
				   i, c->name, c->rate_hz, c->min_rate_hz,
				   c->max_rate_hz);
		if (c->max_rate_hz > ULONG_MAX)
			return bad(p->soc, "clocks[%u] (%s): rate too high", i,
				   c->name);
	}
	return check_forest(p->soc, "clocks", b->nr_clocks, clk_parent,
			    clk_name);
}

static int check_vector(struct vsoc *soc, u32 vec, const char *what,
			unsigned int i, const char *name)
{
	if (vec >= soc->board->nr_vectors)
		return bad(soc, "%s[%u] (%s): vector %u out of range (%u vectors)",
			   what, i, name, vec, soc->board->nr_vectors);
	return 0;
}

static int parse_periphs(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i;
	int ret;

	b->nr_periphs = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_periphs; i++) {
		struct vsoc_periph_info *d = &b->periphs[i];
		struct vsoc_periph_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, d->name, e.name, "periphs", i);
		if (ret)
			return ret;
		d->type = le32_to_cpu(e.type);
		d->domain = le32_to_cpu(e.domain);
		d->clock = le32_to_cpu(e.clock);
		d->vector = le32_to_cpu(e.vector);
		get_area(&d->regs, &e.regs);
		get_area(&d->data, &e.data);
		if (d->type < VSOC_PERIPH_TIMER || d->type > VSOC_PERIPH_SIMPLE)
			return bad(p->soc, "periphs[%u] (%s): unknown type %u",
				   i, d->name, d->type);
		if (d->domain >= b->nr_domains)
			return bad(p->soc, "periphs[%u] (%s): domain %u out of range (%u domains)",
				   i, d->name, d->domain, b->nr_domains);
		if (d->clock != VSOC_NONE && d->clock >= b->nr_clocks)
			return bad(p->soc, "periphs[%u] (%s): clock %u out of range (%u clocks)",
				   i, d->name, d->clock, b->nr_clocks);
		ret = check_vector(p->soc, d->vector, "periphs", i, d->name);
		if (!ret)
			ret = add_region(p, &d->regs, "registers of", d->name,
					 sizeof(struct vsoc_periph_regs));
		if (!ret)
			ret = add_region(p, &d->data, "data of", d->name,
					 d->type == VSOC_PERIPH_SENSOR ?
					 sizeof(struct vsoc_sensor_sample) : 0);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_mboxes(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	bool from_guest, to_guest;
	unsigned int i;
	int ret;

	b->nr_mboxes = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_mboxes; i++) {
		struct vsoc_mbox_info *m = &b->mboxes[i];
		struct vsoc_mbox_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, m->name, e.name, "mboxes", i);
		if (ret)
			return ret;
		m->from = le32_to_cpu(e.from);
		m->to = le32_to_cpu(e.to);
		m->peer = le32_to_cpu(e.peer);
		m->vector = le32_to_cpu(e.vector);
		m->depth = le32_to_cpu(e.depth);
		get_area(&m->fifo, &e.fifo);
		from_guest = m->from == VSOC_MBOX_EP_GUEST;
		to_guest = m->to == VSOC_MBOX_EP_GUEST;
		if (from_guest == to_guest)
			return bad(p->soc, "mboxes[%u] (%s): exactly one end must be the guest",
				   i, m->name);
		if ((m->from != VSOC_MBOX_EP_GUEST && m->from >= b->nr_cores) ||
		    (m->to != VSOC_MBOX_EP_GUEST && m->to >= b->nr_cores))
			return bad(p->soc, "mboxes[%u] (%s): core endpoint out of range (%u cores)",
				   i, m->name, b->nr_cores);
		if (!m->depth || !is_power_of_2(m->depth) ||
		    m->depth > VSOC_MBOX_MAX_DEPTH)
			return bad(p->soc, "mboxes[%u] (%s): bad depth %u", i,
				   m->name, m->depth);
		if (m->peer > 0xffff)
			return bad(p->soc, "mboxes[%u] (%s): bad peer %u", i,
				   m->name, m->peer);
		if (m->to == VSOC_MBOX_EP_GUEST && m->peer != b->guest_peer)
			return bad(p->soc, "mboxes[%u] (%s): rings peer %u, not the guest (%u)",
				   i, m->name, m->peer, b->guest_peer);
		ret = check_vector(p->soc, m->vector, "mboxes", i, m->name);
		if (!ret)
			ret = add_region(p, &m->fifo, "fifo of", m->name,
					 sizeof(struct vsoc_mbox_fifo) +
					 (u64)m->depth * sizeof(__le32));
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_mems(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i, j;
	int ret;

	b->nr_mems = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_mems; i++) {
		struct vsoc_mem_info *m = &b->mems[i];
		struct vsoc_mem_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, m->name, e.name, "mems", i);
		if (ret)
			return ret;
		m->core = le32_to_cpu(e.core);
		m->flags = le32_to_cpu(e.flags);
		m->shm.offset = le64_to_cpu(e.shm_offset);
		m->shm.size = le64_to_cpu(e.size);
		m->da = le64_to_cpu(e.da);
		if (m->core >= b->nr_cores)
			return bad(p->soc, "mems[%u] (%s): core %u out of range (%u cores)",
				   i, m->name, m->core, b->nr_cores);
		if (!m->shm.size || m->da + m->shm.size < m->da)
			return bad(p->soc, "mems[%u] (%s): bad size %#llx at da %#llx",
				   i, m->name, m->shm.size, m->da);
		for (j = 0; j < i; j++) {
			const struct vsoc_mem_info *o = &b->mems[j];

			if (o->core == m->core && m->da < o->da + o->shm.size &&
			    o->da < m->da + m->shm.size)
				return bad(p->soc, "mems[%u] (%s): addresses overlap mems[%u]",
					   i, m->name, j);
		}
		ret = add_region(p, &m->shm, "memory", m->name, 1);
		if (ret)
			return ret;
	}
	return 0;
}

/* Bits of a mask over @count objects that name none of them. */
static u32 mask_beyond(u32 mask, unsigned int count)
{
	return count >= 32 ? 0 : mask & ~(VSOC_BIT(count) - 1);
}

/* The ABI 1.3 fields of a core: who it may ask for what, its firewall. */
static int parse_core_1_3(struct vsoc_parse *p, unsigned int i,
			  const struct vsoc_core_desc *e)
{
	struct vsoc_board *b = p->soc->board;
	struct vsoc_core_info *c = &b->cores[i];
	u32 isa = le32_to_cpu(e->isa);

	c->resmgr_domains = le32_to_cpu(e->resmgr_domains);
	c->resmgr_clocks = le32_to_cpu(e->resmgr_clocks);
	c->flags = le32_to_cpu(e->flags);
	if (mask_beyond(c->resmgr_domains, b->nr_domains) ||
	    mask_beyond(c->resmgr_clocks, b->nr_clocks))
		return bad(p->soc, "cores[%u] (%s): resmgr domains %#x, clocks %#x: beyond %u, %u",
			   i, c->name, c->resmgr_domains, c->resmgr_clocks,
			   b->nr_domains, b->nr_clocks);
	/* A later minor version may use them; 1.3 to this one do not. */
	if ((b->version & 0xffff) <= VSOC_VERSION_MINOR &&
	    (c->flags & ~VSOC_CORE_F_FIREWALL))
		return bad(p->soc, "cores[%u] (%s): unknown flags %#x",
			   i, c->name, c->flags);
	/* 1.4: the instruction set, in what 1.3 kept reserved (zero) */
	if ((b->version & 0xffff) == 3 && isa)
		return bad(p->soc, "cores[%u] (%s): reserved %#x", i, c->name,
			   isa);
	if ((b->version & 0xffff) >= 4) {
		if (isa < AMPSOC_CORE_ISA_X86_64 || isa > AMPSOC_CORE_ISA_RV32IMAC)
			return bad(p->soc, "cores[%u] (%s): unknown instruction set %u",
				   i, c->name, isa);
		c->isa = isa;
	}
	return 0;
}

static int parse_cores(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	bool v1_3 = (b->version & 0xffff) >= 3;
	unsigned int i;
	int ret;

	b->nr_cores = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_cores; i++) {
		struct vsoc_core_info *c = &b->cores[i];
		struct vsoc_core_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, c->name, e.name, "cores", i);
		if (ret)
			return ret;
		c->domain = le32_to_cpu(e.domain);
		c->clock = le32_to_cpu(e.clock);
		c->peer = le32_to_cpu(e.peer);
		c->first_mem = le32_to_cpu(e.first_mem);
		c->nr_mems = le32_to_cpu(e.nr_mems);
		c->mbox_tx = le32_to_cpu(e.mbox_tx);
		c->mbox_rx = le32_to_cpu(e.mbox_rx);
		/* 1.5: in what was reserved (zero) before */
		c->mem_domain = (b->version & 0xffff) >= 5 ?
				le32_to_cpu(e.mem_domain) : VSOC_NONE;
		get_area(&c->ctl, &e.ctl);
		if (c->domain >= b->nr_domains)
			return bad(p->soc, "cores[%u] (%s): domain %u out of range (%u domains)",
				   i, c->name, c->domain, b->nr_domains);
		if (c->clock != VSOC_NONE && c->clock >= b->nr_clocks)
			return bad(p->soc, "cores[%u] (%s): clock %u out of range (%u clocks)",
				   i, c->name, c->clock, b->nr_clocks);
		if (c->mem_domain != VSOC_NONE &&
		    (c->mem_domain >= b->nr_domains ||
		     c->mem_domain == c->domain))
			return bad(p->soc, "cores[%u] (%s): bad memory domain %u (own %u)",
				   i, c->name, c->mem_domain, c->domain);
		if (c->peer > 0xffff || c->peer == b->guest_peer ||
		    c->peer == b->model_peer)
			return bad(p->soc, "cores[%u] (%s): bad peer %u", i,
				   c->name, c->peer);
		/* 1.3 appended the firewall and fault fields, 1.4 registers. */
		c->isa = AMPSOC_CORE_ISA_X86_64;
		ret = add_region(p, &c->ctl, "control block of", c->name,
				 (b->version & 0xffff) >= 4 ?
				 sizeof(struct vsoc_core_ctl) :
				 v1_3 ? VSOC_CORE_CTL_SIZE_1_3 :
				 VSOC_CORE_CTL_SIZE_1_2);
		if (!ret && v1_3)
			ret = parse_core_1_3(p, i, &e);
		if (ret)
			return ret;
	}
	return 0;
}

/* A channel name: what rpmsg matches drivers on, so only [A-Za-z0-9_.-]. */
static bool chan_name_ok(const char *name)
{
	for (; *name; name++)
		if (!isalnum(*name) && *name != '_' && *name != '.' &&
		    *name != '-')
			return false;
	return true;
}

/* Static rpmsg channels (ABI 1.2); needs the cores parsed first. */
static int parse_chans(struct vsoc_parse *p, const struct vsoc_array *arr)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i, j, first = 0;
	int ret;

	b->nr_chans = le32_to_cpu(arr->count);
	for (i = 0; i < b->nr_chans; i++) {
		struct vsoc_chan_info *c = &b->chans[i];
		struct vsoc_chan_desc e;

		get_entry(p, arr, i, &e, sizeof(e));
		ret = copy_name(p->soc, c->name, e.name, "chans", i);
		if (ret)
			return ret;
		c->core = le32_to_cpu(e.core);
		c->dst = le32_to_cpu(e.dst);
		c->src = le32_to_cpu(e.src);
		if (!chan_name_ok(c->name))
			return bad(p->soc, "chans[%u] (%s): name not of [A-Za-z0-9_.-]",
				   i, c->name);
		if (c->core >= b->nr_cores)
			return bad(p->soc, "chans[%u] (%s): core %u out of range (%u cores)",
				   i, c->name, c->core, b->nr_cores);
		if (c->dst == VSOC_RPMSG_ADDR_ANY)
			return bad(p->soc, "chans[%u] (%s): dst is the 'any' address",
				   i, c->name);
		if (c->src != VSOC_RPMSG_ADDR_ANY && c->src < 1024)
			return bad(p->soc, "chans[%u] (%s): src %u is reserved (below 1024)",
				   i, c->name, c->src);
		if (le32_to_cpu(e.reserved))
			return bad(p->soc, "chans[%u] (%s): reserved field is %#x, not 0",
				   i, c->name, le32_to_cpu(e.reserved));
		if (i && c->core < b->chans[i - 1].core)
			return bad(p->soc, "chans[%u] (%s): core %u after core %u, not sorted",
				   i, c->name, c->core, b->chans[i - 1].core);
		if (i && c->core != b->chans[i - 1].core)
			first = i;
		if (i - first >= VSOC_MAX_CHANS_PER_CORE)
			return bad(p->soc, "chans[%u] (%s): more than %u channels on core %u",
				   i, c->name, VSOC_MAX_CHANS_PER_CORE, c->core);
		for (j = first; j < i; j++)
			if (b->chans[j].dst == c->dst &&
			    !strcmp(b->chans[j].name, c->name))
				return bad(p->soc, "chans[%u] (%s): duplicates chans[%u] (dst %#x)",
					   i, c->name, j, c->dst);
	}
	return 0;
}

/* Cross-references that need every array parsed first. */
static int check_core_links(struct vsoc_parse *p)
{
	struct vsoc_board *b = p->soc->board;
	unsigned int i, j;

	for (i = 0; i < b->nr_cores; i++) {
		const struct vsoc_core_info *c = &b->cores[i];

		if (c->first_mem > b->nr_mems ||
		    c->nr_mems > b->nr_mems - c->first_mem)
			return bad(p->soc, "cores[%u] (%s): mems [%u, +%u) out of range (%u)",
				   i, c->name, c->first_mem, c->nr_mems,
				   b->nr_mems);
		for (j = c->first_mem; j < c->first_mem + c->nr_mems; j++)
			if (b->mems[j].core != i)
				return bad(p->soc, "cores[%u] (%s): mems[%u] belongs to core %u",
					   i, c->name, j, b->mems[j].core);
		if (c->mbox_tx != VSOC_NONE &&
		    (c->mbox_tx >= b->nr_mboxes ||
		     b->mboxes[c->mbox_tx].from != VSOC_MBOX_EP_GUEST ||
		     b->mboxes[c->mbox_tx].to != i))
			return bad(p->soc, "cores[%u] (%s): mbox_tx %u is not guest->core",
				   i, c->name, c->mbox_tx);
		if (c->mbox_rx != VSOC_NONE &&
		    (c->mbox_rx >= b->nr_mboxes ||
		     b->mboxes[c->mbox_rx].to != VSOC_MBOX_EP_GUEST ||
		     b->mboxes[c->mbox_rx].from != i))
			return bad(p->soc, "cores[%u] (%s): mbox_rx %u is not core->guest",
				   i, c->name, c->mbox_rx);
	}
	for (i = 0; i < b->nr_mboxes; i++) {
		const struct vsoc_mbox_info *m = &b->mboxes[i];

		if (m->to != VSOC_MBOX_EP_GUEST &&
		    m->peer != b->cores[m->to].peer)
			return bad(p->soc, "mboxes[%u] (%s): rings peer %u, not its core (%u)",
				   i, m->name, m->peer, b->cores[m->to].peer);
	}
	return 0;
}

static int parse_table(struct vsoc_parse *p)
{
	const struct vsoc_board_header *h = (const void *)p->tbl;
	struct vsoc_shm_area table = { .offset = 0, .size = p->size };
	struct vsoc *soc = p->soc;
	struct vsoc_board *b = soc->board;
	u32 hsize = le32_to_cpu(h->header_size);
	bool has_chans, has_levels;
	u32 crc, want;
	int ret;

	want = le32_to_cpu(h->checksum);
	crc = crc32_le(~0U, p->tbl + VSOC_CSUM_START,
		       p->size - VSOC_CSUM_START) ^ ~0U;
	if (crc != want)
		return bad(soc, "checksum %#010x, expected %#010x (table corrupted?)",
			   crc, want);
	if (hsize < sizeof(*h) || hsize > p->size)
		return bad(soc, "header size %u outside [%zu, %u]", hsize,
			   sizeof(*h), p->size);
	if (!memchr(h->board_name, '\0', VSOC_NAME_LEN))
		return bad(soc, "board name is not NUL-terminated");
	memcpy(b->name, h->board_name, VSOC_NAME_LEN);
	b->version = le32_to_cpu(h->version);
	has_chans = (b->version & 0xffff) >= 2;
	has_levels = (b->version & 0xffff) >= 5;
	b->shm_size = le64_to_cpu(h->shm_size);
	b->model_peer = le16_to_cpu(h->model_peer);
	b->guest_peer = le16_to_cpu(h->guest_peer);
	b->nr_vectors = le16_to_cpu(h->nr_vectors);
	if (b->shm_size != soc->shm_len)
		return bad(soc, "shared memory is %#llx bytes, BAR2 is %#llx",
			   b->shm_size, (u64)soc->shm_len);
	if (b->guest_peer != soc->own_id)
		return bad(soc, "guest peer %u, but IVPosition says %u",
			   b->guest_peer, soc->own_id);
	if (b->model_peer == b->guest_peer)
		return bad(soc, "model and guest share peer ID %u",
			   b->model_peer);
	if (b->nr_vectors > soc->nvec || b->nr_vectors <= VSOC_VEC_ECHO_RT)
		return bad(soc, "%u vectors wanted, the device has %u (need more than %u)",
			   b->nr_vectors, soc->nvec, VSOC_VEC_ECHO_RT);

	ret = check_array(p, &h->domains, "domains",
			  sizeof(struct vsoc_domain_desc), VSOC_MAX_DOMAINS,
			  hsize);
	ret = ret ?: check_array(p, &h->clocks, "clocks",
				 sizeof(struct vsoc_clock_desc),
				 VSOC_MAX_CLOCKS, hsize);
	ret = ret ?: check_array(p, &h->periphs, "periphs",
				 sizeof(struct vsoc_periph_desc),
				 VSOC_MAX_PERIPHS, hsize);
	ret = ret ?: check_array(p, &h->cores, "cores",
				 sizeof(struct vsoc_core_desc),
				 VSOC_MAX_CORES, hsize);
	ret = ret ?: check_array(p, &h->mems, "mems",
				 sizeof(struct vsoc_mem_desc),
				 VSOC_MAX_MEMS, hsize);
	ret = ret ?: check_array(p, &h->mboxes, "mboxes",
				 sizeof(struct vsoc_mbox_desc),
				 VSOC_MAX_MBOXES, hsize);
	/* ABI 1.2: reserved space, so no channels, in an older table. */
	if (has_chans)
		ret = ret ?: check_array(p, &h->chans, "chans",
					 sizeof(struct vsoc_chan_desc),
					 VSOC_MAX_CHANS, hsize);
	/* ABI 1.5: reserved space, so no levels, in an older table. */
	if (has_levels)
		ret = ret ?: check_array(p, &h->levels, "levels",
					 sizeof(struct vsoc_level_desc),
					 VSOC_MAX_PERF_LEVELS, hsize);
	if (ret)
		return ret;

	/* The table itself is a region nothing else may overlap. */
	ret = add_region(p, &table, "board", "table", 0);
	get_area(&b->telemetry, &h->telemetry);
	get_area(&b->pwr, &h->pwr);
	get_area(&b->clk, &h->clk);
	get_area(&b->echo, &h->echo);
	/* Before 1.5 the page ended at the 1.5 fields. */
	ret = ret ?: add_region(p, &b->telemetry, "telemetry", "page",
				has_levels ? sizeof(struct vsoc_telemetry) :
				offsetof(struct vsoc_telemetry, level));
	ret = ret ?: add_region(p, &b->echo, "echo", "block",
				sizeof(struct vsoc_echo));
	/* ABI 1.1: optional, zero-sized in a 1.0 table. */
	get_area(&b->fault, &h->fault);
	if (b->fault.size)
		ret = ret ?: add_region(p, &b->fault, "fault", "control",
					sizeof(struct vsoc_fault_ctl));
	if (ret)
		return ret;

	/* Cores first: mailboxes and mems refer to them by index. */
	b->nr_cores = le32_to_cpu(h->cores.count);
	ret = parse_domains(p, &h->domains);
	if (has_levels)
		ret = ret ?: parse_levels(p, &h->levels);
	ret = ret ?: parse_clocks(p, &h->clocks);
	ret = ret ?: parse_cores(p, &h->cores);
	ret = ret ?: parse_mems(p, &h->mems);
	ret = ret ?: parse_mboxes(p, &h->mboxes);
	ret = ret ?: parse_periphs(p, &h->periphs);
	if (has_chans)
		ret = ret ?: parse_chans(p, &h->chans);
	ret = ret ?: check_core_links(p);
	ret = ret ?: add_region(p, &b->pwr, "power", "slots",
				(u64)b->nr_domains * sizeof(struct vsoc_req_slot));
	ret = ret ?: add_region(p, &b->clk, "clock", "slots",
				(u64)b->nr_clocks * sizeof(struct vsoc_req_slot));
	return ret ?: check_overlaps(p);
}

/* Check the header of a private copy of the table, then all of it. */
static int vsoc_table_parse(struct vsoc *soc, const u8 *tbl, size_t len)
{
	struct vsoc_parse p = { .soc = soc, .tbl = tbl };
	const struct vsoc_board_header *h = (const void *)tbl;
	u32 magic, version, size;
	int ret;

	if (len < sizeof(*h))
		return bad(soc, "%zu bytes cannot hold the header", len);
	magic = le32_to_cpu(h->magic);
	version = le32_to_cpu(h->version);
	size = le32_to_cpu(h->size);
	if (magic != VSOC_MAGIC) {
		dev_err(soc->dev,
			"board table: bad magic %#010x (expected %#010x): is the SoC model running?\n",
			magic, VSOC_MAGIC);
		return -ENODEV;
	}
	if (VSOC_VERSION_GET_MAJOR(version) != VSOC_VERSION_MAJOR)
		return bad(soc, "version %u.%u, this driver reads %u.x",
			   VSOC_VERSION_GET_MAJOR(version), version & 0xffff,
			   VSOC_VERSION_MAJOR);
	if (size < sizeof(*h) || size > len)
		return bad(soc, "size %u outside [%zu, %zu]", size, sizeof(*h),
			   len);
	p.size = size;
	p.maxregions = VSOC_MAX_PERIPHS * 2 + VSOC_MAX_MEMS + VSOC_MAX_MBOXES +
		       VSOC_MAX_CORES + 8;
	p.regions = kcalloc(p.maxregions, sizeof(*p.regions), GFP_KERNEL);
	if (!p.regions)
		return -ENOMEM;
	memset(soc->board, 0, sizeof(*soc->board));
	ret = parse_table(&p);
	kfree(p.regions);
	return ret;
}

/**
 * vsoc_board_load() - copy, validate and parse the board table
 * @soc: the SoC; @soc->shm, @soc->shm_len, @soc->own_id and @soc->nvec
 *	are set
 *
 * On success @soc->board holds the validated description.
 *
 * Context: Process context.
 * Return: 0, -EINVAL (one error line says what is wrong and where),
 * -ENODEV for a table that is not ours, or -ENOMEM.
 */
int vsoc_board_load(struct vsoc *soc)
{
	size_t len = min_t(resource_size_t, soc->shm_len, VSOC_MAX_TABLE_SIZE);
	u8 *tbl;
	int ret;

	tbl = kvmalloc(len, GFP_KERNEL);
	soc->board = kzalloc(sizeof(*soc->board), GFP_KERNEL);
	if (!tbl || !soc->board) {
		ret = -ENOMEM;
		goto out;
	}
	/* One copy; from here on only the copy is read. */
	memcpy_fromio(tbl, soc->shm, len);
	ret = vsoc_table_parse(soc, tbl, len);
out:
	kvfree(tbl);
	if (ret) {
		kfree(soc->board);
		soc->board = NULL;
	}
	return ret;
}

/**
 * vsoc_board_parse() - validate a board table held in memory
 * @dev: device named in the error message
 * @tbl: the table
 * @len: bytes readable at @tbl
 * @shm_len: size of the shared memory the table describes
 * @own_id: the guest's ivshmem peer ID
 * @nvec: MSI-X vectors available
 * @board: the result
 *
 * The same checks as at probe time, for tests that feed damaged tables.
 *
 * Context: Process context.
 * Return: 0, -EINVAL or -ENODEV with one error line, or -ENOMEM.
 */
int vsoc_board_parse(struct device *dev, const void *tbl, size_t len,
		     u64 shm_len, u32 own_id, unsigned int nvec,
		     struct vsoc_board *board)
{
	struct vsoc *soc;
	int ret;

	soc = kzalloc(sizeof(*soc), GFP_KERNEL);
	if (!soc)
		return -ENOMEM;
	soc->dev = dev;
	soc->shm_len = shm_len;
	soc->own_id = own_id;
	soc->nvec = nvec;
	soc->board = board;
	ret = vsoc_table_parse(soc, tbl, len);
	kfree(soc);
	return ret;
}
EXPORT_SYMBOL_GPL(vsoc_board_parse);

/**
 * vsoc_board_free() - free the board description
 * @soc: the SoC
 *
 * Context: Process context.
 */
void vsoc_board_free(struct vsoc *soc)
{
	kfree(soc->board);
	soc->board = NULL;
}

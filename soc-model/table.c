// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: writing the board table into shared memory, and
 * checking one the way a consumer must (the fuzzer and the tests use the
 * checker; the model runs it on what it wrote before publishing it).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <uapi/ampsoc/core_fault.h>

#include "board.h"

static uint32_t crc_table[256];

uint32_t crc32_ieee(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *s = p;
	uint32_t i, j, c;

	if (!crc_table[1]) {
		for (i = 0; i < 256; i++) {
			c = i;
			for (j = 0; j < 8; j++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			crc_table[i] = c;
		}
	}
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *s++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void name_copy(char *dst, const char *src)
{
	memset(dst, 0, VSOC_NAME_LEN);
	memcpy(dst, src, strnlen(src, VSOC_NAME_LEN - 1));
}

static void set_array(struct vsoc_array *a, size_t *off, uint32_t count,
		      size_t stride)
{
	a->offset = *off;
	a->count = count;
	a->stride = stride;
	*off += (size_t)count * stride;
}

static void set_area(struct vsoc_area *a, uint64_t off, uint64_t size)
{
	a->offset = off;
	a->size = size;
}

size_t board_write_table(const struct board *b, void *table)
{
	struct vsoc_board_header *h = table;
	uint8_t *base = table;
	unsigned int i, j, nmems = 0, nchans = 0;
	size_t off = sizeof(*h);

	for (i = 0; i < b->nr_cores; i++) {
		nmems += b->core[i].nr_mems;
		nchans += b->core[i].nr_chans;
	}
	h->magic = VSOC_MAGIC;
	h->version = VSOC_VERSION;
	h->header_size = sizeof(*h);
	h->shm_size = b->shm_size;
	h->model_peer = VSOC_PEER_MODEL;
	h->guest_peer = VSOC_PEER_GUEST;
	h->nr_vectors = VSOC_NR_VECTORS;
	name_copy(h->board_name, b->name);
	set_array(&h->domains, &off, b->nr_domains,
		  sizeof(struct vsoc_domain_desc));
	set_array(&h->clocks, &off, b->nr_clocks,
		  sizeof(struct vsoc_clock_desc));
	set_array(&h->periphs, &off, b->nr_periphs,
		  sizeof(struct vsoc_periph_desc));
	set_array(&h->cores, &off, b->nr_cores,
		  sizeof(struct vsoc_core_desc));
	set_array(&h->mems, &off, nmems, sizeof(struct vsoc_mem_desc));
	set_array(&h->mboxes, &off, b->nr_mboxes,
		  sizeof(struct vsoc_mbox_desc));
	set_array(&h->chans, &off, nchans, sizeof(struct vsoc_chan_desc));
	set_area(&h->telemetry, b->telem_off, sizeof(struct vsoc_telemetry));
	set_area(&h->pwr, b->pwr_off,
		 b->nr_domains * sizeof(struct vsoc_req_slot));
	set_area(&h->clk, b->clk_off,
		 b->nr_clocks * sizeof(struct vsoc_req_slot));
	set_area(&h->echo, b->echo_off, sizeof(struct vsoc_echo));
	set_area(&h->fault, b->fault_off, sizeof(struct vsoc_fault_ctl));
	set_area(&h->core_ctl, b->core_ctl_off,
		 b->nr_cores * sizeof(struct vsoc_core_ctl));

	for (i = 0; i < b->nr_domains; i++) {
		struct vsoc_domain_desc *d = (void *)(base + h->domains.offset +
					       i * sizeof(*d));
		const struct board_domain *s = &b->domain[i];

		name_copy(d->name, s->name);
		d->parent = s->parent;
		d->flags = s->flags;
		d->on_latency_ns = s->on_latency_ns;
		d->off_latency_ns = s->off_latency_ns;
		d->on_power_uw = s->on_power_uw;
		d->off_power_uw = s->off_power_uw;
		d->initial_state = s->initially_on ? VSOC_PWR_ON : VSOC_PWR_OFF;
	}
	for (i = 0; i < b->nr_clocks; i++) {
		struct vsoc_clock_desc *c = (void *)(base + h->clocks.offset +
					      i * sizeof(*c));
		const struct board_clock *s = &b->clock[i];

		name_copy(c->name, s->name);
		c->parent = s->parent;
		c->flags = s->flags;
		c->rate_hz = s->rate_hz;
		c->min_rate_hz = s->min_rate_hz;
		c->max_rate_hz = s->max_rate_hz;
		c->initial_on = s->initially_on;
	}
	for (i = 0; i < b->nr_periphs; i++) {
		struct vsoc_periph_desc *p = (void *)(base + h->periphs.offset +
					       i * sizeof(*p));
		const struct board_periph *s = &b->periph[i];

		name_copy(p->name, s->name);
		p->type = s->type;
		p->domain = s->domain;
		p->clock = s->clock;
		p->vector = s->vector_guest;
		set_area(&p->regs, s->regs_off, sizeof(struct vsoc_periph_regs));
		set_area(&p->data, s->data_off, s->data_size);
		p->active_power_uw = s->active_power_uw;
	}
	nmems = 0;
	for (i = 0; i < b->nr_cores; i++) {
		struct vsoc_core_desc *c = (void *)(base + h->cores.offset +
					     i * sizeof(*c));
		const struct board_core *s = &b->core[i];

		name_copy(c->name, s->name);
		c->domain = s->domain;
		c->clock = s->clock;
		c->peer = VSOC_PEER_CORE_BASE + i;
		c->first_mem = nmems;
		c->nr_mems = s->nr_mems;
		c->mbox_tx = s->mbox_tx;
		c->mbox_rx = s->mbox_rx;
		set_area(&c->ctl, s->ctl_off, sizeof(struct vsoc_core_ctl));
		c->resmgr_domains = s->resmgr_domains;
		c->resmgr_clocks = s->resmgr_clocks;
		c->flags = s->firewall ? VSOC_CORE_F_FIREWALL : 0;
		c->isa = s->isa;
		for (j = 0; j < s->nr_mems; j++, nmems++) {
			struct vsoc_mem_desc *m = (void *)(base + h->mems.offset +
						nmems * sizeof(*m));

			name_copy(m->name, s->mem[j].name);
			m->core = i;
			m->flags = s->mem[j].flags;
			m->shm_offset = s->mem[j].shm_off;
			m->da = s->mem[j].da;
			m->size = s->mem[j].size;
		}
	}
	for (i = 0; i < b->nr_mboxes; i++) {
		struct vsoc_mbox_desc *m = (void *)(base + h->mboxes.offset +
					     i * sizeof(*m));
		const struct board_mbox *s = &b->mbox[i];

		name_copy(m->name, s->name);
		m->from = s->from;
		m->to = s->to;
		m->peer = s->peer;
		m->vector = s->vector;
		m->depth = s->depth;
		set_area(&m->fifo, s->fifo_off, s->fifo_size);
	}
	/* static rpmsg channels: in core order, then in file order */
	nchans = 0;
	for (i = 0; i < b->nr_cores; i++) {
		const struct board_core *s = &b->core[i];

		for (j = 0; j < s->nr_chans; j++, nchans++) {
			struct vsoc_chan_desc *c = (void *)(base + h->chans.offset +
						nchans * sizeof(*c));

			name_copy(c->name, s->chan[j].name);
			c->core = i;
			c->dst = s->chan[j].dst;
			c->src = s->chan[j].src;
		}
	}
	h->size = off;
	h->checksum = crc32_ieee(0, base + VSOC_CSUM_START,
				 off - VSOC_CSUM_START);
	return off;
}

/* ---------------- consumer-side check ---------------- */

static __attribute__((format(printf, 3, 4)))
int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool name_ok(const char *n)
{
	return n[0] && memchr(n, '\0', VSOC_NAME_LEN);
}

/* A channel name: 1..31 of [A-Za-z0-9_.-], NUL-terminated. */
static bool chan_name_ok(const char *n)
{
	size_t i;

	if (!name_ok(n))
		return false;
	for (i = 0; n[i]; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') ||
		      (n[i] >= 'A' && n[i] <= 'Z') ||
		      (n[i] >= '0' && n[i] <= '9') ||
		      n[i] == '_' || n[i] == '-' || n[i] == '.'))
			return false;
	return true;
}

static int check_array(const struct vsoc_array *a, uint32_t size,
		       size_t min_stride, uint32_t max, const char *what,
		       char *err, size_t errlen)
{
	if (a->count > max)
		return fail(err, errlen, "%s: count %u > %u", what, a->count,
			    max);
	if (a->count && a->stride < min_stride)
		return fail(err, errlen, "%s: stride %u < %zu", what,
			    a->stride, min_stride);
	/* entries hold 64-bit fields: keep every one naturally aligned */
	if ((a->offset | a->stride) & 7)
		return fail(err, errlen, "%s: offset %u or stride %u not 8-aligned",
			    what, a->offset, a->stride);
	if (a->offset < VSOC_CSUM_START || a->offset > size ||
	    (uint64_t)a->count * a->stride > size - a->offset)
		return fail(err, errlen, "%s: [%u + %u * %u] outside the table (%u bytes)",
			    what, a->offset, a->count, a->stride, size);
	return 0;
}

static int check_area(const struct vsoc_area *a, uint64_t shm_size,
		      uint64_t min, const char *what, unsigned int idx,
		      char *err, size_t errlen)
{
	if (a->size < min || a->offset > shm_size ||
	    a->size > shm_size - a->offset)
		return fail(err, errlen, "%s %u: area [0x%llx + 0x%llx] outside memory/too small",
			    what, idx, (unsigned long long)a->offset,
			    (unsigned long long)a->size);
	if (a->offset & 7)
		return fail(err, errlen, "%s %u: area at 0x%llx not 8-aligned",
			    what, idx, (unsigned long long)a->offset);
	if (a->offset < VSOC_MAX_TABLE_SIZE)
		return fail(err, errlen, "%s %u: area at 0x%llx overlaps the table",
			    what, idx, (unsigned long long)a->offset);
	return 0;
}

static const void *entry(const struct vsoc_board_header *h,
			 const struct vsoc_array *a, uint32_t i)
{
	return (const uint8_t *)h + a->offset + (size_t)i * a->stride;
}

/* Bits of a mask over @count objects (count <= 32) that name none. */
static uint32_t beyond(uint32_t mask, uint32_t count)
{
	return count >= 32 ? 0 : mask & ~((1u << count) - 1);
}

int table_check(const void *table, size_t len, uint64_t shm_size,
		char *err, size_t errlen)
{
	const struct vsoc_board_header *h = table;
	uint32_t size, i, j, n, minor;

	if (len < sizeof(*h))
		return fail(err, errlen, "table: %zu bytes, header needs %zu",
			    len, sizeof(*h));
	if (h->magic != VSOC_MAGIC)
		return fail(err, errlen, "table: bad magic 0x%08x", h->magic);
	if (VSOC_VERSION_GET_MAJOR(h->version) != VSOC_VERSION_MAJOR)
		return fail(err, errlen, "table: version %u.%u, need major %u",
			    h->version >> 16, h->version & 0xffff,
			    VSOC_VERSION_MAJOR);
	size = h->size;
	if (size < sizeof(*h) || size > VSOC_MAX_TABLE_SIZE || size > len)
		return fail(err, errlen, "table: size %u out of range", size);
	if (h->header_size < sizeof(*h) || h->header_size > size)
		return fail(err, errlen, "table: header_size %u", h->header_size);
	if (crc32_ieee(0, (const uint8_t *)table + VSOC_CSUM_START,
		       size - VSOC_CSUM_START) != h->checksum)
		return fail(err, errlen, "table: checksum mismatch");
	if (h->shm_size != shm_size)
		return fail(err, errlen, "table: shm_size 0x%llx, memory is 0x%llx",
			    (unsigned long long)h->shm_size,
			    (unsigned long long)shm_size);
	if (h->nr_vectors > VSOC_NR_VECTORS || h->nr_vectors < VSOC_VEC_MBOX_BASE)
		return fail(err, errlen, "table: %u vectors", h->nr_vectors);
	if (!memchr(h->board_name, '\0', VSOC_NAME_LEN))
		return fail(err, errlen, "table: board name not terminated");
	minor = h->version & 0xffff;
	if (check_array(&h->domains, size, sizeof(struct vsoc_domain_desc),
			VSOC_MAX_DOMAINS, "domains", err, errlen) ||
	    check_array(&h->clocks, size, sizeof(struct vsoc_clock_desc),
			VSOC_MAX_CLOCKS, "clocks", err, errlen) ||
	    check_array(&h->periphs, size, sizeof(struct vsoc_periph_desc),
			VSOC_MAX_PERIPHS, "periphs", err, errlen) ||
	    check_array(&h->cores, size, sizeof(struct vsoc_core_desc),
			VSOC_MAX_CORES, "cores", err, errlen) ||
	    check_array(&h->mems, size, sizeof(struct vsoc_mem_desc),
			VSOC_MAX_MEMS, "mems", err, errlen) ||
	    check_array(&h->mboxes, size, sizeof(struct vsoc_mbox_desc),
			VSOC_MAX_MBOXES, "mboxes", err, errlen))
		return -1;
	if (check_area(&h->telemetry, shm_size, sizeof(struct vsoc_telemetry),
		       "telemetry", 0, err, errlen) ||
	    check_area(&h->pwr, shm_size, (uint64_t)h->domains.count *
		       sizeof(struct vsoc_req_slot), "pwr", 0, err, errlen) ||
	    check_area(&h->clk, shm_size, (uint64_t)h->clocks.count *
		       sizeof(struct vsoc_req_slot), "clk", 0, err, errlen) ||
	    check_area(&h->echo, shm_size, sizeof(struct vsoc_echo), "echo", 0,
		       err, errlen))
		return -1;
	/* added in 1.1: absent (size 0) in a 1.0 table */
	if ((h->version & 0xffff) >= 1 &&
	    check_area(&h->fault, shm_size, sizeof(struct vsoc_fault_ctl),
		       "fault", 0, err, errlen))
		return -1;
	/* added in 1.2: a 1.0/1.1 table has no channels (reserved there) */
	if ((h->version & 0xffff) >= 2 &&
	    check_array(&h->chans, size, sizeof(struct vsoc_chan_desc),
			VSOC_MAX_CHANS, "chans", err, errlen))
		return -1;
	n = h->domains.count;
	for (i = 0; i < n; i++) {
		const struct vsoc_domain_desc *d = entry(h, &h->domains, i);
		uint32_t cur = i, steps = 0;

		if (!name_ok(d->name))
			return fail(err, errlen, "domain %u: bad name", i);
		if (d->parent != VSOC_NONE && d->parent >= n)
			return fail(err, errlen, "domain %u: parent %u out of range",
				    i, d->parent);
		while (cur != VSOC_NONE && steps++ <= n) {
			const struct vsoc_domain_desc *c = entry(h, &h->domains, cur);

			cur = c->parent;
			if (cur != VSOC_NONE && cur >= n)
				return fail(err, errlen, "domain %u: parent out of range", i);
		}
		if (cur != VSOC_NONE)
			return fail(err, errlen, "domain %u: hierarchy cycle", i);
		if (d->initial_state > VSOC_PWR_ON)
			return fail(err, errlen, "domain %u: initial state %u",
				    i, d->initial_state);
	}
	for (i = 0; i < h->clocks.count; i++) {
		const struct vsoc_clock_desc *c = entry(h, &h->clocks, i);
		uint32_t cur = i, steps = 0;

		if (!name_ok(c->name))
			return fail(err, errlen, "clock %u: bad name", i);
		while (cur != VSOC_NONE && steps++ <= h->clocks.count) {
			if (cur >= h->clocks.count)
				return fail(err, errlen, "clock %u: parent out of range", i);
			cur = ((const struct vsoc_clock_desc *)entry(h, &h->clocks, cur))->parent;
		}
		if (cur != VSOC_NONE)
			return fail(err, errlen, "clock %u: tree cycle", i);
		if (!c->rate_hz || c->min_rate_hz > c->rate_hz ||
		    c->rate_hz > c->max_rate_hz)
			return fail(err, errlen, "clock %u: bad rates", i);
	}
	for (i = 0; i < h->periphs.count; i++) {
		const struct vsoc_periph_desc *p = entry(h, &h->periphs, i);

		if (!name_ok(p->name))
			return fail(err, errlen, "periph %u: bad name", i);
		if (p->type < VSOC_PERIPH_TIMER || p->type > VSOC_PERIPH_SIMPLE)
			return fail(err, errlen, "periph %u: type %u", i, p->type);
		if (p->domain >= n)
			return fail(err, errlen, "periph %u: domain %u out of range",
				    i, p->domain);
		if (p->clock != VSOC_NONE && p->clock >= h->clocks.count)
			return fail(err, errlen, "periph %u: clock %u out of range",
				    i, p->clock);
		if (p->vector >= h->nr_vectors)
			return fail(err, errlen, "periph %u: vector %u", i, p->vector);
		if (check_area(&p->regs, shm_size, sizeof(struct vsoc_periph_regs),
			       "periph regs", i, err, errlen))
			return -1;
		if (p->data.size && check_area(&p->data, shm_size, 0,
					       "periph data", i, err, errlen))
			return -1;
	}
	for (i = 0; i < h->cores.count; i++) {
		const struct vsoc_core_desc *c = entry(h, &h->cores, i);

		if (!name_ok(c->name))
			return fail(err, errlen, "core %u: bad name", i);
		if (c->domain >= n)
			return fail(err, errlen, "core %u: domain out of range", i);
		if (c->clock != VSOC_NONE && c->clock >= h->clocks.count)
			return fail(err, errlen, "core %u: clock out of range", i);
		if (c->peer != VSOC_PEER_CORE_BASE + i)
			return fail(err, errlen, "core %u: peer %u", i, c->peer);
		if (c->first_mem > h->mems.count ||
		    c->nr_mems > h->mems.count - c->first_mem)
			return fail(err, errlen, "core %u: mems [%u + %u] out of range",
				    i, c->first_mem, c->nr_mems);
		if ((c->mbox_tx != VSOC_NONE && c->mbox_tx >= h->mboxes.count) ||
		    (c->mbox_rx != VSOC_NONE && c->mbox_rx >= h->mboxes.count))
			return fail(err, errlen, "core %u: mailbox out of range", i);
		/* 1.3 appended the firewall and fault fields, 1.4 registers */
		if (check_area(&c->ctl, shm_size, minor >= 4 ?
			       sizeof(struct vsoc_core_ctl) : minor == 3 ?
			       VSOC_CORE_CTL_SIZE_1_3 : VSOC_CORE_CTL_SIZE_1_2,
			       "core ctl", i, err, errlen))
			return -1;
		/* added in 1.3: reserved, so zero, before */
		if (minor < 3)
			continue;
		if (beyond(c->resmgr_domains, h->domains.count) ||
		    beyond(c->resmgr_clocks, h->clocks.count))
			return fail(err, errlen, "core %u: resmgr 0x%x, 0x%x beyond %u, %u",
				    i, c->resmgr_domains, c->resmgr_clocks,
				    h->domains.count, h->clocks.count);
		if (c->flags & ~VSOC_CORE_F_FIREWALL)
			return fail(err, errlen, "core %u: unknown flags 0x%x", i,
				    c->flags);
		/* 1.4: the instruction set, in what 1.3 had reserved */
		if (minor == 3 && c->isa)
			return fail(err, errlen, "core %u: reserved field set", i);
		if (minor >= 4 && (c->isa < AMPSOC_CORE_ISA_X86_64 ||
				   c->isa > AMPSOC_CORE_ISA_RV32IMAC))
			return fail(err, errlen, "core %u: unknown isa %u", i,
				    c->isa);
	}
	for (i = 0; i < h->mems.count; i++) {
		const struct vsoc_mem_desc *m = entry(h, &h->mems, i);
		struct vsoc_area a = { m->shm_offset, m->size };

		if (!name_ok(m->name))
			return fail(err, errlen, "mem %u: bad name", i);
		if (m->core >= h->cores.count)
			return fail(err, errlen, "mem %u: core out of range", i);
		if (check_area(&a, shm_size, 1, "mem", i, err, errlen))
			return -1;
		if (m->da + m->size < m->da)
			return fail(err, errlen, "mem %u: device range wraps", i);
		for (j = 0; j < i; j++) {
			const struct vsoc_mem_desc *o = entry(h, &h->mems, j);

			if (m->shm_offset < o->shm_offset + o->size &&
			    o->shm_offset < m->shm_offset + m->size)
				return fail(err, errlen, "mem %u: overlaps mem %u in shared memory",
					    i, j);
			if (m->core == o->core && m->da < o->da + o->size &&
			    o->da < m->da + m->size)
				return fail(err, errlen, "mem %u: overlaps mem %u in device space",
					    i, j);
		}
	}
	for (i = 0; i < h->mboxes.count; i++) {
		const struct vsoc_mbox_desc *m = entry(h, &h->mboxes, i);
		bool from_guest = m->from == VSOC_MBOX_EP_GUEST;
		bool to_guest = m->to == VSOC_MBOX_EP_GUEST;

		if (!name_ok(m->name))
			return fail(err, errlen, "mbox %u: bad name", i);
		if (from_guest == to_guest ||
		    (!from_guest && m->from >= h->cores.count) ||
		    (!to_guest && m->to >= h->cores.count))
			return fail(err, errlen, "mbox %u: bad endpoints", i);
		if (m->vector >= h->nr_vectors)
			return fail(err, errlen, "mbox %u: vector %u", i, m->vector);
		if (m->depth < 2 || m->depth > VSOC_MBOX_MAX_DEPTH ||
		    (m->depth & (m->depth - 1)))
			return fail(err, errlen, "mbox %u: depth %u", i, m->depth);
		if (check_area(&m->fifo, shm_size, sizeof(struct vsoc_mbox_fifo) +
			       4ull * m->depth, "mbox fifo", i, err, errlen))
			return -1;
	}
	n = (h->version & 0xffff) >= 2 ? h->chans.count : 0;
	for (i = 0, j = 0; i < n; i++) {
		const struct vsoc_chan_desc *c = entry(h, &h->chans, i);
		const struct vsoc_chan_desc *o;
		uint32_t k;

		if (!chan_name_ok(c->name))
			return fail(err, errlen, "chan %u: bad name", i);
		if (c->core >= h->cores.count)
			return fail(err, errlen, "chan %u: core out of range", i);
		if (c->dst == VSOC_RPMSG_ADDR_ANY)
			return fail(err, errlen, "chan %u: dst is 'any'", i);
		if (c->src != VSOC_RPMSG_ADDR_ANY && c->src < 1024)
			return fail(err, errlen, "chan %u: src %u reserved", i,
				    c->src);
		if (c->reserved)
			return fail(err, errlen, "chan %u: reserved field set", i);
		/* j: first entry of this core's run */
		if (i) {
			o = entry(h, &h->chans, i - 1);
			if (c->core < o->core)
				return fail(err, errlen, "chan %u: not sorted by core", i);
			if (c->core != o->core)
				j = i;
		}
		if (i - j >= VSOC_MAX_CHANS_PER_CORE)
			return fail(err, errlen, "chan %u: more than %u on core %u",
				    i, VSOC_MAX_CHANS_PER_CORE, c->core);
		for (k = j; k < i; k++) {
			o = entry(h, &h->chans, k);
			if (o->dst == c->dst &&
			    !strncmp(o->name, c->name, VSOC_NAME_LEN))
				return fail(err, errlen, "chan %u: duplicates chan %u",
					    i, k);
		}
	}
	return 0;
}

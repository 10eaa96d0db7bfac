// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: writing the board table into shared memory. The
 * checker is the kernel's own (table_check.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <uapi/ampsoc/core_fault.h>

#include "board.h"

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
	set_array(&h->levels, &off, b->nr_levels,
		  sizeof(struct vsoc_level_desc));
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
		d->first_level = s->first_level;
		d->nr_levels = s->nr_levels;
		for (j = 0; j < s->nr_levels; j++) {
			struct vsoc_level_desc *l = (void *)(base +
				h->levels.offset +
				(s->first_level + j) * sizeof(*l));

			l->domain = i;
			l->level = s->level[j].level;
			l->voltage_uv = s->level[j].voltage_uv;
			l->power_uw = s->level[j].power_uw;
		}
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
		c->mem_domain = s->mem_domain;
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
	h->checksum = crc32(0, base + VSOC_CSUM_START,
			    off - VSOC_CSUM_START);
	return off;
}

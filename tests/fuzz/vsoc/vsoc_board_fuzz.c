// SPDX-License-Identifier: GPL-2.0
/*
 * Run the kernel's board-table parser on the host and check what it
 * accepts: every index it hands to the drivers is in range, every area is
 * inside shared memory, no two areas overlap, hierarchies are acyclic.
 */
#include "vsoc_board_fuzz.h"

char vsoc_shim_log[256];

static void broken(const char *what, unsigned int i)
{
	fprintf(stderr, "accepted board breaks a promise: %s [%u]\n", what, i);
	abort();
}

struct area_ref {
	const struct vsoc_shm_area *a;
	const char *what;
};

static void check_area(const struct vsoc_board *b, const struct vsoc_shm_area *a,
		       const char *what, unsigned int i)
{
	if (a->size && (a->offset >= b->shm_size ||
			a->size > b->shm_size - a->offset))
		broken(what, i);
}

static void check_name(const char *name, const char *what, unsigned int i)
{
	if (!memchr(name, '\0', VSOC_NAME_LEN) || !name[0])
		broken(what, i);
}

static void check_tree(unsigned int n, const u32 *parent, size_t stride,
		       const char *what)
{
	unsigned int i, steps;

	for (i = 0; i < n; i++) {
		u32 cur = *(const u32 *)((const char *)parent + i * stride);

		for (steps = 0; cur != VSOC_NONE; steps++) {
			if (cur >= n || steps > n)
				broken(what, i);
			cur = *(const u32 *)((const char *)parent + cur * stride);
		}
	}
}

static void check_board(const struct vsoc_board *b, size_t table_size,
			unsigned int nvec)
{
	static struct area_ref areas[2 * VSOC_MAX_PERIPHS + VSOC_MAX_MEMS +
				     VSOC_MAX_MBOXES + VSOC_MAX_CORES + 8];
	struct vsoc_shm_area table = { 0, table_size };
	unsigned int i, j, n = 0;

	if (b->nr_domains > VSOC_MAX_DOMAINS || b->nr_clocks > VSOC_MAX_CLOCKS ||
	    b->nr_periphs > VSOC_MAX_PERIPHS || b->nr_cores > VSOC_MAX_CORES ||
	    b->nr_mems > VSOC_MAX_MEMS || b->nr_mboxes > VSOC_MAX_MBOXES ||
	    b->nr_chans > VSOC_MAX_CHANS)
		broken("counts", 0);
	if (b->nr_vectors > nvec)
		broken("nr_vectors", b->nr_vectors);
	if (!memchr(b->name, '\0', VSOC_NAME_LEN))	/* may be empty */
		broken("board name", 0);
	for (i = 0; i < b->nr_domains; i++)
		check_name(b->domains[i].name, "domain name", i);
	check_tree(b->nr_domains, &b->domains[0].parent, sizeof(b->domains[0]),
		   "domain parent");
	for (i = 0; i < b->nr_clocks; i++) {
		const struct vsoc_clock_info *c = &b->clocks[i];

		check_name(c->name, "clock name", i);
		if (c->rate_hz < c->min_rate_hz || c->rate_hz > c->max_rate_hz)
			broken("clock rate", i);
	}
	check_tree(b->nr_clocks, &b->clocks[0].parent, sizeof(b->clocks[0]),
		   "clock parent");
	areas[n++] = (struct area_ref){ &table, "table" };
	areas[n++] = (struct area_ref){ &b->telemetry, "telemetry" };
	areas[n++] = (struct area_ref){ &b->echo, "echo" };
	areas[n++] = (struct area_ref){ &b->pwr, "pwr" };
	areas[n++] = (struct area_ref){ &b->clk, "clk" };
	areas[n++] = (struct area_ref){ &b->fault, "fault" };
	for (i = 0; i < b->nr_periphs; i++) {
		const struct vsoc_periph_info *p = &b->periphs[i];

		check_name(p->name, "periph name", i);
		if (p->domain >= b->nr_domains ||
		    (p->clock != VSOC_NONE && p->clock >= b->nr_clocks) ||
		    p->vector >= b->nr_vectors)
			broken("periph reference", i);
		areas[n++] = (struct area_ref){ &p->regs, "periph regs" };
		areas[n++] = (struct area_ref){ &p->data, "periph data" };
	}
	for (i = 0; i < b->nr_mems; i++) {
		const struct vsoc_mem_info *m = &b->mems[i];

		check_name(m->name, "mem name", i);
		if (m->core >= b->nr_cores || !m->shm.size)
			broken("mem", i);
		areas[n++] = (struct area_ref){ &m->shm, "mem" };
	}
	for (i = 0; i < b->nr_cores; i++) {
		const struct vsoc_core_info *c = &b->cores[i];

		check_name(c->name, "core name", i);
		if (c->domain >= b->nr_domains ||
		    (c->clock != VSOC_NONE && c->clock >= b->nr_clocks) ||
		    c->first_mem > b->nr_mems ||
		    c->nr_mems > b->nr_mems - c->first_mem ||
		    (c->mbox_tx != VSOC_NONE && c->mbox_tx >= b->nr_mboxes) ||
		    (c->mbox_rx != VSOC_NONE && c->mbox_rx >= b->nr_mboxes))
			broken("core reference", i);
		areas[n++] = (struct area_ref){ &c->ctl, "core ctl" };
	}
	for (i = 0; i < b->nr_mboxes; i++) {
		const struct vsoc_mbox_info *m = &b->mboxes[i];

		bool from_guest = m->from == VSOC_MBOX_EP_GUEST;
		bool to_guest = m->to == VSOC_MBOX_EP_GUEST;

		check_name(m->name, "mbox name", i);
		if (from_guest == to_guest ||
		    (m->from != VSOC_MBOX_EP_GUEST && m->from >= b->nr_cores) ||
		    (m->to != VSOC_MBOX_EP_GUEST && m->to >= b->nr_cores) ||
		    !m->depth || (m->depth & (m->depth - 1)) ||
		    m->depth > VSOC_MBOX_MAX_DEPTH || m->vector >= b->nr_vectors)
			broken("mbox", i);
		if (m->fifo.size < sizeof(struct vsoc_mbox_fifo) +
		    (u64)m->depth * sizeof(__le32))
			broken("mbox fifo size", i);
		areas[n++] = (struct area_ref){ &m->fifo, "mbox fifo" };
	}
	for (i = 0, j = 0; i < b->nr_chans; i++) {
		const struct vsoc_chan_info *c = &b->chans[i];

		check_name(c->name, "chan name", i);
		if (c->core >= b->nr_cores || c->dst == VSOC_RPMSG_ADDR_ANY ||
		    (c->src != VSOC_RPMSG_ADDR_ANY && c->src < 1024))
			broken("chan", i);
		/* j: the first channel of this core */
		if (i && c->core < b->chans[i - 1].core)
			broken("chan order", i);
		if (i && c->core != b->chans[i - 1].core)
			j = i;
		if (i - j >= VSOC_MAX_CHANS_PER_CORE)
			broken("chans per core", i);
	}
	for (i = 0; i < n; i++) {
		check_area(b, areas[i].a, areas[i].what, i);
		for (j = 0; j < i; j++) {
			const struct vsoc_shm_area *x = areas[i].a, *y = areas[j].a;

			if (x->size && y->size && x->offset < y->offset + y->size &&
			    y->offset < x->offset + x->size)
				broken(areas[i].what, i);
		}
	}
}

void vsoc_fuzz_fix_checksum(uint8_t *t, size_t len)
{
	struct vsoc_board_header *h = (void *)t;

	if (len >= sizeof(*h) && h->size > VSOC_CSUM_START && h->size <= len)
		h->checksum = crc32_le(~0U, t + VSOC_CSUM_START,
				       h->size - VSOC_CSUM_START) ^ ~0U;
}

int vsoc_fuzz_run(const uint8_t *t, size_t len, unsigned int extra_vec)
{
	static struct vsoc_board b;
	const struct vsoc_board_header *h = (const void *)t;
	u64 shm = 1 << 20;
	u32 own = 1;
	int ret;

	if (len >= sizeof(*h)) {
		shm = h->shm_size;
		own = h->guest_peer;
	}
	vsoc_shim_log[0] = '\0';
	ret = vsoc_board_parse(NULL, t, len, shm, own, 16 + extra_vec, &b);
	if (ret && !vsoc_shim_log[0])
		broken("rejection without a message", -ret);
	if (!ret)
		check_board(&b, h->size, 16 + extra_vec);
	return ret;
}

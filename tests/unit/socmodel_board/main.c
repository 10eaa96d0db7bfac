// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test: board-file parsing errors (with file:line and field),
 * the default board, and the consumer-side board-table check against
 * corrupted tables; the cores' resource-manager scope and firewall switch
 * (ABI 1.3), from the file to the table and back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/ampsoc/core_fault.h>

#include "board.h"
#include "ktap_user.h"

static struct board b;
static char err[BOARD_ERR_LEN];

/* A small valid board; tests append or substitute lines. */
static const char base[] =
	"[soc]\n"				/* 1 */
	"name = t\n"				/* 2 */
	"[domain aon]\n"			/* 3 */
	"always_on = yes\n"			/* 4 */
	"[domain per]\n"			/* 5 */
	"parent = aon\n"			/* 6 */
	"[clock osc]\n"				/* 7 */
	"rate = 10M\n"				/* 8 */
	"[periph t0]\n"				/* 9 */
	"type = timer\n"			/* 10 */
	"domain = per\n"			/* 11 */
	"[domain cpu]\n"			/* 12 */
	"parent = aon\n"			/* 13 */
	"[core m3]\n"				/* 14 */
	"domain = cpu\n"			/* 15 */
	"mem = ram:0x100000:0x0:64K:exec\n";	/* 16 */

static int parse(const char *text)
{
	return board_parse(&b, "t.ini", text, strlen(text), err, sizeof(err));
}

/* Parse base + extra; expect failure whose message contains every @want. */
static void expect_err(const char *name, const char *extra, const char *w1,
		       const char *w2)
{
	char text[4096];
	int r;

	snprintf(text, sizeof(text), "%s%s", base, extra);
	r = parse(text);
	if (!ktap_ok(r == -1 && strstr(err, w1) && (!w2 || strstr(err, w2)),
		     "%s", name))
		ktap_diag("got %d '%s', wanted '%s' '%s'", r, err, w1,
			  w2 ? w2 : "");
}

static void expect_err_text(const char *name, const char *text,
			    const char *w1, const char *w2)
{
	int r = parse(text);

	if (!ktap_ok(r == -1 && strstr(err, w1) && (!w2 || strstr(err, w2)),
		     "%s", name))
		ktap_diag("got %d '%s', wanted '%s' '%s'", r, err, w1,
			  w2 ? w2 : "");
}

static uint8_t table[VSOC_MAX_TABLE_SIZE];
static size_t tsize;

static void recrc(void)
{
	struct vsoc_board_header *h = (void *)table;

	h->checksum = crc32(0, table + VSOC_CSUM_START,
			    h->size - VSOC_CSUM_START);
}

static void reset_table(void)
{
	memset(table, 0, sizeof(table));
	tsize = board_write_table(&b, table);
}

static void expect_table_err(const char *name, const char *want)
{
	int r = table_check(table, sizeof(table), b.shm_size, err,
			    sizeof(err));

	if (!ktap_ok(r == -1 && strstr(err, want), "%s", name))
		ktap_diag("got %d '%s', wanted '%s'", r, err, want);
	reset_table();
}

/* Static rpmsg channels: two cores, in file order within each. */
static const char chans_board[] =
	"[domain aon]\nalways_on = yes\n"
	"[domain c0]\nparent = aon\n"
	"[domain c1]\nparent = aon\n"
	"[core m3]\ndomain = c0\nmem = a:0x100000:0x0:64K:exec\n"
	"rpmsg_static = svc.b:0x400\n"
	"rpmsg_static = echo-1_x:1024:0x400\n"
	"rpmsg_static = echo-1_x:1025\n"		/* same name, other dst */
	"[core dsp]\ndomain = c1\nmem = a:0x200000:0x0:64K\n"
	"rpmsg_static = svc.b:0x400:4294967294\n";	/* same as m3's: fine */

static struct vsoc_chan_desc *chan_entry(unsigned int i)
{
	struct vsoc_board_header *h = (void *)table;

	return (void *)(table + h->chans.offset + i * h->chans.stride);
}

static void test_chans(void)
{
	struct vsoc_board_header *h = (void *)table;
	struct vsoc_chan_desc *c;
	char text[2048];
	int r, i, n;

	r = parse(chans_board);
	ktap_ok(r == 0 && b.core[0].nr_chans == 3 && b.core[1].nr_chans == 1 &&
		!strcmp(b.core[0].chan[1].name, "echo-1_x") &&
		b.core[0].chan[0].dst == 0x400 &&
		b.core[0].chan[0].src == VSOC_RPMSG_ADDR_ANY &&
		b.core[0].chan[1].src == 0x400 &&
		b.core[1].chan[0].src == 0xfffffffe, "chans_parse");
	if (r)
		ktap_diag("%s", err);
	reset_table();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	c = chan_entry(0);
	ktap_ok(r == 0 && h->version == VSOC_VERSION && h->chans.count == 4 &&
		h->chans.stride == sizeof(*c) &&
		h->chans.offset == h->mboxes.offset +
				   h->mboxes.count * h->mboxes.stride &&
		h->chans.offset + 4 * sizeof(*c) == h->size &&
		h->size == tsize && b.table_size == tsize &&
		!strcmp(c[0].name, "svc.b") && c[0].core == 0 &&
		c[0].dst == 0x400 && c[0].src == VSOC_RPMSG_ADDR_ANY &&
		!strcmp(c[1].name, "echo-1_x") && c[1].src == 0x400 &&
		c[2].dst == 1025 && c[3].core == 1 && c[3].src == 0xfffffffe &&
		!c[3].reserved, "chans_table");
	if (r)
		ktap_diag("%s", err);

	/* the checker, on damaged copies */
	chan_entry(1)->core = 1;
	recrc();
	expect_table_err("table_chan_unsorted", "not sorted");
	chan_entry(3)->core = 2;
	recrc();
	expect_table_err("table_chan_core_range", "core 2 out of range");
	chan_entry(0)->dst = VSOC_RPMSG_ADDR_ANY;
	recrc();
	expect_table_err("table_chan_dst_any", "dst");
	chan_entry(0)->src = 1023;
	recrc();
	expect_table_err("table_chan_src_reserved", "src 1023");
	chan_entry(2)->reserved = 1;
	recrc();
	expect_table_err("table_chan_reserved", "reserved");
	chan_entry(1)->name[0] = '/';
	recrc();
	expect_table_err("table_chan_name_chars", "name not of");
	chan_entry(2)->dst = chan_entry(1)->dst;
	recrc();
	expect_table_err("table_chan_duplicate", "duplicates chans[1]");
	h->chans.count = VSOC_MAX_CHANS + 1;
	recrc();
	expect_table_err("table_chan_count", "chans: 33 entries");
	h->chans.stride = 40;
	recrc();
	expect_table_err("table_chan_stride", "chans: stride");

	/* a 1.1 table: the field is reserved (zero) and not read */
	h->version = VSOC_VERSION_MAJOR << 16 | 1;
	memset(&h->chans, 0, sizeof(h->chans));
	recrc();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	ktap_ok(r == 0, "table_1_1_without_chans");
	if (r)
		ktap_diag("%s", err);

	/* no channels: count 0, the offset and stride of any empty array */
	r = parse(base);
	reset_table();
	ktap_ok(r == 0 && h->chans.count == 0 &&
		h->chans.stride == sizeof(struct vsoc_chan_desc) &&
		h->chans.offset == h->size &&
		!table_check(table, sizeof(table), b.shm_size, err, sizeof(err)),
		"chans_none");

	/* eight on one core; a ninth is one too many */
	n = snprintf(text, sizeof(text), "%s", base);
	for (i = 0; i < 8; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "rpmsg_static = c%d:%d\n", i, i);
	r = parse(text);
	ktap_ok(r == 0 && b.core[0].nr_chans == 8, "chans_eight");
	snprintf(text + n, sizeof(text) - n, "rpmsg_static = c8:8\n");
	expect_err_text("err_chan_too_many", text, "t.ini:25: [core m3] rpmsg_static",
			"more than 8");

	expect_err("err_chan_syntax", "rpmsg_static = echo\n", "t.ini:17:",
		   "[core m3] rpmsg_static: expected CHANNEL_NAME:DST[:SRC]");
	expect_err("err_chan_extra_field", "rpmsg_static = echo:1:1024:9\n",
		   "t.ini:17:", "expected CHANNEL_NAME:DST[:SRC]");
	expect_err("err_chan_bad_name", "rpmsg_static = a/b:1\n", "t.ini:17:",
		   "bad channel name 'a/b'");
	expect_err("err_chan_empty_name", "rpmsg_static = :1\n", "t.ini:17:",
		   "bad channel name ''");
	expect_err("err_chan_long_name",
		   "rpmsg_static = abcdefghijklmnopqrstuvwxyz012345:1\n",
		   "t.ini:17:", "bad channel name");
	expect_err("err_chan_dst_not_number", "rpmsg_static = echo:0x4g\n",
		   "t.ini:17:", "[core m3] rpmsg_static echo: bad dst '0x4g'");
	expect_err("err_chan_dst_empty", "rpmsg_static = echo::1024\n",
		   "t.ini:17:", "bad dst ''");
	expect_err("err_chan_dst_too_big", "rpmsg_static = echo:0x100000000\n",
		   "t.ini:17:", "bad dst");
	expect_err("err_chan_dst_any", "rpmsg_static = echo:0xffffffff\n",
		   "t.ini:17:", "dst 0xffffffff is rpmsg's 'any' address");
	expect_err("err_chan_src_reserved", "rpmsg_static = echo:1:1023\n",
		   "t.ini:17:", "src 1023 is below 1024");
	expect_err("err_chan_src_any", "rpmsg_static = echo:1:4294967295\n",
		   "t.ini:17:", "leave SRC out");
	expect_err("err_chan_src_not_number", "rpmsg_static = echo:1:-5\n",
		   "t.ini:17:", "bad src '-5'");
	expect_err("err_chan_duplicate",
		   "rpmsg_static = echo:0x400\nrpmsg_static = echo:1024:2000\n",
		   "t.ini:18: [core m3] rpmsg_static echo",
		   "duplicate of line 17");
	expect_err("err_chan_outside_core", "[domain x]\nrpmsg_static = echo:1\n",
		   "t.ini:18:", "unknown key 'rpmsg_static'");
}

static struct vsoc_core_desc *core_entry(unsigned int i)
{
	struct vsoc_board_header *h = (void *)table;

	return (void *)(table + h->cores.offset + i * h->cores.stride);
}

/* resmgr_domains, resmgr_clocks, firewall: base has domains aon per cpu. */
static void test_scope_and_firewall(void)
{
	struct vsoc_board_header *h = (void *)table;
	char text[2048];
	int r;

	r = parse(base);
	ktap_ok(r == 0 && !b.core[0].resmgr_domains && !b.core[0].resmgr_clocks &&
		b.core[0].firewall, "scope_default_nothing_firewall_on");
	reset_table();
	ktap_ok(!core_entry(0)->resmgr_domains && !core_entry(0)->resmgr_clocks &&
		core_entry(0)->flags == VSOC_CORE_F_FIREWALL &&
		(h->version & 0xffff) == VSOC_VERSION_MINOR, "scope_default_table");

	snprintf(text, sizeof(text), "%s%s", base,
		 "resmgr_domains = per\t ,aon\n"
		 "resmgr_clocks = osc\n"
		 "firewall = no\n");
	r = parse(text);
	ktap_ok(r == 0 && b.core[0].resmgr_domains == 0x3 &&
		b.core[0].resmgr_clocks == 0x1 && !b.core[0].firewall,
		"scope_lists_parse");
	if (r)
		ktap_diag("%s", err);
	reset_table();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	ktap_ok(r == 0 && core_entry(0)->resmgr_domains == 0x3 &&
		core_entry(0)->resmgr_clocks == 0x1 && !core_entry(0)->flags &&
		core_entry(0)->isa == AMPSOC_CORE_ISA_X86_64, "scope_table");
	if (r)
		ktap_diag("%s", err);

	/* [soc] sets every core's default; a [core] key wins */
	r = parse("[soc]\nfirewall = off\n[domain aon]\nalways_on = yes\n"
		  "[domain c0]\nparent = aon\n[domain c1]\nparent = aon\n"
		  "[core a]\ndomain = c0\nmem = r:0x100000:0x0:64K:exec\n"
		  "[core b]\ndomain = c1\nmem = r:0x200000:0x0:64K:exec\n"
		  "firewall = on\n");
	ktap_ok(r == 0 && !b.core[0].firewall && b.core[1].firewall,
		"firewall_soc_default_core_override");
	board_force_firewall(&b, true);
	ktap_ok(b.core[0].firewall && b.core[1].firewall, "firewall_forced_on");
	board_force_firewall(&b, false);
	ktap_ok(!b.core[0].firewall && !b.core[1].firewall, "firewall_forced_off");

	/* the checker: masks beyond the arrays, unknown flags, reserved */
	r = parse(base);
	reset_table();
	core_entry(0)->resmgr_domains = 1u << 3;
	recrc();
	expect_table_err("table_resmgr_domain_beyond", "resmgr");
	core_entry(0)->resmgr_clocks = 1u << 1;
	recrc();
	expect_table_err("table_resmgr_clock_beyond", "resmgr");
	core_entry(0)->flags = 0x2;
	recrc();
	expect_table_err("table_core_unknown_flag", "unknown flags");
	core_entry(0)->flags = 0;
	core_entry(0)->isa = 0;
	recrc();
	expect_table_err("table_core_isa_zero", "unknown instruction set 0");
	core_entry(0)->isa = AMPSOC_CORE_ISA_RV32IMAC + 1;
	recrc();
	expect_table_err("table_core_isa_unknown", "unknown instruction set");
	/* a 1.2 table: the fields were reserved there, the ctl shorter */
	core_entry(0)->ctl.size = VSOC_CORE_CTL_SIZE_1_2;
	h->version = VSOC_VERSION_MAJOR << 16 | 2;
	recrc();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	ktap_ok(r == 0, "table_1_2_short_ctl");
	if (r)
		ktap_diag("%s", err);
	h->version = VSOC_VERSION;
	recrc();
	expect_table_err("table_1_3_short_ctl", "control block of m3");

	/* ABI 1.5: a core's memory domain */
	expect_err("err_mem_domain_unknown", "mem_domain = ghost\n",
		   "t.ini:17: [core m3] mem_domain", "unknown domain 'ghost'");
	expect_err("err_mem_domain_own", "mem_domain = cpu\n",
		   "t.ini:17: [core m3] mem_domain", "the core's own domain");
	{
		char text[4096];

		snprintf(text, sizeof(text), "%smem_domain = per\n", base);
		ktap_ok(parse(text) == 0 && b.core[0].mem_domain == 1,
			"mem_domain_parses");
		ktap_ok(parse(base) == 0 && b.core[0].mem_domain == VSOC_NONE,
			"mem_domain_default_none");
	}

	/* stay_on_until_sync (1.5): the table carries the flag and "on" */
	r = parse("[soc]\nname = t\n[domain aon]\nalways_on = yes\n"
		  "[domain disp]\nparent = aon\ninitial = on\n"
		  "stay_on_until_sync = yes\n[domain per]\nparent = aon\n"
		  "stay_on_until_sync = no\n");
	reset_table();
	{
		struct vsoc_board_header *th = (void *)table;
		struct vsoc_domain_desc *dd = (void *)(table + th->domains.offset +
						       th->domains.stride);

		ktap_ok(r == 0 && b.domain[1].flags == VSOC_DOMAIN_STAY_ON &&
			b.domain[1].initially_on && !b.domain[2].flags &&
			dd->flags == VSOC_DOMAIN_STAY_ON &&
			dd->initial_state == VSOC_PWR_ON &&
			!table_check(table, sizeof(table), b.shm_size, err,
				     sizeof(err)), "stay_on_until_sync_table");
	}
	expect_err_text("err_stay_on_starts_off",
			"[domain aon]\nalways_on = yes\n[domain d]\nparent = aon\n"
			"stay_on_until_sync = yes\n", "t.ini:3: [domain d]",
			"needs initial = on");
	expect_err_text("err_stay_on_always_on",
			"[domain aon]\nalways_on = yes\nstay_on_until_sync = yes\n",
			"t.ini:1: [domain aon]", "on an always-on domain");
	expect_err_text("err_stay_on_bad_bool",
			"[domain d]\ninitial = on\nstay_on_until_sync = later\n",
			"t.ini:3:", "yes/no");

	/* irq_safe (1.6): the table carries the flag under an IRQ-safe root */
	r = parse("[soc]\nname = t\n[domain aon]\nalways_on = yes\n"
		  "irq_safe = yes\n[domain fast]\nparent = aon\n"
		  "irq_safe = yes\non_latency_us = 100\noff_latency_us = 5\n"
		  "[domain slow]\nparent = fast\non_latency_us = 5000\n");
	reset_table();
	{
		struct vsoc_board_header *th = (void *)table;
		struct vsoc_domain_desc *dd = (void *)(table + th->domains.offset +
						       th->domains.stride);

		ktap_ok(r == 0 &&
			b.domain[1].flags == VSOC_DOMAIN_IRQ_SAFE &&
			!b.domain[2].flags && dd->flags == VSOC_DOMAIN_IRQ_SAFE &&
			!table_check(table, sizeof(table), b.shm_size, err,
				     sizeof(err)), "irq_safe_table");
		/* the kernel's own check of a table the model would not write */
		dd[-1].flags = 0;
		recrc();
		expect_table_err("table_irq_safe_sleeping_parent",
				 "IRQ-safe under aon, which is not");
		dd[-1].flags = VSOC_DOMAIN_IRQ_SAFE;
		dd->on_latency_ns = VSOC_IRQ_SAFE_MAX_LATENCY_NS + 1;
		recrc();
		expect_table_err("table_irq_safe_slow",
				 "IRQ-safe with latency above 100000 ns");
	}
	expect_err_text("err_irq_safe_sleeping_parent",
			"[domain aon]\nalways_on = yes\n[domain d]\nparent = aon\n"
			"irq_safe = yes\n", "t.ini:3: [domain d]",
			"irq_safe under parent 'aon', which is not");
	expect_err_text("err_irq_safe_slow_on",
			"[domain d]\nirq_safe = yes\non_latency_us = 101\n",
			"t.ini:1: [domain d]", "latencies of at most 100 us");
	expect_err_text("err_irq_safe_slow_off",
			"[domain d]\noff_latency_us = 200\nirq_safe = yes\n",
			"t.ini:1: [domain d]", "latencies of at most 100 us");
	expect_err_text("err_irq_safe_levels",
			"[domain d]\nirq_safe = yes\nperf_levels = 1:900000:10\n",
			"t.ini:1: [domain d]", "irq_safe with perf_levels");
	expect_err_text("err_irq_safe_bad_bool",
			"[domain d]\nirq_safe = maybe\n", "t.ini:2:", "yes/no");

	expect_err("err_resmgr_unknown_domain", "resmgr_domains = per, ghost\n",
		   "t.ini:17: [core m3] resmgr_domains", "unknown domain 'ghost'");
	expect_err("err_resmgr_clock_is_domain", "resmgr_clocks = per\n",
		   "t.ini:17: [core m3] resmgr_clocks", "unknown clock 'per'");
	expect_err("err_resmgr_twice", "resmgr_domains = per, aon, per\n",
		   "t.ini:17:", "'per' listed twice");
	expect_err("err_resmgr_empty_item", "resmgr_domains = per,,aon\n",
		   "t.ini:17:", "empty name");
	expect_err("err_resmgr_trailing_comma", "resmgr_domains = per,\n",
		   "t.ini:17:", "empty name");
	expect_err("err_resmgr_bad_name", "resmgr_domains = p/r\n",
		   "t.ini:17:", "bad name 'p/r'");
	expect_err("err_resmgr_duplicate_key",
		   "resmgr_domains = per\nresmgr_domains = aon\n", "t.ini:18:",
		   "duplicate key 'resmgr_domains'");
	expect_err("err_firewall_not_bool", "firewall = sometimes\n",
		   "t.ini:17: [core m3] firewall", "yes/no");
	expect_err_text("err_soc_firewall_not_bool",
			"[soc]\nfirewall = 2\n[domain a]\n", "t.ini:2: [soc] firewall",
			"yes/no");
	expect_err("err_resmgr_outside_core", "[domain x]\nresmgr_domains = per\n",
		   "t.ini:18:", "unknown key 'resmgr_domains'");

	/* isa = ...: known names only; an emulated core's devices stay free */
	expect_err("err_isa_unknown", "isa = cortex-a53\n",
		   "t.ini:17: [core m3] isa", "unknown instruction set 'cortex-a53'");
	expect_err("err_isa_duplicate", "isa = armv7m\nisa = armv7m\n",
		   "t.ini:18:", "duplicate key 'isa'");
	expect_err("err_isa_mem_on_peripheral",
		   "isa = armv7m\nmem = p:0x200000:0x40000000:4K\n",
		   "t.ini:18: [core m3] mem p", "the core peripheral");
	expect_err("err_isa_mem_on_scs",
		   "isa = armv7m\nmem = p:0x200000:0xe0000000:4K\n",
		   "t.ini:18: [core m3] mem p", "the system region");
	expect_err("err_isa_mem_on_plic",
		   "isa = rv32imac\nmem = p:0x200000:0x0c001000:4K\n",
		   "t.ini:18: [core m3] mem p", "PLIC");
	snprintf(text, sizeof(text), "%sisa = rv32imac\n"
		 "mem = p:0x200000:0x40000000:4K\n", base);
	r = parse(text);
	ktap_ok(r == 0 && b.core[0].isa == AMPSOC_CORE_ISA_RV32IMAC,
		"isa_rv32_parses_arm_device_address_is_memory");
	if (r)
		ktap_diag("%s", err);
	r = parse(base);
	ktap_ok(r == 0 && b.core[0].isa == AMPSOC_CORE_ISA_X86_64,
		"isa_default_native");
	r = board_load(&b, SOCMODEL_BOARDS "/omap4-rv.ini", err, sizeof(err));
	ktap_ok(r == 0 && b.nr_cores == 3 &&
		b.core[2].isa == AMPSOC_CORE_ISA_RV32IMAC, "rv_board_parses");
	if (r)
		ktap_diag("%s", err);

	/* the default boards scope both cores */
	r = board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err, sizeof(err));
	ktap_ok(r == 0 && b.core[0].resmgr_domains == 0x6 &&
		b.core[1].resmgr_domains == 0x6 && b.core[0].resmgr_clocks &&
		b.core[1].resmgr_clocks && b.core[0].firewall && b.core[1].firewall,
		"default_board_scopes_cores");
}

/* Performance levels (ABI 1.5): a [domain lv] after the base board. */
#define LV "[domain lv]\nparent = aon\n"	/* lines 17, 18 */
#define L8 "1:1:1, 2:1:1, 3:1:1, 4:1:1, 5:1:1, 6:1:1, 7:1:1, 8:1:1"

static void test_levels(void)
{
	struct vsoc_board_header *h = (void *)table;
	struct vsoc_domain_desc *d;
	struct vsoc_level_desc *l;
	char text[8192];
	size_t n;
	int r, i;

	snprintf(text, sizeof(text), "%s%s%s", base, LV,
		 "perf_levels = 1:900000:100, 2:1000000:200 ,4:1100000:300\n"
		 "[domain lvc]\nparent = lv\n"
		 "perf_levels = 1:900000:10, 4:1100000:30\n"
		 "perf_parent_ge = yes\n");
	r = parse(text);
	ktap_ok(r == 0 && b.nr_levels == 5 && b.domain[3].nr_levels == 3 &&
		b.domain[3].level[2].level == 4 &&
		b.domain[3].level[1].voltage_uv == 1000000 &&
		b.domain[3].level[0].power_uw == 100 &&
		b.domain[4].first_level == 3 &&
		(b.domain[4].flags & VSOC_DOMAIN_PERF_PARENT_GE) &&
		!(b.domain[3].flags & VSOC_DOMAIN_PERF_PARENT_GE),
		"levels_parse");
	if (r)
		ktap_diag("%s", err);
	reset_table();
	d = (void *)(table + h->domains.offset);
	l = (void *)(table + h->levels.offset);
	ktap_ok(h->version == VSOC_VERSION && h->levels.count == 5 &&
		h->levels.stride == sizeof(*l) && d[3].first_level == 0 &&
		d[3].nr_levels == 3 && d[4].first_level == 3 &&
		d[4].nr_levels == 2 && d[0].nr_levels == 0 &&
		l[2].domain == 3 && l[2].level == 4 &&
		l[2].voltage_uv == 1100000 && l[4].domain == 4 &&
		l[4].power_uw == 30 && (d[4].flags & VSOC_DOMAIN_PERF_PARENT_GE),
		"levels_in_table");
	ktap_ok(!table_check(table, sizeof(table), b.shm_size, err,
			     sizeof(err)), "levels_table_checks");
	l[4].domain = 3;
	recrc();
	expect_table_err("table_level_wrong_domain", "is domain 3's");
	l[1].level = 1;
	recrc();
	expect_table_err("table_level_not_rising", "does not rise");
	l[4].level = 3;
	recrc();
	expect_table_err("table_level_not_parents", "is not one of parent");
	d = (void *)(table + h->domains.offset);
	d[4].nr_levels = 9;
	recrc();
	expect_table_err("table_level_range", "out of range");
	l = (void *)(table + h->levels.offset);
	l[0].voltage_uv = 0;
	recrc();
	expect_table_err("table_level_voltage", "out of range");

	expect_err("err_levels_syntax", LV "perf_levels = 1:900000\n",
		   "t.ini:19:", "expected LEVEL:MICROVOLTS:MICROWATTS");
	expect_err("err_levels_not_number", LV "perf_levels = 1:9x:2\n",
		   "t.ini:19:", "'9x' is not a 32-bit number");
	expect_err("err_levels_zero", LV "perf_levels = 0:900000:1\n",
		   "t.ini:19:", "level 0 outside 1..1000");
	expect_err("err_levels_voltage", LV "perf_levels = 1:5000001:1\n",
		   "t.ini:19:", "voltage 5000001 uV outside");
	expect_err("err_levels_not_increasing",
		   LV "perf_levels = 2:900000:1, 2:900000:1\n", "t.ini:19:",
		   "levels must strictly increase");
	expect_err("err_levels_power_falls",
		   LV "perf_levels = 1:900000:5, 2:900000:4\n", "t.ini:19:",
		   "needs less voltage or power than level 1");
	expect_err("err_levels_empty", LV "perf_levels = ,\n", "t.ini:19:",
		   "no level");
	expect_err("err_levels_too_many", LV "perf_levels = " L8 ", 9:1:1\n",
		   "t.ini:19:", "more than 8 levels");
	expect_err("err_levels_duplicate_key",
		   LV "perf_levels = 1:1:1\nperf_levels = 2:1:1\n", "t.ini:20:",
		   "perf_levels");
	expect_err("err_parent_ge_bool", LV "perf_parent_ge = maybe\n",
		   "t.ini:19:", "is not yes/no");
	expect_err("err_parent_ge_no_levels", LV "perf_parent_ge = yes\n",
		   "t.ini:19:", "needs perf_levels and a parent");
	expect_err("err_parent_ge_parent_no_levels",
		   LV "perf_levels = 1:1:1\nperf_parent_ge = yes\n", "t.ini:20:",
		   "level 1 is not a level of parent 'aon'");
	/* 64 levels on the board at most: 9 domains of 8 */
	n = snprintf(text, sizeof(text), "%s", base);
	for (i = 0; i < 9; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "[domain x%d]\nperf_levels = " L8 "\n", i);
	expect_err_text("err_levels_board_total", text, "[domain x8]",
			"more than 64 levels on the board");
	/* the default board has them */
	ktap_ok(!board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err, sizeof(err)) &&
		b.domain[2].nr_levels == 3 &&
		(b.domain[2].flags & VSOC_DOMAIN_PERF_PARENT_GE),
		"default_board_levels");
}

int main(void)
{
	struct vsoc_board_header *h = (void *)table;
	struct vsoc_domain_desc *d;
	struct vsoc_mem_desc *m;
	char line[400];
	int r;

	ktap_plan(0);

	r = parse(base);
	ktap_ok(r == 0 && b.nr_domains == 3 && b.nr_cores == 1 &&
		b.periph[0].domain == 1 && b.domain[1].parent == 0 &&
		(b.domain[2].flags & VSOC_DOMAIN_CORE), "base_board_parses");
	if (r)
		ktap_diag("%s", err);

	r = board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err, sizeof(err));
	ktap_ok(r == 0 && b.nr_domains == 7 && b.nr_cores == 3 &&
		b.nr_periphs >= 3 && b.nr_mboxes == 6 &&
		b.core[0].mem_domain == 6 && b.core[1].mem_domain == VSOC_NONE &&
		b.core[0].isa == AMPSOC_CORE_ISA_X86_64 &&
		b.core[2].isa == AMPSOC_CORE_ISA_ARMV7M, "default_board_parses");
	if (r)
		ktap_diag("%s", err);
	reset_table();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	ktap_ok(r == 0 && h->size == tsize, "default_table_checks");
	if (r)
		ktap_diag("%s", err);
	ktap_ok(b.shm_size && !(b.shm_size & (b.shm_size - 1)) &&
		b.sys_end <= b.core[0].mem[0].shm_off, "layout_below_core_memory");
	/* the OMAP4-like shape the issue asks for */
	ktap_ok(b.domain[0].flags & VSOC_DOMAIN_ALWAYS_ON &&
		b.domain[2].parent == 1 && b.core[0].domain != b.core[1].domain,
		"default_board_shape");

	expect_err("err_syntax", "[domain x\n", "t.ini:17:", "syntax");
	expect_err("err_no_equals", "[domain x]\njunk line\n", "t.ini:18:", "syntax");
	expect_err("err_unknown_key", "[domain x]\ncolour = red\n", "t.ini:18:",
		   "unknown key 'colour'");
	expect_err("err_bad_number", "[domain x]\non_latency_us = 12ab\n",
		   "t.ini:18:", "'12ab' is not a number");
	expect_err("err_negative", "[domain x]\non_power_uw = -5\n", "t.ini:18:",
		   "not a number");
	expect_err("err_bad_bool", "[domain x]\nalways_on = maybe\n",
		   "t.ini:18:", "yes/no");
	expect_err("err_unknown_section", "[gpu x]\n", "t.ini:17:",
		   "unknown section kind 'gpu'");
	expect_err("err_bad_name", "[domain a/b]\n", "t.ini:17:", "bad name");
	expect_err("err_duplicate_section", "[domain per]\n", "t.ini:17:",
		   "duplicate domain 'per'");
	expect_err("err_duplicate_key", "[domain x]\nparent = aon\nparent = per\n",
		   "t.ini:19:", "duplicate key 'parent'");
	expect_err_text("err_key_before_section", "name = x\n[domain a]\n",
			"t.ini:1:", "outside of any section");
	expect_err("err_unknown_parent", "[domain x]\nparent = nowhere\n",
		   "t.ini:18:", "parent: unknown domain 'nowhere'");
	expect_err("err_cycle",
		   "[domain a]\nparent = b\n[domain b]\nparent = c\n[domain c]\nparent = a\n",
		   "hierarchy cycle", "a -> b -> c -> a");
	expect_err("err_self_parent", "[domain a]\nparent = a\n", "t.ini:18:",
		   "hierarchy cycle a -> a");
	expect_err("err_periph_unknown_domain",
		   "[periph p]\ntype = simple\ndomain = ghost\n", "t.ini:19:",
		   "[periph p] domain: unknown domain 'ghost'");
	expect_err("err_periph_no_domain", "[periph p]\ntype = simple\n",
		   "t.ini:17:", "no domain");
	expect_err("err_periph_unknown_clock",
		   "[periph p]\ntype = simple\ndomain = per\nclock = nope\n",
		   "t.ini:20:", "unknown clock 'nope'");
	expect_err("err_periph_bad_type", "[periph p]\ntype = gpu\n",
		   "t.ini:18:", "unknown type 'gpu'");
	expect_err("err_clock_cycle",
		   "[clock a]\nrate = 1\nparent = b\n[clock b]\nrate = 1\nparent = a\n",
		   "clock tree cycle", NULL);
	expect_err("err_clock_rate_range",
		   "[clock a]\nrate = 10\nmin_rate = 20\n", "t.ini:17:",
		   "min_rate <= rate");
	expect_err("err_mem_overlap_shm",
		   "[domain cpu2]\nparent = aon\n[core dsp]\ndomain = cpu2\nmem = ram:0x108000:0x0:64K\n",
		   "t.ini:21:", "overlaps core 'm3' mem ram (line 16)");
	expect_err("err_mem_overlap_da",
		   "mem = ram2:0x200000:0x8000:64K\n", "t.ini:17:",
		   "device addresses");
	expect_err("err_mem_overlaps_model_area",
		   "[domain cpu2]\nparent = aon\n[core dsp]\ndomain = cpu2\nmem = ram:0x1000:0x0:4K\n",
		   "t.ini:21:", "overlaps the model's areas");
	expect_err("err_mem_syntax", "mem = ram:12\n", "t.ini:17:",
		   "expected NAME:SHM_OFFSET:DA:SIZE");
	expect_err("err_mem_unaligned", "mem = r2:0x200100:0x10000:4K\n",
		   "t.ini:17:", "multiples of 4K");
	expect_err("err_core_shares_domain",
		   "[core dsp]\ndomain = cpu\nmem = r:0x200000:0:4K\n",
		   "t.ini:18:", "already holds core 'm3'");
	expect_err("err_core_always_on",
		   "[core dsp]\ndomain = aon\nmem = r:0x200000:0:4K\n",
		   "t.ini:18:", "always on");
	expect_err("err_mbox_unknown_core", "[mbox x]\nfrom = linux\nto = ghost\n",
		   "t.ini:19:", "unknown core 'ghost'");
	expect_err("err_mbox_depth", "[mbox x]\nfrom = linux\nto = m3\ndepth = 3\n",
		   "t.ini:20:", "power of two");
	expect_err("err_mbox_two_cores", "[mbox x]\nfrom = m3\nto = m3\n",
		   "t.ini:17:", "links linux and one core");
	expect_err_text("err_shm_size_not_pow2",
			"[soc]\nshm_size = 3M\n[domain a]\n", "t.ini:2: [soc] shm_size",
			"not a power of two");
	expect_err_text("err_shm_too_small",
			"[soc]\nshm_size = 64K\n[domain a]\n", "t.ini:2: [soc] shm_size",
			"smaller than");
	expect_err_text("err_no_domains", "[soc]\nname = x\n", "no [domain",
			NULL);
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "; ", 2);
	{
		char text[1024];

		snprintf(text, sizeof(text), "[domain a]\n%s\n", line);
		expect_err_text("err_line_too_long", text, "t.ini:2:",
				"line longer");
	}
	{
		static const char nul[] = "[domain a]\nparent\0 = b\n";

		r = board_parse(&b, "t.ini", nul, sizeof(nul) - 1, err,
				sizeof(err));
		ktap_ok(r == -1 && strstr(err, "t.ini:2:") &&
			strstr(err, "NUL"), "err_nul_in_line");
	}
	r = board_load(&b, "/nonexistent/board.ini", err, sizeof(err));
	ktap_ok(r == -1 && strstr(err, "/nonexistent/board.ini"),
		"err_missing_file");

	test_chans();
	test_scope_and_firewall();

	/* ---- the consumer-side table check ---- */
	r = board_load(&b, SOCMODEL_BOARDS "/omap4.ini", err, sizeof(err));
	reset_table();
	table[100] ^= 1;
	expect_table_err("table_checksum", "checksum");
	h->magic = 0x12345678;
	expect_table_err("table_magic", "magic");
	h->version = (VSOC_VERSION_MAJOR + 1) << 16;
	expect_table_err("table_major_version", "version");
	h->version = VSOC_VERSION + 7;	/* newer minor: accepted */
	recrc();
	r = table_check(table, sizeof(table), b.shm_size, err, sizeof(err));
	ktap_ok(r == 0, "table_newer_minor_accepted");
	reset_table();
	h->size = VSOC_MAX_TABLE_SIZE + 8;
	expect_table_err("table_size", "size");
	r = table_check(table, 100, b.shm_size, err, sizeof(err));
	ktap_ok(r == -1, "table_truncated");
	r = table_check(table, sizeof(table), b.shm_size * 2, err, sizeof(err));
	ktap_ok(r == -1 && strstr(err, "shared memory is"), "table_shm_size_mismatch");
	h->domains.count = 1000;
	recrc();
	expect_table_err("table_count_too_big", "domains: 1000 entries");
	h->periphs.offset = h->size - 8;
	recrc();
	expect_table_err("table_array_outside", "outside the table");
	h->clocks.stride = 8;
	recrc();
	expect_table_err("table_stride_small", "stride");
	h->clocks.offset += 4;
	recrc();
	expect_table_err("table_array_misaligned", "8-aligned");
	d = (void *)(table + h->domains.offset);
	d[1].parent = 2;
	d[2].parent = 1;
	recrc();
	expect_table_err("table_domain_cycle", "cycle");
	d[1].parent = 77;
	recrc();
	expect_table_err("table_parent_range", "out of range");
	memset(d[0].name, 'A', VSOC_NAME_LEN);
	recrc();
	expect_table_err("table_name_unterminated", "name");
	m = (void *)(table + h->mems.offset);
	m[1].shm_offset = m[0].shm_offset;
	recrc();
	expect_table_err("table_mem_overlap", "overlaps");
	m[0].size = b.shm_size;
	recrc();
	expect_table_err("table_mem_outside_shm", "outside shared memory");
	{
		struct vsoc_mbox_desc *mb = (void *)(table + h->mboxes.offset);

		mb[1].vector = 99;
		recrc();
		expect_table_err("table_mbox_vector", "vector");
		mb[0].depth = 3;
		recrc();
		expect_table_err("table_mbox_depth", "depth");
	}
	{
		struct vsoc_periph_desc *p = (void *)(table + h->periphs.offset);

		p[0].regs.offset = 0;
		recrc();
		expect_table_err("table_periph_overlaps_table", "overlaps registers of");
	}
	test_levels();
	ktap_exit();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test: board-file parsing errors (with file:line and field),
 * the default board, and the consumer-side board-table check against
 * corrupted tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	h->checksum = crc32_ieee(0, table + VSOC_CSUM_START,
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
	ktap_ok(r == 0 && b.nr_domains == 5 && b.nr_cores == 2 &&
		b.nr_periphs >= 3 && b.nr_mboxes == 4, "default_board_parses");
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
	ktap_ok(r == -1 && strstr(err, "shm_size"), "table_shm_size_mismatch");
	h->domains.count = 1000;
	recrc();
	expect_table_err("table_count_too_big", "count");
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
	expect_table_err("table_mem_outside_shm", "outside memory");
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
		expect_table_err("table_periph_overlaps_table", "overlaps the table");
	}
	ktap_exit();
}

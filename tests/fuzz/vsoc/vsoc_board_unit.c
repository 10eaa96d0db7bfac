// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the kernel's board-table parser on the host (the module's
 * own vsoc_board.c behind soc-model/kshim/), built with ASan/UBSan: the
 * model's valid table is accepted and keeps every promise; each kind of
 * damage is rejected with a message; every truncation and every single
 * byte flip of the header is handled. Regressions found by
 * fuzz_vsoc_board are added here.
 */
#include "vsoc_board_fuzz.h"
#include "ktap_user.h"

static uint8_t good[VSOC_MAX_TABLE_SIZE];
static size_t good_len;
/* the table rejected() damages: good, or chans below */
static uint8_t *base = good;
static size_t base_len;

/* Static rpmsg channels: 8 on each of two cores. */
static const char chans_text[] =
	"[domain aon]\nalways_on = yes\n"
	"[domain c0]\nparent = aon\n"
	"[domain c1]\nparent = aon\n"
	"[core m3]\ndomain = c0\nmem = a:0x100000:0x0:64K:exec\n"
	"rpmsg_static = m0:1\nrpmsg_static = m1:2:1024\n"
	"rpmsg_static = m2:3\nrpmsg_static = m3:4\nrpmsg_static = m4:5\n"
	"rpmsg_static = m5:6\nrpmsg_static = m6:7\nrpmsg_static = m7:8\n"
	"[core dsp]\ndomain = c1\nmem = a:0x200000:0x0:64K\n"
	"rpmsg_static = d0:1\nrpmsg_static = d1:2\nrpmsg_static = d2:3\n"
	"rpmsg_static = d3:4\nrpmsg_static = d4:5\nrpmsg_static = d5:6\n"
	"rpmsg_static = d6:7\nrpmsg_static = m0:1:0xfffffffe\n";
static uint8_t chans[VSOC_MAX_TABLE_SIZE];
static size_t chans_len;

static struct vsoc_board_header *hdr(uint8_t *t)
{
	return (void *)t;
}

static struct vsoc_array *arr(uint8_t *t, unsigned int which)
{
	struct vsoc_board_header *h = hdr(t);
	struct vsoc_array *a[] = { &h->domains, &h->clocks, &h->periphs,
				   &h->cores, &h->mems, &h->mboxes,
				   &h->chans };

	return a[which];
}

static void *entry(uint8_t *t, unsigned int which, unsigned int i)
{
	struct vsoc_array *a = arr(t, which);

	return t + a->offset + i * a->stride;
}

enum { DOM, CLK, PER, CORE, MEM, MBOX, CHAN };

/* Apply @damage to a copy of the good table, fix the checksum, parse. */
static bool rejected(const char *name, void (*damage)(uint8_t *t),
		     bool fix_csum, const char *want)
{
	uint8_t *t = malloc(base_len);
	bool ok;
	int ret;

	memcpy(t, base, base_len);
	damage(t);
	if (fix_csum)
		vsoc_fuzz_fix_checksum(t, base_len);
	ret = vsoc_fuzz_run(t, base_len, 0);
	ok = ret == -EINVAL && strstr(vsoc_shim_log, want);
	if (!ok)
		ktap_diag("%s: returned %d, message '%s', expected '%s'", name,
			  ret, vsoc_shim_log, want);
	free(t);
	return ktap_ok(ok, "rejects_%s", name);
}

static void bad_csum(uint8_t *t)
{
	t[good_len - 1] ^= 1;
}

static void too_many_domains(uint8_t *t)
{
	arr(t, DOM)->count = VSOC_MAX_DOMAINS + 1;
}

static void small_stride(uint8_t *t)
{
	arr(t, CLK)->stride = sizeof(struct vsoc_clock_desc) - 1;
}

static void array_past_end(uint8_t *t)
{
	arr(t, MEM)->offset = hdr(t)->size - arr(t, MEM)->stride;
}

static void array_in_header(uint8_t *t)
{
	arr(t, PER)->offset = 8;
}

static void name_unterminated(uint8_t *t)
{
	memset(((struct vsoc_periph_desc *)entry(t, PER, 0))->name, 'x',
	       VSOC_NAME_LEN);
}

static void domain_cycle(uint8_t *t)
{
	/* aon (0) under sub (2), which is under per (1), under aon */
	((struct vsoc_domain_desc *)entry(t, DOM, 0))->parent = 2;
}

static void clock_self_parent(uint8_t *t)
{
	((struct vsoc_clock_desc *)entry(t, CLK, 1))->parent = 1;
}

static void area_outside_shm(uint8_t *t)
{
	hdr(t)->echo.offset = hdr(t)->shm_size - 8;
}

static void area_wraps(uint8_t *t)
{
	hdr(t)->telemetry.offset = ~0ULL - 4095;
}

static void areas_overlap(uint8_t *t)
{
	hdr(t)->echo.offset = hdr(t)->telemetry.offset;
}

static void mbox_depth(uint8_t *t)
{
	((struct vsoc_mbox_desc *)entry(t, MBOX, 0))->depth = 3;
}

static void periph_vector(uint8_t *t)
{
	((struct vsoc_periph_desc *)entry(t, PER, 0))->vector = 0xffff;
}

static void core_mems_range(uint8_t *t)
{
	((struct vsoc_core_desc *)entry(t, CORE, 0))->nr_mems = 0xffffffff;
}

static void mem_da_wraps(uint8_t *t)
{
	((struct vsoc_mem_desc *)entry(t, MEM, 0))->da = ~0ULL - 10;
}

static struct vsoc_chan_desc *chan(uint8_t *t, unsigned int i)
{
	return entry(t, CHAN, i);
}

static void chan_count(uint8_t *t)
{
	arr(t, CHAN)->count = VSOC_MAX_CHANS + 1;
}

static void chan_stride(uint8_t *t)
{
	arr(t, CHAN)->stride = sizeof(struct vsoc_chan_desc) - 8;
}

static void chan_past_end(uint8_t *t)
{
	arr(t, CHAN)->offset = hdr(t)->size - sizeof(struct vsoc_chan_desc);
}

static void chan_in_header(uint8_t *t)
{
	arr(t, CHAN)->offset = 16;
}

static void chan_name_unterminated(uint8_t *t)
{
	memset(chan(t, 3)->name, 'a', VSOC_NAME_LEN);
}

static void chan_name_empty(uint8_t *t)
{
	memset(chan(t, 3)->name, 0, VSOC_NAME_LEN);
}

static void chan_name_chars(uint8_t *t)
{
	chan(t, 3)->name[1] = ' ';
}

static void chan_core_range(uint8_t *t)
{
	chan(t, 15)->core = 2;
}

static void chan_dst_any(uint8_t *t)
{
	chan(t, 3)->dst = VSOC_RPMSG_ADDR_ANY;
}

static void chan_src_reserved(uint8_t *t)
{
	chan(t, 3)->src = 1023;
}

static void chan_reserved(uint8_t *t)
{
	chan(t, 3)->reserved = 1;
}

static void chan_unsorted(uint8_t *t)
{
	chan(t, 0)->core = 1;
}

static void chan_too_many(uint8_t *t)
{
	unsigned int i;

	for (i = 8; i < 16; i++)
		chan(t, i)->core = 0;
}

static void chan_duplicate(uint8_t *t)
{
	memcpy(chan(t, 5)->name, chan(t, 4)->name, VSOC_NAME_LEN);
	chan(t, 5)->dst = chan(t, 4)->dst;
}

/* A table the model wrote as 1.1: no chans array, its bytes reserved. */
static bool old_table_ok(const char *name, bool garbage)
{
	static struct vsoc_board b;
	uint8_t *t = malloc(chans_len);
	struct vsoc_board_header *h = hdr(t);
	int ret;

	memcpy(t, chans, chans_len);
	h->version = VSOC_VERSION_MAJOR << 16 | 1;
	memset(&h->chans, garbage ? 0xa5 : 0, sizeof(h->chans));
	vsoc_fuzz_fix_checksum(t, chans_len);
	ret = vsoc_board_parse(NULL, t, chans_len, h->shm_size, h->guest_peer,
			       16, &b);
	if (ret)
		ktap_diag("%s: %s", name, vsoc_shim_log);
	free(t);
	return ktap_ok(!ret && b.nr_chans == 0 && b.nr_cores == 2, "%s", name);
}

static void test_chans(void)
{
	static struct vsoc_board b;
	const struct vsoc_board_header *h = (const void *)chans;
	int ret;

	chans_len = vsoc_fuzz_board_table(chans_text, sizeof(chans_text) - 1,
					  chans, sizeof(chans));
	ret = chans_len ? vsoc_board_parse(NULL, chans, chans_len, h->shm_size,
					   h->guest_peer, 16, &b) : -1;
	if (ret)
		ktap_diag("chans table: %zu bytes, %s", chans_len, vsoc_shim_log);
	ktap_ok(!ret && b.nr_chans == 16 && h->chans.count == 16 &&
		!strcmp(b.chans[0].name, "m0") && b.chans[0].core == 0 &&
		b.chans[0].dst == 1 && b.chans[0].src == VSOC_RPMSG_ADDR_ANY &&
		b.chans[1].src == 1024 && b.chans[7].dst == 8 &&
		b.chans[8].core == 1 && !strcmp(b.chans[8].name, "d0") &&
		!strcmp(b.chans[15].name, "m0") && b.chans[15].core == 1 &&
		b.chans[15].src == 0xfffffffe, "accepts_static_chans");

	base = chans;
	base_len = chans_len;
	rejected("chan_count", chan_count, true, "chans: 33 entries, at most 32");
	rejected("chan_stride", chan_stride, true, "chans: stride");
	rejected("chan_past_end", chan_past_end, true, "chans: entries at");
	rejected("chan_in_header", chan_in_header, true, "chans: entries at");
	rejected("chan_name_unterminated", chan_name_unterminated, true,
		 "chans[3]: name is not NUL-terminated");
	rejected("chan_name_empty", chan_name_empty, true, "chans[3]: empty name");
	rejected("chan_name_chars", chan_name_chars, true,
		 "chans[3] (m ): name not of [A-Za-z0-9_.-]");
	rejected("chan_core_range", chan_core_range, true,
		 "chans[15] (m0): core 2 out of range (2 cores)");
	rejected("chan_dst_any", chan_dst_any, true, "chans[3] (m3): dst is the 'any'");
	rejected("chan_src_reserved", chan_src_reserved, true,
		 "chans[3] (m3): src 1023 is reserved");
	rejected("chan_reserved", chan_reserved, true,
		 "chans[3] (m3): reserved field is 0x1");
	rejected("chan_unsorted", chan_unsorted, true,
		 "chans[1] (m1): core 0 after core 1, not sorted");
	rejected("chan_too_many", chan_too_many, true,
		 "chans[8] (d0): more than 8 channels on core 0");
	rejected("chan_duplicate", chan_duplicate, true,
		 "chans[5] (m4): duplicates chans[4] (dst 0x5)");
	base = good;
	base_len = good_len;

	old_table_ok("accepts_1_1_table_without_chans", false);
	old_table_ok("ignores_reserved_bytes_of_1_1_table", true);
}

int main(void)
{
	uint8_t *t;
	size_t n;
	int bad = 0;
	unsigned int i;

	ktap_plan(36);
	good_len = vsoc_fuzz_good_table(good, sizeof(good));
	base_len = good_len;
	ktap_ok(vsoc_fuzz_run(good, good_len, 0) == 0 &&
		hdr(good)->chans.count == 2, "accepts_model_table");

	rejected("bad_checksum", bad_csum, false, "checksum");
	rejected("too_many_domains", too_many_domains, true, "at most");
	rejected("small_stride", small_stride, true, "stride");
	rejected("array_past_end", array_past_end, true, "outside the table");
	rejected("array_in_header", array_in_header, true, "outside the table");
	rejected("name_unterminated", name_unterminated, true, "NUL");
	rejected("domain_cycle", domain_cycle, true, "cycle");
	rejected("clock_self_parent", clock_self_parent, true, "cycle");
	rejected("area_outside_shm", area_outside_shm, true, "outside shared memory");
	rejected("area_wraps", area_wraps, true, "outside shared memory");
	rejected("areas_overlap", areas_overlap, true, "overlaps");
	rejected("mbox_depth", mbox_depth, true, "bad depth");
	rejected("periph_vector", periph_vector, true, "vector");
	rejected("core_mems_range", core_mems_range, true, "out of range");
	rejected("mem_da_wraps", mem_da_wraps, true, "bad size");
	test_chans();

	/* Every truncation, in an exact-size buffer: ASan sees an overread. */
	for (n = 0; n < good_len; n++) {
		t = malloc(n ? n : 1);
		memcpy(t, good, n);
		bad += vsoc_fuzz_run(t, n, 0) == 0;
		free(t);
	}
	ktap_ok(!bad, "rejects_every_truncation");

	/* Every bit of the header flipped, checksum fixed: no crash. */
	t = malloc(good_len);
	for (i = 0; i < sizeof(struct vsoc_board_header) * 8; i++) {
		memcpy(t, good, good_len);
		t[i / 8] ^= 1 << (i % 8);
		vsoc_fuzz_fix_checksum(t, good_len);
		vsoc_fuzz_run(t, good_len, 0);
	}
	free(t);
	ktap_ok(true, "header_bit_flips_handled");

	/* The parameters the device gives: fewer vectors than the table wants */
	t = malloc(good_len);
	memcpy(t, good, good_len);
	hdr(t)->nr_vectors = 16 + 1;
	vsoc_fuzz_fix_checksum(t, good_len);
	ktap_ok(vsoc_fuzz_run(t, good_len, 0) == -EINVAL, "rejects_more_vectors_than_device");
	free(t);
	return ktap_exit();
}

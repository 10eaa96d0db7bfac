// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the kernel's board-table parser on the host (the module's
 * own vsoc_board.c behind vsoc_board_shim.h), built with ASan/UBSan: the
 * model's valid table is accepted and keeps every promise; each kind of
 * damage is rejected with a message; every truncation and every single
 * byte flip of the header is handled. Regressions found by
 * fuzz_vsoc_board are added here.
 */
#include "vsoc_board_fuzz.h"
#include "ktap_user.h"

static uint8_t good[VSOC_MAX_TABLE_SIZE];
static size_t good_len;

static struct vsoc_board_header *hdr(uint8_t *t)
{
	return (void *)t;
}

static struct vsoc_array *arr(uint8_t *t, unsigned int which)
{
	struct vsoc_board_header *h = hdr(t);
	struct vsoc_array *a[] = { &h->domains, &h->clocks, &h->periphs,
				   &h->cores, &h->mems, &h->mboxes };

	return a[which];
}

static void *entry(uint8_t *t, unsigned int which, unsigned int i)
{
	struct vsoc_array *a = arr(t, which);

	return t + a->offset + i * a->stride;
}

enum { DOM, CLK, PER, CORE, MEM, MBOX };

/* Apply @damage to a copy of the good table, fix the checksum, parse. */
static bool rejected(const char *name, void (*damage)(uint8_t *t),
		     bool fix_csum, const char *want)
{
	uint8_t *t = malloc(good_len);
	bool ok;
	int ret;

	memcpy(t, good, good_len);
	damage(t);
	if (fix_csum)
		vsoc_fuzz_fix_checksum(t, good_len);
	ret = vsoc_fuzz_run(t, good_len, 0);
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

int main(void)
{
	uint8_t *t;
	size_t n;
	int bad = 0;
	unsigned int i;

	ktap_plan(19);
	good_len = vsoc_fuzz_good_table(good, sizeof(good));
	ktap_ok(vsoc_fuzz_run(good, good_len, 0) == 0, "accepts_model_table");

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

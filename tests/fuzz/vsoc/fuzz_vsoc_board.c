// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kernel's board-table parser: the same
 * drivers/vsoc/vsoc_board.c the ampsoc_vsoc module builds, compiled for the
 * host behind soc-model/kshim/. The table is what the SoC model publishes
 * in shared memory, so every byte of it is untrusted.
 *
 * The first input byte picks the mode:
 *   bit 0 clear: the rest is the table;
 *   bit 0 set:   the rest is a list of (16-bit offset, byte) patches
 *                applied to a valid table the model's own writer built;
 *   bit 1:       re-compute the checksum afterwards, so that the
 *                structural checks behind it are reached;
 *   bits 2-7:    MSI-X vectors the "device" has, beyond 16 (the other
 *                parameters, shared-memory size and own peer ID, come from
 *                the header so that a table can be accepted at all);
 *   0xff:        the rest is a board file: whatever the model accepts, it
 *                publishes, and the kernel must accept that table (enough
 *                vectors are given).
 * On acceptance the result is checked against the promises the drivers
 * rely on (vsoc_fuzz_check_board()); a broken promise aborts.
 */
#include "vsoc_board_fuzz.h"

/* libFuzzer's entry point, named through the assembler */
int fuzz_one(const uint8_t *data, size_t size) __asm__("LLVMFuzzerTestOneInput");

int fuzz_one(const uint8_t *data, size_t size)
{
	static uint8_t good[VSOC_MAX_TABLE_SIZE];
	static size_t good_len;
	uint8_t *t;
	size_t len, i;
	uint8_t mode;

	if (size < 1 || size > VSOC_MAX_TABLE_SIZE + 1)
		return 0;
	if (!good_len)
		good_len = vsoc_fuzz_good_table(good, sizeof(good));
	mode = data[0];
	data++;
	size--;
	if (mode == 0xff) {
		static uint8_t tbl[VSOC_MAX_TABLE_SIZE];
		const struct vsoc_board_header *h = (const void *)tbl;
		char *text = malloc(size ? size : 1);

		memcpy(text, data, size);
		len = vsoc_fuzz_board_table(text, size, tbl, sizeof(tbl));
		free(text);
		if (len && vsoc_fuzz_run(tbl, len, h->nr_vectors > 16 ?
					 h->nr_vectors - 16 : 0)) {
			fprintf(stderr, "the model published a table the kernel rejects: %s\n",
				vsoc_shim_log);
			abort();
		}
		return 0;
	}
	if (mode & 1) {
		len = good_len;
		t = malloc(len);
		memcpy(t, good, len);
		for (i = 0; i + 3 <= size; i += 3)
			t[(data[i] | data[i + 1] << 8) % len] = data[i + 2];
	} else {
		/* an exact-size copy, so that ASan sees any overread */
		len = size;
		t = malloc(len ? len : 1);
		memcpy(t, data, len);
	}
	if (mode & 2)
		vsoc_fuzz_fix_checksum(t, len);
	vsoc_fuzz_run(t, len, mode >> 2);
	free(t);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the board-table check, as a guest runs it on shared
 * memory another party wrote. The input is the table (the checksum is
 * fixed up so the fuzzer reaches the structural checks, unless the first
 * byte says otherwise).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

/* libFuzzer's entry point, named through the assembler */
int fuzz_one(const uint8_t *data, size_t size) __asm__("LLVMFuzzerTestOneInput");

int fuzz_one(const uint8_t *data, size_t size)
{
	struct vsoc_board_header *h;
	char err[256];
	uint8_t *t;
	bool fix;

	if (size < 1 || size > VSOC_MAX_TABLE_SIZE + 1)
		return 0;
	fix = data[0] & 1;
	data++;
	size--;
	/* exactly the bytes given: ASan catches any read past them */
	t = malloc(size ? size : 1);
	if (!t)
		return 0;
	memcpy(t, data, size);
	h = (void *)t;
	if (fix && size >= sizeof(*h) && h->size >= VSOC_CSUM_START &&
	    h->size <= size)
		h->checksum = crc32_ieee(0, t + VSOC_CSUM_START,
					 h->size - VSOC_CSUM_START);
	table_check(t, size, 128 << 20, err, sizeof(err));
	free(t);
	return 0;
}

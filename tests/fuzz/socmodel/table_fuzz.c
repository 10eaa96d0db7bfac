// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the board-table check as the model runs it
 * (table_check(), the kernel's own checker behind the model's seam), on
 * tables another party wrote. Two modes, chosen by the first byte:
 *  - raw: the rest of the input is the table;
 *  - patch: a valid table for a built-in board is generated, and the rest
 *    of the input is a list of (16-bit offset, byte) patches, so the
 *    fuzzer reaches the structural checks without a seed corpus.
 * Bit 1 of the first byte re-computes the checksum after the input is
 * applied. ASan catches any read past the given bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

static const char board_text[] =
	"[domain aon]\nalways_on = yes\n"
	"[domain per]\nparent = aon\n"
	"[domain sub]\nparent = per\n"
	"[domain cpu]\nparent = aon\n"
	"[clock osc]\nrate = 10M\n"
	"[clock fck]\nparent = osc\nrate = 1M\ngate = yes\n"
	"[periph t]\ntype = timer\ndomain = per\nclock = fck\n"
	"[periph d]\ntype = dma\ndomain = sub\ndata_size = 8K\n"
	"[core m3]\ndomain = cpu\nmem = a:0x100000:0x0:64K:exec\n"
	"mem = b:0x200000:0x80000000:64K:dma\n"
	"rpmsg_static = svc:0x400\nrpmsg_static = svc.log:53:1024\n"
	"[mbox tx]\nfrom = linux\nto = m3\n"
	"[mbox rx]\nfrom = m3\nto = linux\n";

/* libFuzzer's entry point, named through the assembler */
int fuzz_one(const uint8_t *data, size_t size) __asm__("LLVMFuzzerTestOneInput");

int fuzz_one(const uint8_t *data, size_t size)
{
	static struct board b;
	static bool have_board;
	struct vsoc_board_header *h;
	char err[256];
	size_t len, i;
	uint8_t mode;
	uint8_t *t;

	if (!have_board) {
		if (board_parse(&b, "fuzz", board_text, sizeof(board_text) - 1,
				err, sizeof(err)))
			abort();
		have_board = true;
	}
	if (size < 1 || size > VSOC_MAX_TABLE_SIZE + 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	if (mode & 1) {
		len = b.table_size;
		t = calloc(1, len);
		if (!t)
			return 0;
		board_write_table(&b, t);
		for (i = 0; i + 3 <= size; i += 3)
			t[(data[i] | data[i + 1] << 8) % len] = data[i + 2];
	} else {
		len = size;
		t = malloc(len ? len : 1);
		if (!t)
			return 0;
		memcpy(t, data, len);
	}
	h = (void *)t;
	if ((mode & 2) && len >= sizeof(*h) && h->size >= VSOC_CSUM_START &&
	    h->size <= len)
		h->checksum = crc32(0, t + VSOC_CSUM_START,
				    h->size - VSOC_CSUM_START);
	table_check(t, len, b.shm_size, err, sizeof(err));
	free(t);
	return 0;
}

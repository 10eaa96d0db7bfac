// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the board-file parser. Any input must either parse
 * into a board whose table passes the consumer-side check, or fail with
 * a "file:line: " message; never crash or read out of bounds.
 *
 * The first byte picks the mode: raw (the rest is the file), or splice
 * (the rest is a 16-bit offset and bytes written over a built-in valid
 * board from there), so that the fuzzer reaches the cross-section checks
 * without a seed corpus.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

static const char board_text[] =
	"[soc]\nname = f\n"
	"[domain aon]\nalways_on = yes\non_power_uw = 10\n"
	"[domain per]\nparent = aon\non_latency_us = 5\noff_latency_us = 5\n"
	"[domain sub]\nparent = per\ninitial = off\n"
	"[domain cpu]\nparent = aon\n"
	"[clock osc]\nrate = 10M\n"
	"[clock fck]\nparent = osc\nrate = 1M\ngate = yes\nset_rate = yes\n"
	"min_rate = 1k\nmax_rate = 2M\n"
	"[periph t]\ntype = timer\ndomain = per\nclock = fck\n"
	"[periph s]\ntype = sensor\ndomain = sub\ndata_size = 4K\n"
	"[periph d]\ntype = dma\ndomain = sub\ndata_size = 8K\nbandwidth = 9\n"
	"[core m3]\ndomain = cpu\nclock = fck\n"
	"mem = a:0x100000:0x10000000:64K:exec\n"
	"mem = b:0x200000:0x80000000:64K:exec+dma\n"
	"rpmsg_static = svc:0x400\nrpmsg_static = svc.log:53:1024\n"
	"[mbox tx]\nfrom = linux\nto = m3\ndepth = 8\n"
	"[mbox rx]\nfrom = m3\nto = linux\n";

/* libFuzzer's entry point, named through the assembler */
int fuzz_one(const uint8_t *data, size_t size) __asm__("LLVMFuzzerTestOneInput");

int fuzz_one(const uint8_t *data, size_t size)
{
	static struct board b;
	static uint8_t table[VSOC_MAX_TABLE_SIZE];
	char err[BOARD_ERR_LEN], *text;
	size_t len, off;

	if (size < 1 || size > 1 << 16)
		return 0;
	if (data[0] & 1) {
		if (size < 3)
			return 0;
		off = (data[1] | data[2] << 8) % sizeof(board_text);
		len = off + size - 3;
		if (len < sizeof(board_text) - 1)
			len = sizeof(board_text) - 1;
		text = malloc(len);
		if (!text)
			return 0;
		memcpy(text, board_text, sizeof(board_text) - 1);
		memcpy(text + off, data + 3, size - 3);
	} else {
		len = size - 1;
		text = malloc(len ? len : 1);
		if (!text)
			return 0;
		memcpy(text, data + 1, len);
	}
	if (board_parse(&b, "fuzz.ini", text, len, err, sizeof(err))) {
		if (strncmp(err, "fuzz.ini:", 9))
			abort();
		free(text);
		return 0;
	}
	free(text);
	memset(table, 0, sizeof(table));
	if (board_write_table(&b, table) > VSOC_MAX_TABLE_SIZE)
		abort();
	if (table_check(table, sizeof(table), b.shm_size, err, sizeof(err)))
		abort();	/* the model would publish a table it rejects */
	return 0;
}

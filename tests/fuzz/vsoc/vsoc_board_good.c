// SPDX-License-Identifier: GPL-2.0
/*
 * A valid board table from the SoC model's own writer (soc-model/board.c),
 * for the board-table fuzz target and unit test. Kept apart from the
 * kernel-side files: the model's headers and the kernel shim do not mix.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "vsoc_board_good.h"

/* Every kind of object the table can describe, with cross-references. */
static const char board_text[] =
	"[soc]\nname = fuzz\n"
	"[domain aon]\nalways_on = yes\n"
	"[domain per]\nparent = aon\non_latency_us = 5\n"
	"[domain sub]\nparent = per\ninitial = off\n"
	"[domain cpu]\nparent = aon\n"
	"[clock osc]\nrate = 10M\n"
	"[clock fck]\nparent = osc\nrate = 1M\ngate = yes\nset_rate = yes\n"
	"min_rate = 1k\nmax_rate = 2M\n"
	"[periph t]\ntype = timer\ndomain = per\nclock = fck\n"
	"[periph s]\ntype = sensor\ndomain = sub\ndata_size = 4K\n"
	"[periph d]\ntype = dma\ndomain = sub\ndata_size = 8K\n"
	"[core m3]\ndomain = cpu\nclock = fck\n"
	"mem = a:0x100000:0x0:64K:exec\n"
	"mem = b:0x200000:0x80000000:64K:dma\n"
	"rpmsg_static = svc:0x400\n"
	"rpmsg_static = svc.log:53:1024\n"
	"[mbox tx]\nfrom = linux\nto = m3\n"
	"[mbox rx]\nfrom = m3\nto = linux\n";

size_t vsoc_fuzz_good_table(uint8_t *buf, size_t len)
{
	static struct board b;
	char err[BOARD_ERR_LEN];

	if (board_parse(&b, "fuzz", board_text, sizeof(board_text) - 1,
			err, sizeof(err)) || b.table_size > len)
		abort();
	memset(buf, 0, b.table_size);
	return board_write_table(&b, buf);
}

/* The table the model would publish for board file @text, or 0. */
size_t vsoc_fuzz_board_table(const char *text, size_t n, uint8_t *buf,
			     size_t len)
{
	static struct board b;
	char err[BOARD_ERR_LEN];

	if (board_parse(&b, "fuzz", text, n, err, sizeof(err)) ||
	    b.table_size > len)
		return 0;
	memset(buf, 0, b.table_size);
	return board_write_table(&b, buf);
}

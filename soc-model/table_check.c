// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: the seam between the model and the kernel's
 * board-table checker. Compiled with kshim/ in front of the kernel's
 * headers and linked with drivers/vsoc/vsoc_board.c built the same way;
 * nothing here may include the model's own headers (they spell the
 * integer types differently).
 */
#include "vsoc_board_shim.h"
#include <ampsoc/vsoc.h>

#include "table_check.h"

char vsoc_shim_log[256];

int table_check(const void *table, size_t len, uint64_t shm_size,
		char *err, size_t errlen)
{
	const struct vsoc_board_header *h = table;
	struct vsoc_board *b;
	u32 own = 0;
	size_t n;
	int ret;

	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "board table: no memory to check it");
		return -1;
	}
	if (len >= sizeof(*h))
		own = le16_to_cpu(h->guest_peer);
	vsoc_shim_log[0] = '\0';
	ret = vsoc_board_parse(NULL, table, len, shm_size, own,
			       VSOC_NR_VECTORS, b);
	free(b);
	if (!ret)
		return 0;
	/* the kernel's line, without its newline */
	n = strcspn(vsoc_shim_log, "\n");
	snprintf(err, errlen, "%.*s", (int)n,
		 vsoc_shim_log[0] ? vsoc_shim_log : "board table: rejected");
	return -1;
}

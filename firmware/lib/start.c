// SPDX-License-Identifier: GPL-2.0
/*
 * C side of the startup code: crt0.S has set the stack and cleared .bss.
 * Bring up the platform and the trace buffer, run main() and halt with its
 * status.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>
#include <amp/platform.h>
#include <amp/trace.h>

#include "link.h"

struct amp_trace amp_trace0;

__attribute__((noreturn)) void amp_start(const void *boot_arg);

/*
 * Linux would refuse a malformed table; say why here, where the author
 * sees it: every offset inside the table, past the header and the offset
 * array, in increasing order, with room for the entry's type.
 */
static int rsc_table_check(void)
{
	const struct amp_rsc_table_hdr *h = (const void *)__rsc_start;
	const uint32_t *offset = (const uint32_t *)(h + 1);
	uint32_t size = __rsc_end - __rsc_start, prev, i;

	if (size < sizeof(*h) || h->ver != 1 ||
	    h->num > (size - sizeof(*h)) / sizeof(uint32_t)) {
		printf("resource table: bad header (ver %u, %u entries, %u bytes)\n",
		       size >= sizeof(*h) ? h->ver : 0, size >= sizeof(*h) ? h->num : 0, size);
		return -1;
	}
	prev = sizeof(*h) + h->num * sizeof(uint32_t);
	for (i = 0; i < h->num; i++) {
		if (offset[i] < prev || offset[i] > size - sizeof(uint32_t)) {
			printf("resource table: entry %u at offset %u is misplaced\n",
			       i, offset[i]);
			return -1;
		}
		prev = offset[i] + sizeof(uint32_t);
	}
	return 0;
}

void amp_start(const void *boot_arg)
{
	/* Without a boot ROM there is no way to say why: fault. */
	if (platform_init(boot_arg))
		__builtin_trap();
	amp_trace_init(&amp_trace0, __trace_start, __trace_end - __trace_start);
	if (rsc_table_check())
		abort();
	exit(main());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only firmware for firmware_core: its resource table has an offset
 * that points into the table's own header, which the startup code must
 * refuse before main() runs.
 */
#include <amp/amp.h>

struct badrsc_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct badrsc_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct badrsc_rsc),
	.offset = { 4 },
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

int main(void)
{
	printf("badrsc: reached the program\n");
	return 0;
}

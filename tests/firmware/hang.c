// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-hang: arms the watchdog for 200 ms, writes one trace line, then
 * spins without petting it, for watchdog-recovery tests. The core dies
 * with SIGALRM, which the SoC model reports as a watchdog crash.
 */
#include <amp/amp.h>

struct hang_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct hang_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct hang_rsc),
	.offset = {
		offsetof(struct hang_rsc, trace0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

#define HANG_WATCHDOG_NS	200000000ull

int main(void)
{
	if (platform_watchdog(HANG_WATCHDOG_NS))
		return 1;
	printf("ampsoc-hang: core %s hangs with the watchdog armed\n",
	       platform_core_name());
	for (;;)
		amp_cpu_relax();
}

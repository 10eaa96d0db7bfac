// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-hang: arms the watchdog for 200 ms, writes one trace line, then
 * spins without petting it, for watchdog-recovery tests. The core dies
 * with SIGALRM, which the SoC model reports as a watchdog crash.
 */
#include <amp/amp.h>

#define HANG_RESOURCES(X)						\
	X(trace0, struct amp_rsc_trace, AMP_RSC_TRACE_INIT("trace0"))

AMP_RESOURCE_TABLE(HANG_RESOURCES);

#define HANG_WATCHDOG_NS	200000000ull

int main(void)
{
	volatile unsigned long spins = 0;

	if (platform_watchdog(HANG_WATCHDOG_NS))
		return 1;
	printf("ampsoc-hang: core %s hangs with the watchdog armed\n",
	       platform_core_name());
	for (;;)
		spins++;
}

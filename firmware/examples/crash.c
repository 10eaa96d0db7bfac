// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-crash: writes one trace line, then faults (a store to an unmapped
 * address), for Linux's crash-recovery tests. The core dies with SIGSEGV,
 * which the SoC model reports as a crash.
 */
#include <amp/amp.h>

#define CRASH_RESOURCES(X)						\
	X(trace0, struct amp_rsc_trace, AMP_RSC_TRACE_INIT("trace0"))

AMP_RESOURCE_TABLE(CRASH_RESOURCES);

int main(void)
{
	/* Never mapped: below mmap_min_addr. */
	volatile uint32_t *nowhere = (volatile uint32_t *)(uintptr_t)0x10;

	printf("ampsoc-crash: core %s about to crash\n", platform_core_name());
	/* Hide the constant from the compiler, which would refuse it. */
	__asm__ volatile("" : "+r"(nowhere));
	*nowhere = 0xdead;
	return 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-crash: writes one trace line, then faults (a store to an unmapped
 * address, AMP_CORE_FAULT_DA of the core's map), for Linux's crash-recovery
 * tests. The core dies with SIGSEGV, which the SoC model reports as a crash;
 * an emulated core also leaves its fault record (a bus error at that
 * address).
 */
#include <amp/amp.h>

struct crash_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct crash_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct crash_rsc),
	.offset = {
		offsetof(struct crash_rsc, trace0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

int main(void)
{
	/* Never mapped on this core. */
	uint32_t *nowhere = (uint32_t *)(uintptr_t)AMP_CORE_FAULT_DA;

	printf("ampsoc-crash: core %s about to crash\n", platform_core_name());
	/* Hide the constant from the compiler, which would refuse it. */
	__asm__ volatile("" : "+r"(nowhere));
	__atomic_store_n(nowhere, 0xdead, __ATOMIC_RELAXED);
	return 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only firmware for the emulated cores (isa.c): faults the way its
 * core's name (--name) says, so the test can check the runner's fault
 * record and signal for each kind, with and without a handler of the
 * firmware's own. Every mode first prints "fault: <mode>" and the
 * addresses the test checks against.
 */
#include <amp/amp.h>
#include <uapi/ampsoc/core_mmio.h>

#include "fault.h"

struct fault_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct fault_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct fault_rsc),
	.offset = { offsetof(struct fault_rsc, trace0) },
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

static uint32_t word[4] __attribute__((aligned(16)));

/* The instructions that fault, each at a global label the test finds. */
#if defined(__arm__)
#define MMIO_FAULT	(AMPSOC_CORE_MMIO_BASE_ARMV7M + AMPSOC_MMIO_FAULT)
__asm__(".thumb\n"
	".globl fault_illegal\n.thumb_func\nfault_illegal:\n\tudf #7\n\tbx lr\n"
	".globl fault_bkpt\n.thumb_func\nfault_bkpt:\n\tbkpt #1\n\tbx lr\n");
#elif defined(__riscv)
#define MMIO_FAULT	(AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_MMIO_FAULT)
__asm__(".globl fault_illegal\nfault_illegal:\n\t.2byte 0\n\tret\n"
	".globl fault_bkpt\nfault_bkpt:\n\tebreak\n\tret\n");
#endif

/*
 * Handlers of the firmware's own: "recover" skips the faulting instruction
 * (16 bits on ARM; on RV32 16 or 32 as its low bits say), "double" faults
 * itself, "report" hands the fault back to the runner (the FAULT register).
 */
#if defined(__arm__)
__asm__(".thumb\n"
	".thumb_func\nrecover_handler:\n"
	"\tmrs r0, msp\n\tldr r1, [r0, #24]\n\tadds r1, #2\n\tstr r1, [r0, #24]\n\tbx lr\n"
	".thumb_func\ndouble_handler:\n"
	"\tldr r0, =0x30000000\n\tldr r0, [r0]\n\tbx lr\n"
	".thumb_func\nreport_handler:\n"
	"\tldr r0, =0x40000158\n\tstr r0, [r0]\n\tb .\n\t.ltorg\n");

static void (*ram_vectors[16 + AMPSOC_IRQ_COUNT])(void) __attribute__((aligned(128)));

static void install(void (*handler)(void))
{
	memcpy(ram_vectors, amp_vectors, sizeof(ram_vectors));
	ram_vectors[3] = handler;	/* HardFault */
	amp_mmio_write32(AMPSOC_CORE_SCS_BASE + AMPSOC_SCS_VTOR, (uintptr_t)ram_vectors);
}
#elif defined(__riscv)
__asm__(".balign 4\nrecover_handler:\n"
	"\taddi sp, sp, -16\n\tsw t0, 0(sp)\n\tsw t1, 4(sp)\n\tsw t2, 8(sp)\n"
	"\tcsrr t0, mepc\n\tlhu t1, 0(t0)\n\tandi t1, t1, 3\n\taddi t0, t0, 2\n"
	"\tli t2, 3\n\tbne t1, t2, 1f\n\taddi t0, t0, 2\n"
	"1:\tcsrw mepc, t0\n\tlw t0, 0(sp)\n\tlw t1, 4(sp)\n\tlw t2, 8(sp)\n"
	"\taddi sp, sp, 16\n\tmret\n"
	".balign 4\ndouble_handler:\n"
	"\tlui t0, 0x30000\n\tlw t0, 0(t0)\n\tmret\n"
	".balign 4\nreport_handler:\n"
	"\tlui t0, 0x10000\n\tsw t0, 0x158(t0)\n\tj .\n");

static void install(void (*handler)(void))
{
	__asm__ volatile("csrw mtvec, %0" :: "r"(handler));
}
#endif

int main(void)
{
	const char *mode = platform_core_name();
	uint32_t *odd = (uint32_t *)((uintptr_t)word + 1);

	printf("fault: %s illegal %#x bkpt %#x odd %#x\n", mode,
	       (unsigned int)(uintptr_t)fault_illegal & ~1u,
	       (unsigned int)(uintptr_t)fault_bkpt & ~1u, (unsigned int)(uintptr_t)odd);
	if (!strcmp(mode, "read")) {
		printf("fault: read %u\n", amp_mmio_read32(AMP_CORE_FAULT_DA));
	} else if (!strcmp(mode, "write")) {
		amp_mmio_write32(AMP_CORE_FAULT_DA, 1);
	} else if (!strcmp(mode, "fetch")) {
		((void (*)(void))(uintptr_t)(AMP_CORE_FAULT_DA | 1))();
	} else if (!strcmp(mode, "illegal")) {
		fault_illegal();
	} else if (!strcmp(mode, "misaligned")) {
		__atomic_fetch_add(odd, 1, __ATOMIC_SEQ_CST);
	} else if (!strcmp(mode, "bkpt")) {
		fault_bkpt();
	} else if (!strcmp(mode, "firewall")) {
		printf("fault: firewall reads %#x\n", amp_mmio_read32(AMP_CORE_SHM_BASE));
		amp_mmio_write32(AMP_CORE_SHM_BASE, 0xdead);
	} else if (!strcmp(mode, "mmio")) {
		printf("fault: mmio %u\n", amp_mmio_read32(MMIO_FAULT - AMPSOC_MMIO_FAULT + 0xffc));
	} else if (!strcmp(mode, "recover")) {
		install(recover_handler);
		fault_illegal();
		printf("fault: recovered\n");
		return 0;
	} else if (!strcmp(mode, "double")) {
		install(double_handler);
		fault_illegal();
	} else if (!strcmp(mode, "report")) {
		install(report_handler);
		fault_illegal();
	} else if (!strcmp(mode, "exit")) {
		return 3;
	} else if (!strcmp(mode, "abort")) {
		abort();
	}
	printf("fault: survived %s\n", mode);
	return 1;
}

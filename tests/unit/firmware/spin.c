// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only firmware for the runner's measurements (firmware_isa --bench):
 * spins a two-instruction loop for about a second and prints how many
 * iterations it made and how long that took, then the same with a store
 * in the loop (three instructions), then idles answering doorbells (and,
 * through the SDK, mailbox echo requests) like ampsoc-hello.
 */
#include <amp/amp.h>

struct spin_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct spin_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct spin_rsc),
	.offset = { offsetof(struct spin_rsc, trace0) },
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

/* @n times: decrement, branch back (two instructions per iteration). */
static void spin(uint32_t n)
{
#if defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
#elif defined(__arm__)
	__asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) :: "cc");
#elif defined(__riscv)
	__asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
#endif
}

/* The same with a store to @p: three instructions per iteration. */
static void spin_store(uint32_t n, uint32_t *p)
{
#if defined(__x86_64__)
	__asm__ volatile("1: movl %0, (%1)\n\tdec %0\n\tjnz 1b" : "+r"(n) : "r"(p) : "memory");
#elif defined(__arm__)
	__asm__ volatile("1: str %0, [%1]\n\tsubs %0, %0, #1\n\tbne 1b"
			 : "+r"(n) : "r"(p) : "cc", "memory");
#elif defined(__riscv)
	__asm__ volatile("1: sw %0, 0(%1)\n\taddi %0, %0, -1\n\tbnez %0, 1b"
			 : "+r"(n) : "r"(p) : "memory");
#endif
}

static uint32_t sink;

int main(void)
{
	uint64_t t0, t1;
	uint32_t rounds = 0;

	printf("spin: up\n");
	t0 = platform_time_ns();
	do {
		spin(1000000);
		rounds++;
		t1 = platform_time_ns();
	} while (t1 - t0 < 1000000000ull);
	printf("spin: %u000000 iterations, 2 instructions each, in %llu ns\n",
	       rounds, (unsigned long long)(t1 - t0));
	rounds = 0;
	t0 = platform_time_ns();
	do {
		spin_store(100000, &sink);
		rounds++;
		t1 = platform_time_ns();
	} while (t1 - t0 < 1000000000ull);
	printf("spin: %u00000 stores, 3 instructions each, in %llu ns\n",
	       rounds, (unsigned long long)(t1 - t0));
	for (;;)
		if (platform_wait_irq(AMP_FOREVER) > 0 && platform_nr_vectors())
			platform_notify(platform_vector(0));
}

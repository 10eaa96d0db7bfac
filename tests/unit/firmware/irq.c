// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only firmware for the emulated cores (isa.c): the interrupt
 * controller's rules, each step leaving a mark in a log the firmware
 * prints at the end ("irq: log ..."), which the test compares.
 *
 * ARMv7-M (its own vector table in RAM): a low-priority interrupt whose
 * handler pends a higher one (preempts at once) and a lower one (waits for
 * the return); BASEPRI and PRIMASK holding an interrupt back until they
 * are lowered; PendSV; SVC; three SysTick periods.
 * RV32 (its own vectored trap table): ECALL to the exception entry; the
 * timer through the PLIC to the vectored external entry; a PLIC threshold
 * and a clear mstatus.MIE holding it back until lowered or set.
 */
#include <amp/amp.h>
#include <uapi/ampsoc/core_mmio.h>

#include "irq.h"

struct irq_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[1];
	struct amp_rsc_trace trace0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct irq_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct irq_rsc),
	.offset = { offsetof(struct irq_rsc, trace0) },
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
};

static char trail[64];
static unsigned int marks, ticks;

void mark(char c)
{
	if (marks < sizeof(trail) - 1)
		trail[marks++] = c;
}

#if defined(__arm__)

#define SCS(off)	(AMPSOC_CORE_SCS_BASE + (off))
#define ICSR_PENDSVSET	0x10000000u

static void (*table[16 + 32])(void) __attribute__((aligned(256)));

static void irq3(void)
{
	mark('3');
}

static void irq4(void)
{
	mark('4');
	amp_mmio_write32(SCS(AMPSOC_SCS_STIR), 3);	/* higher: now */
	mark('4');
	amp_mmio_write32(SCS(AMPSOC_SCS_STIR), 5);	/* lower: after us */
	mark('4');
}

static void irq5(void)
{
	mark('5');
}

static void pendsv(void)
{
	mark('P');
}

static void svc(void)
{
	mark('S');
}

static void systick(void)
{
	if (++ticks == 3)
		amp_mmio_write32(SCS(AMPSOC_SCS_SYST_CSR), 0);
}

static void set_basepri(uint32_t v)
{
	__asm__ volatile("msr basepri, %0" :: "r"(v) : "memory");
}

static void run(void)
{
	uint32_t irq;

	memcpy(table, amp_vectors, (16 + AMPSOC_IRQ_COUNT) * sizeof(table[0]));
	table[11] = svc;
	table[14] = pendsv;
	table[15] = systick;
	table[16 + 3] = irq3;
	table[16 + 4] = irq4;
	table[16 + 5] = irq5;
	amp_mmio_write32(SCS(AMPSOC_SCS_VTOR), (uintptr_t)table);
	/* IRQ 3, 4, 5 at priorities 0x20, 0x80, 0xc0 */
	amp_mmio_write32(SCS(AMPSOC_SCS_NVIC_IPR + 0), 0x20000000);
	amp_mmio_write32(SCS(AMPSOC_SCS_NVIC_IPR + 4), 0xc080);
	amp_mmio_write32(SCS(AMPSOC_SCS_NVIC_ISER), 0x38);

	amp_mmio_write32(SCS(AMPSOC_SCS_STIR), 4);
	mark('|');
	set_basepri(0x40);
	amp_mmio_write32(SCS(AMPSOC_SCS_STIR), 5);
	mark('b');
	set_basepri(0);
	mark('|');
	irq = amp_irq_save();
	amp_mmio_write32(SCS(AMPSOC_SCS_STIR), 3);
	mark('m');
	amp_irq_restore(irq);
	mark('|');
	amp_mmio_write32(SCS(AMPSOC_SCS_ICSR), ICSR_PENDSVSET);
	__asm__ volatile("svc #0" ::: "memory");
	/* 1 ms periods of the 100 MHz SysTick */
	amp_mmio_write32(SCS(AMPSOC_SCS_SYST_RVR), 100000 - 1);
	amp_mmio_write32(SCS(AMPSOC_SCS_SYST_CVR), 0);
	amp_mmio_write32(SCS(AMPSOC_SCS_SYST_CSR), 3);
	while (__atomic_load_n(&ticks, __ATOMIC_RELAXED) < 3)
		platform_wait_irq(1000000000ull);
}

#elif defined(__riscv)

#define MSTATUS_MIE	8u
#define MIE_MEIE	0x800u
#define TIMER_SOURCE	(AMPSOC_IRQ_TIMER + 1)

static unsigned int fired;

void irq_exception(void)
{
	uint32_t cause, epc;

	__asm__ volatile("csrr %0, mcause\n\tcsrr %1, mepc" : "=r"(cause), "=r"(epc));
	mark(cause == 11 ? 'E' : 'x');
	__asm__ volatile("csrw mepc, %0" :: "r"(epc + 4));
}

void irq_external(void)
{
	uint32_t src = amp_mmio_read32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_CLAIM);

	if (src == TIMER_SOURCE) {
		amp_mmio_write32(AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_MMIO_TIMER_CTRL, 0);
		mark('T');
		fired++;
	}
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_CLAIM, src);
}

/* mtvec, vectored: exceptions at the base, cause 11 at base + 44. */
__asm__(".option push\n.option norvc\n.balign 64\n"
	".globl irq_table\nirq_table:\n"
	"\tj irq_exception\n"
	"\t.rept 10\n\tj .\n\t.endr\n"
	"\tj irq_external\n.option pop\n");

static void arm_timer(uint64_t ns)
{
	uint64_t at = platform_time_ns() + ns;

	amp_mmio_write32(AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_MMIO_TIMER_CMP_LO, (uint32_t)at);
	amp_mmio_write32(AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_MMIO_TIMER_CMP_HI, at >> 32);
	amp_mmio_write32(AMPSOC_CORE_MMIO_BASE_RV32 + AMPSOC_MMIO_TIMER_CTRL,
			 AMPSOC_TIMER_ENABLE);
}

static void wait_fired(unsigned int n)
{
	while (__atomic_load_n(&fired, __ATOMIC_RELAXED) < n)
		__asm__ volatile("wfi" ::: "memory");
}

static void run(void)
{
	uint64_t until;

	__asm__ volatile("csrci mstatus, 8\n\tcsrw mtvec, %0" :: "r"((uintptr_t)irq_table | 1));
	__asm__ volatile("csrs mstatus, 8" ::: "memory");
	__asm__ volatile("ecall" ::: "memory");
	mark('|');
	/* Only the timer, at priority 2. */
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_ENABLE, 1u << TIMER_SOURCE);
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_PRIORITY(TIMER_SOURCE), 2);
	arm_timer(1000000);
	wait_fired(1);
	mark('|');
	/* A threshold of 2 holds it back: 5 ms pass without it. */
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_THRESHOLD, 2);
	arm_timer(1000000);
	until = platform_time_ns() + 5000000;
	while (platform_time_ns() < until)
		amp_cpu_relax();
	mark('t');
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + AMPSOC_PLIC_THRESHOLD, 0);
	wait_fired(2);
	mark('|');
	/* So does a clear mstatus.MIE, but not for WFI. */
	__asm__ volatile("csrc mstatus, %0" :: "r"(MSTATUS_MIE) : "memory");
	arm_timer(1000000);
	__asm__ volatile("wfi" ::: "memory");
	mark('m');
	__asm__ volatile("csrs mstatus, %0" :: "r"(MSTATUS_MIE) : "memory");
	wait_fired(3);
	ticks = 3;
}

#endif

int main(void)
{
	run();
	trail[marks] = 0;
	printf("irq: log %s ticks %u\n", trail, ticks);
	return 0;
}

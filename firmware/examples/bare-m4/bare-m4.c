// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-bare-m4: Cortex-M4 firmware written without the ampsoc SDK, the
 * way a user's own firmware is: its own vector table, reset handler,
 * linker script (bare-m4.ld) and resource table, and the core's devices
 * reached through their registers (include/uapi/ampsoc/core_mmio.h).
 * docs/porting-firmware.md explains each part.
 *
 * At boot it prints one line, on the console and in its trace buffer,
 * with the core's name and where Linux put its carveout; then it sleeps in
 * WFI. Every doorbell from Linux is answered with a doorbell on the core's
 * first guest vector, and every ECHO_REQUEST mailbox word with ECHO_REPLY.
 * Everything happens in the two interrupt handlers.
 */
#include <stdint.h>

#include <uapi/ampsoc/bootrom.h>	/* the reserved mailbox words */
#include <uapi/ampsoc/core_mmio.h>
#include <uapi/ampsoc/rsc_table.h>

#include "bare-m4.h"

#define PERIPH		AMPSOC_CORE_MMIO_BASE_ARMV7M
#define SCS		AMPSOC_CORE_SCS_BASE
#define TRACE_LEN	1024
#define CARVE_DA	0x80000000u	/* the start of the DRAM window */
#define CARVE_LEN	0x1000u

/* Device registers: one aligned 32-bit access each, never merged or cached. */
static inline uint32_t rd(uint32_t addr)
{
	uint32_t v;

	__asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void wr(uint32_t addr, uint32_t val)
{
	__asm__ volatile("str %0, [%1]" :: "r"(val), "r"(addr) : "memory");
}

/* The trace buffer: in .bss, which remoteproc zeroes before the start. */
static char trace_buf[TRACE_LEN];
static uint32_t trace_pos;

/*
 * The resource table, in mainline's layout: a header, one offset per
 * entry, then the entries, each its type and the resource. Linux reads it
 * from the ELF's .resource_table section and writes the carveout's pa back
 * into the loaded copy.
 */
struct bare_rsc_table {
	uint32_t ver;
	uint32_t num;
	uint32_t reserved[2];
	uint32_t offset[2];
	uint32_t trace_type;
	struct ampsoc_rsc_trace trace;
	uint32_t carve_type;
	struct ampsoc_rsc_carveout carve;
} __attribute__((packed));

__attribute__((section(".resource_table"), used, aligned(8)))
struct bare_rsc_table resource_table = {
	.ver = 1,
	.num = 2,
	.offset = {
		__builtin_offsetof(struct bare_rsc_table, trace_type),
		__builtin_offsetof(struct bare_rsc_table, carve_type),
	},
	.trace_type = AMPSOC_RSC_TRACE,
	.trace = { (uint32_t)trace_buf, TRACE_LEN, 0, "trace0" },
	.carve_type = AMPSOC_RSC_CARVEOUT,
	.carve = { CARVE_DA, AMPSOC_FW_RSC_ADDR_ANY, CARVE_LEN, 0, 0, "bare-buf" },
};

/* One character to the console register and the trace buffer. */
static void put_char(char c)
{
	wr(PERIPH + AMPSOC_MMIO_CONSOLE, (uint8_t)c);
	if (trace_pos < TRACE_LEN - 1)
		trace_buf[trace_pos++] = c;
}

static void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}

static void put_hex(uint32_t v)
{
	int shift;

	put_str("0x");
	for (shift = 28; shift >= 0; shift -= 4)
		put_char("0123456789abcdef"[(v >> shift) & 0xf]);
}

/* NVIC line 0 (AMPSOC_IRQ_DOORBELL): asserted while DOORBELL_IN is not 0. */
static void doorbell_irq(void)
{
	/* Reading DOORBELL_IN clears it and lowers the line. */
	if (rd(PERIPH + AMPSOC_MMIO_DOORBELL_IN) && rd(PERIPH + AMPSOC_MMIO_NR_VECTORS))
		wr(PERIPH + AMPSOC_MMIO_DOORBELL_OUT, rd(PERIPH + AMPSOC_MMIO_VECTOR(0)));
}

/* NVIC line 1 (AMPSOC_IRQ_MBOX_IN): asserted while the FIFO holds words. */
static void mbox_irq(void)
{
	while (rd(PERIPH + AMPSOC_MMIO_MBOX_STATUS) & AMPSOC_MBOX_IN_NOT_EMPTY)
		if (rd(PERIPH + AMPSOC_MMIO_MBOX_IN) == AMPSOC_MBOX_MSG_ECHO_REQUEST)
			wr(PERIPH + AMPSOC_MMIO_MBOX_OUT, AMPSOC_MBOX_MSG_ECHO_REPLY);
}

/* A fault with no handler of its own: end the core with that fault. */
static void fault_handler(void)
{
	wr(PERIPH + AMPSOC_MMIO_FAULT, 0);
	for (;;)
		;
}

/* At the code base (address 0), where VTOR points at reset. */
__attribute__((section(".vectors"), used))
void (*const vectors[16 + AMPSOC_IRQ_COUNT])(void) = {
	[0] = (void (*)(void))__stack_top,	/* initial MSP */
	[1] = reset_handler,			/* also the ELF entry */
	[3] = fault_handler,			/* HardFault */
	[16 + AMPSOC_IRQ_DOORBELL] = doorbell_irq,
	[16 + AMPSOC_IRQ_MBOX_IN] = mbox_irq,
};

static void __attribute__((noreturn)) bare_main(void)
{
	char name[AMPSOC_MMIO_NAME_LEN + 1];
	uint32_t i;

	if (rd(PERIPH + AMPSOC_MMIO_ID) != AMPSOC_MMIO_MAGIC)
		wr(PERIPH + AMPSOC_MMIO_ABORT, 0);
	for (i = 0; i < AMPSOC_MMIO_NAME_LEN; i += 4) {
		uint32_t w = rd(PERIPH + AMPSOC_MMIO_NAME + i);

		name[i] = w;
		name[i + 1] = w >> 8;
		name[i + 2] = w >> 16;
		name[i + 3] = w >> 24;
	}
	name[AMPSOC_MMIO_NAME_LEN] = '\0';
	put_str("bare-m4: hello from ");
	put_str(name);
	put_str(", carveout da ");
	put_hex(CARVE_DA);
	put_str(" pa ");
	/* Linux wrote it into the loaded table: read it from memory now. */
	__asm__ volatile("" ::: "memory");
	put_hex(resource_table.carve.pa);
	put_char('\n');

	/* Enable the doorbell and mailbox lines; priorities stay 0. */
	wr(SCS + AMPSOC_SCS_NVIC_ISER, 1u << AMPSOC_IRQ_DOORBELL | 1u << AMPSOC_IRQ_MBOX_IN);
	__asm__ volatile("cpsie i" ::: "memory");
	for (;;)
		__asm__ volatile("wfi");
}

/*
 * The entry: thread mode, privileged, MSP from vector 0. The segments are
 * loaded where they run, so there is no .data to copy; clear .bss again
 * (a restart reloads the image, but a user's own loader might not zero it).
 */
void reset_handler(void)
{
	uint32_t *p;

	__asm__ volatile("cpsid i" ::: "memory");
	wr(SCS + AMPSOC_SCS_VTOR, (uint32_t)vectors);
	for (p = __bss_start; p < __bss_end; p++)
		*p = 0;
	bare_main();
}

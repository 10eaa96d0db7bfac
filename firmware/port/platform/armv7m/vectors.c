// SPDX-License-Identifier: GPL-2.0
/*
 * The ARMv7-M vector table and the NVIC side of the MMIO port.
 *
 * The table sits at the start of the code region (address 0 on the m4,
 * where VTOR points at reset). The system handlers are weak functions a
 * firmware defines to take them: amp_hardfault_handler,
 * amp_systick_handler, ... (CMSIS's HardFault_Handler, SysTick_Handler).
 * An entry left 0 is a handler that does not exist, and a fault with no
 * handler ends the core with that fault (docs/cores.md). The core
 * peripheral's three lines are the SDK's.
 */
#include <stdint.h>

#include <uapi/ampsoc/core_mmio.h>
#include <amp/cpu.h>

#include "../../../lib/link.h"
#include "../mmio/mmio.h"

#define WEAK_HANDLER(name) void name(void) __attribute__((weak))
WEAK_HANDLER(amp_nmi_handler);
WEAK_HANDLER(amp_hardfault_handler);
WEAK_HANDLER(amp_memmanage_handler);
WEAK_HANDLER(amp_busfault_handler);
WEAK_HANDLER(amp_usagefault_handler);
WEAK_HANDLER(amp_svc_handler);
WEAK_HANDLER(amp_debugmon_handler);
WEAK_HANDLER(amp_pendsv_handler);
WEAK_HANDLER(amp_systick_handler);

/* The exception number (IPSR) tells which line interrupted. */
static void amp_nvic_handler(void)
{
	uint32_t ipsr;

	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	amp_mmio_isr((ipsr & 0x1ff) - 16);
}

__attribute__((section(".vectors"), used))
void (*const amp_vectors[16 + AMPSOC_IRQ_COUNT])(void) = {
	(void (*)(void))__stack_top,
	_start,
	amp_nmi_handler,
	amp_hardfault_handler,
	amp_memmanage_handler,
	amp_busfault_handler,
	amp_usagefault_handler,
	0, 0, 0, 0,
	amp_svc_handler,
	amp_debugmon_handler,
	0,
	amp_pendsv_handler,
	amp_systick_handler,
	[16 + AMPSOC_IRQ_DOORBELL] = amp_nvic_handler,
	[16 + AMPSOC_IRQ_MBOX_IN] = amp_nvic_handler,
	[16 + AMPSOC_IRQ_TIMER] = amp_nvic_handler,
};

void amp_port_irq_init(void)
{
	unsigned int line;
	uint32_t prio = 0;

	/* The lowest priority: a firmware's own handlers can preempt them. */
	for (line = 0; line < AMPSOC_IRQ_COUNT; line++)
		prio |= 0xf0u << (8 * line);
	amp_mmio_write32(AMPSOC_CORE_SCS_BASE + AMPSOC_SCS_NVIC_IPR, prio);
	amp_mmio_write32(AMPSOC_CORE_SCS_BASE + AMPSOC_SCS_NVIC_ISER,
			 (1u << AMPSOC_IRQ_COUNT) - 1);
	__asm__ volatile("cpsie i" ::: "memory");
}

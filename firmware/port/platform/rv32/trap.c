// SPDX-License-Identifier: GPL-2.0
/*
 * RV32: the trap handler and the PLIC side of the MMIO port.
 *
 * Machine external interrupts are the PLIC's: claim, run the SDK's handler
 * of the core peripheral's line (source = line + 1), complete, until
 * nothing is left. A synchronous exception is a fault the SDK does not
 * handle: the FAULT register ends the core with it, with the record the
 * runner made when it happened (docs/cores.md). A firmware that wants its
 * own trap handling sets mtvec to its own entry.
 */
#include <stdint.h>

#include <uapi/ampsoc/core_mmio.h>
#include <amp/cpu.h>

#include "../mmio/mmio.h"

#define MCAUSE_M_EXT_IRQ	0x8000000bu	/* interrupt, machine external */
#define MIE_MEIE		0x800u

static uint32_t plic_read(unsigned int off)
{
	return amp_mmio_read32(AMPSOC_CORE_PLIC_BASE + off);
}

static void plic_write(unsigned int off, uint32_t v)
{
	amp_mmio_write32(AMPSOC_CORE_PLIC_BASE + off, v);
}

void amp_trap(uint32_t mcause, uint32_t mepc)
{
	uint32_t src;

	if (mcause == MCAUSE_M_EXT_IRQ) {
		while ((src = plic_read(AMPSOC_PLIC_CLAIM)) != 0) {
			amp_mmio_isr(src - 1);
			plic_write(AMPSOC_PLIC_CLAIM, src);
		}
		return;
	}
	amp_mmio_write32(AMP_MMIO_BASE + AMPSOC_MMIO_FAULT, mcause);
	for (;;)
		amp_cpu_relax();
}

void amp_port_irq_init(void)
{
	unsigned int line;

	for (line = 0; line < AMPSOC_IRQ_COUNT; line++)
		plic_write(AMPSOC_PLIC_PRIORITY(line + 1), 1);
	plic_write(AMPSOC_PLIC_ENABLE, ((1u << AMPSOC_IRQ_COUNT) - 1) << 1);
	plic_write(AMPSOC_PLIC_THRESHOLD, 0);
	__asm__ volatile("csrs mie, %0\n\tcsrsi mstatus, 8" :: "r"(MIE_MEIE) : "memory");
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the MMIO platform port (platform_mmio.c) and the instruction
 * set's half of it (port/platform/armv7m/, port/platform/rv32/), which owns
 * the startup code, the vector table or trap entry, and the interrupt
 * controller.
 */
#ifndef _AMP_PORT_MMIO_H
#define _AMP_PORT_MMIO_H

#include <stdint.h>

#include <uapi/ampsoc/core_mmio.h>

/* The core peripheral sits at one address per instruction set. */
#if defined(__arm__)
#define AMP_MMIO_BASE	AMPSOC_CORE_MMIO_BASE_ARMV7M
#elif defined(__riscv)
#define AMP_MMIO_BASE	AMPSOC_CORE_MMIO_BASE_RV32
#else
#error "the MMIO port is for the emulated cores"
#endif

/* Route the core peripheral's lines to the core and unmask interrupts. */
void amp_port_irq_init(void);
/* Line @line (AMPSOC_IRQ_*) of the core peripheral interrupted. */
void amp_mmio_isr(unsigned int line);
/* RV32: the C half of the trap entry (crt0.S). */
void amp_trap(uint32_t mcause, uint32_t mepc);

#endif /* _AMP_PORT_MMIO_H */

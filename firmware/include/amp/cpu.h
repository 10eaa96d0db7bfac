/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few things that differ between the instruction sets a firmware is
 * built for, so that firmware sources stay the same for every core:
 * a spin-loop hint, and, on the emulated cores (ARMv7-M, RV32), device
 * register accesses, masking interrupts and waiting for one.
 */
#ifndef _AMP_CPU_H
#define _AMP_CPU_H

#include <stdint.h>

#if defined(__x86_64__)

/* A busy-wait iteration. */
static inline void amp_cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

#elif defined(__arm__)

#if !defined(__ARM_ARCH_7EM__) && !defined(__ARM_ARCH_7M__)
#error "ampsoc's ARM cores are ARMv7-M"
#endif

/* A 32-bit device register, read or written exactly once. */
static inline uint32_t amp_mmio_read32(uintptr_t addr)
{
	uint32_t v;

	__asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void amp_mmio_write32(uintptr_t addr, uint32_t v)
{
	__asm__ volatile("str %0, [%1]" :: "r"(v), "r"(addr) : "memory");
}

/* The SDK's vector table (port/platform/armv7m/vectors.c), for a copy in RAM. */
extern void (*const amp_vectors[])(void);

/* YIELD would stop the emulated core as an undefined instruction. */
static inline void amp_cpu_relax(void)
{
	__asm__ volatile("nop" ::: "memory");
}

/* Mask interrupts (PRIMASK); returns whether they were unmasked. */
static inline uint32_t amp_irq_save(void)
{
	uint32_t primask;

	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) :: "memory");
	return !(primask & 1);
}

static inline void amp_irq_restore(uint32_t unmasked)
{
	if (unmasked)
		__asm__ volatile("cpsie i" ::: "memory");
}

/* Sleep until an interrupt is pending (even a masked one). */
static inline void amp_cpu_wfi(void)
{
	__asm__ volatile("dsb\n\twfi" ::: "memory");
}

#elif defined(__riscv) && __riscv_xlen == 32

static inline uint32_t amp_mmio_read32(uintptr_t addr)
{
	uint32_t v;

	__asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void amp_mmio_write32(uintptr_t addr, uint32_t v)
{
	__asm__ volatile("sw %0, 0(%1)" :: "r"(v), "r"(addr) : "memory");
}

static inline void amp_cpu_relax(void)
{
	__asm__ volatile("nop" ::: "memory");
}

/* Mask interrupts (mstatus.MIE); returns whether they were unmasked. */
static inline uint32_t amp_irq_save(void)
{
	uint32_t st;

	__asm__ volatile("csrrci %0, mstatus, 8" : "=r"(st) :: "memory");
	return st & 8;
}

static inline void amp_irq_restore(uint32_t unmasked)
{
	if (unmasked)
		__asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

/* Sleep until an interrupt is pending (even with mstatus.MIE clear). */
static inline void amp_cpu_wfi(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

#else
#error "no ampsoc core has this instruction set"
#endif

#endif /* _AMP_CPU_H */

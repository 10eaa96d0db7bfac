/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory map of the Cortex-M4 core ("m4", ARMv7-M, emulated): a Harvard-ish
 * microcontroller map as on i.MX 7/8M and STM32 parts. Read by C code and,
 * through the C preprocessor, by ld/core.ld.S: plain integer expressions.
 *
 *   0x00000000  code TCM  256 KiB  vector table, .text .rodata
 *   0x20000000  data SRAM 256 KiB  .resource_table .data .bss stack, trace
 *   0x40000000  core peripheral (include/uapi/ampsoc/core_mmio.h)
 *   0x80000000  DRAM      16 MiB   vrings, buffers, carveouts (given out by
 *                                  Linux): the shared DDR as the M4 of an
 *                                  i.MX 7Dual sees it, at 0x80000000
 *   0xe000e000  System Control Space (NVIC, SCB, SysTick)
 *
 * Linux sees the same memory elsewhere (its ivshmem BAR); only the core's
 * view is here. Each region is one --map window of the runner.
 */
#ifndef _AMP_CORE_M4_H
#define _AMP_CORE_M4_H

#define AMP_CORE_NAME		"m4"
#define AMP_CORE_ISA_ARMV7M	1

#define AMP_CORE_CODE_BASE	0x00000000
#define AMP_CORE_CODE_SIZE	0x00040000
#define AMP_CORE_DATA_BASE	0x20000000
#define AMP_CORE_DATA_SIZE	0x00040000
#define AMP_CORE_SHM_BASE	0x80000000
#define AMP_CORE_SHM_SIZE	0x01000000

#define AMP_CORE_STACK_SIZE	0x8000
#define AMP_CORE_TRACE_SIZE	0x4000
/* The trace buffer ends the data region. */
#define AMP_CORE_TRACE_DA	(AMP_CORE_DATA_BASE + AMP_CORE_DATA_SIZE - AMP_CORE_TRACE_SIZE)

/* Nothing answers here: the sample firmware's crash stores to it. */
#define AMP_CORE_FAULT_DA	0x30000000

#endif /* _AMP_CORE_M4_H */

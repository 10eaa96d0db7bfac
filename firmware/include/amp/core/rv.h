/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory map of the RISC-V core ("rv", RV32IMAC machine mode, emulated): a
 * SiFive E31-style hart (ITIM, DTIM, PLIC, peripherals at 0x10000000), with
 * the shared DDR in the uncached window PolarFire SoC harts use for it.
 * Read by C code and, through the C preprocessor, by ld/core.ld.S.
 *
 *   0x08000000  ITIM      256 KiB  .text .rodata
 *   0x0c000000  PLIC      (include/uapi/ampsoc/core_mmio.h)
 *   0x10000000  core peripheral
 *   0x80000000  DTIM      256 KiB  .resource_table .data .bss stack, trace
 *   0xc0000000  DRAM      16 MiB   vrings, buffers, carveouts (given out by
 *                                  Linux)
 */
#ifndef _AMP_CORE_RV_H
#define _AMP_CORE_RV_H

#define AMP_CORE_NAME		"rv"
#define AMP_CORE_ISA_RV32	1

#define AMP_CORE_CODE_BASE	0x08000000
#define AMP_CORE_CODE_SIZE	0x00040000
#define AMP_CORE_DATA_BASE	0x80000000
#define AMP_CORE_DATA_SIZE	0x00040000
#define AMP_CORE_SHM_BASE	0xc0000000
#define AMP_CORE_SHM_SIZE	0x01000000

#define AMP_CORE_STACK_SIZE	0x8000
#define AMP_CORE_TRACE_SIZE	0x4000
/* The trace buffer ends the data region. */
#define AMP_CORE_TRACE_DA	(AMP_CORE_DATA_BASE + AMP_CORE_DATA_SIZE - AMP_CORE_TRACE_SIZE)

/* Nothing answers here: the sample firmware's crash stores to it. */
#define AMP_CORE_FAULT_DA	0x30000000

#endif /* _AMP_CORE_RV_H */

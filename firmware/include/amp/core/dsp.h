/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory map of the DSP-style core: separate program and data memories,
 * 16 MiB in all at 0x20000000. Read by C code and, through the C
 * preprocessor, by ld/core.ld.S: plain integer expressions only.
 *
 *   0x20000000  IRAM  1 MiB   .text .rodata
 *   0x20100000  DRAM  1 MiB   .resource_table .data .bss stack, trace buffer
 *   0x20200000  DRAM  14 MiB  vrings, buffers, carveouts (given out by Linux)
 *
 * IRAM and DRAM may be given to the core as two separate windows.
 */
#ifndef _AMP_CORE_DSP_H
#define _AMP_CORE_DSP_H

#define AMP_CORE_NAME		"dsp"
#define AMP_CORE_ISA_X86_64	1
#define AMP_CORE_MEM_BASE	0x20000000
#define AMP_CORE_MEM_SIZE	0x01000000

#define AMP_CORE_CODE_BASE	0x20000000
#define AMP_CORE_CODE_SIZE	0x00100000
#define AMP_CORE_DATA_BASE	0x20100000
#define AMP_CORE_DATA_SIZE	0x00100000
#define AMP_CORE_SHM_BASE	0x20200000
#define AMP_CORE_SHM_SIZE	0x00e00000

#define AMP_CORE_STACK_SIZE	0x8000
#define AMP_CORE_TRACE_SIZE	0x2000
#define AMP_CORE_TRACE_DA	(AMP_CORE_DATA_BASE + AMP_CORE_DATA_SIZE - AMP_CORE_TRACE_SIZE)

/* Below mmap_min_addr, never mapped: the sample firmware's crash stores to it. */
#define AMP_CORE_FAULT_DA	0x10

#endif /* _AMP_CORE_DSP_H */

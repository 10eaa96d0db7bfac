/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory map of the M3-style core: one unified 32 MiB memory at 0x10000000.
 * Read by C code and, through the C preprocessor, by ld/core.ld.S: plain
 * integer expressions only.
 *
 *   0x10000000  code  1 MiB   .text .rodata
 *   0x10100000  data  1 MiB   .resource_table .data .bss stack, trace buffer
 *   0x10200000  shm   30 MiB  vrings, buffers, carveouts (given out by Linux)
 */
#ifndef _AMP_CORE_M3_H
#define _AMP_CORE_M3_H

#define AMP_CORE_NAME		"m3"
#define AMP_CORE_ISA_X86_64	1
#define AMP_CORE_MEM_BASE	0x10000000
#define AMP_CORE_MEM_SIZE	0x02000000

#define AMP_CORE_CODE_BASE	0x10000000
#define AMP_CORE_CODE_SIZE	0x00100000
#define AMP_CORE_DATA_BASE	0x10100000
#define AMP_CORE_DATA_SIZE	0x00100000
#define AMP_CORE_SHM_BASE	0x10200000
#define AMP_CORE_SHM_SIZE	0x01e00000

#define AMP_CORE_STACK_SIZE	0x10000
#define AMP_CORE_TRACE_SIZE	0x4000
/* The trace buffer ends the data region. */
#define AMP_CORE_TRACE_DA	(AMP_CORE_DATA_BASE + AMP_CORE_DATA_SIZE - AMP_CORE_TRACE_SIZE)

/* Below mmap_min_addr, never mapped: the sample firmware's crash stores to it. */
#define AMP_CORE_FAULT_DA	0x10

#endif /* _AMP_CORE_M3_H */

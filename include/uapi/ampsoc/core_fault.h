/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a remote core's runner (ampsoc-core, soc-model/core/) tells the SoC
 * model about the fault that ended the core, and the instruction sets a
 * core can have. The model copies the reason into the core's control block
 * (include/uapi/ampsoc/vsoc_abi.h) for Linux, which picks remoteproc's crash
 * type from it.
 *
 * The record travels on the runner's fault descriptor (--fault-fd): a pipe
 * the model reads after it has reaped the core. The runner writes at most
 * one record, with one write(), and then ends with the signal named in
 * the record (the wait status alone stays meaningful to a model that does
 * not read the pipe). A core that ends without a record ended for a reason
 * the wait status gives (docs/firmware-sdk.md, "How a core ends").
 *
 * The firmware runs in the runner's process (natively) or is emulated by
 * it, so a record is only as trustworthy as the runner: the model checks
 * magic, size and every field's range, and treats anything else as no
 * record at all.
 */
#ifndef _AMPSOC_CORE_FAULT_H
#define _AMPSOC_CORE_FAULT_H

#include "types.h"

/* Instruction set of a core (board file "isa = ...") */
#define AMPSOC_CORE_ISA_X86_64		1	/* native: runs in the runner */
#define AMPSOC_CORE_ISA_ARMV7M		2	/* Cortex-M3/M4 class, Thumb-2 */
#define AMPSOC_CORE_ISA_RV32IMAC	3	/* RISC-V 32-bit, machine mode */

/* Why the core faulted */
#define AMPSOC_CORE_FAULT_NONE		0
#define AMPSOC_CORE_FAULT_FIREWALL	1	/* write to a firewalled range */
#define AMPSOC_CORE_FAULT_UNMAPPED	2	/* access outside every window */
#define AMPSOC_CORE_FAULT_PROT		3	/* write to code, fetch from data */
#define AMPSOC_CORE_FAULT_ILLEGAL	4	/* undefined instruction */
#define AMPSOC_CORE_FAULT_MISALIGNED	5	/* where the ISA traps it */
#define AMPSOC_CORE_FAULT_DOUBLE	6	/* fault while handling one */
#define AMPSOC_CORE_FAULT_BREAKPOINT	7	/* bkpt/ebreak, no debugger */
#define AMPSOC_CORE_FAULT_WATCHDOG	8	/* the core's watchdog expired */
#define AMPSOC_CORE_FAULT_MAX		8

/* The name of a reason, for the logs of every side; "unknown" if none. */
static inline const char *ampsoc_core_fault_name(__u32 reason)
{
	static const char *const names[AMPSOC_CORE_FAULT_MAX + 1] = {
		[AMPSOC_CORE_FAULT_FIREWALL] = "firewall",
		[AMPSOC_CORE_FAULT_UNMAPPED] = "unmapped address",
		[AMPSOC_CORE_FAULT_PROT] = "protection",
		[AMPSOC_CORE_FAULT_ILLEGAL] = "illegal instruction",
		[AMPSOC_CORE_FAULT_MISALIGNED] = "misaligned access",
		[AMPSOC_CORE_FAULT_DOUBLE] = "double fault",
		[AMPSOC_CORE_FAULT_BREAKPOINT] = "breakpoint",
		[AMPSOC_CORE_FAULT_WATCHDOG] = "watchdog",
	};

	return reason <= AMPSOC_CORE_FAULT_MAX && names[reason] ?
	       names[reason] : "unknown";
}

/* @access */
#define AMPSOC_CORE_ACCESS_NONE		0
#define AMPSOC_CORE_ACCESS_READ		1
#define AMPSOC_CORE_ACCESS_WRITE	2
#define AMPSOC_CORE_ACCESS_FETCH	3

#define AMPSOC_CORE_FAULT_MAGIC		0x544c4643u	/* "CFLT" little-endian */
#define AMPSOC_CORE_FAULT_MAX_REGS	40

/**
 * struct ampsoc_core_fault - the fault that ended a core
 * @magic: AMPSOC_CORE_FAULT_MAGIC
 * @size: sizeof(struct ampsoc_core_fault)
 * @reason: AMPSOC_CORE_FAULT_*
 * @isa: AMPSOC_CORE_ISA_* of the core
 * @signo: the signal the runner ends with right after writing the record
 * @access: AMPSOC_CORE_ACCESS_* of the faulting access
 * @addr: device address of the faulting access (0 if none)
 * @pc: device address of the faulting instruction (for a watchdog, the
 *	instruction the core was about to execute)
 * @nr_regs: entries of @regs in use
 * @reserved: zero
 * @regs: the core's registers in gdb's order for @isa: ARMv7-M r0-r15,
 *	xpsr; RV32 x0-x31, pc; x86-64 rax, rbx, rcx, rdx, rsi, rdi, rbp,
 *	rsp, r8-r15, rip, eflags
 */
struct ampsoc_core_fault {
	__u32 magic;
	__u32 size;
	__u32 reason;
	__u32 isa;
	__u32 signo;
	__u32 access;
	__u64 addr;
	__u64 pc;
	__u32 nr_regs;
	__u32 reserved;
	__u64 regs[AMPSOC_CORE_FAULT_MAX_REGS];
};

#endif /* _AMPSOC_CORE_FAULT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RV32 reset and trap entry. The core starts at _start (remoteproc's boot
 * address, the ELF entry) in machine mode with interrupts off: take the
 * SDK's stack and trap vector (mtvec, direct mode), clear .bss and continue
 * in amp_start(), which never returns.
 *
 * amp_trap_entry saves the registers a C function may clobber, calls
 * amp_trap(mcause, mepc) (trap.c) and returns with mret.
 */
	.section .text.start, "ax", @progbits
	.globl	_start
	.type	_start, @function
_start:
	csrw	mie, zero
	csrci	mstatus, 8
	la	sp, __stack_top
	la	t0, amp_trap_entry
	csrw	mtvec, t0
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	li	a0, 0				/* no boot ROM: the peripheral */
	call	amp_start
	unimp
	.size	_start, . - _start

	.text
	.balign	4
	.globl	amp_trap_entry
	.type	amp_trap_entry, @function
amp_trap_entry:
	addi	sp, sp, -64
	sw	ra, 0(sp)
	sw	t0, 4(sp)
	sw	t1, 8(sp)
	sw	t2, 12(sp)
	sw	a0, 16(sp)
	sw	a1, 20(sp)
	sw	a2, 24(sp)
	sw	a3, 28(sp)
	sw	a4, 32(sp)
	sw	a5, 36(sp)
	sw	a6, 40(sp)
	sw	a7, 44(sp)
	sw	t3, 48(sp)
	sw	t4, 52(sp)
	sw	t5, 56(sp)
	sw	t6, 60(sp)
	csrr	a0, mcause
	csrr	a1, mepc
	call	amp_trap
	lw	ra, 0(sp)
	lw	t0, 4(sp)
	lw	t1, 8(sp)
	lw	t2, 12(sp)
	lw	a0, 16(sp)
	lw	a1, 20(sp)
	lw	a2, 24(sp)
	lw	a3, 28(sp)
	lw	a4, 32(sp)
	lw	a5, 36(sp)
	lw	a6, 40(sp)
	lw	a7, 44(sp)
	lw	t3, 48(sp)
	lw	t4, 52(sp)
	lw	t5, 56(sp)
	lw	t6, 60(sp)
	addi	sp, sp, 64
	mret
	.size	amp_trap_entry, . - amp_trap_entry

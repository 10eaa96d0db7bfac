/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARMv7-M reset handler: the core starts here (remoteproc's boot address,
 * the ELF entry) in thread mode on the main stack, interrupts unmasked.
 * Mask them, take the SDK's stack and vector table (VTOR), clear .bss and
 * continue in amp_start(), which never returns. The vector table itself is
 * vectors.c.
 */
	.syntax unified
	.thumb
	.section .text.start, "ax", %progbits
	.globl	_start
	.type	_start, %function
	.thumb_func
_start:
	cpsid	i
	ldr	r0, =__stack_top
	msr	msp, r0
	ldr	r0, =amp_vectors
	ldr	r1, =0xe000ed08			/* SCB->VTOR */
	str	r0, [r1]
	dsb
	isb
	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	movs	r2, #0
1:	cmp	r0, r1
	bhs	2f
	str	r2, [r0], #4
	b	1b
2:	movs	r0, #0				/* no boot ROM: the peripheral */
	bl	amp_start
	udf	#0
	.size	_start, . - _start
	.ltorg

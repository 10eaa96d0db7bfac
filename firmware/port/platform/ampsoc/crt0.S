/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware entry point. The core calls it as a function with the boot ROM
 * in %rdi (include/uapi/ampsoc/bootrom.h). Switch to the firmware's own stack,
 * clear .bss and continue in amp_start(), which never returns.
 */
	.section .text.start, "ax", @progbits
	.globl	_start
	.type	_start, @function
_start:
	cld
	movq	%rdi, %r12			/* the boot ROM, callee-saved */
	leaq	__stack_top(%rip), %rsp
	andq	$-16, %rsp
	xorl	%ebp, %ebp
	leaq	__bss_start(%rip), %rdi
	leaq	__bss_end(%rip), %rcx
	subq	%rdi, %rcx
	xorl	%eax, %eax
	rep stosb
	movq	%r12, %rdi
	call	amp_start
	ud2
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits

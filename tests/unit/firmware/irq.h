/* SPDX-License-Identifier: GPL-2.0 */
/* The irq firmware's functions its assembly refers to (irq.c). */
#ifndef _AMPSOC_TEST_IRQ_H
#define _AMPSOC_TEST_IRQ_H

/* Append @c to the log the firmware prints. */
void mark(char c);

#if defined(__riscv)
/* The vectored trap table's entries: exceptions, external interrupts. */
__attribute__((interrupt("machine"))) void irq_exception(void);
__attribute__((interrupt("machine"))) void irq_external(void);
void irq_table(void);
#endif

#endif /* _AMPSOC_TEST_IRQ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* The fault firmware's assembly (fault.c), where the test finds it. */
#ifndef _AMPSOC_TEST_FAULT_H
#define _AMPSOC_TEST_FAULT_H

/* One instruction each: undefined, and a breakpoint. */
void fault_illegal(void);
void fault_bkpt(void);

/* Fault handlers: skip the faulting instruction, fault again, report. */
void recover_handler(void);
void double_handler(void);
void report_handler(void);

#endif /* _AMPSOC_TEST_FAULT_H */

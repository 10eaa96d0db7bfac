/* SPDX-License-Identifier: GPL-2.0 */
/* Symbols the linker script (ld/core.ld.S) defines for the startup code. */
#ifndef _AMP_LIB_LINK_H
#define _AMP_LIB_LINK_H

/* The trace buffer (AMP_CORE_TRACE_DA, AMP_CORE_TRACE_SIZE). */
extern char __trace_start[], __trace_end[];
/* The .resource_table section. */
extern const char __rsc_start[], __rsc_end[];
/* The top of the firmware's stack, and its entry (the port's crt0.S). */
extern char __stack_top[];
void _start(void);

#endif /* _AMP_LIB_LINK_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * C side of the startup code: crt0.S has set the stack and cleared .bss.
 * Bring up the platform and the trace buffer, run main() and halt with its
 * status.
 */
#include <stdlib.h>

#include <amp/amp.h>
#include <amp/platform.h>
#include <amp/trace.h>

/* The trace buffer the linker script placed (AMP_CORE_TRACE_DA/SIZE). */
extern char __trace_start[], __trace_end[];

struct amp_trace amp_trace0;

void amp_start(const void *boot_arg) __attribute__((noreturn));

void amp_start(const void *boot_arg)
{
	/* Without a boot ROM there is no way to say why: fault. */
	if (platform_init(boot_arg))
		__builtin_trap();
	amp_trace_init(&amp_trace0, __trace_start, __trace_end - __trace_start);
	exit(main());
}

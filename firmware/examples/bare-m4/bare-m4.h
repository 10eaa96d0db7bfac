/* SPDX-License-Identifier: GPL-2.0 */
/* What bare-m4.ld defines for bare-m4.c, and the entry it names. */
#ifndef _BARE_M4_H
#define _BARE_M4_H

#include <stdint.h>

/* .bss, which the reset handler clears, and the top of the stack. */
extern uint32_t __bss_start[], __bss_end[], __stack_top[];
/* ENTRY() of the linker script, and vector 1. */
void reset_handler(void);

#endif /* _BARE_M4_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler's <stdint.h>, with the same 32-bit types on every core.
 *
 * The bare-metal ARM and RISC-V compilers make int32_t a long (the newlib
 * convention), x86-64 an int. Firmware sources are shared by all cores and
 * print uint32_t with %u, so the ILP32 cores get int here as well: the
 * representation is the same, only the C type (and format checking)
 * changes. Zephyr does the same for the same reason.
 */
#ifndef _AMP_LIBC_STDINT_H
#define _AMP_LIBC_STDINT_H

#if defined(__arm__) || defined(__riscv)
#undef __INT32_TYPE__
#define __INT32_TYPE__ int
#undef __UINT32_TYPE__
#define __UINT32_TYPE__ unsigned int
#undef __INT_LEAST32_TYPE__
#define __INT_LEAST32_TYPE__ int
#undef __UINT_LEAST32_TYPE__
#define __UINT_LEAST32_TYPE__ unsigned int
#undef __INT32_MAX__
#define __INT32_MAX__ 0x7fffffff
#undef __UINT32_MAX__
#define __UINT32_MAX__ 0xffffffffU
#undef __INT32_C
#define __INT32_C(c) c
#undef __UINT32_C
#define __UINT32_C(c) c ## U
#endif

#include_next <stdint.h>

#endif /* _AMP_LIBC_STDINT_H */

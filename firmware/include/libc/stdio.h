/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware SDK's libc subset: formatted output.
 *
 * Conversions: d i u x X o c s p %, flags - 0 + space #, width and
 * precision (also *), length modifiers hh h l ll z t j. No floating point.
 * printf() and puts() write to the SDK's trace buffer and to the core's
 * console, one console line per newline (see <amp/log.h>).
 */
#ifndef _AMP_STDIO_H
#define _AMP_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s);
int putchar(int c);

#endif /* _AMP_STDIO_H */

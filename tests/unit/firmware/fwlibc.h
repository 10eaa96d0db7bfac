/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware SDK's libc subset as the libc unit test links it: compiled
 * freestanding, every symbol renamed with a fwlibc_ prefix.
 */
#ifndef _FWLIBC_H
#define _FWLIBC_H

#include <stdarg.h>
#include <stddef.h>

void *fwlibc_memcpy(void *dst, const void *src, size_t n);
void *fwlibc_memmove(void *dst, const void *src, size_t n);
void *fwlibc_memset(void *s, int c, size_t n);
int fwlibc_memcmp(const void *a, const void *b, size_t n);
void *fwlibc_memchr(const void *s, int c, size_t n);
size_t fwlibc_strlen(const char *s);
size_t fwlibc_strnlen(const char *s, size_t max);
int fwlibc_strcmp(const char *a, const char *b);
int fwlibc_strncmp(const char *a, const char *b, size_t n);
char *fwlibc_strchr(const char *s, int c);
char *fwlibc_strrchr(const char *s, int c);
char *fwlibc_strncpy(char *dst, const char *src, size_t n);
int fwlibc_snprintf(char *buf, size_t size, const char *fmt, ...);
int fwlibc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#endif /* _FWLIBC_H */

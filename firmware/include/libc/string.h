/* SPDX-License-Identifier: GPL-2.0 */
/* The firmware SDK's libc subset: memory and string functions. */
#ifndef _AMP_STRING_H
#define _AMP_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strncpy(char *dst, const char *src, size_t n);

#endif /* _AMP_STRING_H */

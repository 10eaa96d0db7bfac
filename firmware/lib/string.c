// SPDX-License-Identifier: GPL-2.0
/*
 * Memory and string functions of the firmware SDK's libc subset.
 *
 * Built with -fno-builtin -fno-tree-loop-distribute-patterns so that the
 * compiler does not turn these loops back into calls to themselves.
 */
#include <stdint.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(uint64_t *)d = *(const uint64_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *p, int c, size_t n)
{
	unsigned char *d = p;

	if (((uintptr_t)d & 7) == 0 && n >= 8) {
		uint64_t v = (unsigned char)c * 0x0101010101010101ull;

		for (; n >= 8; n -= 8, d += 8)
			*(uint64_t *)d = v;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return p;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

void *memchr(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (; n; n--, s++)
		if (*s == (unsigned char)c)
			return (void *)s;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *e = s;

	while (*e)
		e++;
	return e - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	while (*x && *x == *y)
		x++, y++;
	return *x < *y ? -1 : *x > *y;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x < *y ? -1 : 1;
		if (!*x)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

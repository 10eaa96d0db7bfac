/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel names drivers/vsoc/vsoc_board.c (and the headers it includes)
 * uses, for building the board-table checker on the host: the SoC model
 * runs it on every table it publishes (table_check.c), and the fuzz
 * targets and unit tests run it on damaged ones. Every <linux/...> header
 * under kshim/ includes this one. Little-endian hosts only, like the ABI
 * header.
 *
 * dev_err() messages go to vsoc_shim_log (the last one is kept), so that
 * tests can check that a rejection said something.
 */
#ifndef _AMPSOC_VSOC_BOARD_SHIM_H
#define _AMPSOC_VSOC_BOARD_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as the kernel spells it */
typedef long long s64;
typedef s64 ktime_t;
typedef u64 resource_size_t;
typedef unsigned int gfp_t;

#define __iomem
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define GFP_KERNEL 0u
#define NSEC_PER_SEC 1000000000LL
#define EXPORT_SYMBOL_GPL(sym)

/* Only pointed to, or embedded in structures the parser never touches. */
struct mutex { int unused; };
struct completion { int unused; };
typedef struct { int unused; } spinlock_t;
struct pci_dev;
struct platform_device;
struct resource;
struct device;
struct dentry;

#define le16_to_cpu(x) ((u16)(x))
#define le32_to_cpu(x) ((u32)(x))
#define le64_to_cpu(x) ((u64)(x))

#define min_t(type, a, b) ({ type _a = (a), _b = (b); _a < _b ? _a : _b; })

extern char vsoc_shim_log[256];

static inline __printf(2, 3) void vsoc_shim_dev_err(const struct device *dev,
						    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vsoc_shim_log, sizeof(vsoc_shim_log), fmt, ap);
	va_end(ap);
}

#define dev_err(dev, fmt, ...) vsoc_shim_dev_err(dev, fmt, ##__VA_ARGS__)

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return calloc(n, size);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return calloc(1, size);
}

static inline void *kvmalloc(size_t size, gfp_t gfp)
{
	return malloc(size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

static inline void memcpy_fromio(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	qsort(base, num, size, cmp);
}

/* The kernel's isalnum(): ASCII only, any char value is safe. */
static inline bool vsoc_shim_isalnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

#define isalnum(c) vsoc_shim_isalnum((unsigned char)(c))

/*
 * The kernel's crc32_le() (no inversion on either side) from zlib's
 * crc32(), which inverts on the way in and out.
 */
static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	return ~(u32)crc32(~crc, p, len);
}

#endif /* _AMPSOC_VSOC_BOARD_SHIM_H */

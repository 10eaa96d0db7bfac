/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP v1 output for ampsoc's userspace tests: host unit tests and guest
 * programs. Header-only; include it from one file of a program.
 */
#ifndef _AMPSOC_KTAP_USER_H
#define _AMPSOC_KTAP_USER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

static unsigned int ktap_num, ktap_failed, ktap_skipped;

static inline void ktap_plan(unsigned int n)
{
	printf("KTAP version 1\n");
	if (n)
		printf("1..%u\n", n);
	fflush(stdout);
}

/* Print a diagnostic line ("# ..."). */
static inline __printf(1, 2) void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Record one test point; returns ok so callers can chain. */
static inline __printf(2, 3) bool ktap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u ", ok ? "ok" : "not ok", ++ktap_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		ktap_failed++;
	return ok;
}

static inline __printf(2, 3) void ktap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	printf("ok %u ", ++ktap_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
	fflush(stdout);
	ktap_skipped++;
}

/* Expect helpers that print where a check failed. */
#define KTAP_CHECK(cond)						\
	((cond) ? true :						\
	 (ktap_diag("%s:%d: expected %s", __FILE__, __LINE__, #cond), false))

static inline int ktap_exit(void)
{
	printf("# Totals: pass:%u fail:%u skip:%u\n",
	       ktap_num - ktap_failed - ktap_skipped, ktap_failed,
	       ktap_skipped);
	fflush(stdout);
	exit(ktap_failed ? 1 : 0);
}

#endif /* _AMPSOC_KTAP_USER_H */

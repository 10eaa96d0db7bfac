/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logging: text goes to the SDK's trace buffer (what Linux reads) and, a
 * line at a time, to the core's console (what the SoC model logs).
 */
#ifndef _AMP_LOG_H
#define _AMP_LOG_H

#include <stdarg.h>
#include <stdint.h>

/* Format one line into the trace buffer only (a newline is added). */
void amp_trace_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Format one line to the trace buffer and the console (a newline is added). */
void amp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flush a partial printf() line to the console. */
void amp_log_flush(void);

#endif /* _AMP_LOG_H */

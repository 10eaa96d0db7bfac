// SPDX-License-Identifier: GPL-2.0
/*
 * printf() and friends: every byte goes to the SDK's trace buffer; the
 * console gets whole lines (the boot ROM writes one line per call).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/ampsoc/bootrom.h>
#include <amp/log.h>
#include <amp/platform.h>
#include <amp/trace.h>

static char line[AMPSOC_BOOTROM_LINE_MAX];
static uint32_t line_len;

void amp_log_flush(void)
{
	if (line_len)
		platform_console(line, line_len);
	line_len = 0;
}

static void emit(const char *s, uint32_t len, bool console)
{
	uint32_t i;

	amp_trace_write(&amp_trace0, s, len);
	if (!console)
		return;
	for (i = 0; i < len; i++) {
		if (s[i] == '\n') {
			platform_console(line, line_len);
			line_len = 0;
			continue;
		}
		if (line_len == sizeof(line))
			amp_log_flush();
		line[line_len++] = s[i];
	}
}

static void vline(bool console, const char *fmt, va_list ap)
{
	char buf[AMPSOC_BOOTROM_LINE_MAX + 1];
	int n;

	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	emit(buf, n, console);
}

void amp_trace_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(false, fmt, ap);
	va_end(ap);
}

void amp_log(const char *fmt, ...)
{
	va_list ap;

	amp_log_flush();
	va_start(ap, fmt);
	vline(true, fmt, ap);
	va_end(ap);
}

int vprintf(const char *fmt, va_list ap)
{
	char buf[512];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	emit(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1, true);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	emit(s, strlen(s), true);
	emit("\n", 1, true);
	return 0;
}

int putchar(int c)
{
	char ch = c;

	emit(&ch, 1, true);
	return (unsigned char)c;
}

void exit(int code)
{
	amp_log_flush();
	platform_exit(code);
}

void abort(void)
{
	amp_log_flush();
	platform_abort();
}

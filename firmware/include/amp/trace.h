/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace buffers: text that Linux reads through debugfs
 * (/sys/kernel/debug/remoteproc/remoteprocN/traceM), described to Linux by
 * an AMPSOC_RSC_TRACE resource.
 *
 * Linux shows a trace buffer as a C string: the bytes up to the first NUL,
 * at most the buffer's length. The writer keeps that view useful:
 *  - the last byte of the buffer is always NUL;
 *  - until the buffer first fills, the text is followed by NULs, so Linux
 *    shows exactly what was written;
 *  - then it wraps: writing continues at the start, overwriting the oldest
 *    text, and Linux shows the whole buffer (the newest text ends just
 *    before amp_trace.pos, the oldest begins there).
 */
#ifndef _AMP_TRACE_H
#define _AMP_TRACE_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct amp_trace - a trace buffer's writer
 * @buf: the buffer, at the device address given in the resource table
 * @size: its length as given in the resource table
 * @pos: where the next byte goes
 * @wrapped: the buffer has filled at least once
 */
struct amp_trace {
	char *buf;
	uint32_t size;
	uint32_t pos;
	bool wrapped;
};

/* Take over @buf of @size bytes and clear it. @size < 2 disables tracing. */
void amp_trace_init(struct amp_trace *t, void *buf, uint32_t size);
/* Append @len bytes; NUL bytes in @s are stored as spaces. */
void amp_trace_write(struct amp_trace *t, const char *s, uint32_t len);

/* The SDK's own trace buffer (AMP_RSC_TRACE_INIT), set up at startup. */
extern struct amp_trace amp_trace0;

#endif /* _AMP_TRACE_H */

// SPDX-License-Identifier: GPL-2.0
/* Trace-buffer writer: see <amp/trace.h> for what Linux sees. */
#include <string.h>

#include <amp/trace.h>

void amp_trace_init(struct amp_trace *t, void *buf, uint32_t size)
{
	t->buf = buf;
	t->size = size >= 2 ? size : 0;
	t->pos = 0;
	t->wrapped = false;
	if (t->size)
		memset(buf, 0, size);
}

void amp_trace_write(struct amp_trace *t, const char *s, uint32_t len)
{
	char *buf = t->buf;
	uint32_t last = t->size - 1;	/* index of the final NUL */

	if (!t->size)
		return;
	while (len--) {
		char c = *s++;

		buf[t->pos++] = c ? c : ' ';
		if (t->pos == last) {
			t->pos = 0;
			t->wrapped = true;
		}
	}
	/* Before the first wrap the byte at pos is still NUL from init. */
	buf[last] = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the firmware SDK's trace-buffer writer (lib/trace.c):
 * what Linux's debugfs reader (strnlen over the buffer) sees before and
 * after the ring wraps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ktap_user.h>
#include <amp/trace.h>

#define SIZE 64

/* The text as a ring reader sees it: oldest (at pos) first. */
static void unrotate(const struct amp_trace *t, char *out)
{
	uint32_t last = t->size - 1;

	memcpy(out, t->buf + t->pos, last - t->pos);
	memcpy(out + last - t->pos, t->buf, t->pos);
	out[last] = 0;
}

int main(void)
{
	char buf[SIZE + 8], text[SIZE], stream[4096];
	struct amp_trace t;
	size_t len = 0;
	bool ok = true;

	ktap_plan(8);

	memset(buf, 'x', sizeof(buf));
	amp_trace_init(&t, buf, SIZE);
	ktap_ok(strnlen(buf, SIZE) == 0 && buf[SIZE - 1] == 0 && buf[SIZE] == 'x',
		"init_clears_exactly_the_buffer");

	amp_trace_write(&t, "hello\n", 6);
	amp_trace_write(&t, "world\n", 6);
	ktap_ok(strnlen(buf, SIZE) == 12 && !strcmp(buf, "hello\nworld\n") &&
		!t.wrapped, "before_wrap_linux_sees_the_text");

	amp_trace_write(&t, "a\0b", 3);
	ktap_ok(!memcmp(buf + 12, "a b", 3), "nul_stored_as_space");

	/* Fill up to exactly the last usable byte: pos wraps to 0. */
	amp_trace_init(&t, buf, SIZE);
	memset(text, 'f', SIZE - 1);
	amp_trace_write(&t, text, SIZE - 1);
	ktap_ok(t.wrapped && t.pos == 0 && strnlen(buf, SIZE) == SIZE - 1 &&
		buf[SIZE - 1] == 0 && buf[SIZE] == 'x', "full_buffer_wraps_and_stays_terminated");

	amp_trace_write(&t, "NEW", 3);
	ktap_ok(!memcmp(buf, "NEWfff", 6) && strnlen(buf, SIZE) == SIZE - 1 &&
		t.pos == 3, "after_wrap_newest_overwrites_oldest");

	/* Random writes: the ring always holds the stream's last SIZE-1 bytes. */
	amp_trace_init(&t, buf, SIZE);
	srand(1);
	for (int i = 0; i < 200 && ok; i++) {
		char chunk[100];
		size_t n = rand() % sizeof(chunk);

		for (size_t j = 0; j < n; j++)
			chunk[j] = 'A' + (i + j) % 26;
		if (len + n > sizeof(stream))
			break;
		memcpy(stream + len, chunk, n);
		len += n;
		amp_trace_write(&t, chunk, n);
		ok &= KTAP_CHECK(buf[SIZE - 1] == 0 && buf[SIZE] == 'x');
		if (len < SIZE - 1) {
			ok &= KTAP_CHECK(strnlen(buf, SIZE) == len &&
					 !memcmp(buf, stream, len));
		} else {
			unrotate(&t, text);
			ok &= KTAP_CHECK(!memcmp(text, stream + len - (SIZE - 1), SIZE - 1));
		}
	}
	ktap_diag("%zu bytes through a %d-byte ring", len, SIZE);
	ktap_ok(ok && len > 10 * SIZE, "ring_keeps_the_newest_bytes");

	memset(buf, 'x', sizeof(buf));
	amp_trace_init(&t, buf, 1);
	amp_trace_write(&t, "abc", 3);
	ktap_ok(buf[0] == 'x' && t.size == 0, "tiny_buffer_disables_tracing");

	amp_trace_init(&t, buf, 2);
	amp_trace_write(&t, "abc", 3);
	ktap_ok(buf[1] == 0 && buf[0] == 'c' && strnlen(buf, 2) == 1,
		"two_byte_buffer_holds_one_char");
	return ktap_exit();
}

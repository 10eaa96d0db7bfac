// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the firmware SDK's libc subset. The build compiles the
 * firmware's string.c and vsnprintf.c freestanding, renames their symbols
 * with a fwlibc_ prefix, and links them here next to the host's libc, which
 * serves as the reference.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ktap_user.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#include "fwlibc.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 3));
}

static void test_mem(void)
{
	uint8_t a[300], b[300], c[300];
	bool ok = true;

	/* Every alignment and length up to 70, checking the bytes around. */
	for (size_t so = 0; so < 9 && ok; so++)
		for (size_t d = 0; d < 9 && ok; d++)
			for (size_t n = 0; n < 70 && ok; n++) {
				fill(a, sizeof(a), n);
				memset(b, 0xaa, sizeof(b));
				memset(c, 0xaa, sizeof(c));
				ok &= fwlibc_memcpy(b + d, a + so, n) == b + d;
				memcpy(c + d, a + so, n);
				ok &= KTAP_CHECK(!memcmp(b, c, sizeof(b)));
			}
	ktap_ok(ok, "memcpy_alignments_and_lengths");

	ok = true;
	for (size_t d = 0; d < 20 && ok; d++)
		for (size_t n = 0; n < 60 && ok; n++) {
			/* forwards and backwards overlap */
			fill(a, sizeof(a), d);
			memcpy(c, a, sizeof(a));
			fwlibc_memmove(a + d, a + 10, n);
			memmove(c + d, c + 10, n);
			ok &= KTAP_CHECK(!memcmp(a, c, sizeof(a)));
		}
	ktap_ok(ok, "memmove_overlaps");

	ok = true;
	for (size_t o = 0; o < 9 && ok; o++)
		for (size_t n = 0; n < 40 && ok; n++) {
			memset(b, 1, sizeof(b));
			memset(c, 1, sizeof(c));
			ok &= fwlibc_memset(b + o, 0x1ff, n) == b + o;
			memset(c + o, 0x1ff, n);
			ok &= KTAP_CHECK(!memcmp(b, c, sizeof(b)));
		}
	ktap_ok(ok, "memset");

	ok = true;
	fill(a, 64, 3);
	memcpy(b, a, 64);
	ok &= fwlibc_memcmp(a, b, 64) == 0 && fwlibc_memcmp(a, b, 0) == 0;
	b[40] = a[40] + 1;
	ok &= fwlibc_memcmp(a, b, 64) < 0 && fwlibc_memcmp(b, a, 64) > 0;
	ok &= fwlibc_memcmp(a, b, 40) == 0;
	a[5] = 0x80;	/* bytes compare unsigned */
	b[5] = 0x7f;
	ok &= fwlibc_memcmp(a, b, 64) > 0;
	ktap_ok(ok, "memcmp");

	{
		static const char s[] = "abcabc";

		ok = fwlibc_memchr(s, 'c', 6) == s + 2 &&
		     !fwlibc_memchr(s, 'c', 2) &&
		     fwlibc_memchr(s, 0, 7) == s + 6 &&
		     fwlibc_memchr(s, 'a' + 256, 6) == s;
	}
	ktap_ok(ok, "memchr");
}

static void test_str(void)
{
	static const char *const words[] = {
		"", "a", "ab", "abc", "abd", "b", "\x80", "abcdefghijklmnop",
	};
	char buf[32];
	bool ok = true;

	ok &= fwlibc_strlen("") == 0 && fwlibc_strlen("hello") == 5;
	ok &= fwlibc_strnlen("hello", 3) == 3 && fwlibc_strnlen("hello", 9) == 5 &&
	      fwlibc_strnlen("hello", 0) == 0;
	ktap_ok(ok, "strlen_strnlen");

	ok = true;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		for (size_t j = 0; j < ARRAY_SIZE(words); j++) {
			ok &= KTAP_CHECK(sign(fwlibc_strcmp(words[i], words[j])) ==
					 sign(strcmp(words[i], words[j])));
			for (size_t n = 0; n < 5; n++)
				ok &= KTAP_CHECK(sign(fwlibc_strncmp(words[i], words[j], n)) ==
						 sign(strncmp(words[i], words[j], n)));
		}
	ktap_ok(ok, "strcmp_strncmp_match_libc");

	{
		static const char s[] = "a/b/c";

		ok = fwlibc_strchr(s, '/') == s + 1 && fwlibc_strrchr(s, '/') == s + 3 &&
		     !fwlibc_strchr(s, 'x') && !fwlibc_strrchr(s, 'x') &&
		     fwlibc_strchr(s, 0) == s + 5 && fwlibc_strrchr(s, 0) == s + 5;
	}
	ktap_ok(ok, "strchr_strrchr");

	memset(buf, 'x', sizeof(buf));
	ok = fwlibc_strncpy(buf, "abc", 8) == buf && !memcmp(buf, "abc\0\0\0\0\0x", 9);
	memset(buf, 'x', sizeof(buf));
	fwlibc_strncpy(buf, "abcdef", 3);
	ok &= !memcmp(buf, "abcx", 4);
	ktap_ok(ok, "strncpy_pads_and_truncates");
}

static unsigned int total, bad;

/* Compare the SDK's snprintf with the host's, whole and truncated. */
static void check_fmt(const char *fmt, ...)
{
	char want[256], got[256];
	va_list ap, aq;
	int wn, gn;

	va_start(ap, fmt);
	va_copy(aq, ap);
	wn = vsnprintf(want, sizeof(want), fmt, aq);
	va_end(aq);
	va_copy(aq, ap);
	gn = fwlibc_vsnprintf(got, sizeof(got), fmt, aq);
	va_end(aq);
	total++;
	if (wn != gn || strcmp(want, got)) {
		ktap_diag("format \"%s\": want \"%s\" (%d), got \"%s\" (%d)",
			  fmt, want, wn, got, gn);
		bad++;
	}
	for (size_t sz = 0; sz < 6; sz++) {
		memset(got, 'z', sizeof(got));
		va_copy(aq, ap);
		gn = fwlibc_vsnprintf(got, sz, fmt, aq);
		va_end(aq);
		va_copy(aq, ap);
		vsnprintf(want, sz, fmt, aq);
		va_end(aq);
		if (gn != wn || (sz && strcmp(want, got)) || (!sz && got[0] != 'z')) {
			ktap_diag("format \"%s\" size %zu: want \"%s\", got \"%.8s\"",
				  fmt, sz, sz ? want : "", got);
			bad++;
		}
	}
	va_end(ap);
}

#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#pragma GCC diagnostic ignored "-Wformat"

static void test_printf(void)
{
	char big[300];

	check_fmt("plain text%s", "");
	check_fmt("%d %i %d %d", 0, -1, 2147483647, (-2147483647 - 1));
	check_fmt("%u %u", 0u, 4294967295u);
	check_fmt("%x %X %o", 0xdeadbeefu, 0xabcu, 0755u);
	check_fmt("%#x %#X %#o %#o %#x", 0x1fu, 0x1fu, 8u, 0u, 0u);
	check_fmt("[%5d] [%-5d] [%05d] [%+d] [% d] [%+5d]", 42, 42, -42, 42, 42, -7);
	check_fmt("[%.3d] [%.0d] [%5.3d] [%-8.3x] [%08.3d]", 7, 0, -7, 0xau, 5);
	check_fmt("[%*d] [%-*d] [%.*d] [%*d]", 6, 1, 6, 2, 4, 3, -6, 4);
	check_fmt("%ld %lu %lx", -1234567890123L, 18446744073709551615UL, 0x123456789abcUL);
	check_fmt("%lld %llu %llx", -9223372036854775807LL - 1,
		  18446744073709551615ULL, 0xfedcba9876543210ULL);
	check_fmt("%hd %hu %hhd %hhu %hhx", 70000, 70000u, 300, 300u, 0x1ffu);
	check_fmt("%zu %zd %zx %td %jd", (size_t)12345, (ssize_t)-5,
		  (size_t)0xabc, (ptrdiff_t)-99, (intmax_t)1 << 40);
	check_fmt("[%s] [%10s] [%-10s] [%.2s] [%10.2s] [%.*s]", "abc", "abc",
		  "abc", "abc", "abc", 1, "abc");
	check_fmt("[%c] [%3c] [%-3c]", 'x', 'y', 'z');
	check_fmt("%p %p", (void *)0x10001000, (void *)0);
	check_fmt("100%% %d%%", 5);
	check_fmt("%s", "a string that is longer than the short sizes");
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	{
		char got[64];
		int n = fwlibc_snprintf(got, sizeof(got), "<%s>", big);

		total++;
		if (n != (int)sizeof(big) + 1 || strlen(got) != sizeof(got) - 1)
			bad++;
	}
	ktap_diag("%u formats, %u mismatches", total, bad);
	ktap_ok(bad == 0, "snprintf_matches_libc");

	/* Unknown conversions are copied, not consumed. */
	{
		char got[64];
		int n = fwlibc_snprintf(got, sizeof(got), "a%qb%d", 5);

		ktap_ok(!strcmp(got, "a%qb5") && n == 5, "snprintf_unknown_conversion");
	}
}

int main(void)
{
	ktap_plan(11);
	test_mem();
	test_str();
	test_printf();
	return ktap_exit();
}

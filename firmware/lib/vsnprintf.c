// SPDX-License-Identifier: GPL-2.0
/*
 * vsnprintf() of the firmware SDK's libc subset: C99 semantics for the
 * integer, character, string and pointer conversions; no floating point.
 * An unknown conversion is printed as is, so a bad format never reads a
 * stray argument.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct out {
	char *buf;
	size_t size;
	size_t len;	/* what would have been written */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };

static void put_str(struct out *o, const char *s, int width, int prec,
		    unsigned int flags)
{
	size_t n;

	if (!s)
		s = "(null)";
	n = prec >= 0 ? strnlen(s, prec) : strlen(s);
	if (!(flags & F_LEFT))
		pad(o, ' ', width - (int)n);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (flags & F_LEFT)
		pad(o, ' ', width - (int)n);
}

static void put_num(struct out *o, uintmax_t v, bool neg, unsigned int base,
		    bool upper, int width, int prec, unsigned int flags)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24], sign = 0;
	const char *prefix = "";
	int n = 0, zeros, total;

	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	if (prec < 0)
		prec = 1;
	else
		flags &= ~F_ZERO;	/* a precision overrides the 0 flag */
	zeros = prec > n ? prec - n : 0;
	if (neg)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	if (flags & F_ALT) {
		if (base == 16 && n)
			prefix = upper ? "0X" : "0x";
		else if (base == 8 && zeros == 0)
			zeros = 1;	/* %#o: the first digit is a 0 */
	}
	total = n + zeros + (sign ? 1 : 0) + (int)strlen(prefix);
	if ((flags & F_ZERO) && !(flags & F_LEFT) && width > total) {
		zeros += width - total;
		total = width;
	}
	if (!(flags & F_LEFT))
		pad(o, ' ', width - total);
	if (sign)
		put(o, sign);
	for (; *prefix; prefix++)
		put(o, *prefix);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		pad(o, ' ', width - total);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	while (*fmt) {
		const char *start = fmt;
		unsigned int flags = 0, base = 10;
		int width = 0, prec = -1, lmod = 0;
		bool is_signed = false, upper = false;
		uintmax_t u;
		intmax_t s;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				flags |= F_LEFT;
			else if (*fmt == '0')
				flags |= F_ZERO;
			else if (*fmt == '+')
				flags |= F_PLUS;
			else if (*fmt == ' ')
				flags |= F_SPACE;
			else if (*fmt == '#')
				flags |= F_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = width == (-__INT_MAX__ - 1) ? 0 : -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9' && width < 100000)
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				if (prec < 0)
					prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9' && prec < 100000)
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		/* lmod: -2 hh, -1 h, 0 int, 1 long, 2 long long/intmax/size */
		switch (*fmt) {
		case 'h':
			lmod = -1;
			if (*++fmt == 'h') {
				lmod = -2;
				fmt++;
			}
			break;
		case 'l':
			lmod = 1;
			if (*++fmt == 'l') {
				lmod = 2;
				fmt++;
			}
			break;
		case 'z':
		case 't':
		case 'j':
			lmod = 2;
			fmt++;
			break;
		}
		if (flags & F_LEFT)
			flags &= ~F_ZERO;
		switch (*fmt) {
		case 'd':
		case 'i':
			is_signed = true;
			break;
		case 'u':
			break;
		case 'o':
			base = 8;
			break;
		case 'X':
			upper = true;
			/* fall through */
		case 'x':
			base = 16;
			break;
		case 'p': {
			void *p = va_arg(ap, void *);

			if (p)
				put_num(&o, (uintptr_t)p, false, 16, false,
					width, prec, flags | F_ALT);
			else
				put_str(&o, "(nil)", width, -1, flags);
			fmt++;
			continue;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);

			if (!(flags & F_LEFT))
				pad(&o, ' ', width - 1);
			put(&o, c);
			if (flags & F_LEFT)
				pad(&o, ' ', width - 1);
			fmt++;
			continue;
		}
		case 's':
			put_str(&o, va_arg(ap, const char *), width, prec, flags);
			fmt++;
			continue;
		case '%':
			put(&o, '%');
			fmt++;
			continue;
		default:
			/* Unknown: copy the directive verbatim. */
			while (start < fmt)
				put(&o, *start++);
			if (*fmt)
				put(&o, *fmt++);
			continue;
		}
		fmt++;
		if (is_signed) {
			if (lmod == 2)
				s = va_arg(ap, long long);
			else if (lmod == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lmod == -1)
				s = (short)s;
			else if (lmod == -2)
				s = (signed char)s;
			u = s < 0 ? -(uintmax_t)s : (uintmax_t)s;
			put_num(&o, u, s < 0, base, upper, width, prec, flags);
		} else {
			if (lmod == 2)
				u = va_arg(ap, unsigned long long);
			else if (lmod == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lmod == -1)
				u = (unsigned short)u;
			else if (lmod == -2)
				u = (unsigned char)u;
			put_num(&o, u, false, base, upper, width, prec,
				flags & ~(F_PLUS | F_SPACE));
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return o.len > __INT_MAX__ ? __INT_MAX__ : (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

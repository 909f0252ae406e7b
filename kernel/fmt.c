/*
 * fmt.c: printf-style formatter, freestanding and pure (see fmt.h for what it supports).
 * Numbers are produced into a small stack buffer, so there is no allocation and no recursion.
 */
#include "kernel/fmt.h"

#include <stdbool.h>
#include <stdint.h>

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };

struct spec {
	unsigned flags;
	int width;
	int prec; /* -1: none */
};

static void pad(fmt_sink_fn sink, void *ctx, char c, int n, int *total)
{
	static const char spaces[16] = "                ";
	static const char zeros[16] = "0000000000000000";
	const char *src = c == '0' ? zeros : spaces;

	while (n > 0) {
		int k = n > 16 ? 16 : n;

		sink(ctx, src, (size_t)k);
		*total += k;
		n -= k;
	}
}

static void emit(fmt_sink_fn sink, void *ctx, const char *s, size_t n, int *total)
{
	if (n) {
		sink(ctx, s, n);
		*total += (int)n;
	}
}

static void put_str(fmt_sink_fn sink, void *ctx, const struct spec *sp, const char *s, int *total)
{
	size_t n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->prec < 0 || n < (size_t)sp->prec))
		n++;
	if (!(sp->flags & F_LEFT))
		pad(sink, ctx, ' ', sp->width - (int)n, total);
	emit(sink, ctx, s, n, total);
	if (sp->flags & F_LEFT)
		pad(sink, ctx, ' ', sp->width - (int)n, total);
}

static void put_num(fmt_sink_fn sink, void *ctx, const struct spec *sp, uint64_t v,
		    bool negative, unsigned base, bool upper, const char *prefix, int *total)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char buf[24];
	int n = 0, zeros = 0, plen = 0, len;
	char sign = 0;

	while (v) {
		buf[sizeof(buf) - 1 - n++] = digits[v % base];
		v /= base;
	}
	if (n == 0 && sp->prec != 0)
		buf[sizeof(buf) - 1 - n++] = '0';
	if (sp->prec > n)
		zeros = sp->prec - n;
	if (negative)
		sign = '-';
	else if (sp->flags & F_PLUS)
		sign = '+';
	else if (sp->flags & F_SPACE)
		sign = ' ';
	while (prefix && prefix[plen])
		plen++;
	len = n + zeros + (sign ? 1 : 0) + plen;
	if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->prec < 0 && sp->width > len) {
		zeros += sp->width - len;
		len = sp->width;
	}
	if (!(sp->flags & F_LEFT))
		pad(sink, ctx, ' ', sp->width - len, total);
	if (sign)
		emit(sink, ctx, &sign, 1, total);
	emit(sink, ctx, prefix ? prefix : "", (size_t)plen, total);
	pad(sink, ctx, '0', zeros, total);
	emit(sink, ctx, buf + sizeof(buf) - n, (size_t)n, total);
	if (sp->flags & F_LEFT)
		pad(sink, ctx, ' ', sp->width - len, total);
}

static const char *parse_int(const char *p, int *out)
{
	int v = 0;

	while (*p >= '0' && *p <= '9') {
		if (v < 100000)
			v = v * 10 + (*p - '0');
		p++;
	}
	*out = v;
	return p;
}

int fmt_vformat(fmt_sink_fn sink, void *ctx, const char *fmt, va_list ap)
{
	int total = 0;

	while (*fmt) {
		const char *start = fmt;
		struct spec sp = { 0, 0, -1 };
		int lng = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char */
		uint64_t u;
		int64_t s;

		while (*fmt && *fmt != '%')
			fmt++;
		emit(sink, ctx, start, (size_t)(fmt - start), &total);
		if (!*fmt)
			break;
		start = fmt++; /* the conversion, for the error cases below */
		for (;; fmt++) {
			if (*fmt == '-')
				sp.flags |= F_LEFT;
			else if (*fmt == '0')
				sp.flags |= F_ZERO;
			else if (*fmt == '+')
				sp.flags |= F_PLUS;
			else if (*fmt == ' ')
				sp.flags |= F_SPACE;
			else if (*fmt == '#')
				sp.flags |= F_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.flags |= F_LEFT;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			fmt = parse_int(fmt, &sp.width);
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				if (sp.prec < 0)
					sp.prec = -1;
				fmt++;
			} else {
				fmt = parse_int(fmt, &sp.prec);
			}
		}
		for (;; fmt++) {
			if (*fmt == 'l')
				lng = lng >= 1 ? 2 : 1;
			else if (*fmt == 'h')
				lng = lng == -1 ? -2 : -1;
			else if (*fmt == 'z' || *fmt == 'j' || *fmt == 't')
				lng = 2;
			else
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng == 2)
				s = va_arg(ap, long long);
			else if (lng == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng == -2)
				s = (signed char)s;
			u = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
			put_num(sink, ctx, &sp, u, s < 0, 10, false, NULL, &total);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng == 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng == -2)
				u = (unsigned char)u;
			if (*fmt == 'u')
				put_num(sink, ctx, &sp, u, false, 10, false, NULL, &total);
			else if (*fmt == 'o')
				put_num(sink, ctx, &sp, u, false, 8, false,
					(sp.flags & F_ALT) && u ? "0" : NULL, &total);
			else
				put_num(sink, ctx, &sp, u, false, 16, *fmt == 'X',
					(sp.flags & F_ALT) && u ? (*fmt == 'X' ? "0X" : "0x") : NULL,
					&total);
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			put_num(sink, ctx, &sp, u, false, 16, false, "0x", &total);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			if (!(sp.flags & F_LEFT))
				pad(sink, ctx, ' ', sp.width - 1, &total);
			emit(sink, ctx, &c, 1, &total);
			if (sp.flags & F_LEFT)
				pad(sink, ctx, ' ', sp.width - 1, &total);
			break;
		}
		case 's':
			put_str(sink, ctx, &sp, va_arg(ap, const char *), &total);
			break;
		case '%':
			emit(sink, ctx, "%", 1, &total);
			break;
		case '\0': /* format ends inside a conversion: print what was there */
			emit(sink, ctx, start, (size_t)(fmt - start), &total);
			return total;
		default: /* unknown conversion: print it as written */
			emit(sink, ctx, start, (size_t)(fmt - start + 1), &total);
			break;
		}
		fmt++;
	}
	return total;
}

int fmt_format(fmt_sink_fn sink, void *ctx, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vformat(sink, ctx, fmt, ap);
	va_end(ap);
	return n;
}

struct sn_ctx {
	char *buf;
	size_t size, pos;
};

static void sn_sink(void *ctx, const char *s, size_t n)
{
	struct sn_ctx *c = ctx;

	for (size_t i = 0; i < n; i++, c->pos++)
		if (c->size && c->pos < c->size - 1)
			c->buf[c->pos] = s[i];
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sn_ctx c = { buf, size, 0 };
	int n = fmt_vformat(sn_sink, &c, fmt, ap);

	if (size)
		buf[c.pos < size - 1 ? c.pos : size - 1] = '\0';
	return n;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/*
 * kprintf.c: printf-style output to the console (kernel/console.h). Kept apart from
 * console.c so the host builds (tests/stubs/console.c, tools) supply only console_write.
 * The text is gathered in a small buffer and handed to console_write whole (a line of up to
 * KPRINTF_CHUNK bytes in one write), so a line is never split between two CPUs' output.
 */
#include "kernel/console.h"
#include "kernel/fmt.h"

#include <string.h>

#define KPRINTF_CHUNK 256

struct kbuf {
	char b[KPRINTF_CHUNK];
	size_t n;
};

static void console_sink(void *ctx, const char *s, size_t n)
{
	struct kbuf *k = ctx;

	while (n) {
		size_t m = sizeof(k->b) - k->n;

		if (m > n)
			m = n;
		memcpy(k->b + k->n, s, m);
		k->n += m;
		s += m;
		n -= m;
		if (k->n == sizeof(k->b)) {
			console_write(k->b, k->n);
			k->n = 0;
		}
	}
}

int kprintf(const char *fmt, ...)
{
	struct kbuf k;
	va_list ap;
	int n;

	k.n = 0;
	va_start(ap, fmt);
	n = fmt_vformat(console_sink, &k, fmt, ap);
	va_end(ap);
	if (k.n)
		console_write(k.b, k.n);
	return n;
}

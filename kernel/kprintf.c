/*
 * kprintf.c: printf-style output to the console (kernel/console.h). Kept apart from
 * console.c so the host builds (tests/stubs/console.c, tools) supply only console_write.
 */
#include "kernel/console.h"
#include "kernel/fmt.h"

static void console_sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vformat(console_sink, NULL, fmt, ap);
	va_end(ap);
	return n;
}

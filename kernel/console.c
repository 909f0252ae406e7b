/*
 * console.c: fan-out of kernel output to the registered backends, plus kprintf.
 */
#include "kernel/console.h"
#include "kernel/fmt.h"

static struct console_backend *backends;

void console_register(struct console_backend *be)
{
	struct console_backend **p = &backends;

	while (*p && *p != be)
		p = &(*p)->next;
	if (!*p) {
		be->next = NULL;
		*p = be;
	}
}

void console_write(const char *s, size_t n)
{
	for (struct console_backend *be = backends; be; be = be->next)
		be->write(be, s, n);
}

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

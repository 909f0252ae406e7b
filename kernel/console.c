/*
 * console.c: fan-out of kernel output to the registered backends (kprintf: kprintf.c).
 */
#include "kernel/console.h"

static struct console_backend *backends;
static void (*hold)(const char *s, size_t n);

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

void console_set_hold(void (*fn)(const char *s, size_t n))
{
	hold = fn;
}

void console_write(const char *s, size_t n)
{
	if (hold)
		hold(s, n);
	else
		console_emit(s, n);
}

void console_emit(const char *s, size_t n)
{
	for (struct console_backend *be = backends; be; be = be->next)
		be->write(be, s, n);
}

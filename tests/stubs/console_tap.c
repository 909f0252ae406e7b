/* console_tap.c: the capturing console backend of console_tap.h. */
#include "tests/stubs/console_tap.h"
#include "kernel/console.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static char *text;
static size_t len, cap;

static void tap_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	if (len + n + 1 > cap) {
		cap = (len + n + 1) * 2;
		text = realloc(text, cap);
		if (!text)
			abort();
	}
	memcpy(text + len, s, n);
	len += n;
	text[len] = '\0';
}

static struct console_backend tap = { .name = "capture", .write = tap_write };

void console_tap_reset(void)
{
	static bool registered;

	if (!registered)
		console_register(&tap);
	registered = true;
	len = 0;
	if (text)
		text[0] = '\0';
}

const char *console_tap_text(void)
{
	return text ? text : "";
}

size_t console_tap_len(void)
{
	return len;
}

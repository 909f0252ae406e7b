/*
 * console.c (host stub): console_write for host tests (kprintf comes from kernel/kprintf.c). Output is captured in a buffer
 * the test can inspect (stub_console_text) and echoed to stderr when TEST_PRINT=1.
 */
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "stubs/console_capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *text;
static size_t len, cap;

void console_register(struct console_backend *be)
{
	(void)be;
}

void console_write(const char *s, size_t n)
{
	static int echo = -1;

	if (echo < 0)
		echo = getenv("TEST_PRINT") != NULL;
	if (echo)
		fwrite(s, 1, n, stderr);
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

const char *stub_console_text(void)
{
	return text ? text : "";
}

void stub_console_reset(void)
{
	len = 0;
	if (text)
		text[0] = '\0';
}

/*
 * console.h: where everything the kernel prints goes. Output fans out to every registered
 * console backend (serial ports, later the framebuffer); "\n" becomes CRLF on serial.
 * Host tests link tests/stubs/console.c instead, which captures the text.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

struct console_backend {
	const char *name;
	void (*write)(struct console_backend *be, const char *s, size_t n);
	void *priv;
	struct console_backend *next;
};

void console_register(struct console_backend *be);
void console_write(const char *s, size_t n);
/* While a hold function is set, console_write hands it the text instead of the backends
 * (kernel/ktap.c holds a test's output until its plan is known); NULL ends the hold.
 * console_emit always writes to the backends. */
void console_set_hold(void (*fn)(const char *s, size_t n));
void console_emit(const char *s, size_t n);
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

/*
 * console.h: where everything the kernel prints goes. Output fans out to every registered
 * console backend (serial ports, later the framebuffer); "\n" becomes CRLF on serial.
 * Host tests link tests/stubs/console.c instead, which captures the text.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

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
/*
 * The console lock (console.c): with one CPU (no console_set_cpu) these do nothing. After
 * console_set_cpu(id, now, bound) every write and emit holds it; console_lock/unlock around
 * several writes keep them together (a register dump); the holder may take it again. A CPU
 * that waits past `bound` units of now() takes it over, counts it (console_forced) and prints
 * a "# console:" line. console_unlock_all drops this CPU's hold at any depth (an AP whose call
 * faulted inside a write and was unwound).
 */
void console_set_cpu(unsigned (*id)(void), uint64_t (*now)(void), uint64_t bound);
void console_lock(void);
void console_unlock(void);
void console_unlock_all(void);
unsigned console_forced(void);
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

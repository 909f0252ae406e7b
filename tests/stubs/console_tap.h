/*
 * console_tap.h: for host tests that link the real console (kernel/console.c: its hold and
 * emit, which kernel/ktap.c uses) instead of tests/stubs/console.c: a backend registered on
 * the first reset that keeps everything written, for the test to read.
 */
#ifndef STUBS_CONSOLE_TAP_H
#define STUBS_CONSOLE_TAP_H

#include <stddef.h>

/* Register the backend (once) and empty what it kept. */
void console_tap_reset(void);
/* What reached the console since the last reset, NUL-terminated. */
const char *console_tap_text(void);
size_t console_tap_len(void);

#endif

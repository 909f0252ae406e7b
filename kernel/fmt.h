/*
 * fmt.h: freestanding printf-style formatting into a sink (no libc). Pure: the kernel's
 * console, the host tests and the host tools all use this same code.
 * Conversions: %d %i %u %x %X %o %c %s %p %%; flags - 0 + space #; width and precision
 * (also as *); length h hh l ll z j t.
 */
#ifndef KERNEL_FMT_H
#define KERNEL_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* A sink receives n bytes at a time (not NUL-terminated). */
typedef void (*fmt_sink_fn)(void *ctx, const char *s, size_t n);

/* Returns the number of bytes produced. */
int fmt_vformat(fmt_sink_fn sink, void *ctx, const char *fmt, va_list ap);
int fmt_format(fmt_sink_fn sink, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* snprintf semantics: always NUL-terminates when size > 0; returns the untruncated length. */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

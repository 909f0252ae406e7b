/*
 * string.h: the few libc string functions the freestanding kernel provides (kernel/string.c).
 * Pure modules include <string.h> and get this in the kernel build and libc's on the host.
 */
#ifndef FREESTANDING_STRING_H
#define FREESTANDING_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);

#endif

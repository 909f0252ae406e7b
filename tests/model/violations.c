/*
 * violations.c: the models' violation lists (see violations.h).
 */
#include "model/violations.h"

#include <stdio.h>
#include <string.h>

bool viol_addv(char *tab, size_t width, unsigned *n, unsigned max, char *b, const char *fmt,
	       va_list ap)
{
	vsnprintf(b, width, fmt, ap);
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(tab + i * width, b))
			return false;
	if (*n < max)
		memcpy(tab + (*n)++ * width, b, width);
	return true;
}

bool viol_has(const char *tab, size_t width, unsigned n, const char *substr)
{
	for (unsigned i = 0; i < n; i++)
		if (strstr(tab + i * width, substr))
			return true;
	return false;
}

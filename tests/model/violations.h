/*
 * violations.h: the list of distinct rule violations a hardware model keeps (the PMU model,
 * pmu_model.h; the IBS model, ibs_model.h): a table of `max` strings of `width` bytes each,
 * every message at most once, in the order first seen.
 */
#ifndef MODEL_VIOLATIONS_H
#define MODEL_VIOLATIONS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Format the message into b (width bytes); store it unless the table holds it already or is
 * full. True when it was not a duplicate (new, stored or not). */
bool viol_addv(char *tab, size_t width, unsigned *n, unsigned max, char *b, const char *fmt,
	       va_list ap);
/* True when one of the n stored messages contains substr. */
bool viol_has(const char *tab, size_t width, unsigned n, const char *substr);

#endif

/*
 * ranges.h: a set of numbers written as ranges ("0-3,5,8-11"), the compact form of per-CPU
 * and per-node lists in the log at any CPU count (docs/output.md "smp"). Pure C. Numbers
 * are added in ascending order; a run of consecutive numbers becomes one range. The text
 * stops before it would pass the buffer and then ends in "..." (ASCII only: the framebuffer
 * font has nothing else), so a list of any length costs at most the buffer.
 */
#ifndef KERNEL_RANGES_H
#define KERNEL_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ranges {
	char *buf;
	size_t size, len;	/* buffer size (>= 4), bytes written */
	uint32_t lo, hi;	/* the open range */
	unsigned count;		/* numbers added */
	bool open, cut;
};

void ranges_init(struct ranges *r, char *buf, size_t size);
/* Add v (> the last one added: a number out of order or repeated starts a new range). */
void ranges_add(struct ranges *r, uint32_t v);
/* Close the open range; the text ("-" for an empty set). */
const char *ranges_end(struct ranges *r);

#endif

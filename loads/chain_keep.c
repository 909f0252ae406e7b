/*
 * chain_keep.c: the keep/reuse rules for load-kernel chains (see chain_keep.h).
 */
#include "loads/chain_keep.h"

#include <string.h>

enum keep_act keep_decide(const struct keep_set *s, uint64_t bytes, bool keepable,
			  uint64_t free_bytes, bool in_use)
{
	uint64_t room = (free_bytes + s->bytes) / KEEP_FREE_SHARE;	/* all that may be kept */
	bool slot = false;

	if (room > KEEP_MAX_BYTES)
		room = KEEP_MAX_BYTES;
	if (!keepable || !bytes || bytes > room)
		return KEEP_NO;
	for (unsigned i = 0; i < KEEP_SLOTS; i++)
		slot |= !s->e[i].used;
	if (slot && s->bytes + bytes <= room)
		return KEEP_ADD;
	return in_use ? KEEP_NO : KEEP_REPLACE;
}

static bool same_key(const struct chain_params *a, const struct chain_params *b)
{
	return a->bytes == b->bytes && a->stride == b->stride && a->line == b->line &&
	       a->page == b->page && a->seed == b->seed && a->vary_slot == b->vary_slot &&
	       a->vary_line == b->vary_line;
}

int keep_find(const struct keep_set *s, const struct chain_params *p)
{
	for (unsigned i = 0; i < KEEP_SLOTS; i++)
		if (s->e[i].used && !s->e[i].spoiled && same_key(&s->e[i].p, p))
			return (int)i;
	return -1;
}

void keep_add(struct keep_set *s, const struct chain_params *p, const struct chain *c,
	      uintptr_t base, uint64_t bytes, const char *by)
{
	for (unsigned i = 0; i < KEEP_SLOTS; i++) {
		struct keep_entry *e = &s->e[i];

		if (e->used)
			continue;
		*e = (struct keep_entry){ .used = true, .p = *p, .chain = *c, .base = base,
					  .bytes = bytes, .by = by };
		s->bytes += bytes;
		return;
	}
}

void keep_clear(struct keep_set *s)
{
	memset(s, 0, sizeof(*s));
}

bool keep_kind_writes(enum chase_kind k)
{
	/* load-only kinds listed, so a new kind counts as storing until listed here */
	return !(k == CHASE_LOAD || k == CHASE_LFB);
}

void keep_spoil(struct keep_set *s, uintptr_t base)
{
	for (unsigned i = 0; i < KEEP_SLOTS; i++) {
		struct keep_entry *e = &s->e[i];

		if (e->used && base >= e->base && base - e->base < e->bytes)
			e->spoiled = true;
	}
}

/*
 * aggbuf.c: one-pass decode + aggregation of a PEBS buffer (see aggbuf.h). Fast path for
 * legacy records (fixed size per format, §4.1/§4.2) and for adaptive records whose
 * size+format_group match the last record the walker fully checked (no counter group, whose
 * size depends on the record's own header, §4.3). Everything else, and every error, goes
 * through pebs_walk_next so the result is identical to the per-record path.
 */
#include "pebs/aggbuf.h"

#include <string.h>

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int pebs_aggbuf_init(struct pebs_aggbuf_ctx *c, const struct pebs_model *m, enum pebs_event ev,
		     unsigned format, uint32_t flags)
{
	struct pebs_dsrc d;

	memset(c, 0, sizeof(*c));
	c->model = m;
	c->event = (uint8_t)ev;
	c->format = (uint8_t)format;
	c->flags = flags;
	/* learn the layout from the decoder itself: which aux bits are code / STLB / lock */
	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = 1ull << b;

		pebs_dsrc_decode(m, ev, bit, &d);
		if (d.code)
			c->code_mask |= bit;
		if (d.stlb_miss == PEBS_YES)
			c->stlb_mask |= bit;
		if (d.locked == PEBS_YES)
			c->lock_mask |= bit;
	}
	if (c->code_mask > 0xff || (c->code_mask & (c->code_mask + 1)) ||
	    (c->stlb_mask & (c->stlb_mask - 1)) || (c->lock_mask & (c->lock_mask - 1)))
		return -1;	/* not a low contiguous code field + single flag bits */
	for (unsigned code = 0; code <= c->code_mask; code++) {
		pebs_dsrc_decode(m, ev, code, &d);
		if (d.code != code)
			return -1;
		c->ls[code][0] = d.level < PEBS_LVL_COUNT ? d.level : PEBS_LVL_NA;
		c->ls[code][1] = d.snoop < PEBS_SNOOP_COUNT ? d.snoop : PEBS_SNOOP_NA;
		c->ls[code][2] = d.remote == PEBS_YES;
	}
	return 0;
}

/*
 * One record with an aux word and (optionally) a latency; mirrors pebs_agg_add (the caller
 * counts a->records). The masks come in as arguments so they stay in registers: stores into
 * *a could otherwise alias the context in the compiler's view.
 */
static inline void add_aux(const uint8_t (*ls)[3], uint64_t code_mask, uint64_t stlb_mask,
			   uint64_t lock_mask, struct pebs_agg *a, uint64_t aux, uint64_t latency)
{
	const uint8_t *e = ls[aux & code_mask];
	struct pebs_agg_level *l = &a->lvl[e[0]];

	pebs_agg_level_add(l, latency);
	l->snoop[e[1]]++;
	l->remote += e[2];
	l->stlb_miss += (aux & stlb_mask) != 0;
	l->locked += (aux & lock_mask) != 0;
}

#define FS_KEY_MASK 0xffff0000ffffffffull	/* size 63:48 + format_group 31:0 */

/*
 * Adaptive records with the memory-info group and the checked shape `key` (size ks) from off
 * while off <= end (= len - ks). split is a constant at each call site, so the loop carries
 * no latency-format test. Returns the offset where the shape stops matching.
 */
static inline __attribute__((always_inline)) size_t
run_meminfo(const struct pebs_aggbuf_ctx *c, struct pebs_agg *a, const uint8_t *p, size_t off,
	    size_t end, size_t ks, uint64_t key, int split)
{
	const uint64_t code_mask = c->code_mask, stlb_mask = c->stlb_mask, lock_mask = c->lock_mask;
	const uint8_t (*ls)[3] = c->ls;

	for (; off <= end && (rd64(p + off) & FS_KEY_MASK) == key; off += ks) {
		uint64_t lw = rd64(p + off + 48);

		add_aux(ls, code_mask, stlb_mask, lock_mask, a, rd64(p + off + 40),
			split ? (lw >> 32) & 0xffff : lw & 0xffffffffu);
	}
	return off;
}

/* A record without a memory-info group: level NA, no latency (pebs_dsrc_decode(NULL)). */
static inline void add_noaux(struct pebs_agg *a)
{
	a->lvl[PEBS_LVL_NA].nolat++;
	a->lvl[PEBS_LVL_NA].snoop[PEBS_SNOOP_NA]++;
}

uint64_t pebs_aggbuf_add(const struct pebs_aggbuf_ctx *c, struct pebs_agg *a, const void *buf,
			 size_t len)
{
	const uint8_t *p = buf;
	const uint64_t start = a->records;
	const unsigned fmt = c->format;
	const uint32_t lsize = pebs_legacy_size(fmt);
	const int split = (c->flags & PEBS_WALK_SPLIT_LATENCY) != 0;
	const uint64_t code_mask = c->code_mask, stlb_mask = c->stlb_mask, lock_mask = c->lock_mask;
	uint64_t fast = 0;	/* records taken by the fast path (added to a->records at the end) */
	uint64_t key = 0;	/* size+groups of the last fully checked adaptive record */
	int have_key = 0;
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;
	size_t off = 0;

	if (p == NULL)
		len = 0;
	pebs_walk_init(&w, p, len, fmt, c->flags);
	while (off < len) {
		const uint8_t *rec;

		/* legacy: fixed size per format (§4.2); a short tail goes to the walker */
		for (; lsize && len - off >= lsize; off += lsize, fast++) {
			rec = p + off;
			if (fmt >= 1)
				add_aux(c->ls, code_mask, stlb_mask, lock_mask, a,
					rd64(rec + 0xA0), rd64(rec + 0xA8));
			else
				add_noaux(a);
		}
		/*
		 * adaptive: records whose size + format_group equal the last checked one; the
		 * step is that known size, so iterations do not wait on each other's loads.
		 */
		if (have_key) {
			const size_t ks = (size_t)(key >> 48);	/* >= 32 */

			if ((key & PEBS_GRP_MEMINFO) && len >= ks) {
				size_t from = off;

				if (split)
					off = run_meminfo(c, a, p, off, len - ks, ks, key, 1);
				else
					off = run_meminfo(c, a, p, off, len - ks, ks, key, 0);
				fast += (off - from) / ks;
			} else if (!(key & PEBS_GRP_MEMINFO)) {
				for (; len - off >= ks && (rd64(p + off) & FS_KEY_MASK) == key;
				     off += ks, fast++)
					add_noaux(a);
			}
		}
		if (off >= len)
			break;
		rec = p + off;
		/* general path: one record through the walker */
		w.off = off;
		w.done = false;
		if (!pebs_walk_next(&w, &r))
			break;
		pebs_dsrc_decode((r.valid & PEBS_F_AUX) ? c->model : NULL,
				 (enum pebs_event)c->event, r.aux, &d);
		pebs_agg_add(a, &r, &d);
		if (r.err == PEBS_REC_OK && fmt >= 4 &&
		    !(r.format_group & (PEBS_GRP_CNTR | PEBS_GRP_METRICS))) {
			key = rd64(rec) & FS_KEY_MASK;	/* size >= 32 here: always advances */
			have_key = 1;
		}
		off = w.off;
	}
	a->records += fast;
	return a->records - start;
}

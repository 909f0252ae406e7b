/*
 * ds.c: DS save area layout and PEBS buffer geometry (see ds.h; SDM Vol. 3B "Debug Store (DS)
 * Mechanism", docs/hardware.md §3.1 reset-slot offsets per format, §3.3
 * buffer semantics, §4.3 adaptive group sizes, §8.6 geometry rules).
 */
#include "pebs/ds.h"
#include "pebs/msr.h"
#include "pebs/record.h"

#include <string.h>

#define PAGE 4096u

const char *pebs_ds_geometry(uint64_t bytes, unsigned rec_size, unsigned headroom,
			     struct pebs_geom *g)
{
	memset(g, 0, sizeof(*g));
	if (rec_size == 0 || rec_size % 8)
		return "PEBS record size is not a positive multiple of 8";
	if (bytes == 0)
		bytes = PEBS_BUF_DEFAULT;
	if (bytes > PEBS_BUF_MAX)
		return "pebs_buf larger than 16 MiB";
	bytes = (bytes + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	if (headroom == 0)
		headroom = 1;
	g->bytes = bytes;
	g->rec_size = rec_size;
	g->nrec = bytes / rec_size;	/* whole records only: abs max = base + nrec * size */
	if (g->nrec < 2)
		return "PEBS buffer too small for one record above the threshold headroom";
	if (headroom > g->nrec - 1)
		headroom = (unsigned)(g->nrec - 1);	/* large records in a small buffer */
	g->thresh_rec = g->nrec - headroom;	/* threshold >= base + 1 record */
	return NULL;
}

unsigned pebs_ds_headroom(unsigned pebs_gp, unsigned pebs_fixed)
{
	unsigned n = pebs_gp + pebs_fixed;

	return n < PEBS_HEADROOM_MIN ? PEBS_HEADROOM_MIN : n;
}

int pebs_ds_reset_slot(unsigned fmt, bool fixed, unsigned idx)
{
	unsigned ngp = fmt >= 5 ? 32 : 8, nfixed = fmt >= 5 ? 16 : 4;

	if (fixed)
		return idx < nfixed ? (int)(ngp + idx) : -1;
	return idx < ngp ? (int)idx : -1;
}

void pebs_ds_setup(struct pebs_ds_area *ds, void *buf, const struct pebs_geom *g)
{
	uint64_t base = (uint64_t)(uintptr_t)buf;

	memset(ds, 0, sizeof(*ds));
	ds->pebs_buffer_base = base;
	ds->pebs_index = base;
	ds->pebs_absolute_maximum = base + g->nrec * g->rec_size;
	ds->pebs_interrupt_threshold = base + g->thresh_rec * g->rec_size;
}

unsigned pebs_adaptive_record_size(uint64_t cfg)
{
	unsigned size = 32;	/* basic group */
	uint64_t known = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP | PEBS_DATACFG_XMMS |
			 PEBS_DATACFG_LBRS | (0xffull << PEBS_DATACFG_LBR_SHIFT) |
			 PEBS_DATACFG_CNTR | (0xffffull << PEBS_DATACFG_CNTR_SHIFT) |
			 (0xffull << PEBS_DATACFG_FIX_SHIFT);

	if (cfg & ~known)
		return 0;	/* PERF_METRICS snapshots are not sized here */
	if (cfg & PEBS_DATACFG_MEMINFO)
		size += 32;
	if (cfg & PEBS_DATACFG_GP)
		size += 144;
	if (cfg & PEBS_DATACFG_XMMS)
		size += 256;
	if (cfg & PEBS_DATACFG_LBRS)
		size += (unsigned)(((cfg >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1) * 24;
	if (cfg & PEBS_DATACFG_CNTR)	/* format 6: 16-B header + one qword per counter */
		size += 16 + 8 * (pebs_popcount32((uint32_t)(cfg >> 32) & 0xffff) +
				  pebs_popcount32((uint32_t)(cfg >> 48) & 0xff));
	return size;
}

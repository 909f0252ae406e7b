/*
 * ds.h: the 64-bit DS save area and the PEBS buffer geometry (SDM Vol. 3B 18.4.9 / 20.6.3.4
 * "Debug Store (DS) Mechanism"; docs/hardware.md §3.1, §3.3, §8.6).
 * Pure: computes layouts and fills memory the caller owns.
 */
#ifndef PEBS_DS_H
#define PEBS_DS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PEBS_DS_RESET_SLOTS 48	/* 32 GP + 16 fixed (format >= 5); Linux struct debug_store */

/* IA32_DS_AREA points here; fields in SDM order, all 64-bit (DTES64). */
struct pebs_ds_area {
	uint64_t bts_buffer_base, bts_index, bts_absolute_maximum, bts_interrupt_threshold;
	uint64_t pebs_buffer_base, pebs_index, pebs_absolute_maximum, pebs_interrupt_threshold;
	uint64_t pebs_counter_reset[PEBS_DS_RESET_SLOTS];
};
_Static_assert(offsetof(struct pebs_ds_area, pebs_buffer_base) == 0x20, "DS PEBS base at 0x20");
_Static_assert(offsetof(struct pebs_ds_area, pebs_counter_reset) == 0x40, "DS reset at 0x40");
_Static_assert(sizeof(struct pebs_ds_area) == 0x1c0, "DS area 0x1C0 bytes");

#define PEBS_BUF_DEFAULT	(64u * 1024)	/* Linux: PAGE_SIZE << 4 (§3.3) */
#define PEBS_BUF_MAX		(16u * 1024 * 1024)

/* How the PEBS buffer is cut into records. */
struct pebs_geom {
	uint64_t bytes;		/* buffer bytes, a multiple of 4 KiB */
	unsigned rec_size;	/* bytes per record */
	uint64_t nrec;		/* records between base and absolute maximum */
	uint64_t thresh_rec;	/* interrupt threshold = base + thresh_rec * rec_size */
};

/*
 * Records of room to leave between the interrupt threshold and the absolute maximum: one per
 * counter that can write a PEBS record (Linux ds.c pebs_update_threshold, "large PEBS":
 * max_pebs_events, plus the fixed counters where every counter can PEBS), at least
 * PEBS_HEADROOM_MIN (Linux's MAX_PEBS_EVENTS of the oldest PEBS cores, perf_event.h). The counters keep counting from the assist that crosses the threshold
 * until the handler's GLOBAL_CTRL <- 0, so records written while the PMI is on its way
 * (injected late by a hypervisor, held by interrupts off) land there instead of being
 * dropped (docs/hardware.md §3.3).
 */
#define PEBS_HEADROOM_MIN 4
unsigned pebs_ds_headroom(unsigned pebs_gp, unsigned pebs_fixed);

/*
 * Geometry for `bytes` of buffer (rounded up to 4 KiB), records of `rec_size`, and a threshold
 * `headroom` records below the absolute maximum (at least 1, so a record written between the
 * threshold PMI and the drain still fits; at most all but one record, so the threshold stays
 * at base + 1 record or above). Returns NULL, or an error string.
 */
const char *pebs_ds_geometry(uint64_t bytes, unsigned rec_size, unsigned headroom,
			     struct pebs_geom *g);

/* Index into pebs_counter_reset[] for GP counter `idx` or fixed counter `idx` under record
 * format `fmt` (<= 4: 8 GP then fixed at slot 8; >= 5: 32 GP then fixed at slot 32).
 * -1 when the counter has no slot. */
int pebs_ds_reset_slot(unsigned fmt, bool fixed, unsigned idx);

/* Zero the DS area and point it at `buf` with geometry `g` (BTS fields stay 0). */
void pebs_ds_setup(struct pebs_ds_area *ds, void *buf, const struct pebs_geom *g);

/* Adaptive record size for a PEBS_DATA_CFG value (§4.3); 0 if cfg has bits we cannot size. */
unsigned pebs_adaptive_record_size(uint64_t data_cfg);

#endif

/*
 * kpebs_print.h: the per-load-kernel PEBS lines of docs/output.md §3 (output-format 1):
 * `pebs` summary, `lvl` table, `hist` log2 histogram, `dump` header, `raw` lines (hex + CRC-32)
 * and `rec` lines. Pure: each line (without "# " and newline) goes to a callback, so the kernel
 * prints it as a KTAP diagnostic and host tests capture it. Basis: issue 7, docs/latency-method.md
 * §9 item 11.
 */
#ifndef LOADS_KPEBS_PRINT_H
#define LOADS_KPEBS_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/pebs_cost.h"
#include "pebs/measure.h"

#define KP_LINE 1200		/* longest line: a 512-byte record in hex + prefix */
#define KP_RAW_MAX 512		/* records longer than this are not dumped as hex */

typedef void (*kp_line_fn)(void *ctx, const char *line);

/* CRC-32, IEEE 802.3, reflected (poly 0xEDB88320, init/xorout 0xFFFFFFFF) = zlib.crc32. */
uint32_t kp_crc32(const void *buf, size_t len);

/* The values of one `pebs` line, wherever they were measured (the kernel's driver, or Linux
 * perf in tools/loadbench --pebs). */
struct kp_pebs {
	enum pebs_event ev;
	uint32_t ldlat;			/* 0: stores ('-') */
	uint64_t sav, dropped, pmis;
	bool pmis_known;		/* false: pmis=- */
	const struct pebs_agg *agg;	/* records, errors, levels */
	const struct pebs_cost *cost;	/* NULL or not valid: the cost fields are '-' */
};

/* `pebs` line. target: a level, or -1 (store/STLB: no target); timed_x100: cycles/load x100. */
void kp_pebs_line(kp_line_fn out, void *ctx, const char *name, const struct kp_pebs *p,
		  int target, uint64_t timed_x100, bool core_clock);
/* The same for a driver measurement, with its cost (NULL: none measured). */
void kp_summary(kp_line_fn out, void *ctx, const char *name, const struct pebs_measure *m,
		const struct pebs_cost *cost, int target, uint64_t timed_x100, bool core_clock);
/* `lvl` header row + one row per level with records; `hist` rows for levels with latencies. */
void kp_table(kp_line_fn out, void *ctx, const char *name, const struct pebs_agg *a);
/* `dump` header; then `raw` (raw = true) or `rec` lines for the kept records. */
void kp_dump(kp_line_fn out, void *ctx, const char *name, const struct pebs_measure *m,
	     const struct pebs_caps *c, bool raw);

#endif

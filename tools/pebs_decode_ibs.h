/*
 * pebs_decode_ibs.h: the AMD half of tools/pebs-decode (--vendor amd): a buffer of raw IBS op
 * samples in the dump layout of docs/ibs.md (64 bytes each) through the kernel's own decoder
 * (ibs/ibs_decode.c) into the same JSON lines and per-level summary as PEBS records.
 */
#ifndef TOOLS_PEBS_DECODE_IBS_H
#define TOOLS_PEBS_DECODE_IBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/aggregate.h"
#include "ibs/ibs_decode.h"
#include "pebs/record.h"

typedef void (*pd_print_fn)(const struct pebs_record *r, const struct pebs_dsrc *d);

/* Decode every sample (a short tail is one TRUNCATED record); load samples go into agg.
 * Returns 0, or 1 when a record had an error. */
int pebs_decode_ibs(const uint8_t *buf, size_t len, const struct ibs_family *fam, bool ext,
		    pd_print_fn print, struct pebs_agg *agg);

#endif

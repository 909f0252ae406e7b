/*
 * pebs_decode_json.h: the JSON line pebs-decode prints for one decoded record (PEBS or IBS):
 * index, offset, format, size, the record's fields (null when its layout has none), the data
 * source fields (docs/decoder.md), and the decoder's error name or null.
 */
#ifndef TOOLS_PEBS_DECODE_JSON_H
#define TOOLS_PEBS_DECODE_JSON_H

#include "pebs/datasrc.h"
#include "pebs/record.h"

/* One JSON object on one line of stdout (a pd_print_fn). */
void pd_print_record(const struct pebs_record *r, const struct pebs_dsrc *d);

#endif

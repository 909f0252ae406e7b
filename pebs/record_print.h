/*
 * record_print.h: one walked PEBS record as one compact text line for raw dumps (the serial
 * console runs at ~11 KB/s on hardware). Field names follow perf (docs/hardware.md §5.6,
 * Linux tools/perf/util/mem-events.c). Pure: prints through a kernel/fmt.h sink.
 */
#ifndef PEBS_RECORD_PRINT_H
#define PEBS_RECORD_PRINT_H

#include "kernel/fmt.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"

/*
 * "rec 3 ip 0x401000 addr 0x7f0000001000 lat 5 L1 hit snoop None stlb no lock no\n"
 * (fields this format lacks are left out; an error prints the walker's message).
 */
void pebs_record_print(const struct pebs_record *r, const struct pebs_dsrc *d,
		       fmt_sink_fn sink, void *ctx);

#endif

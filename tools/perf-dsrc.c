/*
 * perf-dsrc.c: what tools/loadbench --pebs makes of Linux perf data-source words
 * (tools/perf_dsrc.c): one line per argument, "<word> <TAB> <level row> <TAB> <snoop> <TAB>
 * remote <y|n|?> <TAB> hit <y|n|?>", the level row as the kernel's `lvl` lines name it and the
 * snoop in perf's words. tests/scripts/perf_dsrc.t holds it against `perf script -F
 * data_src` on the same words. Usage: perf-dsrc 0xWORD...; exit 2 on a word that is not a
 * number.
 */
#include "sample/agg_print.h"
#include "tools/perf_dsrc.h"

#include <stdio.h>
#include <stdlib.h>

static char tri(uint8_t t)
{
	return t == PEBS_YES ? 'y' : t == PEBS_NO ? 'n' : '?';
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: perf-dsrc 0xDATA_SRC...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char *end;
		uint64_t v = strtoull(argv[i], &end, 0);
		struct pebs_dsrc d;

		if (end == argv[i] || *end) {
			fprintf(stderr, "perf-dsrc: '%s' is not a number\n", argv[i]);
			return 2;
		}
		perf_dsrc_decode(v, &d);
		printf("0x%llx\t%s\t%s\tremote %c\thit %c\n", (unsigned long long)v,
		       pebs_agg_level_name(d.level), pebs_snoop_name(d.snoop), tri(d.remote),
		       tri(d.hit));
	}
	return 0;
}

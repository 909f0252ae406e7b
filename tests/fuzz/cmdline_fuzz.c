/*
 * cmdline_fuzz.c: libFuzzer target for the command-line parser, the numeric option parser and
 * the tests= glob matcher, on arbitrary bytes (not NUL-terminated).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "smp/boot_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(const char *msg)
{
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cmdline cl;
	char *copy = malloc(size ? size : 1);
	uint64_t v;

	memcpy(copy, data, size);
	cmdline_parse(&cl, copy, size, option_table, quiet);
	if (cl.nopt > CMDLINE_MAX_OPTS)
		abort();
	for (unsigned i = 0; i < cl.nopt; i++) {
		struct smp_cpus_req req;
		const char *why;

		/* cpus=: any value parses or says why, and a refused one leaves the default */
		if (!smp_cpus_parse(cl.opt[i].value, &req, &why) &&
		    (!why || req.mode != SMP_CPUS_TYPES || req.nranges))
			abort();
		cmdline_parse_u64(cl.opt[i].value, &v);
		glob_list_match(cl.opt[i].value, cl.opt[i].key);
		glob_match(cl.opt[i].key, cl.opt[i].value);
	}
	(void)cmdline_u64(&cl, "ldlat", 3, 3, 1000, quiet);
	free(copy);
	return 0;
}

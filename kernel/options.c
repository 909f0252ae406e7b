/*
 * options.c: every command-line key the kernel understands, with one line of help.
 * cmdline_parse() warns about keys not in this table. README.md lists the same keys.
 */
#include "kernel/cmdline.h"

#include <stddef.h>

const struct option_desc option_table[] = {
	{ "console", "ttyS0..3[,baud] | uart,io,0xPORT[,baud] | uart,mmio,0xADDR[,baud] | fb | nofb | noserial" },
	{ "tests", "comma-separated globs of tests to run (default: all default tests)" },
	{ "exit", "auto | port | halt: how the run ends (auto: isa-debug-exit under a hypervisor)" },
	{ "end", "halt | reboot | poweroff: what a run on hardware does after its last line" },
	{ "inject", "gp_msr | gp | ud | pf | de | stack: fault for tests=inject (ktests/inject.c); ap_silent: a processor that never answers (smp/)" },
	{ "verbose", "print more diagnostics" },
	{ "apic", "auto | x2apic | xapic" },
	{ "cpus", "bsp | types | all | LIST (e.g. 0,2-3): the CPUs per-CPU tests run on (default types)" },
	{ "pmi", "vector | nmi: how the PMU interrupt is delivered" },
	{ "ldlat", "load-latency threshold in core cycles, 3..65535 (default: hardware minimum 3)" },
	{ "sav", "PEBS sample-after value (counter reset -N), 1..2^31-1 (default 10007)" },
	{ "pebs_buf", "PEBS buffer size in KiB, 4..16384 (default 64)" },
	{ "dump", "raw | decoded: per-record output" },
	{ "seed", "seed for the pointer-chase permutations" },
	{ "l1d", "override L1D size (e.g. 48K)" },
	{ "l2", "override L2 size" },
	{ "l3", "override L3 size" },
	{ "sweep", "latency-curve sweep: short | full" },
	{ "timing", "auto | brief | full: load-kernel budget (auto: brief where timing is not judged)" },
	{ NULL, NULL },
};

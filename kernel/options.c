/*
 * options.c: every command-line key the kernel understands, with one line of help and what
 * its value must be (kernel/cmdline.h: cmdline_parse checks each value once, at boot, and
 * leaves a bad one out with a warning, so its user takes the default). README.md lists the
 * same keys. The ranges are the ones the users of each key enforce: ldlat= the SDM's
 * MSR_PEBS_LD_LAT_THRESHOLD minimum 3 and its 16-bit field (SDM Vol. 3B "Load Latency
 * Performance Monitoring Facility"), sav= a positive 31-bit reset value, pebs_buf= in KiB.
 */
#include "kernel/cmdline.h"

#include <stddef.h>

#define SIZE_MAX_OPT (1ull << 40)	/* l1d=/l2=/l3= overrides: up to 1 TiB */

const struct option_desc option_table[] = {
	{ .name = "console", .kind = OPT_TEXT,
	  .help = "ttyS0..3[,baud] | uart,io,0xPORT[,baud] | uart,mmio,0xADDR[,baud] | fb | nofb | noserial" },
	{ .name = "tests", .kind = OPT_TEXT,
	  .help = "comma-separated globs of tests to run (default: all default tests)" },
	{ .name = "exit", .kind = OPT_WORDS, .words = "auto|port|halt",
	  .help = "auto | port | halt: how the run ends (auto: isa-debug-exit under a hypervisor)" },
	{ .name = "end", .kind = OPT_WORDS, .words = "halt|reboot|poweroff",
	  .help = "halt | reboot | poweroff: what a run on hardware does after its last line" },
	{ .name = "inject", .kind = OPT_WORDS, .words = "gp_msr|gp|smi|nmi_ipi|ap_late|ud|pf|de|stack|ap_silent",
	  .help = "gp_msr | gp | smi | nmi_ipi | ap_late | ud | pf | de | stack: fault for tests=inject (ktests/inject.c); ap_silent: a processor that never answers (smp/)" },
	{ .name = "log", .kind = OPT_WORDS, .words = "brief|full",
	  .help = "brief | full: full prints every detail line and SKIP reason (default brief: "
		  "details only where a check fails; docs/output.md \"Log budget\")" },
	{ .name = "verbose", .kind = OPT_TEXT, .help = "the same as log=full" },
	{ .name = "apic", .kind = OPT_WORDS, .words = "auto|x2apic|xapic",
	  .help = "auto | x2apic | xapic" },
	{ .name = "cpus", .kind = OPT_WORDS_OR_LIST, .words = "bsp|types|all",
	  .help = "bsp | types | all | LIST (e.g. 0,2-3): the CPUs per-CPU tests run on (default types)" },
	{ .name = "pmi", .kind = OPT_WORDS, .words = "vector|nmi",
	  .help = "vector | nmi: how the PMU interrupt is delivered" },
	{ .name = "ldlat", .kind = OPT_U64, .min = 3, .max = 65535,
	  .help = "load-latency threshold in core cycles, 3..65535 (default: hardware minimum 3)" },
	{ .name = "sav", .kind = OPT_U64, .min = 1, .max = 0x7fffffff,
	  .help = "PEBS sample-after value (counter reset -N), 1..2^31-1 (default 10007)" },
	{ .name = "pebs_buf", .kind = OPT_U64, .min = 4, .max = 16384,
	  .help = "PEBS buffer size in KiB, 4..16384 (default 64)" },
	{ .name = "pebs_counters", .kind = OPT_WORDS, .words = "on|off",
	  .help = "on | off: snapshot the PEBS counter and core cycles in every record "
		  "(PEBS format 6 or architectural PEBS; default off)" },
	{ .name = "dump", .kind = OPT_WORDS, .words = "raw|decoded",
	  .help = "raw | decoded: per-record output" },
	{ .name = "seed", .kind = OPT_U64, .min = 0, .max = UINT64_MAX,
	  .help = "seed for the pointer-chase permutations" },
	{ .name = "l1d", .kind = OPT_U64, .min = 4096, .max = SIZE_MAX_OPT,
	  .help = "override L1D size (e.g. 48K)" },
	{ .name = "l2", .kind = OPT_U64, .min = 4096, .max = SIZE_MAX_OPT,
	  .help = "override L2 size" },
	{ .name = "l3", .kind = OPT_U64, .min = 4096, .max = SIZE_MAX_OPT,
	  .help = "override L3 size" },
	{ .name = "sweep", .kind = OPT_WORDS, .words = "short|full",
	  .help = "latency-curve sweep: short | full" },
	{ .name = "loaded", .kind = OPT_WORDS, .words = "read|rw",
	  .help = "read | rw: load_loaded's injected traffic (rw: each line read and written back)" },
	{ .name = "timing", .kind = OPT_WORDS, .words = "auto|brief|full",
	  .help = "auto | brief | full: load-kernel budget (auto: brief where timing is not judged)" },
	{ .name = "prefetch", .kind = OPT_WORDS, .words = "off|on",
	  .help = "off | on: hardware prefetchers for the bandwidth test, restored after it "
		  "(Intel MSR 1A4H, AMD family 19h MSR C000_0108H; kernel/prefetch.c)" },
	{ .name = NULL },
};

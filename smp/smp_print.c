/*
 * smp_print.c: the header lines about the processors (docs/output.md "smp"), compact at any
 * CPU count: how many came online of those the MADT lists, the topology as packages x cores
 * x threads (SDM Vol. 3A 9.9 via smp/topology.c), the NUMA nodes and core types (CPUID.1AH)
 * with their CPUs as ranges, how they were started (trampoline page, delays, SIPI -> online
 * as min/mean/max, the CPUs that needed a second SIPI), and what cpus= selected.
 */
#include "smp/smp.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"
#include "kernel/ranges.h"

#include <stdarg.h>

#include <string.h>

/* append to b[0..n) at *o, never past the end */
static void app(char *b, size_t n, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void app(char *b, size_t n, size_t *o, const char *fmt, ...)
{
	va_list ap;

	if (*o >= n - 1)
		return;
	va_start(ap, fmt);
	*o += (size_t)fmt_vsnprintf(b + *o, n - *o, fmt, ap);
	va_end(ap);
	if (*o > n - 1)
		*o = n - 1;
}

/* CPU numbers of the online CPUs with want(pc) as ranges into b. */
static const char *cpu_ranges(char *b, size_t n, bool (*want)(const struct percpu *, unsigned),
			      unsigned arg, unsigned *count)
{
	struct ranges r;

	ranges_init(&r, b, n);
	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (smp_cpu(i)->state == CPU_ONLINE && want(smp_cpu(i), arg))
			ranges_add(&r, i);
	if (count)
		*count = r.count;
	return ranges_end(&r);
}

static bool of_type(const struct percpu *pc, unsigned type) { return pc->core_type == type; }
static bool of_node(const struct percpu *pc, unsigned node) { return pc->node == node; }

static void core_types(char *b, size_t n)
{
	static const uint8_t types[] = { 0x40, 0x20 };
	size_t o = 0;
	unsigned seen = 0, c;

	if (!cpu.hybrid) {
		fmt_snprintf(b, n, "one (not hybrid: CPUID.07H:EDX[15] = 0)");
		return;
	}
	b[0] = '\0';
	for (unsigned k = 0; k < 2; k++) {
		char rb[96];

		cpu_ranges(rb, sizeof(rb), of_type, types[k], &c);
		if (c)
			app(b, n, &o, "%s%s %s", o ? ", " : "", cpu_core_type_name(types[k]), rb);
		seen += c;
	}
	if (seen < smp_online_count())
		app(b, n, &o, "%sother %u", o ? ", " : "", smp_online_count() - seen);
}

/* Distinct packages and (package, core) pairs of the online CPUs (SDM Vol. 3A 9.9). */
static void count_topo(struct topo_counts *c)
{
	c->packages = c->cores = c->threads = 0;
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct cpu_topo *a = &smp_cpu(i)->topo;
		bool new_pkg = true, new_core = true;

		if (smp_cpu(i)->state != CPU_ONLINE)
			continue;
		c->threads++;
		for (unsigned j = 0; j < i && new_core; j++) {
			const struct cpu_topo *b = &smp_cpu(j)->topo;

			if (smp_cpu(j)->state != CPU_ONLINE || b->package != a->package)
				continue;
			new_pkg = false;
			new_core = b->core != a->core;
		}
		c->packages += new_pkg;
		c->cores += new_core;
	}
}

/* Sub-NUMA Clustering: the fewest and most nodes among the online CPUs of one package. */
static void nodes_per_package(unsigned *lo, unsigned *hi)
{
	*lo = ~0u;
	*hi = 0;
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct percpu *a = smp_cpu(i);
		unsigned k = 0;
		bool first = true;

		if (a->state != CPU_ONLINE)
			continue;
		for (unsigned j = 0; j < i && first; j++)	/* i: the package's first CPU */
			first = smp_cpu(j)->state != CPU_ONLINE ||
				smp_cpu(j)->topo.package != a->topo.package;
		if (!first)
			continue;
		for (unsigned j = i; j < smp_cpu_count(); j++) {	/* its distinct nodes */
			const struct percpu *b = smp_cpu(j);
			bool seen = false;

			if (b->state != CPU_ONLINE || b->topo.package != a->topo.package)
				continue;
			for (unsigned m = i; m < j && !seen; m++)
				seen = smp_cpu(m)->state == CPU_ONLINE &&
				       smp_cpu(m)->topo.package == a->topo.package &&
				       smp_cpu(m)->node == b->node;
			k += !seen;
		}
		*lo = k < *lo ? k : *lo;
		*hi = k > *hi ? k : *hi;
	}
}

static void nodes(char *b, size_t n)
{
	size_t o = 0;
	unsigned max = 0, lo, hi;

	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (smp_cpu(i)->state == CPU_ONLINE && smp_cpu(i)->node > max)
			max = smp_cpu(i)->node;
	if (!max) {
		fmt_snprintf(b, n, "node 0");
		return;
	}
	app(b, n, &o, "nodes");
	for (unsigned k = 0; k <= max; k++) {
		char rb[96];
		unsigned c;

		cpu_ranges(rb, sizeof(rb), of_node, k, &c);
		if (c)
			app(b, n, &o, "%s %u: cpus %s", k ? "," : "", k, rb);
	}
	nodes_per_package(&lo, &hi);	/* several nodes in a package: SNC (Intel's name) */
	if (hi > 1 && lo == hi)
		app(b, n, &o, " (SNC%u)", hi);
	else if (hi > 1)
		app(b, n, &o, " (SNC: %u..%u nodes per package)", lo, hi);
}

static void topo_line(void)
{
	struct topo_counts c;
	char types[160], nb[240], shape[96];

	count_topo(&c);
	core_types(types, sizeof(types));
	nodes(nb, sizeof(nb));
	if (c.packages && c.cores % c.packages == 0 && c.cores && c.threads % c.cores == 0)
		fmt_snprintf(shape, sizeof(shape), "%u packages x %u cores x %u threads",
			     c.packages, c.cores / c.packages, c.threads / c.cores);
	else
		fmt_snprintf(shape, sizeof(shape), "%u packages, %u cores, %u threads (not "
			     "uniform)", c.packages, c.cores, c.threads);
	ktap_diag("smp: %u CPUs online of %u in the MADT: %s; %s; core types: %s",
		  smp_online_count(), smp_madt_count(), shape, nb, types);
}

static bool second_sipi(const struct percpu *pc, unsigned arg)
{
	(void)arg;
	return pc->sipis > 1;
}

static void start_line(void)
{
	const struct smp_delays *d = smp_delays();
	char b[64];
	uint64_t sum = 0, max = 0, min = ~0ull;
	unsigned n = 0, maxcpu = 0, twice;

	if (smp_why_none() || smp_cpu_count() == 1) {
		/* one CPU because the MADT lists one: the smp line says so (log=full repeats it) */
		if (smp_why_none() || log_full())
			ktap_diag("smp-start: no AP started: %s", smp_why_none() ? smp_why_none() :
				  "the MADT lists no other enabled processor");
		return;
	}
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		uint64_t us = smp_online_us(i);

		if (!us)
			continue;
		sum += us;
		min = us < min ? us : min;
		if (us > max) {
			max = us;
			maxcpu = i;
		}
		n++;
	}
	cpu_ranges(b, sizeof(b), second_sipi, 0, &twice);
	if (log_full())
		ktap_diag("smp-start: trampoline 0x%llx (SIPI vector 0x%02llx), INIT->SIPI %u us, "
			  "SIPI->SIPI %u us (%s); batches of up to %u APs",
			  (unsigned long long)smp_tramp_pa, (unsigned long long)(smp_tramp_pa >> 12),
			  d->init_us, d->sipi_us, d->why, SMP_BATCH);
	/* one line of at most ~170 bytes at any CPU count (the ranges end in "..." past 64) */
	ktap_diag("smp-start: INIT->SIPI %u us, SIPI->SIPI %u us, batches of %u; SIPI->online us: "
		  "min %llu, mean %llu, max %llu (cpu%u); second SIPI: %u CPUs%s%s", d->init_us,
		  d->sipi_us, SMP_BATCH, (unsigned long long)(n ? min : 0),
		  (unsigned long long)(n ? sum / n : 0), (unsigned long long)max, maxcpu, twice,
		  twice ? " " : "", twice ? b : "");
}

static bool selected(const struct percpu *pc, unsigned arg)
{
	(void)arg;
	return smp_selected(pc->cpu);
}

/* The boot CPU's line where it has a core type (hybrid parts: tools/pebs-report reads it),
 * every online CPU's with log=full; CPUs left out were reported, one line per reason, by
 * smp_boot.c. */
static void cpu_lines(void)
{
	bool all = log_full();
	char b[160];

	for (unsigned i = 0; i < (all ? smp_cpu_count() : 1); i++) {
		const struct percpu *pc = smp_cpu(i);
		const char *ty = cpu_core_type_name(pc->core_type);

		if (pc->state != CPU_ONLINE || (!all && !*ty))
			continue;
		ktap_diag("smp-cpu: %u apic %u package %u core %u thread %u type %s node %u "
			  "online (SIPIs %u)", i, pc->apic_id, pc->topo.package, pc->topo.core,
			  pc->topo.thread, *ty ? ty : "-", pc->node, pc->sipis);
	}
	ktap_diag("cpus: %s: %s", smp_cpus_mode_name(smp_cpus()->mode),
		  cpu_ranges(b, sizeof(b), selected, 0, NULL));
}

void smp_print_header(void)
{
	topo_line();
	start_line();
	cpu_lines();
}

/*
 * smp_print.c: the header lines about the processors (docs/output.md "smp"): how many came
 * online of those the MADT lists, the topology counts (SDM Vol. 3A 9.9 via smp/topology.c),
 * the core types (CPUID.1AH), how they were started (trampoline page, delays, SIPI -> online
 * per AP, a bench figure under emulation or on hardware alike), and what cpus= selected.
 */
#include "smp/smp.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"

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

static void core_types(char *b, size_t n)
{
	unsigned p = 0, e = 0, other = 0;

	if (!cpu.hybrid) {
		fmt_snprintf(b, n, "one (not hybrid: CPUID.07H:EDX[15] = 0)");
		return;
	}
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct percpu *pc = smp_cpu(i);

		if (pc->state != CPU_ONLINE)
			continue;
		if (pc->core_type == 0x40)
			p++;
		else if (pc->core_type == 0x20)
			e++;
		else
			other++;
	}
	fmt_snprintf(b, n, "P-core %u, E-core %u%s", p, e, other ? ", other" : "");
}

static void topo_line(void)
{
	struct cpu_topo t[SMP_MAX_CPUS];
	struct topo_counts c;
	unsigned n = 0;
	char types[64];

	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (smp_cpu(i)->state == CPU_ONLINE)
			t[n++] = smp_cpu(i)->topo;
	topo_count(t, n, &c);
	core_types(types, sizeof(types));
	ktap_diag("smp: %u CPUs online of %u in the MADT (%u packages, %u cores, %u threads; "
		  "core types: %s)", smp_online_count(), smp_madt_count(), c.packages, c.cores,
		  c.threads, types);
}

static void start_line(void)
{
	const struct smp_delays *d = smp_delays();
	char b[512] = "";
	size_t o = 0;
	uint64_t sum = 0, max = 0;
	unsigned n = 0;

	if (smp_why_none() || smp_cpu_count() == 1) {
		ktap_diag("smp-start: no AP started: %s", smp_why_none() ? smp_why_none() :
			  "the MADT lists no other enabled processor");
		return;
	}
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		uint64_t us = smp_online_us(i);

		if (!us) {
			app(b, sizeof(b), &o, " cpu%u -", i);
			continue;
		}
		app(b, sizeof(b), &o, " cpu%u %llu", i, (unsigned long long)us);
		sum += us;
		max = us > max ? us : max;
		n++;
	}
	ktap_diag("smp-start: trampoline 0x%llx (SIPI vector 0x%02llx), INIT->SIPI %u us, "
		  "SIPI->SIPI %u us (%s); SIPI->online us:%s (mean %llu, max %llu)",
		  (unsigned long long)smp_tramp_pa, (unsigned long long)(smp_tramp_pa >> 12),
		  d->init_us, d->sipi_us, d->why, b,
		  (unsigned long long)(n ? sum / n : 0), (unsigned long long)max);
}

static void cpu_lines(void)
{
	char b[256];
	size_t o;

	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct percpu *pc = smp_cpu(i);
		const char *ty = cpu_core_type_name(pc->core_type);

		if (pc->state != CPU_ONLINE) {
			ktap_diag("smp-cpu: %u apic %u left out: %s (SIPIs %u)", i, pc->apic_id,
				  pc->why ? pc->why : "not started", pc->sipis);
			continue;
		}
		ktap_diag("smp-cpu: %u apic %u package %u core %u thread %u type %s node %u "
			  "online (SIPIs %u)", i, pc->apic_id, pc->topo.package, pc->topo.core,
			  pc->topo.thread, *ty ? ty : "-", pc->node, pc->sipis);
	}
	o = 0;
	app(b, sizeof(b), &o, "cpus: %s:", smp_cpus_mode_name(smp_cpus()->mode));
	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (smp_selected(i))
			app(b, sizeof(b), &o, " %u", i);
	ktap_diag("%s", b);
}

void smp_print_header(void)
{
	topo_line();
	start_line();
	cpu_lines();
}

/*
 * nmi.c: unknown NMIs, counted and located (see nmi.h; Linux arch/x86/kernel/nmi.c
 * unknown_nmi_error() and default_do_nmi(): an NMI no handler claims is reported and the
 * kernel goes on). Several CPUs can take one at once and an NMI can interrupt the runner
 * while it reads: the counts are atomic, each landing takes its own slot by an atomic ticket,
 * and its ticket number is written last, so a reader takes only slots whose number it
 * expects.
 */
#include "kernel/nmi.h"
#include "kernel/fmt.h"

static unsigned (*cpu_fn)(void);
static const char *volatile context;
static uint64_t total, per_cpu[NMI_CPUS];
static struct {
	struct nmi_landing l;
	uint64_t ticket;	/* ticket + 1 once the fields are written, 0 never */
} ring[NMI_LOG];

void nmi_set_cpu_fn(unsigned (*fn)(void))
{
	cpu_fn = fn;
}

void nmi_set_context(const char *name)
{
	context = name;
}

void nmi_reset(void)
{
	__builtin_memset(per_cpu, 0, sizeof(per_cpu));
	__builtin_memset(ring, 0, sizeof(ring));
	total = 0;
	context = NULL;
}

void nmi_unknown(const struct trap_frame *f)
{
	unsigned cpu = cpu_fn ? cpu_fn() : 0;
	uint64_t t = __atomic_fetch_add(&total, 1, __ATOMIC_RELAXED);

	__atomic_fetch_add(&per_cpu[cpu < NMI_CPUS ? cpu : NMI_CPUS - 1], 1, __ATOMIC_RELAXED);
	ring[t % NMI_LOG].l = (struct nmi_landing){ .cpu = cpu, .rip = f->rip, .where = context };
	__atomic_store_n(&ring[t % NMI_LOG].ticket, t + 1, __ATOMIC_RELEASE);
}

uint64_t nmi_count(void)
{
	return __atomic_load_n(&total, __ATOMIC_ACQUIRE);
}

uint64_t nmi_count_cpu(unsigned cpu)
{
	return cpu < NMI_CPUS ? __atomic_load_n(&per_cpu[cpu], __ATOMIC_RELAXED) : 0;
}

unsigned nmi_landings(uint64_t since, struct nmi_landing *out, unsigned max)
{
	uint64_t end = nmi_count();
	unsigned n = 0;

	if (end - since > NMI_LOG)
		since = end - NMI_LOG;
	for (uint64_t t = since; t < end && n < max; t++) {
		unsigned s = (unsigned)(t % NMI_LOG);

		if (__atomic_load_n(&ring[s].ticket, __ATOMIC_ACQUIRE) != t + 1)
			continue;	/* still being written, or already overwritten */
		out[n] = ring[s].l;
		if (__atomic_load_n(&ring[s].ticket, __ATOMIC_ACQUIRE) == t + 1)
			n++;
	}
	return n;
}

size_t nmi_describe(uint64_t since, unsigned named, char *buf, size_t len)
{
	struct nmi_landing l[NMI_LOG];
	uint64_t n = nmi_count() - since;
	unsigned k = nmi_landings(since, l, named < NMI_LOG ? named : NMI_LOG);
	size_t at = fmt_snprintf(buf, len, "%llu unknown NMI%s", (unsigned long long)n,
				 n == 1 ? "" : "s");

	for (unsigned i = 0; i < k && at < len; i++)
		at += fmt_snprintf(buf + at, len - at, "%s cpu %u at RIP 0x%llx%s%s",
				   i ? "," : ":", l[i].cpu, (unsigned long long)l[i].rip,
				   l[i].where ? " in " : " outside a test",
				   l[i].where ? l[i].where : "");
	if (n > k && at < len)
		at += fmt_snprintf(buf + at, len - at, " and %llu more",
				   (unsigned long long)(n - k));
	return at < len ? at : len ? len - 1 : 0;
}

size_t nmi_describe_cpus(char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = 0;
	for (unsigned c = 0; c < NMI_CPUS && at < len; c++)
		if (nmi_count_cpu(c))
			at += fmt_snprintf(buf + at, len - at, "%scpu%u %llu", at ? ", " : "", c,
					   (unsigned long long)nmi_count_cpu(c));
	return at < len ? at : len ? len - 1 : 0;
}

/*
 * topology.c: package/core/thread from CPUID leaf 1FH or 0BH (SDM Vol. 2A CPUID "Extended
 * Topology Enumeration"; SDM Vol. 3A 9.9.1 "Hierarchical Mapping of Shared Resources") or,
 * without them, CPUID.1:EBX[23:16]. Pure C: the caller hands in the registers.
 */
#include "smp/topology.h"

#include <string.h>

static uint32_t field(uint32_t id, unsigned lo, unsigned hi)
{
	if (lo >= 32)
		return 0;
	id >>= lo;
	if (hi - lo >= 32)
		return id;
	return id & ((1u << (hi - lo)) - 1);
}

static void split(struct cpu_topo *t)
{
	t->thread = field(t->x2apic_id, 0, t->smt_shift);
	t->core = field(t->x2apic_id, t->smt_shift, t->pkg_shift);
	t->package = field(t->x2apic_id, t->pkg_shift, 64);
}

bool topo_decode_leaf(const struct cpuid_regs *sub, unsigned nsub, uint32_t leaf,
		      struct cpu_topo *t)
{
	unsigned last_shift = 0, smt = 0;
	bool any = false, have_smt = false;

	memset(t, 0, sizeof(*t));
	if (nsub > TOPO_MAX_SUBLEAVES)
		nsub = TOPO_MAX_SUBLEAVES;
	for (unsigned i = 0; i < nsub; i++) {
		unsigned type = (sub[i].ecx >> 8) & 0xff, shift = sub[i].eax & 0x1f;

		if (type == TOPO_LEVEL_INVALID)
			break;
		if (any && shift < last_shift)
			break;	/* a level narrower than the one below it: not believable */
		if (!any)
			t->x2apic_id = sub[i].edx;
		if (type == TOPO_LEVEL_SMT && !have_smt) {
			smt = shift;
			have_smt = true;
		}
		last_shift = shift;
		any = true;
	}
	if (!any)
		return false;
	t->smt_shift = (uint8_t)smt;
	t->pkg_shift = (uint8_t)last_shift;
	t->leaf = leaf;
	split(t);
	return true;
}

static unsigned ceil_log2(unsigned n)
{
	unsigned s = 0;

	while (s < 32 && (1u << s) < n)
		s++;
	return s;
}

void topo_decode_legacy(uint32_t apic_id, uint32_t cpuid1_ebx, uint32_t cpuid1_edx,
			struct cpu_topo *t)
{
	unsigned per_pkg = (cpuid1_ebx >> 16) & 0xff;

	memset(t, 0, sizeof(*t));
	t->x2apic_id = apic_id;
	t->leaf = 1;
	if (!(cpuid1_edx & (1u << 28)) || per_pkg <= 1)
		per_pkg = 1;
	t->pkg_shift = (uint8_t)ceil_log2(per_pkg);
	split(t);
}

void topo_count(const struct cpu_topo *t, unsigned n, struct topo_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->threads = n;
	for (unsigned i = 0; i < n; i++) {
		bool new_pkg = true, new_core = true;

		for (unsigned j = 0; j < i; j++) {
			if (t[j].package != t[i].package)
				continue;
			new_pkg = false;
			if (t[j].core == t[i].core)
				new_core = false;
		}
		c->packages += new_pkg;
		c->cores += new_core;
	}
}

/*
 * geometry.c: cache geometry from CPUID (see geometry.h for the sources). The leaf-04H and
 * 8000_001DH subleaves share one layout (SDM Vol. 2A Table 3-8; AMD APM Vol. 3 E.4.15):
 *   EAX[4:0] type, EAX[7:5] level, EAX[9] fully associative, EAX[25:14] sharing - 1,
 *   EBX[11:0] line - 1, EBX[21:12] partitions - 1, EBX[31:22] ways - 1, ECX sets - 1;
 *   size = ways * partitions * line * sets.
 */
#include "loads/geometry.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <stddef.h>
#include <string.h>

#define MAX_SUBLEAF 16		/* real parts list 4-6 caches; bound a bogus CPUID */

unsigned geometry_decode_det(uint32_t eax, uint32_t ebx, uint32_t ecx, struct cache_level *out)
{
	unsigned type = eax & 0x1f;

	memset(out, 0, sizeof(*out));
	if (type == 0)
		return 0;
	out->level = (uint8_t)((eax >> 5) & 7);
	out->fully_assoc = (eax >> 9) & 1;
	out->sharing = ((eax >> 14) & 0xfff) + 1;
	out->line = (ebx & 0xfff) + 1;
	out->partitions = ((ebx >> 12) & 0x3ff) + 1;
	out->ways = ((ebx >> 22) & 0x3ff) + 1;
	out->sets = ecx + 1;
	out->size = (uint64_t)out->ways * out->partitions * out->line * out->sets;
	return type;
}

/* Walk leaf 04H or 8000_001DH; keep the data/unified caches of levels 1-3. */
static bool probe_det(struct cache_geometry *g, uint32_t leaf, enum cache_src src)
{
	bool any = false;

	for (uint32_t i = 0; i < MAX_SUBLEAF; i++) {
		struct cpuid_regs r;
		struct cache_level cl, *dst = NULL;
		unsigned type;

		cpuid_count(leaf, i, &r);
		type = geometry_decode_det(r.eax, r.ebx, r.ecx, &cl);
		if (type == 0)
			break;
		if (type == 2)	/* instruction cache */
			continue;
		if (cl.level == 1 && type == 1)
			dst = &g->l1d;
		else if (cl.level == 2)
			dst = &g->l2;
		else if (cl.level == 3)
			dst = &g->l3;
		if (!dst || !cl.size)
			continue;
		cl.src = src;
		*dst = cl;
		any = true;
	}
	return any;
}

/* AMD APM Vol. 3 E.4.7: L2/L3 associativity encoding of 8000_0006H (0 = unknown/reserved). */
static uint32_t amd_assoc(uint32_t code, uint64_t size, uint32_t line)
{
	static const uint8_t ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0 };

	if (code == 0xf && line)
		return (uint32_t)(size / line);
	return ways[code & 0xf];
}

static void legacy_fill(struct cache_level *cl, uint8_t level, uint64_t size, uint32_t line,
			uint32_t ways, bool full)
{
	memset(cl, 0, sizeof(*cl));
	if (!size || !line)
		return;
	cl->level = level;
	cl->size = size;
	cl->line = line;
	cl->ways = ways;
	cl->partitions = 1;
	cl->fully_assoc = full;
	cl->sets = ways ? (uint32_t)(size / line / ways) : 0;
	cl->src = CSRC_AMD_LEGACY;
}

static void probe_amd_legacy(struct cache_geometry *g, const struct cpu_info *c)
{
	struct cpuid_regs r;

	if (c->max_ext_leaf >= 0x80000005 && !g->l1d.size) {
		uint64_t sz;
		uint32_t a, line;

		cpuid_count(0x80000005, 0, &r);
		sz = (uint64_t)(r.ecx >> 24) << 10;
		line = r.ecx & 0xff;
		a = (r.ecx >> 16) & 0xff;	/* 0xFF: fully associative (E.4.6) */
		legacy_fill(&g->l1d, 1, sz, line, a == 0xff && line ? (uint32_t)(sz / line) : a,
			    a == 0xff);
	}
	if (c->max_ext_leaf >= 0x80000006) {
		cpuid_count(0x80000006, 0, &r);
		if (!g->l2.size) {
			uint64_t sz = (uint64_t)(r.ecx >> 16) << 10;
			uint32_t code = (r.ecx >> 12) & 0xf;

			legacy_fill(&g->l2, 2, sz, r.ecx & 0xff,
				    amd_assoc(code, sz, r.ecx & 0xff), code == 0xf);
		}
		if (!g->l3.size) {
			uint64_t sz = (uint64_t)(r.edx >> 18) << 19;
			uint32_t code = (r.edx >> 12) & 0xf;

			legacy_fill(&g->l3, 3, sz, r.edx & 0xff,
				    amd_assoc(code, sz, r.edx & 0xff), code == 0xf);
		}
	}
}

static void fill_default(struct cache_level *cl, uint8_t level, uint64_t size)
{
	if (cl->size)
		return;
	memset(cl, 0, sizeof(*cl));
	cl->level = level;
	cl->size = size;
	cl->line = GEOM_DEFAULT_LINE;
	cl->partitions = 1;
	cl->src = CSRC_DEFAULT;
}

void geometry_probe(struct cache_geometry *g, const struct cpu_info *c)
{
	struct cpuid_regs r = { 0 };
	bool topoext = false;

	memset(g, 0, sizeof(*g));
	if (c->max_ext_leaf >= 0x80000001) {
		cpuid_count(0x80000001, 0, &r);
		topoext = r.ecx & (1u << 22);
	}
	if (c->vendor != VENDOR_AMD && c->max_leaf >= 4)
		probe_det(g, 4, CSRC_LEAF4);
	if (c->vendor != VENDOR_INTEL && topoext && c->max_ext_leaf >= 0x8000001d)
		probe_det(g, 0x8000001d, CSRC_AMD_1D);
	if (c->vendor == VENDOR_AMD)
		probe_amd_legacy(g, c);
	/* A level CPUID did not describe gets the stated default, never a silent zero. */
	fill_default(&g->l1d, 1, GEOM_DEFAULT_L1D);
	fill_default(&g->l2, 2, GEOM_DEFAULT_L2);
	fill_default(&g->l3, 3, GEOM_DEFAULT_L3);
}

static void override_one(struct cache_level *cl, uint64_t size)
{
	if (!size)
		return;
	cl->size = size;
	cl->overridden = true;
	if (!cl->line)
		cl->line = GEOM_DEFAULT_LINE;
	if (!cl->partitions)
		cl->partitions = 1;
	cl->sets = cl->ways ? (uint32_t)(size / ((uint64_t)cl->line * cl->partitions * cl->ways)) : 0;
}

void geometry_override(struct cache_geometry *g, uint64_t l1d, uint64_t l2, uint64_t l3)
{
	override_one(&g->l1d, l1d);
	override_one(&g->l2, l2);
	override_one(&g->l3, l3);
}

const char *geometry_src_name(enum cache_src s)
{
	switch (s) {
	case CSRC_LEAF4:
		return "CPUID 04H";
	case CSRC_AMD_1D:
		return "CPUID 8000001DH";
	case CSRC_AMD_LEGACY:
		return "CPUID 80000005H/6H";
	case CSRC_DEFAULT:
		return "default, CPUID gave none";
	default:
		return "absent";
	}
}

char *geometry_size_str(uint64_t bytes, char *buf, unsigned len)
{
	if (bytes && !(bytes & ((1ull << 30) - 1)))
		fmt_snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes && !(bytes & ((1ull << 20) - 1)))
		fmt_snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
	else if (bytes && !(bytes & ((1ull << 10) - 1)))
		fmt_snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
	else
		fmt_snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

static void print_level(const char *name, const struct cache_level *cl)
{
	char sz[24];

	kprintf("# cache: %-3s %s, %u B line", name, geometry_size_str(cl->size, sz, sizeof(sz)),
		cl->line);
	if (cl->fully_assoc)
		kprintf(", fully assoc");
	else if (cl->ways)
		kprintf(", %u-way, %u sets", cl->ways, cl->sets);
	else
		kprintf(", ways unknown");
	if (cl->sharing)
		kprintf(", shared by %u", cl->sharing);
	kprintf(" (%s%s)\n", cl->overridden ? "size from command line; " : "",
		geometry_src_name(cl->src));
}

bool geometry_header_line(const struct cache_geometry *g, unsigned i, char *b, unsigned n)
{
	static const char *const nm[3] = { "L1d", "L2", "L3" };
	const struct cache_level *c[3] = { &g->l1d, &g->l2, &g->l3 };
	char a[24];

	if (i >= 3)
		return false;
	fmt_snprintf(b, n, "cache: %s %s %u-way %u B line (%s%s)", nm[i],
		     geometry_size_str(c[i]->size, a, sizeof(a)), c[i]->ways, c[i]->line,
		     c[i]->overridden ? "command line; " : "", geometry_src_name(c[i]->src));
	return true;
}

void geometry_print(const struct cache_geometry *g)
{
	print_level("L1d", &g->l1d);
	print_level("L2", &g->l2);
	print_level("L3", &g->l3);
}

void geometry_probe_cpu(struct cache_geometry *g, const struct cpu_info *c,
			const struct cache_geometry *boot)
{
	geometry_probe(g, c);
	geometry_override(g, boot->l1d.overridden ? boot->l1d.size : 0,
			  boot->l2.overridden ? boot->l2.size : 0,
			  boot->l3.overridden ? boot->l3.size : 0);
}

char *geometry_sizes_str(const struct cache_geometry *g, char *b, unsigned n)
{
	char s1[24], s2[24], s3[24];

	fmt_snprintf(b, n, "l1d=%s l2=%s l3=%s", geometry_size_str(g->l1d.size, s1, sizeof(s1)),
		     geometry_size_str(g->l2.size, s2, sizeof(s2)),
		     geometry_size_str(g->l3.size, s3, sizeof(s3)));
	return b;
}

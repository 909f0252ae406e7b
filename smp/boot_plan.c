/*
 * boot_plan.c: trampoline placement, INIT/SIPI delays and cpus= (smp/boot_plan.h). Delays:
 * SDM Vol. 3A 9.4.4.1 "Typical BSP Initialization Sequence" (10 ms after INIT, 200 us after
 * each SIPI); the short ones where Linux arch/x86/kernel/smpboot.c smp_quirk_init_udelay()
 * drops the legacy 10 ms (Intel family >= 6, AMD family >= 0FH: "modern processor, use no
 * delay") and do_boot_cpu()/wakeup_secondary_cpu_via_init() wait 10 us after each SIPI.
 * An AP's memory layout (smp/percpu.h): SDM Vol. 3A 6.10 (IDT base, page-aligned here),
 * 6.14.2 (64-bit interrupt entry aligns the stack to 16 bytes: stack tops are 16-aligned).
 */
#include "smp/boot_plan.h"
#include "kernel/idt.h"
#include "smp/percpu.h"

#include <string.h>

#define PAGE 0x1000ull

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

uint64_t smp_tramp_place(const struct mb2_mmap_entry *map, unsigned n, uint64_t size,
			 const struct smp_range *avoid, unsigned navoid, const char **why)
{
	uint64_t best = 0;

	*why = NULL;
	if (size == 0 || size > SMP_TRAMP_HIGH - SMP_TRAMP_LOW) {
		*why = "trampoline size out of range";
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t lo = map[i].base, hi;

		if (map[i].type != MB2_MEM_AVAILABLE || map[i].len == 0 || lo >= SMP_TRAMP_HIGH)
			continue;
		hi = map[i].len > SMP_TRAMP_HIGH - lo ? SMP_TRAMP_HIGH : lo + map[i].len;
		if (lo < SMP_TRAMP_LOW)
			lo = SMP_TRAMP_LOW;
		lo = (lo + PAGE - 1) & ~(PAGE - 1);
		if (hi < lo + size)
			continue;
		/* highest page first, downwards while something is in the way */
		for (uint64_t p = (hi - size) & ~(PAGE - 1); p >= lo && p > best; p -= PAGE) {
			bool clear = true;

			for (unsigned j = 0; j < navoid && clear; j++)
				clear = !overlaps(p, size, avoid[j].base, avoid[j].len);
			if (clear) {
				best = p;
				break;
			}
		}
	}
	if (!best)
		*why = "no free page of usable memory below 640 KiB in the memory map";
	return best;
}

void smp_delays_for(const struct cpu_info *ci, struct smp_delays *d)
{
	/* Linux arch/x86/kernel/smpboot.c smp_quirk_init_udelay(): Intel x86_vfm >=
	 * INTEL_PENTIUM_PRO (every family >= 6: 0x0F, 0x12, 0x13 too), AMD family >= 0FH */
	bool modern = (ci->vendor == VENDOR_INTEL && ci->family >= 6) ||
		      (ci->vendor == VENDOR_AMD && ci->family >= 0xf);

	d->fast = modern;
	d->init_us = modern ? 10 : 10000;
	d->sipi_us = modern ? 10 : 200;
	d->why = modern ? "short delays (Intel family >= 6 / AMD family >= 0FH)"
			: "SDM delays (10 ms after INIT, 200 us after SIPI)";
}

const char *smp_cpus_mode_name(enum smp_cpus_mode m)
{
	switch (m) {
	case SMP_CPUS_BSP: return "bsp";
	case SMP_CPUS_ALL: return "all";
	case SMP_CPUS_LIST: return "list";
	default: return "types";
	}
}

static bool parse_num(const char **p, unsigned *v)
{
	unsigned x = 0, digits = 0;

	while (**p >= '0' && **p <= '9') {
		x = x * 10 + (unsigned)(**p - '0');
		if (x >= SMP_CPUS_NUM_LIMIT)
			return false;
		(*p)++;
		digits++;
	}
	*v = x;
	return digits > 0;
}

static bool parse_list(const char *s, struct smp_cpus_req *r)
{
	const char *p = s;

	for (;;) {
		unsigned a, b;

		if (!parse_num(&p, &a))
			return false;
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_num(&p, &b) || b < a)
				return false;
		}
		if (r->nranges == SMP_CPUS_MAX_RANGES)
			return false;
		r->range[r->nranges].lo = a;
		r->range[r->nranges++].hi = b;
		if (*p == '\0')
			return true;
		if (*p++ != ',')
			return false;
	}
}

bool smp_cpus_parse(const char *s, struct smp_cpus_req *r, const char **why)
{
	memset(r, 0, sizeof(*r));
	*why = NULL;
	if (!s || !*s || !strcmp(s, "types"))
		return true;
	if (!strcmp(s, "bsp")) {
		r->mode = SMP_CPUS_BSP;
		return true;
	}
	if (!strcmp(s, "all")) {
		r->mode = SMP_CPUS_ALL;
		return true;
	}
	if (parse_list(s, r)) {
		r->mode = SMP_CPUS_LIST;
		return true;
	}
	r->nranges = 0;
	*why = "want bsp, types, all or up to 16 CPU numbers or ranges (\"0,2-3\")";
	return false;
}

bool smp_cpus_named(const struct smp_cpus_req *r, unsigned i)
{
	for (unsigned k = 0; k < r->nranges && k < SMP_CPUS_MAX_RANGES; k++)
		if (i >= r->range[k].lo && i <= r->range[k].hi)
			return true;
	return false;
}

long smp_cpus_missing(const struct smp_cpus_req *r, unsigned n)
{
	long first = -1;

	if (r->mode != SMP_CPUS_LIST)
		return -1;
	for (unsigned k = 0; k < r->nranges && k < SMP_CPUS_MAX_RANGES; k++) {
		uint32_t lo = r->range[k].lo > n ? r->range[k].lo : n;

		if (r->range[k].hi >= n && (first < 0 || lo < (uint32_t)first))
			first = lo;
	}
	return first;
}

unsigned smp_select(const struct smp_cpu_view *v, unsigned n, const struct smp_cpus_req *r,
		    bool *sel)
{
	unsigned count = 0;

	for (unsigned i = 0; i < n; i++) {
		bool s = false;

		if (i == 0) {
			s = true;
		} else if (!v[i].online) {
			s = false;
		} else if (r->mode == SMP_CPUS_ALL) {
			s = true;
		} else if (r->mode == SMP_CPUS_LIST) {
			s = smp_cpus_named(r, i);
		} else if (r->mode == SMP_CPUS_TYPES) {
			s = v[i].core_type != v[0].core_type;
			for (unsigned j = 1; j < i && s; j++)
				if (sel[j] && v[j].core_type == v[i].core_type)
					s = false;
		}
		sel[i] = s;
		count += s;
	}
	return count;
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

void percpu_layout(size_t percpu_size, size_t gdt_size, struct percpu_layout *l)
{
	size_t off = align_up(percpu_size, 16);

	l->gdt_off = off;
	off = align_up(off + gdt_size, 0x1000);
	l->idt_off = off;
	off = align_up(off + IDT_BYTES, 0x1000);
	l->guard_off[0] = off;
	l->stack_off = off + 0x1000;
	off = l->stack_off + PERCPU_STACK;
	for (unsigned i = 0; i < 3; i++) {
		l->guard_off[1 + i] = off;
		l->ist_off[i] = off + 0x1000;
		off = l->ist_off[i] + PERCPU_IST;
	}
	l->total = align_up(off, 0x1000);
}

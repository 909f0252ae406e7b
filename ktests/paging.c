/*
 * paging.c: test `paging`: the final page tables map what they should (SDM Vol. 3A 4.5):
 * kernel text read-only and executable, data NX; usable RAM and the rest of the identity
 * map with the largest pages the kernel's rule allows, the framebuffer write-combining and
 * device pages uncached (kernel/mm_expect.h: the addresses come from the memory map and the
 * kernel's own device mappings, never fixed, so the framebuffer or an MMIO hole may sit
 * anywhere); page 0, stack guards and text writes fault with #PF; measurement buffers get
 * exactly the page size asked for (1 GiB / 2 MiB / 4 KiB). Every probed address and what it
 * held is printed before the result it belongs to when that result fails, or with log=full
 * (kernel/ktap_detail.h).
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "apic/apic_regs.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/gdt.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "kernel/mm_expect.h"
#include "kernel/mm_internal.h"
#include "kernel/mm_probe.h"
#include "kernel/pgtable.h"
#include "kernel/traps.h"
#include "platform/uart.h"

extern char _text_start[], _data_start[];
static uint64_t some_data = 0x1234;

typedef unsigned long long ull;

static void check_buffer(struct ktest *t, enum page_size ps, uint64_t bytes, const char *name)
{
	uint64_t *p;
	uint64_t v = 0;

	if (ps == PS_1G && !cpu.page1g) {
		kt_skip_sub(t, name, "CPUID.80000001H:EDX[26] = 0: no 1 GiB pages");
		return;
	}
	if (pmm_free_bytes() < bytes * 2) {
		kt_skip_sub(t, name, "only %llu MiB free", (ull)(pmm_free_bytes() >> 20));
		return;
	}
	p = mm_map_buffer(bytes, ps);
	if (!p) {
		kt_info(t, "%s: mapping failed", name);
		kt_check(t, false, "%s", name);
		return;
	}
	p[0] = 0xfeedface;
	p[bytes / 8 - 1] = 0xcafe;
	kt_check(t, mm_page_size_of((uint64_t)(uintptr_t)p) == (int)ps &&
		     mm_page_size_of((uint64_t)(uintptr_t)p + bytes - 8) == (int)ps &&
		     read64_safe((uint64_t)(uintptr_t)p, &v) == 0 && v == 0xfeedface &&
		     p[bytes / 8 - 1] == 0xcafe, "%s", name);
}

struct probes {
	struct mm_layout l;
	struct mm_probe p[MM_PROBES_MAX];
	unsigned n;
	uint64_t pat;
	int fb_io;		/* device range holding the framebuffer, -1 if none */
	struct mm_sweep sweep;
};

/* Which probes a check covers. */
typedef bool (*probe_sel)(const struct probes *s, const struct mm_probe *p);

/* Judge the selected probes against the live tables (and read the RAM ones), one detail
 * line each (none when t is NULL); returns how many were judged, *ok whether all matched. */
static unsigned judge(struct ktest *t, const struct probes *s, probe_sel sel, bool *ok)
{
	const struct pgt *k = mm_kernel_pgt();
	unsigned count = 0;
	char buf[96];

	*ok = true;
	for (unsigned i = 0; i < s->n; i++) {
		const struct mm_probe *p = &s->p[i];
		struct pgt_walk w;
		uint64_t v;
		bool good;
		int vec = 0;

		if (!sel(s, p))
			continue;
		w = pgt_walk(k, p->pa);
		good = mm_judge(&s->l, p->pa, &p->want, &w, s->pat, buf, sizeof(buf));
		if (good && p->ram && w.present)
			vec = read64_safe(p->pa, &v);
		if (t)
			kt_detail(t, "probe 0x%llx %s: %s%s%s", (ull)p->pa, p->what, buf,
				  vec ? ", read faulted" : "", good && !vec ? "" : " <- wrong");
		*ok = *ok && good && !vec;
		count++;
	}
	return count;
}

static bool sel_large(const struct probes *s, const struct mm_probe *p)
{
	(void)s;
	return p->kind == PROBE_LARGE;
}

static bool sel_edge(const struct probes *s, const struct mm_probe *p)
{
	(void)s;
	return p->kind == PROBE_EDGE;
}

static bool sel_fb(const struct probes *s, const struct mm_probe *p)
{
	return p->kind == PROBE_IO && s->fb_io >= 0 && p->want.io == s->fb_io;
}

static bool sel_mmio(const struct probes *s, const struct mm_probe *p)
{
	return p->kind == PROBE_IO && p->want.io != s->fb_io;
}

static bool sel_around(const struct probes *s, const struct mm_probe *p)
{
	(void)s;
	return p->kind == PROBE_IO_AROUND;
}

/* the device range holding pa (the latest mapping), -1 if none */
static int io_holding(const struct mm_layout *l, uint64_t pa)
{
	return mm_expect_at(l, pa).io;
}

static void check_ram(struct ktest *t, struct probes *s, unsigned unrecorded, bool truncated)
{
	const struct mb2_mmap_entry *big = NULL;
	bool ok, fine;

	for (unsigned i = 0; i < boot_info.nmmap; i++) {
		const struct mb2_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == MB2_MEM_AVAILABLE && (!big || e->len > big->len))
			big = e;
	}
	mm_sweep_ram(&s->l, boot_info.mmap, boot_info.nmmap, mm_kernel_pgt(), s->pat, &s->sweep);
	/* the layout explains all three checks: printed when one of them will fail */
	fine = judge(NULL, s, sel_large, &ok) > 0 && ok;
	fine = fine && judge(NULL, s, sel_edge, &ok) > 0 && ok;
	if (!fine || s->sweep.ranges == 0 || s->sweep.wrong || log_full()) {
		kt_info(t, "identity map: 4K pages 0x%llx-0x%llx, largest pages 0x%llx-0x%llx "
			"(1G pages %s), IA32_PAT 0x%016llx", (ull)s->l.small_start,
			(ull)s->l.large_start, (ull)s->l.large_start, (ull)s->l.large_end,
			s->l.page1g ? "yes" : "no", (ull)s->pat);
		if (big)
			kt_info(t, "largest usable range 0x%llx-0x%llx (%llu MiB) of %u map entries",
				(ull)big->base, (ull)(big->base + big->len),
				(ull)(big->len >> 20), boot_info.nmmap);
	}
	if (unrecorded || truncated)
		kt_info(t, "not probed: %u device mappings beyond the record, probe list %s",
			unrecorded, truncated ? "full" : "complete");
	kt_check(t, judge(t, s, sel_large, &ok) > 0 && ok, "identity_map_large_pages");
	kt_check(t, judge(t, s, sel_edge, &ok) > 0 && ok, "identity_map_edges");

	kt_detail(t, "all usable RAM: %u ranges, %llu addresses walked (each range's ends, every "
		  "2 MiB boundary), %llu not as the rule says", s->sweep.ranges,
		  (ull)s->sweep.judged, (ull)s->sweep.wrong);
	if (s->sweep.wrong)
		kt_detail(t, "first: 0x%llx: %s", (ull)s->sweep.first_pa, s->sweep.first);
	kt_check(t, s->sweep.ranges > 0 && !s->sweep.wrong, "identity_map_all_usable_ram");
}

static void check_devices(struct ktest *t, struct probes *s)
{
	const struct mb2_framebuffer *fb = &boot_info.fb;
	struct console_choice cc;
	const char *err;
	uint64_t base = 0;
	bool ok, xapic = apic_mode() == APIC_XAPIC;
	int apic_io = -1;

	/* the framebuffer: write-combining wherever it lies (uncached without a PAT) */
	console_opt_parse(cmdline_get(&kcmdline, "console"), &cc, &err);
	if (!fb->present || fb->type != 1 || !cc.fb) {
		kt_skip_sub(t, "framebuffer_mapped_wc", "%s", !fb->present ? "no framebuffer tag" :
			    fb->type != 1 ? "framebuffer is not direct RGB: not drawn" :
			    "framebuffer off (console=)");
	} else {
		uint64_t end = fb->addr + (uint64_t)fb->pitch * fb->height;
		int last = io_holding(&s->l, end - 1);
		bool whole;

		kt_detail(t, "framebuffer 0x%llx-0x%llx (%ux%u %u bpp): device range %s, want %s",
			  (ull)fb->addr, (ull)end, fb->width, fb->height, fb->bpp,
			  s->fb_io < 0 ? "none" : "found", s->l.pat_wc ? "WC" : "UC (no PAT)");
		whole = s->fb_io >= 0 && last >= 0 &&
			s->l.io[s->fb_io].cache == (s->l.pat_wc ? MM_WC : MM_UC) &&
			s->l.io[last].cache == s->l.io[s->fb_io].cache;
		kt_check(t, judge(t, s, sel_fb, &ok) > 0 && ok && whole, "framebuffer_mapped_wc");
	}

	/* MMIO: the xAPIC page and every other device range, uncached */
	if (xapic && !rdmsr_safe(MSR_IA32_APIC_BASE, &base)) {
		base &= APIC_BASE_ADDR_MASK;
		apic_io = io_holding(&s->l, base);
		kt_detail(t, "xAPIC page 0x%llx: device range %s", (ull)base,
			  apic_io < 0 ? "none" : mm_cache_name(s->l.io[apic_io].cache));
	}
	for (unsigned i = 0; i < s->l.nio; i++)
		if ((int)i != s->fb_io)
			kt_detail(t, "device range 0x%llx-0x%llx %s", (ull)s->l.io[i].start,
				  (ull)s->l.io[i].end, mm_cache_name(s->l.io[i].cache));
	if (judge(t, s, sel_mmio, &ok) == 0 && !xapic) {
		kt_skip_sub(t, "mmio_mapped_uc", "no device range besides the framebuffer "
			    "(APIC %s, no MMIO UART)",
			    apic_mode() == APIC_X2APIC ? "in x2APIC mode" : "disabled");
	} else {
		bool apic_ok = !xapic || (apic_io >= 0 && s->l.io[apic_io].cache == MM_UC);

		kt_check(t, ok && apic_ok, "mmio_mapped_uc");
	}
	if (judge(t, s, sel_around, &ok) == 0)
		kt_skip_sub(t, "device_split_stays_local", "no device mappings");
	else
		kt_check(t, ok, "device_split_stays_local");
}

enum kt_result test_paging(struct ktest *t)
{
	static struct probes s;	/* 64 probes: off the 16 KiB stack */
	const struct pgt *k = mm_kernel_pgt();
	struct pgt_walk w;
	unsigned unrecorded;
	bool truncated;
	uint64_t v;
	int vec[5];

	w = pgt_walk(k, (uint64_t)(uintptr_t)_text_start);
	kt_check(t, w.present && !w.writable && !w.nx && w.pa == (uint64_t)(uintptr_t)_text_start,
		 "kernel_text_ro_exec");
	w = pgt_walk(k, (uint64_t)(uintptr_t)&some_data);
	kt_check(t, w.present && w.writable && (w.nx || !cpu.nx), "kernel_data_rw_nx");

	unrecorded = mm_get_layout(&s.l);
	if (rdmsr_safe(MSR_IA32_PAT, &s.pat))
		s.pat = PAT_POWER_UP;
	s.n = mm_plan_probes(&s.l, boot_info.mmap, boot_info.nmmap, s.p, MM_PROBES_MAX,
			     &truncated);
	s.fb_io = boot_info.fb.present ? io_holding(&s.l, boot_info.fb.addr) : -1;
	check_ram(t, &s, unrecorded, truncated);
	check_devices(t, &s);

	vec[0] = read64_safe(0, &v);
	vec[1] = read64_safe((uint64_t)(uintptr_t)kstacks[KSTACK_BOOT].guard, &v);
	vec[2] = write64_safe((uint64_t)(uintptr_t)_text_start, 0);
	vec[3] = read64_safe(0x00007f0000000000ull, &v);
	vec[4] = -1;
	if (cpu.nx) {
		/* jumping into a data page must fault with #PF (instruction fetch, NX) */
		static const uint8_t ret_insn[16] __attribute__((aligned(16))) = { 0xc3 };

		vec[4] = call_safe((uint64_t)(uintptr_t)ret_insn);
	}
	/* one line about five checks: printed when one of them fails */
	if (vec[0] != VEC_PF || vec[1] != VEC_PF || vec[2] != VEC_PF || vec[3] != VEC_PF ||
	    (cpu.nx && vec[4] != VEC_PF) || log_full())
		kt_info(t, "fault vectors (want %d): page 0 read %d, stack guard read %d, "
			"text write %d, 0x7f0000000000 read %d, data execute %d", VEC_PF, vec[0],
			vec[1], vec[2], vec[3], vec[4]);
	kt_check(t, vec[0] == VEC_PF, "page0_unmapped_faults");
	kt_check(t, vec[1] == VEC_PF, "stack_guard_page_faults");
	kt_check(t, vec[2] == VEC_PF, "write_to_text_faults");
	kt_check(t, vec[3] == VEC_PF, "unmapped_high_address_faults");
	if (cpu.nx)
		kt_check(t, vec[4] == VEC_PF, "nx_enforced");
	else
		kt_skip_sub(t, "nx_enforced", "CPUID.80000001H:EDX.NX[20] = 0");

	check_buffer(t, PS_4K, 64 * PAGE_4K, "buffer_4k_pages");
	check_buffer(t, PS_2M, 2 * PAGE_2M, "buffer_2m_pages");
	check_buffer(t, PS_1G, PAGE_1G, "buffer_1g_pages");
	return kt_verdict(t);
}

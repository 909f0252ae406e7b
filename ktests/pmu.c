/*
 * pmu.c: test `pmu`: the PMU/PEBS capability probe (printed as diagnostics), its gates with
 * exact SKIP reasons, INST_RETIRED.ANY counting over a loop of known length, and a short
 * load-latency PEBS run whose records must have the programmed size, format group and
 * applicable counter (SDM Vol. 3B 20.2 architectural counting, 20.6.2 PEBS; KUT
 * check_pebs_records does the same checks, docs/hardware.md §8.12).
 * On architectural PEBS (format 0xF, docs/arch-pebs.md) the same run goes through
 * IA32_PEBS_BASE/INDEX and CFG_C, and `arch_pebs_teardown` checks that those registers read
 * back as found; elsewhere it SKIPs with the format the CPU reports.
 * Under QEMU TCG (no PMU) every PMU subtest SKIPs with "CPUID.0AH: perfmon version 0".
 * On AMD CPUs the IBS subtests follow (ktests/pmu_ibs.c).
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/idt.h"
#include "kernel/mm.h"
#include "pebs/caps.h"
#include "pebs/count.h"
#include "kernel/hw.h"
#include "pebs/arch_msr.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"

#include <string.h>

#define LOOP_ITERS 1000000ull	/* 2 instructions each: dec + jnz */
#define CHASE_BYTES (1u << 20)
#define CHASE_LINES (CHASE_BYTES / 64)
#define CHASE_STEP 4099u	/* odd: one cycle through all lines */
#define CHASE_LOADS 400000u

static void known_loop(uint64_t n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) :: "cc");
}

static void subtest_inst_retired(struct ktest *t, const struct pebs_caps *c)
{
	struct pmu_count pc;
	uint64_t got, want = 2 * LOOP_ITERS, slack = want / 100 + 200;

	if (pmu_count_start(&pc, c)) {
		kt_skip_sub(t, "inst_retired", "%s", pc.err);
		return;
	}
	known_loop(LOOP_ITERS);
	got = pmu_count_stop(&pc);
	if (pc.fault) {
		kt_check(t, false, "inst_retired # %s", pc.err);
		return;
	}
	kt_check(t, got >= want && got <= want + slack,
		 "inst_retired # %s counter: %llu, loop %llu, tolerance +%llu",
		 pc.fixed ? "fixed" : "GP", (unsigned long long)got, (unsigned long long)want,
		 (unsigned long long)slack);
}

struct rec_check {
	const struct pebs_session *s;
	uint64_t n, bad_size, bad_group, bad_counter;
};

static uint64_t get64(const uint8_t *p, unsigned off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void check_record(void *ctx, const uint8_t *rec, size_t len)
{
	struct rec_check *k = ctx;
	const struct pebs_session *s = k->s;
	uint64_t applicable = 0;
	bool exact = true;

	k->n++;
	if (len != s->geom.rec_size)
		k->bad_size++;
	if (s->adaptive) {
		if ((get64(rec, 0) & 0xffffffffull) != s->data_cfg)
			k->bad_group++;
		applicable = get64(rec, 0x10);
	} else if (s->arch) {
		applicable = get64(rec, 16 + 8);	/* header, then basic: ip, applicable */
	} else if (s->caps->pebs_fmt >= 3) {
		applicable = get64(rec, 0x90);
	} else {
		exact = false;	/* fmt 1/2: 0x90 is a GLOBAL_STATUS copy (§4.6) */
	}
	if (exact && !(applicable & (1ull << s->counter)))
		k->bad_counter++;
}

/* Architectural PEBS: the registers a session touches, read before start and after stop. */
static void arch_regs(uint64_t *v, unsigned counter)
{
	const uint32_t msr[4] = { MSR_IA32_PEBS_BASE, MSR_IA32_PEBS_INDEX,
				  MSR_IA32_PMC_GP_CFG_C(counter), MSR_IA32_PERFEVTSEL(counter) };

	for (unsigned i = 0; i < 4; i++)
		if (rdmsr_safe(msr[i], &v[i]))
			v[i] = ~0ull;
}

static void chase(volatile uint64_t *buf)
{
	uint64_t i = 0;

	for (unsigned n = 0; n < CHASE_LOADS; n++)
		i = buf[i * 8];
}

static void subtest_pebs_ll(struct ktest *t, const struct pebs_caps *c)
{
	static struct pebs_session s;
	static volatile uint64_t *buf;
	struct pebs_config cfg;
	struct rec_check k;
	const char *why;
	uint64_t fl, before[4], after[4];

	if (!pebs_caps_ll_ok(c, &why) || apic_mode() == APIC_DISABLED) {
		if (!why[0])
			why = "no local APIC: no PMI delivery";
		kt_skip_sub(t, "pebs_load_latency_records", "%s", why);
		kt_skip_sub(t, "pebs_threshold_pmi", "%s", why);
		kt_skip_sub(t, "arch_pebs_teardown", "%s", why);
		return;
	}
	if (!buf)
		buf = kalloc(CHASE_BYTES, 4096);
	if (!buf) {
		kt_check(t, false, "pebs_load_latency_records # out of memory");
		return;
	}
	for (uint64_t l = 0; l < CHASE_LINES; l++)
		buf[l * 8] = (l + CHASE_STEP) % CHASE_LINES;
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, &kcmdline, NULL);
	if (!cmdline_has(&kcmdline, "sav"))
		cfg.sav = 997;
	if (!cmdline_has(&kcmdline, "pebs_buf"))
		cfg.buf_bytes = 4096;	/* small: several threshold PMIs in a short run */
	memset(&k, 0, sizeof(k));
	k.s = &s;
	cfg.sink = check_record;
	cfg.sink_ctx = &k;
	arch_regs(before, (unsigned)__builtin_ctz(c->uarch->ll_gp & pebs_caps_pebs_gp(c)));
	if (pebs_start(&s, c, &cfg)) {
		kt_check(t, false, "pebs_load_latency_records # pebs_start: %s", s.err);
		return;
	}
	fl = irq_save();
	irq_enable();		/* the threshold PMI must get in */
	chase(buf);
	if (!(fl & (1u << 9)))
		irq_disable();	/* leave IF as the runner had it */
	pebs_stop(&s);
	arch_regs(after, s.counter);
	kt_info(t, "pebs: counter %u event 0x%04llx ldlat %u sav %llu record %u B, %llu records, "
		"%llu PMIs (%llu spurious), full %llu, dropped %llu, bad %llu", s.counter,
		(unsigned long long)(s.evtsel & 0xffff), s.cfg.ldlat,
		(unsigned long long)s.cfg.sav, s.geom.rec_size, (unsigned long long)s.st.records,
		(unsigned long long)s.st.pmis, (unsigned long long)s.st.spurious,
		(unsigned long long)s.st.full, (unsigned long long)s.st.dropped,
		(unsigned long long)s.st.bad);
	/* zero drops: the threshold leaves a record of room per PEBS counter (pebs_ds_headroom,
	 * Linux large PEBS), so a PMI that lands that many records late still loses nothing */
	kt_info(t, "pebs: threshold %llu of %llu records (headroom %llu)",
		(unsigned long long)s.geom.thresh_rec, (unsigned long long)s.geom.nrec,
		(unsigned long long)(s.geom.nrec - s.geom.thresh_rec));
	kt_check(t, k.n > 0 && k.bad_size == 0 && k.bad_group == 0 && k.bad_counter == 0 &&
		 s.st.bad == 0 && s.st.dropped == 0,
		 "pebs_load_latency_records # %llu records: %llu bad size, %llu bad format group, "
		 "%llu without counter %u", (unsigned long long)k.n,
		 (unsigned long long)k.bad_size, (unsigned long long)k.bad_group,
		 (unsigned long long)k.bad_counter, s.counter);
	if (s.st.records + s.st.dropped <= s.geom.thresh_rec)
		kt_skip_sub(t, "pebs_threshold_pmi", "%llu records never reached the threshold (%llu)",
			    (unsigned long long)s.st.records,
			    (unsigned long long)s.geom.thresh_rec);
	else
		kt_check(t, s.st.pmis > 0 && s.st.pmis >= s.st.records / s.geom.nrec,
			 "pebs_threshold_pmi # %llu PMIs for %llu records, threshold %llu of %llu",
			 (unsigned long long)s.st.pmis, (unsigned long long)s.st.records,
			 (unsigned long long)s.geom.thresh_rec, (unsigned long long)s.geom.nrec);
	if (c->pebs_fmt != 0xf)
		kt_skip_sub(t, "arch_pebs_teardown", "IA32_PERF_CAPABILITIES[11:8] = %u: not "
			    "architectural PEBS (format 0xF)", c->pebs_fmt);
	else
		kt_check(t, !memcmp(before, after, sizeof(before)),
			 "arch_pebs_teardown # PEBS_BASE/INDEX/CFG_C/EVTSEL 0x%llx/0x%llx/0x%llx/"
			 "0x%llx after, as found", (unsigned long long)after[0],
			 (unsigned long long)after[1], (unsigned long long)after[2],
			 (unsigned long long)after[3]);
}

static void subtest_table(struct ktest *t, const struct pebs_caps *c)
{
	const char *why;

	if (!pebs_caps_pebs_ok(c, &why)) {
		kt_skip_sub(t, "uarch_format", "%s", why);
		return;
	}
	if (c->uarch->pebs_fmt == 0xff) {
		kt_skip_sub(t, "uarch_format", "%s: the table does not pin a record format",
			    c->uarch->name);
		return;
	}
	kt_check(t, c->pebs_fmt == c->uarch->pebs_fmt,
		 "uarch_format # IA32_PERF_CAPABILITIES[11:8] %u, table %s %u", c->pebs_fmt,
		 c->uarch->name, c->uarch->pebs_fmt);
}

enum kt_result test_pmu(struct ktest *t)
{
	const struct pebs_caps *c = pebs_caps_init();	/* printed in the header (main.c) */

	subtest_table(t, c);
	subtest_inst_retired(t, c);
	subtest_pebs_ll(t, c);
	if (c->vendor == VENDOR_AMD)
		pmu_ibs_subtests(t);	/* the AMD path (ktests/pmu_ibs.c) */
	return kt_verdict(t);
}

/*
 * arch_program.c: the architectural-PEBS path of the driver (PERF_CAPABILITIES[11:8] = 0xF):
 * buffer at a physical, 4 KiB-aligned base with a size code in IA32_PEBS_BASE, per-counter
 * configuration in IA32_PMC_GPi_CFG_C (PEBS_EN, AUX group, reload value, counter snapshot),
 * IA32_PEBS_INDEX with EN and THRESH, the threshold PMI as GLOBAL_STATUS[54] (pmi.c), drain by
 * the write offset, re-arm with WR = FULL = 0, and a teardown that writes back every register
 * as it was found (except a load-latency threshold below the SDM minimum 3, e.g. its reset
 * value 0, which stays at the value programmed). Order as Linux core.c intel_pmu_enable_event_ext and ds.c
 * init_arch_pebs_on_cpu / intel_pmu_drain_arch_pebs / fini_arch_pebs_on_cpu;
 * facts in docs/arch-pebs.md ("Registers"). Kernel memory is identity-mapped (kernel/mm.h),
 * so a kalloc address is the physical address the register wants.
 */
#include "pebs/pebs.h"
#include "pebs/arch_msr.h"
#include "pebs/arch_record.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#define FIXED_CORE_CYCLES 1	/* IA32_FIXED_CTR1: CPU_CLK_UNHALTED.CORE */

static int fail(struct pebs_session *s, const char *what, uint32_t msr, uint64_t v, int vec)
{
	fmt_snprintf(s->err, sizeof(s->err), "%s: wrmsr 0x%x <- 0x%llx: fault (vector %d)", what,
		     msr, (unsigned long long)v, vec);
	return -1;
}

static int wr(struct pebs_session *s, const char *what, uint32_t msr, uint64_t v)
{
	int vec = wrmsr_safe(msr, v);

	return vec ? fail(s, what, msr, v, vec) : 0;
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0;

	return rdmsr_safe(msr, &v) ? 0 : v;
}

static uint32_t pmc_msr(const struct pebs_session *s)
{
	return s->caps->fw_write ? MSR_IA32_A_PMC(s->counter) : MSR_IA32_PMC(s->counter);
}

static void save(struct pebs_session *s)
{
	struct pebs_arch_saved *a = &s->arch_saved;

	a->base = rd(MSR_IA32_PEBS_BASE);
	a->index = rd(MSR_IA32_PEBS_INDEX);
	a->cfg_c = rd(MSR_IA32_PMC_GP_CFG_C(s->counter));
	a->fx_cfg_c = rd(MSR_IA32_PMC_FX_CFG_C(FIXED_CORE_CYCLES));
	a->evtsel = rd(MSR_IA32_PERFEVTSEL(s->counter));
	a->pmc = rd(pmc_msr(s));
	a->ldlat = rd(MSR_PEBS_LD_LAT_THRESHOLD);
	a->fixed_ctrl = rd(MSR_IA32_FIXED_CTR_CTRL);
}

/* Bytes of one record with this CFG_C (header + basic + AUX + counter group). */
static unsigned record_bytes(uint64_t cfg_c)
{
	unsigned n = sizeof(struct pebs_arch_header) + sizeof(struct pebs_arch_basic);

	if (cfg_c & CFG_C_AUX)
		n += sizeof(struct pebs_arch_aux);
	if (cfg_c & (CFG_C_CNTR_GP | CFG_C_CNTR_FIXED))
		n += sizeof(struct pebs_cntr_header) + 2 * 8;	/* PEBS counter + fixed 1 */
	return n;
}

static int buffer(struct pebs_session *s, unsigned *code)
{
	uint64_t want = s->cfg.buf_bytes ? s->cfg.buf_bytes : PEBS_BUF_DEFAULT;

	for (*code = 0; (4096ull << *code) < want && *code < ARCH_BASE_MAX_CODE; (*code)++)
		;
	s->geom.bytes = 4096ull << *code;
	if (pebs_mem_get(s, s->geom.bytes, false)) {
		fmt_snprintf(s->err, sizeof(s->err), "out of memory for the %llu-byte arch-PEBS "
			     "buffer", (unsigned long long)s->geom.bytes);
		return -1;
	}
	return 0;
}

static int program(struct pebs_session *s, uint16_t event)
{
	const struct pebs_caps *c = s->caps;
	uint64_t supported = (uint64_t)c->arch_caps << 32, want, thresh;
	unsigned code, i = s->counter;

	s->arch = true;
	s->arch_drain = pebs_arch_drain;
	save(s);
	if (s->cfg.sav > 0x7fffffff) {
		fmt_snprintf(s->err, sizeof(s->err), "sav=%llu: the CFG_C reload value is 32 bits",
			     (unsigned long long)s->cfg.sav);
		return -1;
	}
	s->cfg_c = CFG_C_PEBS_EN | ((0 - s->cfg.sav) & CFG_C_RELOAD_MASK);
	if (s->cfg.kind != PEBS_RAW)
		s->cfg_c |= CFG_C_AUX;		/* data source, address, latency */
	if (s->cfg.counters)
		s->cfg_c |= CFG_C_CNTR_GP | CFG_C_CNTR_FIXED | CFG_C_CNTR_ALLOW;
	want = s->cfg_c & CFG_C_GROUPS;
	if (want & ~supported) {
		fmt_snprintf(s->err, sizeof(s->err), "CFG_C groups 0x%llx not in CPUID.23H.4:EBX "
			     "0x%x", (unsigned long long)(want >> 32), c->arch_caps);
		return -1;
	}
	if (s->cfg.counters && !(c->arch_fixed & (1u << FIXED_CORE_CYCLES))) {
		fmt_snprintf(s->err, sizeof(s->err), "pebs_counters: no fixed counter %u in "
			     "CPUID.23H.1:EBX 0x%x", FIXED_CORE_CYCLES, c->arch_fixed);
		return -1;
	}
	if (buffer(s, &code))
		return -1;
	/* the PMI with room left for a record per PEBS counter (ds.h pebs_ds_headroom) */
	if (pebs_ds_geometry(s->geom.bytes, record_bytes(s->cfg_c), pebs_ds_headroom(
		pebs_popcount32(pebs_caps_pebs_gp(c)),
		pebs_popcount32(c->arch_pebs_fixed)), &s->geom)) {
		fmt_snprintf(s->err, sizeof(s->err), "%llu-byte arch-PEBS buffer: no room for "
			     "two %u-byte records", (unsigned long long)s->geom.bytes,
			     record_bytes(s->cfg_c));
		return -1;
	}
	thresh = (s->geom.thresh_rec * s->geom.rec_size) >> ARCH_INDEX_WR_SHIFT;
	s->arch_index = ARCH_INDEX_EN | thresh << ARCH_INDEX_THRESH_SHIFT;
	s->reset = pebs_counter_value(c, s->cfg.sav);
	s->evtsel = event | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
	s->global_ctrl = 1ull << i;
	if (wr(s, "IA32_PEBS_BASE", MSR_IA32_PEBS_BASE, (uint64_t)(uintptr_t)s->buf | code) ||
	    wr(s, "CFG_C", MSR_IA32_PMC_GP_CFG_C(i), s->cfg_c))
		return -1;
	if (s->cfg.kind == PEBS_LOAD_LATENCY &&
	    wr(s, "MSR_PEBS_LD_LAT_THRESHOLD", MSR_PEBS_LD_LAT_THRESHOLD, s->cfg.ldlat))
		return -1;
	if (s->cfg.counters) {
		if (wr(s, "fixed CFG_C", MSR_IA32_PMC_FX_CFG_C(FIXED_CORE_CYCLES),
		       CFG_C_CNTR_ALLOW) ||
		    wr(s, "IA32_FIXED_CTR_CTRL", MSR_IA32_FIXED_CTR_CTRL,
		       s->arch_saved.fixed_ctrl | FIXED_CTRL_OS(FIXED_CORE_CYCLES) |
		       FIXED_CTRL_USR(FIXED_CORE_CYCLES)))
			return -1;
		s->global_ctrl |= GLOBAL_FIXED(FIXED_CORE_CYCLES);
	}
	if (wr(s, "IA32_PMC", pmc_msr(s), c->fw_write ? s->reset : (uint32_t)s->reset) ||
	    wr(s, "IA32_PERFEVTSEL", MSR_IA32_PERFEVTSEL(i), s->evtsel) ||
	    wr(s, "IA32_PEBS_INDEX", MSR_IA32_PEBS_INDEX, s->arch_index))
		return -1;
	return 0;
}

void pebs_arch_drain(struct pebs_session *s)
{
	uint64_t idx = rd(MSR_IA32_PEBS_INDEX), top = ARCH_INDEX_WR(idx) << ARCH_INDEX_WR_SHIFT;
	struct pebs_walker w;
	struct pebs_record r;

	s->st.drains++;
	if (idx & ARCH_INDEX_FULL) {
		/* as pmi.c check_dropped: an assist at a full buffer left the counter past its
		 * overflow instead of reloaded (model assumption, docs/pmu.md): count, reload */
		uint64_t mask = s->caps->gp_width >= 64 ? ~0ull : (1ull << s->caps->gp_width) - 1;
		uint64_t v = rd(pmc_msr(s)) & mask;

		s->st.full++;
		if (v != 0 && v < mask - s->cfg.sav + 1) {
			s->st.dropped++;
			(void)wrmsr_safe(pmc_msr(s), s->caps->fw_write ? s->reset : (uint32_t)s->reset);
		}
	}
	if (top > s->geom.bytes) {
		s->st.bad++;
		top = 0;
	}
	pebs_walk_init(&w, s->buf, (size_t)top, PEBS_FMT_ARCH, 0);
	while (pebs_walk_next(&w, &r)) {
		if (r.err) {
			s->st.bad++;	/* incomplete or malformed: counted, never handed on */
			continue;
		}
		if (s->cfg.sink)
			s->cfg.sink(s->cfg.sink_ctx, (const uint8_t *)s->buf + r.offset, r.size);
		s->st.records++;
	}
	/* re-arm: WR = 0, FULL = 0, EN and THRESH kept (Linux intel_pmu_drain_arch_pebs) */
	(void)wrmsr_safe(MSR_IA32_PEBS_INDEX, idx & ~(ARCH_INDEX_WR_MASK | ARCH_INDEX_FULL));
}

/* As pebs_stop (program.c): not active before any register is touched, so a late PMI
 * neither drains nor turns the counters back on; GLOBAL_CTRL as found once the handler is
 * gone. */
void pebs_arch_stop(struct pebs_session *s)
{
	const struct pebs_arch_saved *a = &s->arch_saved;
	bool active = s->active;
	uint64_t status;

	s->active = false;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (active)
		pebs_arch_drain(s);
	/* PEBS off first (INDEX.EN, CFG_C.PEBS_EN), then the buffer, then the rest */
	(void)wrmsr_safe(MSR_IA32_PEBS_INDEX, a->index & ARCH_INDEX_EN ? 0 : a->index);
	(void)wrmsr_safe(MSR_IA32_PMC_GP_CFG_C(s->counter), a->cfg_c);
	if (s->cfg.counters)
		(void)wrmsr_safe(MSR_IA32_PMC_FX_CFG_C(FIXED_CORE_CYCLES), a->fx_cfg_c);
	(void)wrmsr_safe(MSR_IA32_PERFEVTSEL(s->counter), a->evtsel);
	(void)wrmsr_safe(pmc_msr(s), s->caps->fw_write ? a->pmc : (uint32_t)a->pmc);
	if (a->ldlat >= PEBS_LD_LAT_MIN)	/* below 3 (reset value 0) may not be written */
		(void)wrmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, a->ldlat);
	(void)wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, a->fixed_ctrl);
	(void)wrmsr_safe(MSR_IA32_PEBS_BASE, a->base);
	if (a->index & ARCH_INDEX_EN)
		(void)wrmsr_safe(MSR_IA32_PEBS_INDEX, a->index);
	status = rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	pebs_note_status(&s->st, s->counter, status);	/* overflowed without an assist? */
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, status);
	pebs_pmi_uninstall();
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, a->global_ctrl);
}

int pebs_arch_start(struct pebs_session *s, uint16_t event)
{
	s->arch_saved.global_ctrl = rd(MSR_IA32_PERF_GLOBAL_CTRL);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);	/* everything disabled while programming */
	/* stale overflow bits (STATUS[54] would hold back the buffer PMI): ack all, as read */
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	if (program(s, event)) {
		char keep[sizeof(s->err)];

		__builtin_memcpy(keep, s->err, sizeof(keep));
		pebs_arch_stop(s);
		__builtin_memcpy(s->err, keep, sizeof(keep));
		return -1;
	}
	/* what was on and is not the session's (the core clock) stays on */
	s->global_keep = s->arch_saved.global_ctrl & ~(1ull << s->counter);
	pebs_pmi_install(s);
	s->active = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, s->global_ctrl | s->global_keep);
	return 0;
}

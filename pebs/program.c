/*
 * program.c: PEBS programming and teardown (SDM Vol. 3B 20.6.2 "PEBS", 18.4.9 "DS area";
 * order per docs/hardware.md §8.4: GLOBAL_CTRL=0 -> DS -> DS_AREA ->
 * PEBS_DATA_CFG -> LD_LAT -> counter + EVTSEL -> PEBS_ENABLE -> GLOBAL_CTRL; teardown
 * GLOBAL_CTRL first, then PEBS_ENABLE, then DS_AREA; stale GLOBAL_STATUS acked at start;
 * the session marked inactive before the teardown, docs/hardware.md §7.2). Rules applied: counters disabled while
 * programmed; PEBS events with AnyThread/Edge/Inv/CMask 0 and INT clear (§7.2); LL_EN on
 * perfmon < 5 (§1.5); PS_EN for SNB/IVB stores; ADAPTIVE + MEMINFO on baseline (§4.4);
 * threshold >= 3 (§1.6); full-width writes (§8.3); FREEZE_WHILE_SMM (§8.10); aux event (§6).
 * From the start to the stop the runner holds an undo (kernel/ktap_undo.h, boot CPU only):
 * a test abandoned inside the session is disarmed (disarm.c) before its memory is released.
 */
#include "pebs/pebs.h"
#include "pebs/msr.h"
#include "pebs/record.h"
#include "apic/apic.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/ktap_undo.h"

#include <string.h>

/* AAK100/AAP53/BD53 magic events for PMC0-3 (§7.1, Linux core.c intel_pmu_nhm_workaround). */
static const uint64_t nhm_magic[4] = { 0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1 };

static int wr(struct pebs_session *s, uint32_t msr, uint64_t v)
{
	int vec = wrmsr_safe(msr, v);

	if (vec)
		pebs_fail(s, "wrmsr 0x%x <- 0x%llx: fault (vector %d)", msr,
			  (unsigned long long)v, vec);
	return vec;
}

static int write_counter(struct pebs_session *s, unsigned i, uint64_t v)
{
	if (s->caps->fw_write)
		return wr(s, MSR_IA32_A_PMC(i), v);
	return wr(s, MSR_IA32_PMC(i), (uint32_t)v);	/* sign-extended from bit 31 (§8.3) */
}

static int alloc_buffers(struct pebs_session *s)
{
	unsigned rec;
	uint64_t bytes = s->cfg.buf_bytes;
	const char *err;

	s->adaptive = s->caps->baseline;
	if (s->adaptive) {
		s->data_cfg = PEBS_DATACFG_MEMINFO | s->cfg.data_cfg;
		if (s->cfg.counters && pebs_cntr_data_cfg(s))	/* format 6 (cntr_program.c) */
			return -1;
		rec = pebs_adaptive_record_size(s->data_cfg);
		if (!rec)
			return pebs_fail(s, "PEBS_DATA_CFG 0x%llx: unsupported groups",
				    (unsigned long long)s->data_cfg);
	} else {
		s->data_cfg = 0;
		if (s->cfg.counters)
			return pebs_cntr_data_cfg(s);	/* no counter group before format 6 */
		rec = pebs_legacy_record_size(s->caps->pebs_fmt);
	}
	if (s->caps->uarch->quirks & Q_BUF_ONE_PAGE)
		bytes = 4096;
	err = pebs_ds_geometry(bytes, rec, pebs_ds_headroom(pebs_popcount32(
		pebs_caps_pebs_gp(s->caps)), s->caps->baseline ? s->caps->n_fixed : 0), &s->geom);
	if (err)
		return pebs_fail(s, "%s", err);
	if (pebs_mem_get(s, s->geom.bytes, true))
		return pebs_fail(s, "out of memory for the DS area / %llu-byte PEBS buffer",
			    (unsigned long long)s->geom.bytes);
	pebs_ds_setup(s->ds, s->buf, &s->geom);
	return 0;
}

static int pebs_off(struct pebs_session *s)
{
	return wr(s, MSR_IA32_PEBS_ENABLE, 0);
}

/* AAK100 steps 2-5 (step 1, PEBS_ENABLE and GLOBAL_CTRL 0, is done by pebs_start): the
 * magic events on cleared PMCs, GLOBAL_CTRL[3:0] on and off, EVTSEL and PMC cleared. */
static void nhm_counter_reset(void)
{
	for (unsigned i = 0; i < 4; i++) {
		wrmsr(MSR_IA32_PERFEVTSEL(i), nhm_magic[i]);
		wrmsr(MSR_IA32_PMC(i), 0);
	}
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0xf);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	for (unsigned i = 0; i < 4; i++) {
		wrmsr(MSR_IA32_PERFEVTSEL(i), 0);
		wrmsr(MSR_IA32_PMC(i), 0);
	}
}

static int program(struct pebs_session *s, uint16_t event)
{
	const struct pebs_caps *c = s->caps;
	const struct pebs_uarch *u = c->uarch;
	unsigned i = s->counter;
	int slot = pebs_ds_reset_slot(c->pebs_fmt, false, i);
	uint64_t v;

	if (slot < 0)
		return pebs_fail(s, "counter %u has no DS reset slot in format %u", i, c->pebs_fmt);
	if (u->quirks & Q_NHM_CTR_RESET)
		nhm_counter_reset();
	s->reset = pebs_counter_value(c, s->cfg.sav);
	s->ds->pebs_counter_reset[slot] = s->reset;
	if (wr(s, MSR_IA32_DS_AREA, (uint64_t)(uintptr_t)s->ds))
		return -1;
	if (s->adaptive && wr(s, MSR_PEBS_DATA_CFG, s->data_cfg))
		return -1;
	if (s->cfg.kind == PEBS_LOAD_LATENCY && wr(s, MSR_PEBS_LD_LAT_THRESHOLD, s->cfg.ldlat))
		return -1;
	if (c->freeze_smm && !rdmsr_safe(MSR_IA32_DEBUGCTL, &v) &&
	    wr(s, MSR_IA32_DEBUGCTL, v | DEBUGCTL_FREEZE_WHILE_SMM))
		return -1;
	/* EVTSEL: EN, OS+USR; INT, EDGE, INV, ANY, CMASK all 0 (§1.2, §7.2). */
	s->evtsel = event | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN |
		    (s->adaptive ? EVTSEL_ADAPTIVE : 0);
	if (write_counter(s, i, s->reset) || wr(s, MSR_IA32_PERFEVTSEL(i), s->evtsel))
		return -1;
	s->global_ctrl = 1ull << i;
	if (s->cfg.counters && pebs_cntr_enable(s))
		return -1;
	s->aux_counter = -1;
	if (s->cfg.kind == PEBS_LOAD_LATENCY && (u->quirks & Q_LL_NEEDS_AUX)) {
		uint32_t free_gp = (c->n_gp >= 32 ? ~0u : (1u << c->n_gp) - 1) & ~(1u << i) &
				   ~c->fw_gp;	/* firmware's counters left alone (probe.c) */

		if (!free_gp)
			return pebs_fail(s, "%s: no counter left for MEM_LOADS_AUX 0x%04x", u->name,
				    u->aux_event);
		s->aux_counter = __builtin_ctz(free_gp);
		s->aux_evtsel = u->aux_event | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
		if (write_counter(s, (unsigned)s->aux_counter, 0) ||
		    wr(s, MSR_IA32_PERFEVTSEL((unsigned)s->aux_counter), s->aux_evtsel))
			return -1;
		s->global_ctrl |= 1ull << s->aux_counter;
	}
	s->pebs_enable = PEBS_EN_PMC(i);
	if (s->cfg.kind == PEBS_LOAD_LATENCY && c->version < 5)
		s->pebs_enable |= PEBS_LL_EN_PMC(i);
	if (s->cfg.kind == PEBS_STORE && (u->quirks & Q_PS_EN_STORE))
		s->pebs_enable |= PEBS_PS_EN;
	if (wr(s, MSR_IA32_PEBS_ENABLE, s->pebs_enable))
		return -1;
	return 0;
}

static void teardown(void)
{
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	(void)wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0);
}

/* Ack every overflow bit (Linux core.c intel_pmu_reset "Ack all overflows"; kvm-unit-tests
 * x86/pmu_pebs.c pebs_reset): written back as read, so no reserved bit is set. */
static void ack_status(void)
{
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
}

/* GLOBAL_CTRL bits found on that the session does not program (the core clock). */
static uint64_t foreign(const struct pebs_session *s, uint64_t found)
{
	found &= ~(1ull << s->counter);
	if (s->aux_counter >= 0)
		found &= ~(1ull << s->aux_counter);
	return found;
}

static void clear_programming(struct pebs_session *s)
{
	uint64_t status;

	(void)wrmsr_safe(MSR_IA32_PERFEVTSEL(s->counter), 0);
	if (s->aux_counter >= 0)
		(void)wrmsr_safe(MSR_IA32_PERFEVTSEL((unsigned)s->aux_counter), 0);
	(void)wrmsr_safe(MSR_IA32_DS_AREA, 0);
	if (s->adaptive)
		(void)wrmsr_safe(MSR_PEBS_DATA_CFG, 0);
	if (s->global_ctrl & GLOBAL_FIXED(1))	/* pebs_counters=on enabled it */
		pebs_cntr_restore(s);
	status = rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	pebs_note_status(&s->st, s->counter, status);	/* overflowed without an assist? */
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, status);
}

static int start(struct pebs_session *s, const struct pebs_caps *c,
		 const struct pebs_config *cfg)
{
	uint16_t event = 0;
	uint32_t allowed = 0;
	uint64_t found;

	s->caps = c;
	s->cfg = *cfg;
	s->err[0] = '\0';
	s->aux_counter = -1;
	s->arch = false;
	s->global_keep = 0;
	memset(&s->st, 0, sizeof(s->st));
	if (pebs_config_check(s, &event, &allowed))
		return -1;
	if (c->pebs_fmt == PEBS_FMT_ARCH)	/* same session, other registers */
		return pebs_arch_start(s, event);
	found = rdmsr(MSR_IA32_PERF_GLOBAL_CTRL);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);	/* everything disabled while programming */
	if (!pebs_off(s))
		ack_status();	/* a stale STATUS[62] holds back the threshold PMI */
	if (s->err[0] || alloc_buffers(s) || program(s, event)) {
		char keep[sizeof(s->err)];

		memcpy(keep, s->err, sizeof(keep));
		teardown();
		clear_programming(s);
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, foreign(s, found));
		memcpy(s->err, keep, sizeof(keep));
		return -1;
	}
	s->global_keep = foreign(s, found);
	if (pebs_pmi_install(s)) {
		teardown();
		clear_programming(s);
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, s->global_keep);
		return pebs_fail(s, "no PMI slot: %u CPUs already run PEBS sessions",
				 pebs_pmi_nslots());
	}
	s->active = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* active before counting starts */
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, s->global_ctrl | s->global_keep);
	return 0;
}

int pebs_start(struct pebs_session *s, const struct pebs_caps *c, const struct pebs_config *cfg)
{
	bool undo;

	if (s->active && pebs_pmi_session_here() != s)
		s->active = false;	/* disarmed since (disarm.c): nothing left to stop */
	if (s->active)
		pebs_stop(s);
	undo = kt_undo_push(pebs_disarm_undo, NULL);	/* full table: stopped as before */
	if (!start(s, c, cfg))
		return 0;
	if (undo)
		kt_undo_drop(pebs_disarm_undo, NULL);
	return -1;
}

/*
 * Not active first, with no register touched yet (Linux x86_pmu_disable clears
 * cpuc->enabled before the hardware): a threshold PMI that lands anywhere in here, however
 * late, acks and re-arms but neither re-enables the counters nor drains (pmi.c), so the one
 * drain below takes every record once and everything ends disabled.
 */
void pebs_stop(struct pebs_session *s)
{
	if (!s->active)
		return;
	if (s->arch) {
		pebs_arch_stop(s);
		kt_undo_drop(pebs_disarm_undo, NULL);	/* stopped: nothing left to undo */
		return;
	}
	s->active = false;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* seen by a PMI on this CPU from here */
	teardown();
	pebs_drain(s);
	clear_programming(s);
	pebs_pmi_uninstall();
	if (s->global_keep)
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, s->global_keep);
	kt_undo_drop(pebs_disarm_undo, NULL);
}

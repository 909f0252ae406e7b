/*
 * pmi.c: the PEBS threshold PMI and the buffer drain (SDM Vol. 3B 18.4.9.x "DS buffer
 * interrupt", 20.6.2; order per docs/hardware.md §7.2 and §8.8):
 * GLOBAL_CTRL <- 0, read GLOBAL_STATUS, ack through IA32_PERF_GLOBAL_OVF_CTRL, drain
 * [base, index) into the sink, index <- base, apic_pmi_rearm() (unmask LVTPC, EOI),
 * GLOBAL_CTRL <- enabled set (the session's counters and the bits it keeps on, such as the
 * core clock). A PMI with GLOBAL_STATUS == 0 is counted as spurious. A PMI that finds the
 * session not active (pebs_stop has begun, or pebs_start not finished) acks and re-arms only:
 * no drain, GLOBAL_CTRL left 0 (Linux core.c intel_pmu_handle_irq: "Only restore PMU state
 * when it's active"; docs/hardware.md §7.2).
 * Architectural PEBS shares this handler: its buffer PMI is GLOBAL_STATUS[54] and its drain is
 * pebs_arch_drain (arch_program.c; docs/arch-pebs.md "Registers").
 * Drops: when a drain finds index at the absolute maximum the buffer was full; an assist that
 * came then wrote nothing and (SDM "Debug Store (DS) Mechanism": counters are reset only
 * after a record is written) left the PEBS counter past its overflow instead of at its reset
 * value: that is counted as one dropped record, and the counter is reloaded.
 * Per CPU: each CPU's PMU raises its PMI through its own LVTPC into the one shared vector;
 * the handler finds the session of the CPU it runs on by its local APIC id (apic_id()), so
 * every CPU drains only its own DS buffer.
 */
#include "pebs/pebs.h"
#include "pebs/msr.h"
#include "pebs/pmi_slots.h"
#include "apic/apic.h"
#include "kernel/hw.h"
#include "kernel/mm.h"

static struct pmi_slot slots0[PEBS_PMI_SLOTS0];
static struct pmi_slots pmi_sessions = { slots0, PEBS_PMI_SLOTS0 };

/* Before any session runs (init/main.c, after smp_init): n slots from the memory map when
 * the built-in table is smaller; it stays when memory is short. */
void pebs_pmi_slots(unsigned n)
{
	struct pmi_slot *t;

	if (n <= pmi_sessions.n || !(t = kalloc((uint64_t)n * sizeof(*t), 4096)))
		return;
	pmi_sessions.t = t;
	pmi_sessions.n = n;
}

unsigned pebs_pmi_nslots(void)
{
	return pmi_sessions.n;
}

static void pebs_pmi_irq(struct trap_frame *f)
{
	struct pebs_session *s = pmi_slot_find(&pmi_sessions, apic_id());

	(void)f;
	if (s)
		pebs_pmi(s);
	else
		apic_pmi_rearm();	/* not ours, but LVTPC must not stay masked */
}

/* What s armed, kept in this CPU's slot for pebs_disarm_here (pmi_slots.h). */
static void note_armed(struct pmi_armed *a, const struct pebs_session *s)
{
	a->ctrl = s->global_ctrl;
	a->gp = 1u << s->counter;
	if (s->aux_counter >= 0)
		a->gp |= 1u << s->aux_counter;
	a->arch = s->arch;
	a->adaptive = s->adaptive;
	a->fixed1 = s->cfg.counters && (s->global_ctrl & GLOBAL_FIXED(1));
	a->fixed_ctrl = s->arch_saved.fixed_ctrl;
}

int pebs_pmi_install(struct pebs_session *s)
{
	struct pebs_session **slot = pmi_slot_claim(&pmi_sessions, apic_id());

	if (!slot)
		return -1;
	note_armed(pmi_slot_armed(&pmi_sessions, apic_id()), s);
	pmi_slot_publish(slot, s);
	apic_set_pmi_handler(pebs_pmi_irq);
	return 0;
}

void pebs_pmi_uninstall(void)
{
	bool any = false;

	pmi_slot_release(&pmi_sessions, apic_id());
	for (unsigned i = 0; i < pmi_sessions.n; i++)
		any |= __atomic_load_n(&pmi_sessions.t[i].s, __ATOMIC_ACQUIRE) != NULL;
	if (!any)	/* the vector is shared: removed with the last CPU's session */
		apic_set_pmi_handler(NULL);
}

struct pebs_session *pebs_pmi_session_here(void)
{
	return pmi_slot_find(&pmi_sessions, apic_id());
}

bool pebs_pmi_armed_here(struct pmi_armed *a)
{
	const struct pmi_armed *p = pmi_slot_armed(&pmi_sessions, apic_id());

	if (p)
		*a = *p;
	return p != NULL;
}

uint32_t pebs_pmi_counters_elsewhere(bool exclusive_only)
{
	uint32_t here = apic_id(), m = 0;

	for (unsigned i = 0; i < pmi_sessions.n; i++) {
		const struct pebs_session *o = __atomic_load_n(&pmi_sessions.t[i].s,
							       __ATOMIC_ACQUIRE);
		uint16_t ev = o ? (uint16_t)(o->evtsel & 0xff) : 0;

		if (!o || pmi_sessions.t[i].owner == here + 1 || !o->active)
			continue;
		if (exclusive_only && (ev < 0xd0 || ev > 0xd3))
			continue;
		m |= 1u << o->counter;
		if (o->aux_counter >= 0)
			m |= 1u << o->aux_counter;
	}
	return m;
}

static uint64_t record_size(const struct pebs_session *s, const uint8_t *p)
{
	uint64_t w;

	if (!s->adaptive)
		return s->geom.rec_size;
	__builtin_memcpy(&w, p, sizeof(w));
	return w >> 48;		/* basic group bits 63:48 (§4.3) */
}

/* The buffer was full: did an assist find it so? (see the file comment) */
static void check_dropped(struct pebs_session *s)
{
	const struct pebs_caps *c = s->caps;
	uint64_t mask = c->gp_width >= 64 ? ~0ull : (1ull << c->gp_width) - 1;
	uint64_t v = rdmsr(MSR_IA32_PMC(s->counter)) & mask;
	uint64_t window = (0 - s->reset) & mask;	/* = sav */

	s->st.full++;
	if (v != 0 && v < ((mask - window) + 1)) {
		s->st.dropped++;
		if (c->fw_write)
			(void)wrmsr_safe(MSR_IA32_A_PMC(s->counter), s->reset);
		else
			wrmsr(MSR_IA32_PMC(s->counter), (uint32_t)s->reset);
	}
}

void pebs_drain(struct pebs_session *s)
{
	struct pebs_ds_area *ds = s->ds;
	uint64_t base, idx, top, p;

	if (s->arch) {
		if (s->arch_drain)	/* IA32_PEBS_INDEX write offset (pebs_arch_drain) */
			s->arch_drain(s);
		return;
	}
	if (!ds)
		return;
	base = ds->pebs_buffer_base;
	idx = ds->pebs_index;
	top = ds->pebs_absolute_maximum;
	s->st.drains++;
	if (idx < base || idx > top) {
		s->st.bad++;
		ds->pebs_index = base;
		return;
	}
	if (top - idx < s->geom.rec_size)
		check_dropped(s);
	for (p = base; p < idx;) {
		const uint8_t *rec = (const uint8_t *)(uintptr_t)p;
		uint64_t len = record_size(s, rec);

		if (len < 32 || len % 8 || len > idx - p) {
			s->st.bad++;	/* malformed: stop walking, never read past index */
			break;
		}
		if (s->cfg.sink)
			s->cfg.sink(s->cfg.sink_ctx, rec, (size_t)len);
		s->st.records++;
		p += len;
	}
	ds->pebs_index = base;
}

void pebs_pmi(struct pebs_session *s)
{
	uint64_t status, ours;
	bool active = s->active;	/* false: pebs_stop runs below us, or pebs_start */

	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	s->st.pmis++;
	status = rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	if (!status) {
		s->st.spurious++;
	} else {
		wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, status);
		pebs_note_status(&s->st, s->counter, status);
		/* the buffer's PMI: DS threshold [62], or arch-PEBS threshold [54] */
		uint64_t buf = s->arch ? GLOBAL_STATUS_ARCH_PEBS : GLOBAL_STATUS_OVF_BUF;

		ours = buf | s->global_ctrl;
		if (status & ~ours & ~(GLOBAL_STATUS_COND_CHGD | GLOBAL_STATUS_ASIF))
			s->st.other_ovf++;
		if ((status & buf) && active)
			pebs_drain(s);	/* not active: the stop's own drain takes them, once */
	}
	apic_pmi_rearm();
	if (active)	/* the session's counters and what it keeps on (the core clock) */
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, s->global_ctrl | s->global_keep);
}

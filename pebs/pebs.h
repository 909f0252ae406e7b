/*
 * pebs.h: the PEBS driver API: program one PEBS event on one GP counter with a DS area and
 * buffer, take the threshold PMI, drain raw records into a consumer, tear down.
 * SDM Vol. 3B 20.6.2 (PEBS), 18.4.9 (DS area); the programming and PMI order follow
 * docs/hardware.md §8.4 and §7.2. Records are handed over raw: decoding is
 * the decoder's job (pebs/record.*).
 */
#ifndef PEBS_PEBS_H
#define PEBS_PEBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cmdline.h"
#include "pebs/caps.h"
#include "pebs/ds.h"

/* Receives each drained record (legacy: fixed size; adaptive: size from the record). */
typedef void (*pebs_sink_fn)(void *ctx, const uint8_t *rec, size_t len);

enum pebs_kind {
	PEBS_LOAD_LATENCY,	/* the uarch's load-latency event (uarch.h ll_event) */
	PEBS_STORE,		/* the uarch's store-sampling event */
	PEBS_RAW,		/* cfg.event on a PEBS-capable counter */
};

struct pebs_config {
	enum pebs_kind kind;
	uint16_t event;		/* PEBS_RAW: umask<<8 | event */
	int counter;		/* GP counter; -1: the lowest one the event allows */
	uint32_t ldlat;		/* load-latency threshold; 0: PEBS_LD_LAT_MIN */
	uint64_t sav;		/* sample-after value (counter reset = -sav) */
	uint64_t buf_bytes;	/* PEBS buffer; 0: PEBS_BUF_DEFAULT */
	uint64_t data_cfg;	/* extra adaptive groups; MEMINFO is always on for baseline */
	bool counters;		/* pebs_counters=on: snapshot the PEBS counter and fixed
				 * counter 1 in every record (format 6 / arch PEBS) */
	pebs_sink_fn sink;
	void *sink_ctx;
};

struct pebs_stats {
	uint64_t pmis;		/* PMIs taken by pebs_pmi */
	uint64_t spurious;	/* PMIs with GLOBAL_STATUS == 0 */
	uint64_t records;	/* records handed to the sink */
	uint64_t drains;
	uint64_t full;		/* drains that found the buffer at its absolute maximum */
	uint64_t dropped;	/* assists lost at a full buffer (PEBS counter past overflow) */
	uint64_t bad;		/* index out of range or malformed record sizes */
	uint64_t other_ovf;	/* GLOBAL_STATUS bits that are not ours (acked, counted) */
	uint64_t pebs_ovf;	/* the PEBS counter's own GLOBAL_STATUS bit seen (PMI or stop):
				 * with no record at all, an overflow without a PEBS assist */
};

/* Note GLOBAL_STATUS as read in the PMI or at stop, before it is acked (probe-before-trust:
 * kvm-unit-tests x86/pmu_pebs.c, "Known reasons for none PEBS records"). */
static inline void pebs_note_status(struct pebs_stats *st, unsigned counter, uint64_t status)
{
	if (counter < 64 && (status & (1ull << counter)))
		st->pebs_ovf++;
}

/* Architectural PEBS (format 0xF): the registers the session touches, as found at start and
 * restored by pebs_stop (pebs/arch_program.c; docs/arch-pebs.md "Registers"). */
struct pebs_arch_saved {
	uint64_t base, index, cfg_c, fx_cfg_c, evtsel, pmc, ldlat, fixed_ctrl, global_ctrl;
};

struct pebs_session {
	const struct pebs_caps *caps;
	struct pebs_config cfg;
	struct pebs_ds_area *ds;
	void *buf;
	uint64_t buf_alloc;	/* bytes allocated at buf (reused by later starts) */
	uint64_t mem_gen;	/* mm_generation() when ds and buf were taken (pebs_mem.c) */
	struct pebs_geom geom;
	unsigned counter;	/* GP counter carrying the PEBS event */
	int aux_counter;	/* GP counter carrying the auxiliary event, -1 none */
	uint64_t evtsel, aux_evtsel, pebs_enable, global_ctrl, data_cfg, reset;
	/* GLOBAL_CTRL bits found on at start that are not the session's (the core clock,
	 * pebs/cycles.c): kept on through the session and its PMIs, left on by the stop */
	uint64_t global_keep;
	bool adaptive;
	bool arch;		/* format 0xF: IA32_PEBS_BASE/INDEX + CFG_C, no DS area */
	/* The arch path's drain (pebs_arch_drain), set by pebs_arch_start: pebs_drain calls it
	 * through here, so pmi.c needs nothing of arch_program.c (which installs the PMI). */
	void (*arch_drain)(struct pebs_session *s);
	uint64_t cfg_c, arch_index;	/* as programmed */
	struct pebs_arch_saved arch_saved;
	/* Set last by the start, cleared first by the stop (before any register is touched):
	 * a PMI of a session not active neither drains nor re-enables (pmi.c), as Linux's
	 * handler restores the PMU only "when it's active" (core.c intel_pmu_handle_irq). */
	bool active;
	struct pebs_stats st;
	char err[128];
};

#define PEBS_SAV_DEFAULT 10007	/* a prime: no lock-step with loop periods */

/* Defaults from the command line (cl may be NULL: built-in defaults): ldlat=, sav=,
 * pebs_buf= (KiB). Bad values warn (through `warn`) and fall back to the default. */
void pebs_config_init(struct pebs_config *cfg, enum pebs_kind kind, const struct cmdline *cl,
		      cmdline_warn_fn warn);

/* Program and enable. 0 on success; otherwise -1 with s->err set (nothing left enabled). */
int pebs_start(struct pebs_session *s, const struct pebs_caps *c, const struct pebs_config *cfg);
/* Disable (GLOBAL_CTRL, then PEBS_ENABLE, then DS_AREA), final drain, remove the handler. */
void pebs_stop(struct pebs_session *s);

/* The PMI body (plain function: the kernel calls it through apic/, host tests through the
 * model): global disable, read+ack GLOBAL_STATUS, drain, apic_pmi_rearm(), re-enable. */
void pebs_pmi(struct pebs_session *s);
/* Drain [base, index) into the sink and reset the index (GLOBAL_CTRL must be 0). */
void pebs_drain(struct pebs_session *s);

/* Install pebs_pmi as the apic/ PMI handler for session s on the CPU this runs on (its
 * local APIC id; pmi.c); -1 when every slot is taken. Remove this CPU's. The slots: a
 * built-in table of PEBS_PMI_SLOTS0 until pebs_pmi_slots(n) (init/main.c, with the count of
 * CPUs started) gives one of n from the memory map: one per CPU at any count. */
#define PEBS_PMI_SLOTS0 64
int pebs_pmi_install(struct pebs_session *s);
void pebs_pmi_slots(unsigned n);
unsigned pebs_pmi_nslots(void);
void pebs_pmi_uninstall(void);
/* The session installed on the CPU this runs on, or NULL. */
struct pebs_session *pebs_pmi_session_here(void);
/* A copy of what the session of the CPU this runs on armed (pmi_slots.h); false: none. */
struct pmi_armed;
bool pebs_pmi_armed_here(struct pmi_armed *a);

/* disarm.c: PEBS off on the CPU this runs on after a path that skipped pebs_stop (a test
 * abandoned by the watchdog or an exception, an AP's fault): the session's GLOBAL_CTRL bits,
 * then PEBS_ENABLE (arch: PEBS_INDEX.EN, CFG_C), then DS_AREA (arch: PEBS_BASE) cleared,
 * overflows acked, the PMI slot given back; no drain, no read of the session's memory, _safe
 * accessors only. An AP's recovery hook (smp/smp.h
 * smp_on_ap_recovery) and, through pebs_disarm_undo, the runner's undo (kernel/ktap_undo.h). */
void pebs_disarm_here(void);
void pebs_disarm_undo(void *arg);

/* The architectural-PEBS path behind pebs_start / pebs_stop / pebs_drain (arch_program.c):
 * start after validation and counter choice (0, or -1 with s->err and nothing left enabled);
 * stop drains, restores every register it touched and removes the PMI handler. */
int pebs_arch_start(struct pebs_session *s, uint16_t event);
void pebs_arch_stop(struct pebs_session *s);
void pebs_arch_drain(struct pebs_session *s);

/* pebs_counters=on on the format-6 DS path (cntr_program.c): the option's value, the
 * PEBS_DATA_CFG counter-group bits (after s->data_cfg and s->counter are set), fixed
 * counter 1 on, and its control register put back. 0 or -1 with s->err. */
bool pebs_cntr_option(const struct cmdline *cl, cmdline_warn_fn warn);
int pebs_cntr_data_cfg(struct pebs_session *s);
int pebs_cntr_enable(struct pebs_session *s);
void pebs_cntr_restore(struct pebs_session *s);

/* The session's DS area (ds: true) and a buffer of at least `bytes`, kept from earlier
 * starts when still valid (pebs_mem.c). 0, or -1 when out of memory. */
int pebs_mem_get(struct pebs_session *s, uint64_t bytes, bool ds);

/* Mask of the GP counter value for writes, and the counter value for -n. */
uint64_t pebs_counter_value(const struct pebs_caps *c, uint64_t n);

/* config.c: s->err from a format (returns -1); s->cfg checked against s->caps, then the
 * event, its allowed PEBS counters and s->counter chosen (0, or -1 with s->err). */
int pebs_fail(struct pebs_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pebs_config_check(struct pebs_session *s, uint16_t *event, uint32_t *allowed);
/* The sample-after value the uarch's minimum-period rule makes of sav for event, as Linux
 * clamps it (core.c nhm_limit_period, hsw_limit_period, bdw_limit_period); *rule (if
 * non-NULL) names the rule when the value changed, else NULL. */
uint64_t pebs_limit_period(const struct pebs_uarch *u, uint16_t event, uint64_t sav,
			   const char **rule);
/* pmi.c: GP counters the PEBS sessions of other CPUs use (exclusive_only: only those that
 * carry an event 0xD0-0xD3, Q_HT_ERRATUM), for the HT-erratum exclusion in config.c. */
uint32_t pebs_pmi_counters_elsewhere(bool exclusive_only);

#endif

/*
 * ibs.h: the AMD IBS op-sampling driver: program IBS_OP_CTL with a randomised max count, route
 * the IBS interrupt through the extended APIC LVT entry IBS_CTL names (to the PMI vector, fixed
 * or NMI as apic/ delivers PMIs), and on each interrupt read the sample registers into a sink
 * and re-arm; teardown restores IBS_OP_CTL and the LVT entry as found. AMD64 APM Vol. 2
 * "Instruction-Based Sampling" (op sampling, IbsOpVal handshake), "Extended Interrupts";
 * Linux arch/x86/events/amd/ibs.c perf_ibs_handle_irq(), perf_ibs_start/stop(). docs/ibs.md.
 */
#ifndef IBS_IBS_H
#define IBS_IBS_H

#include <stdbool.h>
#include <stdint.h>

#include "ibs/ibs_caps.h"
#include "ibs/ibs_ldlat.h"
#include "ibs/ibs_decode.h"

/* The smallest op period armed: Linux arch/x86/events/amd/ibs.c perf_ibs_op .min_period =
 * 0x90 (H2: a period of a few MaxCnt units tags the handler's own ops, and the interrupt is
 * pending again at its IRET). A re-arm also leaves at least this many ops before the tag
 * after the random IbsOpCurCnt start. */
#define IBS_PERIOD_MIN 0x90u
/* Throttle (Linux perf_event_overflow() -> perf_ibs_stop(), unthrottled at the next tick):
 * at most this many interrupts between two ibs_tick() calls; past it the handler stops
 * re-arming until the next tick, so a workload chunk always runs. */
#define IBS_IRQS_PER_TICK 512u

typedef void (*ibs_sink_fn)(void *ctx, const struct ibs_sample *s);

struct ibs_config {
	uint64_t period;	/* mean ops (IbsOpCntCtl = 1) or cycles between samples */
	uint64_t seed;		/* the max-count randomisation; 0: a fixed default */
	ibs_sink_fn sink;
	void *sink_ctx;
	/* load-latency filter (CPUID OpLdLat): 0 off, else a threshold from ibs_ldlat_round */
	unsigned ldlat;
};

struct ibs_stats {
	uint64_t irqs;		/* interrupts taken by ibs_irq */
	uint64_t samples;	/* valid samples handed to the sink */
	uint64_t spurious;	/* interrupts with IbsOpVal clear */
	uint64_t rearms;
	uint64_t throttled;	/* ticks in which the interrupt budget ran out */
};

struct ibs_session {
	const struct ibs_caps *caps;
	struct ibs_config cfg;
	uint64_t ctl_found;	/* IBS_OP_CTL at start, written back at stop */
	uint32_t lvt_found;	/* the extended LVT entry at start */
	bool ctl2;		/* IBS_OP_CTL2 exists (IBS_CAPS_CTL2) */
	uint64_t ctl2_found;	/* IBS_OP_CTL2 at start: cleared while sampling, then restored */
	uint64_t ctl;		/* the last value armed */
	uint64_t filter;	/* IBS_OP_CTL filter bits armed every time (ldlat, L3MissOnly) */
	uint64_t rng;
	uint64_t period_min, period_max;	/* range of the randomised periods */
	bool cnt_ops;		/* IbsOpCntCtl: count dispatched ops (CPUID OpCnt) */
	bool active;
	bool throttled;		/* budget spent: not re-armed until ibs_tick */
	unsigned tick_irqs;	/* interrupts since the last ibs_tick */
	struct ibs_stats st;
	char err[128];
};

/* IBS_OP_CTL for a period (rounded down to 16, clamped to what c allows), counting ops. */
uint64_t ibs_op_ctl_value(const struct ibs_caps *c, uint64_t period, bool cnt_ops);
/* The period IBS_OP_CTL ctl holds (MaxCnt and, with OpCntExt, its extension, times 16). */
uint64_t ibs_op_ctl_period(const struct ibs_caps *c, uint64_t ctl);
/* Next randomised period: uniform in [min, max], multiple of 16 (xorshift64* state). */
uint64_t ibs_next_period(uint64_t *rng, uint64_t min, uint64_t max);

/* NULL when op sampling can run here (the probe says yes and there is a local APIC for its
 * interrupt), else the exact SKIP reason. */
const char *ibs_unavailable(const struct ibs_caps *c);
/* 0 on success; -1 with s->err and nothing changed. */
int ibs_start(struct ibs_session *s, const struct ibs_caps *c, const struct ibs_config *cfg);
/* Take a last valid sample, stop sampling (IbsOpEn, the count and IbsOpVal cleared in one
 * write), restore IBS_OP_CTL and the LVT entry as found, remove the handler. */
void ibs_stop(struct ibs_session *s);
/* Sampling off on the CPU this runs on when IbsOpEn is set (_safe accessors; an AP's
 * recovery hook, smp/smp.h smp_on_ap_recovery). The runner's undo of a session the test
 * did not stop (abandoned: watchdog, exception): handler detached, sampling off, IBS_OP_CTL,
 * IBS_OP_CTL2 and the extended LVT entry as found, without the session's memory. */
void ibs_disarm_here(void);
void ibs_disarm_undo(void *arg);
/* The interrupt body: IbsOpVal clear -> spurious; else read the sample, sink, re-arm (within
 * the tick's interrupt budget). */
void ibs_irq(struct ibs_session *s);
/* A tick (between two workload chunks): a new interrupt budget; re-arms a throttled session. */
void ibs_tick(struct ibs_session *s);

#endif

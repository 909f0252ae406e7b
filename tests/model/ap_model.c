/*
 * ap_model.c: the application processors' side of INIT-SIPI-SIPI and the slow-emulator knob
 * (see ap_model.h; SDM Vol. 3A 9.4.4.1 "Typical BSP Initialization Sequence", 9.4.4.2
 * "Typical AP Initialization Sequence", 11.6.1 "Interrupt Command Register": the delivery mode
 * in ICR bits 10:8, the destination in bits 63:56 (xAPIC) or 63:32 (x2APIC)).
 */
#include "model/ap_model.h"
#include "model/lapic_model.h"
#include "model/vclock.h"
#include "apic/apic.h"
#include "apic/apic_regs.h"
#include "kernel/tsc.h"
#include "smp/percpu.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define DM_STARTUP 6u			/* ICR delivery mode 110B */
#define TP_PARAMS_OFF(p) ((p) - smp_tramp_start)
extern char smp_tramp_start[], smp_tramp_params[];

struct ap_model apm;
static bool running[AP_MAXID];		/* answered a SIPI since its last INIT */
static unsigned gen[AP_MAXID];		/* bumped by INIT: its pending work is dropped */
static uint64_t pcv_of[AP_MAXID];	/* a slow AP's struct percpu, once taken */

/* the emulator's one host core: pieces of work in the order they arose */
struct work {
	unsigned id, stage, gen;	/* stage 0: SIPI -> taken, 1: -> online */
	uint64_t ready, cost;
};
#define QMAX (4 * AP_MAXID)
static struct work q[QMAX];
static unsigned qh, qt;
static uint64_t core_free;		/* when the host core finished its last piece */

static uint8_t *block(unsigned id)
{
	return (uint8_t *)(uintptr_t)((uint64_t)apm.vector[id] << 12) +
	       TP_PARAMS_OFF(smp_tramp_params);
}

/* The trampoline up to the kernel: alive, then its parameters (one AP at a time: the block;
 * parallel: the slot of its own x2APIC ID, TP_SLOTS); its struct percpu, or 0 where it stops. */
static uint64_t ap_take(unsigned id)
{
	uint8_t *b = block(id);
	volatile uint32_t *alive = (uint32_t *)(b + 40), *taken = alive + 1;
	uint32_t id_leaf, nslots;
	uint64_t pcv = 0, slots;

	*alive = 1;
	if (apm.kind[id] == AP_ALIVE_ONLY)
		return 0;
	memcpy(&id_leaf, b + 76, 4);
	if (!id_leaf) {
		memcpy(&pcv, b + 32, 8);
		*taken = 1;
		return pcv;
	}
	memcpy(&slots, b + 64, 8);
	memcpy(&nslots, b + 72, 4);
	for (uint32_t k = 0; k < nslots && !pcv; k++) {
		uint8_t *s = (uint8_t *)(uintptr_t)slots + 24 * k;
		uint32_t sid, one = 1;

		memcpy(&sid, s, 4);
		if (sid == id) {
			memcpy(s + 4, &one, 4);
			memcpy(&pcv, s + 16, 8);
		}
	}
	return pcv;		/* 0: not in the batch, it waits for INIT */
}

static void push(unsigned id, unsigned stage, uint64_t ready, uint64_t cost)
{
	assert(qt < QMAX);
	q[qt++] = (struct work){ .id = id, .stage = stage, .gen = gen[id], .ready = ready,
				 .cost = cost };
}

/* vclock.hook, on each read: the host core completes what it has finished by now */
static void tick(uint64_t before, bool read)
{
	(void)before;
	if (!read)
		return;
	while (qh < qt) {
		struct work *w = &q[qh];
		uint64_t done = (w->ready > core_free ? w->ready : core_free) + w->cost;

		if (w->gen != gen[w->id]) {	/* the AP was sent INIT: dropped */
			qh++;
			continue;
		}
		if (done > vclock.now)
			return;
		core_free = done;
		qh++;
		if (w->stage == 0) {
			pcv_of[w->id] = ap_take(w->id);
			if (pcv_of[w->id] && apm.kind[w->id] != AP_TAKEN_ONLY)
				push(w->id, 1, done, apm.cost_online[w->id]);
		} else {
			((struct percpu *)(uintptr_t)pcv_of[w->id])->state = CPU_ONLINE;
			apm.t_online[w->id] = done;
		}
	}
}

static void on_ipi(uint64_t icr)
{
	unsigned dm = (icr >> 8) & 7;
	unsigned id = (unsigned)(apic_mode() == APIC_X2APIC ? icr >> 32 : icr >> 56);
	size_t n;
	uint64_t pcv;

	if (id >= AP_MAXID || (dm != APIC_DM_INIT && dm != DM_STARTUP))
		return;
	n = strlen(apm.seq[id]);
	if (n < sizeof(apm.seq[id]) - 1)
		apm.seq[id][n] = dm == APIC_DM_INIT ? 'I' : 'S';
	if (dm == APIC_DM_INIT) {
		apm.t_init[id] = vclock.now;
		apm.sipis[id] = 0;
		running[id] = false;
		gen[id]++;
		return;
	}
	if (!apm.sipis[id]++)
		apm.t_sipi[id] = vclock.now;
	apm.vector[id] = icr & 0xff;
	if (running[id] || apm.kind[id] == AP_SILENT ||
	    (apm.kind[id] == AP_SECOND_SIPI && apm.sipis[id] < 2))
		return;
	running[id] = true;
	if (apm.kind[id] == AP_SLOW) {
		push(id, 0, vclock.now, apm.cost_take[id]);
		return;
	}
	pcv = ap_take(id);
	if (pcv && apm.kind[id] != AP_TAKEN_ONLY)
		((struct percpu *)(uintptr_t)pcv)->state = CPU_ONLINE;
}

void ap_model_reset(void)
{
	memset(&apm, 0, sizeof(apm));
	memset(running, 0, sizeof(running));
	qh = qt = 0;
	core_free = 0;
	lm.on_ipi = on_ipi;
	vclock.hook = tick;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t draw_us(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return (lo + splitmix64(s) % (hi - lo + 1)) * (tsc_hz / 1000000);
}

void ap_model_slow(uint64_t seed, unsigned lo, unsigned hi, uint64_t take_lo, uint64_t take_hi,
		   uint64_t online_lo, uint64_t online_hi)
{
	for (unsigned id = lo; id <= hi && id < AP_MAXID; id++) {
		apm.kind[id] = AP_SLOW;
		apm.cost_take[id] = draw_us(&seed, take_lo, take_hi);
		apm.cost_online[id] = draw_us(&seed, online_lo, online_hi);
	}
}

uint64_t ap_model_last_online(unsigned lo, unsigned hi)
{
	uint64_t last = 0;

	for (unsigned id = lo; id <= hi && id < AP_MAXID; id++)
		last = apm.t_online[id] > last ? apm.t_online[id] : last;
	return last;
}

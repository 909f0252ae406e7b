/*
 * ap_model.h: the application processors' side of MP initialization for host tests of
 * smp/smp_boot.c and smp/smp_start.c (SDM Vol. 3A 9.4.4.2 "Typical AP Initialization
 * Sequence"), driven by the local-APIC model's IPI hook (lapic_model.h on_ipi): an INIT puts an
 * AP in wait-for-SIPI; the first SIPI it gets there starts it, and it reads its parameters
 * from the trampoline page (boot/trampoline.asm's block: TP_ALIVE, TP_TAKEN, TP_SLOTS) as the
 * real trampoline does; a SIPI to one already running is ignored (9.4.4.1). Each AP behaves as
 * its kind says: online at once, only after a second SIPI, alive only, taken only, silent, or
 * slow.
 * Slow emulated APs (AP_SLOW; ap_model_slow): an emulator running many virtual CPUs on few
 * host cores, as QEMU's TCG with 512 CPUs on 2 cores: one host core serves the APs' work in
 * the order it arose (FIFO), each AP's start being two pieces of work, SIPI -> trampoline done
 * (alive, its parameters or slot taken) and kernel start -> online, each with its own cost on
 * the virtual clock (tests/model/vclock.h: the work completes as the clock passes, so the
 * boot CPU sees it on a later read). An INIT drops an AP's pending work.
 */
#ifndef MODEL_AP_MODEL_H
#define MODEL_AP_MODEL_H

#include <stdint.h>

enum ap_kind { AP_ONLINE, AP_SECOND_SIPI, AP_ALIVE_ONLY, AP_TAKEN_ONLY, AP_SILENT, AP_SLOW };

#define AP_MAXID 0x200

struct ap_model {
	enum ap_kind kind[AP_MAXID];
	/* slow APs: the two costs in TSC ticks (ap_model_slow) */
	uint64_t cost_take[AP_MAXID], cost_online[AP_MAXID];
	/* observations per APIC id */
	char seq[AP_MAXID][16];		/* 'I' INIT, 'S' SIPI, in order */
	uint64_t t_init[AP_MAXID], t_sipi[AP_MAXID];	/* last INIT, first SIPI after it */
	uint64_t t_online[AP_MAXID];	/* a slow AP: when its work made it online */
	unsigned sipis[AP_MAXID], vector[AP_MAXID];
};

extern struct ap_model apm;

/* Every AP AP_ONLINE, nothing seen, no pending work; hooks lm.on_ipi and vclock.hook. */
void ap_model_reset(void);
/*
 * The knob: APIC ids lo..hi are AP_SLOW with costs drawn from `seed` (splitmix64), uniform in
 * [take_lo, take_hi] and [online_lo, online_hi] microseconds (tsc_hz must be set).
 */
void ap_model_slow(uint64_t seed, unsigned lo, unsigned hi, uint64_t take_lo, uint64_t take_hi,
		   uint64_t online_lo, uint64_t online_hi);
/* The latest t_online of ids lo..hi (0: none came online through the slow path). */
uint64_t ap_model_last_online(unsigned lo, unsigned hi);

#endif

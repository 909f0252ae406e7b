/*
 * smp.h: the application processors (SDM Vol. 3A 9.4 "Multiple-Processor (MP)
 * Initialization"). smp_init, on the boot CPU after apic_init, starts every processor the
 * MADT lists as enabled with INIT-SIPI-SIPI, in batches (smp_boot.c), each wait bounded; a
 * CPU that does not come online is reported and left out. An online AP runs smp/smp_ap.c's loop: it
 * sleeps in HLT until the boot CPU posts a function (smp_call_start) and wakes it with an
 * IPI, runs it, and reports done. An AP that faults prints its CPU number with the register
 * dump, reports the fault through the mailbox and goes back to its loop.
 */
#ifndef SMP_SMP_H
#define SMP_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "smp/boot_plan.h"
#include "smp/percpu.h"

#define SMP_VEC_WAKE 0xf0	/* fixed IPI that wakes an AP from HLT */
/* An AP still starting is left out once SMP_ONLINE_BOUND_MS has passed both since its first
 * SIPI and since an AP of its batch last came online (the batch made no progress), or once
 * SMP_BATCH_CEILING_MS has passed since the batch's first SIPI while APs still trickle in
 * (smp_start.c, docs/smp.md "Starting the APs": the ceiling is Linux's 10 s for one AP to
 * report alive, kernel/cpu.c cpuhp_wait_for_sync_state, and half again for 64 at once). */
#define SMP_ONLINE_BOUND_MS 500
#define SMP_BATCH_CEILING_MS 15000
#define SMP_BATCH 64		/* APs between INIT and online at once (smp_boot.c) */

void smp_init(void);

/* CPUs known (boot CPU + the MADT's enabled ones started), online ones, MADT count. */
unsigned smp_cpu_count(void);
unsigned smp_online_count(void);
unsigned smp_madt_count(void);
/* Enabled MADT processors not started (xAPIC-unreachable ID, no memory). */
unsigned smp_left_out(void);
struct percpu *smp_cpu(unsigned i);
/* The CPU this code runs on (0 on the boot CPU). */
unsigned smp_this_cpu(void);
/* Why no AP was started (no MADT, no APIC, no trampoline page), or NULL. */
const char *smp_why_none(void);
/* The cpus= request and whether CPU i is selected by it. */
const struct smp_cpus_req *smp_cpus(void);
bool smp_selected(unsigned i);
/* SIPI -> online in microseconds for CPU i (0 when it did not come online). */
uint64_t smp_online_us(unsigned i);
const struct smp_delays *smp_delays(void);

/*
 * Run fn(arg) on online AP i: start posts it and returns at once (false: not online, or its
 * previous call has not finished); wait polls with a bound. smp_call does both.
 * Result: SMP_CALL_DONE, SMP_CALL_TIMEOUT (still running: the AP is not usable until it
 * finishes), SMP_CALL_NOT_ONLINE, or the exception vector (>= 0) fn faulted with.
 */
#define SMP_CALL_DONE       (-1)
#define SMP_CALL_TIMEOUT    (-2)
#define SMP_CALL_NOT_ONLINE (-3)
bool smp_call_start(unsigned i, smp_fn fn, void *arg);
int smp_call_wait(unsigned i, uint32_t timeout_ms);
int smp_call(unsigned i, smp_fn fn, void *arg, uint32_t timeout_ms);
/* Online APs whose last call has not finished, waited for up to ms in all (one deadline, not
 * one per CPU); the first such CPU in *first. */
unsigned smp_calls_out(uint32_t ms, unsigned *first);

/* What an AP that faulted inside a call runs before it reports the fault and waits again:
 * fn() on that AP, for each fn registered (from a layer above: a PMU left armed by the call,
 * pebs/disarm.c), in order; false when SMP_RECOVERY_MAX are registered. Register before the
 * first call is posted. */
#define SMP_RECOVERY_MAX 4
bool smp_on_ap_recovery(void (*fn)(void));

/* Header lines "# smp: ..." (docs/output.md). */
void smp_print_header(void);

/* For smp_boot.c / smp_ap.c only. smp_start.c: the trampoline page (its address, or 0 with
 * *why), one batch of at most SMP_BATCH APs (how many came online), whether batches start in
 * parallel. */
uint64_t smp_tramp_setup(const struct smp_delays *d, const char **why);
unsigned smp_start_batch(struct percpu **b, unsigned n, uint64_t tramp_pa);
bool smp_start_parallel(void);
void smp_ap_install(void);
/* CPUID 1FH (else 0BH, else 1) and 1AH of the CPU this runs on into pc. */
void smp_probe_topology(struct percpu *pc);
extern uint64_t smp_bsp_cr0, smp_bsp_cr4, smp_bsp_pat;
extern uint64_t smp_tramp_pa;

#endif

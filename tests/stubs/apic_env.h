/*
 * apic_env.h: host stand-ins for the kernel around apic/ (IDT registration, the MMIO mapper,
 * cpu/cmdline/TSC globals, run_fatal) and a boot helper that brings apic/ up on the local-APIC
 * model (tests/model/lapic_model.c). Shared by the apic host tests.
 */
#ifndef STUBS_APIC_ENV_H
#define STUBS_APIC_ENV_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernel/idt.h"

#define XB  (0xfee00000ull | APIC_BASE_EN | APIC_BASE_BSP)
#define X2B (XB | APIC_BASE_EXTD)

extern irq_handler_fn env_handlers[256], env_default_handler;
extern nmi_handler_fn env_nmi_hook;
extern uint64_t env_mapped_phys, env_mapped_bytes;
extern unsigned env_maps;

/* Virtual TSC ticks each read advances (tests/model/vclock.h): a multiple of the model
 * timer's 16 ticks per count, so a calibration window holds a whole number of counts. */
#define ENV_TSC_STEP 160u

/* A fresh model APIC with IA32_APIC_BASE `base`, CPUID x2APIC bit, id, then apic_init()
 * under `cmdline`; the virtual TSC starts at 0 and advances ENV_TSC_STEP per read,
 * tsc_hz = 1e9 and the model timer counts once per 16 TSC ticks. */
bool env_boot(uint64_t base, bool cx2, uint32_t id, const char *cmdline);
/* Assert the model saw nothing real hardware would refuse. */
void env_no_illegal_access(void);
/* Run the timer interrupt handler with a frame (RIP 0x1234). */
void env_fire_timer(void);
/* An NMI as kernel/traps.c takes it (RIP ENV_NMI_RIP): the NMI hook apic/ installed, and
 * when it does not claim it, kernel/nmi.c's unknown NMI. The model's lm.on_nmi. */
#define ENV_NMI_RIP 0x4242u
void env_nmi(void);

/* run_fatal() longjmps here with 2 and records why. */
extern jmp_buf env_runner_jmp;
extern const char *env_fatal_why;

#endif

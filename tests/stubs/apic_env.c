/*
 * apic_env.c: host stand-ins for the kernel around apic/ (see apic_env.h). Time is the
 * virtual TSC of tests/model/vclock.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "apic/apic_regs.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/mm.h"
#include "kernel/nmi.h"
#include "kernel/tsc.h"
#include "model/lapic_model.h"
#include "model/vclock.h"
#include "stubs/apic_env.h"
#include "stubs/console_capture.h"

struct cpu_info cpu;
struct cmdline kcmdline;
uint64_t tsc_hz;
const char *tsc_source = "test";
irq_handler_fn env_default_handler;
irq_handler_fn env_handlers[256];
nmi_handler_fn env_nmi_hook;
uint64_t env_mapped_phys, env_mapped_bytes;
unsigned env_maps;
jmp_buf env_runner_jmp;
const char *env_fatal_why;

void idt_set_handler(uint8_t vector, irq_handler_fn fn)
{
	env_handlers[vector] = fn;
}

void idt_set_nmi_hook(nmi_handler_fn fn)
{
	env_nmi_hook = fn;
}

void idt_set_default_handler(irq_handler_fn fn)
{
	env_default_handler = fn;
}

/* The NMI entry as kernel/traps.c takes it: the hook first, else an unknown NMI. */
void env_nmi(void)
{
	struct trap_frame f = { .vector = VEC_NMI, .rip = ENV_NMI_RIP };

	if (!env_nmi_hook || !env_nmi_hook(&f))
		nmi_unknown(&f);
}

void *mm_map_mmio(uint64_t phys, uint64_t bytes)
{
	env_maps++;
	env_mapped_phys = phys;
	env_mapped_bytes = bytes;
	return (void *)(uintptr_t)phys;	/* the model decodes the address itself */
}

void run_fatal(const char *why)
{
	env_fatal_why = why;
	longjmp(env_runner_jmp, 2);
}

bool env_boot(uint64_t base, bool cx2, uint32_t id, const char *cmdline)
{
	lm_reset(base, cx2, id);
	vclock_reset(0, ENV_TSC_STEP);
	lm.tsc_per_count = 16;
	memset(env_handlers, 0, sizeof(env_handlers));
	env_nmi_hook = NULL;
	nmi_reset();
	env_maps = 0;
	env_mapped_phys = env_mapped_bytes = 0;
	memset(&cpu, 0, sizeof(cpu));
	cpu.apic = base & APIC_BASE_EN;
	cpu.x2apic = cx2;
	tsc_hz = 1000000000ull;	/* "1 GHz": calibration windows of 1e7 virtual TSC ticks */
	cmdline_parse(&kcmdline, cmdline, strlen(cmdline), NULL, NULL);
	stub_console_reset();
	apic_set_pmi_handler(NULL);
	apic_watchdog_set_recovery(NULL);
	return apic_init();
}

void env_no_illegal_access(void)
{
	assert_int_equal(lm.gp_unsafe, 0);
	assert_int_equal(lm.mmio_outside, 0);
	assert_int_equal(lm.mmio_wrong_mode, 0);
	assert_int_equal(lm.unfenced_wrmsr, 0);	/* H9: MFENCE; LFENCE before each */
}

void env_fire_timer(void)
{
	struct trap_frame f = { .vector = APIC_VEC_TIMER, .rip = 0x1234 };

	env_handlers[APIC_VEC_TIMER](&f);
}

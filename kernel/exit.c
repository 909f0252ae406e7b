/*
 * exit.c: ending the run (see exit.h). The final lines are parseable on any console:
 * "# Totals: ...", then "# EXIT: STATUS=n" as kvm-unit-tests prints for non-QEMU runners.
 */
#include "kernel/exit.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/ktap.h"

#include <string.h>

static void (*end_hook)(bool failed);
static bool exiting;

void run_set_end_hook(void (*fn)(bool failed))
{
	end_hook = fn;
}

static bool use_exit_port(void)
{
	const char *mode = cmdline_get(&kcmdline, "exit");

	if (mode && !strcmp(mode, "port"))
		return true;
	if (mode && !strcmp(mode, "halt"))
		return false;
	return cpu.hypervisor;
}

void run_exit(bool failed)
{
	__asm__ volatile("cli");
	if (!exiting) {
		exiting = true;
		ktap_abort("the run ended inside this test");
		kprintf("# EXIT: STATUS=%d\n", failed ? 1 : 0);
	}
	if (use_exit_port())
		outb(DEBUG_EXIT_PORT, failed ? 1 : 0);
	/* still here: hardware, or no debug-exit device. The hook runs once: a fault inside it
	 * comes back here through run_fatal and must end in the halt below, not in the hook */
	if (end_hook) {
		void (*hook)(bool) = end_hook;

		end_hook = NULL;
		hook(failed);
	}
	kprintf("# halted: the run is over, it is safe to power off\n");
	cpu_halt_forever();
}

void run_fatal(const char *why)
{
	if (!exiting) {
		ktap_abort(why);	/* the test's held output and its `not ok`, then the bail-out */
		kprintf("Bail out! %s\n", why);
		ktap_totals();
	}
	run_exit(true);
}

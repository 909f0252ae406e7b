/*
 * inject.c: test `inject` (on request: tests=inject inject=WHAT): deliberately breaks a rule
 * so the boot tests can prove each defence works. Each case says what must happen:
 *   gp_msr  #GP from a model-specific MSR through rdmsr_safe: recovered, test passes
 *           (SKIPped where unknown MSRs read 0 instead of faulting: kernel/msr_platform.h)
 *   smi     an SMI through the APM control port 0xB2 (QEMU hw/isa/apm.c, ICH9/PIIX4 APMC:
 *           an SMI when the firmware enabled APMC_EN, as SeaBIOS's SMM set-up does): the
 *           test's `# trust:` line counts it (kernel/trust.h); under a hypervisor only, since
 *           on hardware what a write there does is the firmware's
 *   gp      #GP from a non-canonical read through read64_safe: recovered, test passes
 *   ud      unexpected #UD: register dump, test reported `not ok ... # exception`, run goes on
 *   pf      unexpected #PF (read of an unmapped page): same
 *   de      unexpected #DE: same
 *   stack   unbounded recursion into the guard page: #PF cannot be delivered on the
 *           overflowed stack, so #DF runs on its own IST stack, dumps, and ends the run
 *   nmi_ipi NMIs sent to every other online CPU, one at a time (ICR delivery mode NMI,
 *           SDM Vol. 3A 11.6.1): each is an unknown NMI counted on the CPU it was sent to
 *           (kernel/nmi.h) and the run goes on; QEMU's monitor `nmi` raises LINT1, which
 *           only the boot CPU leaves unmasked, so this is how the APs' NMI path is tested
 *   ap_late an AP whose call outlives the test (as one an SMI or a lost IPI holds past its
 *           bound): cpu1 keeps storing into a block of the test's memory for AP_LATE_MS,
 *           the test's wait times out; the runner must keep that memory, not release it
 *           to the next test (ktests/run.c, smp_calls_out)
 */
#include "ktests/tests.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "kernel/msr_platform.h"
#include "kernel/traps.h"
#include "kernel/nmi.h"
#include "kernel/trust.h"
#include "kernel/tsc.h"
#include "apic/apic.h"
#include "smp/percpu.h"
#include "smp/smp.h"

#include <string.h>

static volatile uint64_t sink;
static volatile uintptr_t sink_addr = 0x10;	/* page 0: unmapped */

__attribute__((noinline, optimize("no-optimize-sibling-calls")))
static uint64_t recurse(uint64_t depth)
{
	volatile uint8_t pad[256];

	pad[0] = (uint8_t)depth;
	if (depth == UINT64_MAX)	/* never true: keeps the recursion legal C */
		return 0;
	return recurse(depth + 1) + pad[0];
}

#define AP_LATE_MS	3000u	/* cpu1's call: longer than the runner's 1000 ms wait for it */

/* On cpu1: store into the test's block until AP_LATE_MS have passed. */
static void ap_late_fn(void *arg)
{
	volatile uint64_t *p = arg;
	uint64_t t0 = rdtsc(), lim = tsc_hz / 1000 * AP_LATE_MS;

	while (rdtsc() - t0 < lim)
		p[(rdtsc() >> 4) & 511] = t0;
}

static enum kt_result inject_ap_late(struct ktest *t)
{
	void *blk = kalloc(4096, 4096);
	int rc;

	if (smp_online_count() < 2 || smp_cpu(1)->state != CPU_ONLINE)
		return kt_skip(t, "inject=ap_late needs cpu1 online");
	if (!blk)
		return kt_skip(t, "no memory for the block");
	rc = smp_call(1, ap_late_fn, blk, 100);
	kt_check(t, rc == SMP_CALL_TIMEOUT, "ap_call_outlives_test # smp_call %d", rc);
	return kt_verdict(t);
}

#define NMI_IPI_EACH	4u	/* NMIs per CPU */
#define NMI_IPI_WAIT_MS	100u	/* for each to be counted: an NMI is taken at the next
				 * instruction boundary, an emulator's vCPU may first be scheduled */

static enum kt_result inject_nmi_ipi(struct ktest *t)
{
	unsigned n = smp_cpu_count(), self = smp_this_cpu(), cpus = 0, missed = 0, first = 0;
	uint64_t wait = tsc_hz / 1000 * NMI_IPI_WAIT_MS;

	for (unsigned i = 0; i < n && i < NMI_CPUS - 1; i++) {	/* the last count is shared */
		struct percpu *pc = smp_cpu(i);

		if (i == self || !pc || pc->state != CPU_ONLINE)
			continue;
		cpus++;
		for (unsigned k = 0; k < NMI_IPI_EACH; k++) {
			uint64_t before = nmi_count_cpu(i), t0 = rdtsc();

			apic_send_nmi(pc->apic_id);
			while (nmi_count_cpu(i) == before && rdtsc() - t0 <= wait)
				__builtin_ia32_pause();
			if (nmi_count_cpu(i) == before) {
				first = missed++ ? first : i;
				break;
			}
		}
	}
	if (!cpus)
		return kt_skip(t, "no other CPU online to send an NMI to (boot with 2 or more)");
	if (missed)
		kt_check(t, false, "nmi_ipi_counted # %u of %u CPUs did not count an NMI within "
			 "%u ms, first cpu %u", missed, cpus, NMI_IPI_WAIT_MS, first);
	else
		kt_check(t, true, "nmi_ipi_counted # %u CPU%s x %u NMIs, each counted on its CPU",
			 cpus, cpus == 1 ? "" : "s", NMI_IPI_EACH);
	return kt_verdict(t);
}

enum kt_result test_inject(struct ktest *t)
{
	const char *what = cmdline_get(&kcmdline, "inject");
	uint64_t v;

	if (!what || !*what)
		return kt_skip(t, "no inject= option given");
	kt_info(t, "injecting: %s", what);
	if (!strcmp(what, "gp_msr")) {
		int vec;

		if (msr_platform_swallows())
			return kt_skip(t, "%s (use inject=gp)", msr_platform_swallows());
		vec = rdmsr_safe(0xdeadbeefu, &v);
		kt_check(t, vec == VEC_GP, "rdmsr_safe_recovered_gp # vector %d", vec);
		return kt_verdict(t);
	}
	if (!strcmp(what, "gp")) {
		int vec = read64_safe(0x8000000000000000ull, &v);

		kt_check(t, vec == VEC_GP, "read64_safe_recovered_gp # vector %d", vec);
		return kt_verdict(t);
	}
	if (!strcmp(what, "smi")) {
		struct trust_moved m;

		if (!cpu.hypervisor)
			return kt_skip(t, "inject=smi only under a hypervisor: on hardware a write "
				       "to port 0xB2 is a firmware command");
		if (!trust.smi)
			return kt_skip(t, "no MSR_SMI_COUNT to count it (SMI_COUNT %s)",
				       trust.smi_vec < 0 ? "not on this model" : "#GP");
		if (!trust.smi_start)	/* SMM set-up itself takes SMIs (SMBASE relocation) */
			return kt_skip(t, "MSR_SMI_COUNT 0 since reset: the firmware set up no SMM "
				       "to answer port 0xB2");
		outb(0xb2, 0x00);	/* no command SeaBIOS's handle_smi or ACPI acts on */
		trust_moved_now(&m);
		kt_check(t, m.smis >= 1, "smi_counted # %llu SMI", (unsigned long long)m.smis);
		return kt_verdict(t);
	}
	if (!strcmp(what, "nmi_ipi"))
		return inject_nmi_ipi(t);
	if (!strcmp(what, "ap_late"))
		return inject_ap_late(t);
	if (!strcmp(what, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(what, "pf"))
		sink = *(volatile uint64_t *)(uintptr_t)sink_addr;
	else if (!strcmp(what, "de")) {
		volatile uint32_t zero = 0;

		sink = 1u / zero;
	} else if (!strcmp(what, "stack"))
		sink = recurse(0);
	else
		return kt_skip(t, "unknown inject=%s (gp_msr gp smi nmi_ipi ap_late ud pf de stack)", what);
	kt_check(t, false, "injected_fault_taken # inject=%s returned", what);
	return KT_FAIL;
}

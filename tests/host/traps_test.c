/*
 * traps_test.c: the trap side of the _safe accessors (kernel/traps.c, kernel/extable.c) on
 * CPUs of tests/model/safe_model.c that run the accessor protocol of kernel/hw.c step by
 * step. H7: the fault vector must reach the access that faulted, whatever runs between
 * its fault and its read of the result: an interrupt or NMI on the same CPU whose handler
 * makes _safe accesses of its own (faulting or not), or another CPU's accesses (SDM Vol. 3A
 * 6.12.1: an interrupt can arrive between any two instructions, an NMI even with IF = 0).
 * Every point of the protocol is swept, then a seeded random interleaving of two CPUs with
 * nested NMIs checks every result against the model's truth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/extable.h"
#include "kernel/idt.h"
#include "kernel/jump.h"
#include "kernel/nmi.h"
#include "kernel/traps.h"
#include "model/safe_model.h"

/* the kernel around traps.c */
irq_handler_fn irq_handlers[256], irq_default;
nmi_handler_fn nmi_hook;
static jmp_buf fatal_jmp;
void console_lock(void) { }
void console_unlock(void) { }
uint64_t read_cr0(void) { return 0; }
uint64_t read_cr2(void) { return 0; }
uint64_t read_cr3(void) { return 0; }
uint64_t read_cr4(void) { return 0; }
void run_fatal(const char *why) { (void)why; longjmp(fatal_jmp, 1); }
void kjmp_long(struct kjmp *j, int val) { (void)j; (void)val; longjmp(fatal_jmp, 2); }

struct nested {
	uint32_t msr;
	int vec;
	uint64_t val;
};

static void handler_access(struct sm_cpu *c, void *ctx)
{
	struct nested *n = ctx;

	n->vec = sm_rdmsr_safe(c, n->msr, &n->val);
}

/* the sweep: at point `when` of CPU 0's first access, `who` runs one access of its own */
static enum sm_point when;
static bool other_cpu, fired;
static struct nested inner;

static void sweep_hook(struct sm_cpu *c, enum sm_point p)
{
	if (fired || c->id != 0 || c->depth || p != when)
		return;
	fired = true;
	if (other_cpu)
		handler_access(&sm_cpus[1], &inner);
	else
		sm_interrupt(c, handler_access, &inner);
}

static void check_sweep(bool other)
{
	for (when = SM_BEFORE_INSN; when < SM_POINTS; when++)
		for (unsigned outer_gp = 0; outer_gp < 2; outer_gp++)
			for (unsigned inner_gp = 0; inner_gp < 2; inner_gp++) {
				uint32_t msr = 0x10 | (outer_gp ? SM_MSR_GP : 0);
				uint64_t v = 1;
				int vec;

				sm_reset();
				sm_hook = sweep_hook;
				other_cpu = other;
				fired = false;
				inner = (struct nested){ .msr = 0x20 | (inner_gp ? SM_MSR_GP : 0) };
				vec = sm_rdmsr_safe(&sm_cpus[0], msr, &v);
				assert_true(fired);
				assert_int_equal(vec, outer_gp ? VEC_GP : 0);
				assert_int_equal(v, outer_gp ? 0 : msr);
				assert_int_equal(inner.vec, inner_gp ? VEC_GP : 0);
				assert_int_equal(inner.val, inner_gp ? 0 : inner.msr);
			}
}

static void test_plain(void **state)
{
	uint64_t v;

	(void)state;
	sm_reset();
	assert_int_equal(sm_rdmsr_safe(&sm_cpus[0], 0x1b, &v), 0);
	assert_int_equal(v, 0x1b);
	assert_int_equal(sm_rdmsr_safe(&sm_cpus[0], SM_MSR_GP | 1, &v), VEC_GP);
	assert_int_equal(sm_rdmsr_safe(&sm_cpus[0], 0x1b, &v), 0);
}

/* H7: an NMI (or PMI) on the same CPU between the fault and the read */
static void test_nested_same_cpu(void **state)
{
	(void)state;
	check_sweep(false);
}

/* H7: another CPU's accesses at MSR granularity */
static void test_other_cpu(void **state)
{
	(void)state;
	check_sweep(true);
}

/* Seeded: two CPUs interleaved at random points, NMIs nested up to three deep, each access
 * faulting or not at random; every result is checked against the MSR it read. */
static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned checked, wrong;

static void random_access(struct sm_cpu *c, void *ctx)
{
	uint32_t msr = (uint32_t)(next() & 0xfff) | (next() & 1 ? SM_MSR_GP : 0);
	uint64_t v;
	int vec;

	(void)ctx;
	vec = sm_rdmsr_safe(c, msr, &v);
	checked++;
	wrong += vec != (msr & SM_MSR_GP ? VEC_GP : 0) || v != (msr & SM_MSR_GP ? 0 : msr);
}

static unsigned active;	/* accesses in flight, both CPUs: the host stack's bound */

static void random_hook(struct sm_cpu *c, enum sm_point p)
{
	uint64_t r = next() % 8;

	(void)p;
	if (active >= 6)
		return;
	active++;
	if (r == 0 && c->depth < 3)
		sm_interrupt(c, random_access, NULL);
	else if (r == 1 && !sm_cpus[c->id ^ 1].busy)
		random_access(&sm_cpus[c->id ^ 1], NULL);
	active--;
}

static void test_seeded_interleave(void **state)
{
	static const uint64_t seeds[] = { 1, 0x9e3779b97f4a7c15ull, 27, 0xdeadbeef };

	(void)state;
	for (unsigned s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		sm_reset();
		rng = seeds[s];
		checked = wrong = active = 0;
		sm_hook = random_hook;
		for (unsigned i = 0; i < 2000; i++)
			if (!sm_cpus[i & 1].busy)
				random_access(&sm_cpus[i & 1], NULL);
		assert_int_equal(wrong, 0);
		assert_true(checked > 2000);
		assert_true(sm_cpus[0].faults > 100 && sm_cpus[1].faults > 100);
	}
}

/* #DE reports EXTABLE_DE (0 means "no fault"); #DF and #MC are never fixed up */
static void test_fixup_rules(void **state)
{
	static const struct extable_entry t[] = {
		{ .insn = 0x1000, .fixup = 0x1003, .kind = EXTABLE_KIND_ACCESS },
		{ .insn = 0x2000, .fixup = 0x2002, .kind = EXTABLE_KIND_CALL },
	};
	uint64_t stack[2] = { 0x2002, 0 };
	struct trap_frame f = { .vector = VEC_DE, .rip = 0x1000 };

	(void)state;
	assert_true(extable_fixup_frame(t, t + 2, &f, 0));
	assert_int_equal(f.rbx, EXTABLE_DE);
	assert_int_equal(f.rip, 0x1003);
	f = (struct trap_frame){ .vector = VEC_DF, .rip = 0x1000 };
	assert_false(extable_fixup_frame(t, t + 2, &f, 0));
	f = (struct trap_frame){ .vector = VEC_MC, .rip = 0x1000 };
	assert_false(extable_fixup_frame(t, t + 2, &f, 0));
	/* call_safe: #PF fetching the target (CR2 = RIP), return address = the call's
	 * continuation: resume there with the stack popped */
	f = (struct trap_frame){ .vector = VEC_PF, .rip = 0xdead000, .rsp = (uintptr_t)stack };
	assert_true(extable_fixup_frame(t, t + 2, &f, 0xdead000));
	assert_int_equal(f.rip, 0x2002);
	assert_int_equal(f.rbx, VEC_PF);
	assert_int_equal(f.rsp, (uintptr_t)&stack[1]);
	/* a data #PF elsewhere, or a return address that is not a call entry's: not ours */
	f = (struct trap_frame){ .vector = VEC_PF, .rip = 0xdead000, .rsp = (uintptr_t)stack };
	assert_false(extable_fixup_frame(t, t + 2, &f, 0xbeef000));
	stack[0] = 0x1003;
	assert_false(extable_fixup_frame(t, t + 2, &f, 0xdead000));
}

/* H16: an NMI nobody claims is counted for its CPU and located, and the interrupted code
 * goes on: no recovery jump (the test it lands in is not abandoned), no end of the run */
static unsigned this_cpu_no;
static unsigned cpu_no(void) { return this_cpu_no; }
static bool claim;
static bool hook(struct trap_frame *f) { (void)f; return claim; }

static void test_nmi_unknown(void **state)
{
	struct kjmp j;
	struct trap_frame f = { .vector = VEC_NMI, .rip = 0xffff800000101234ull };
	char buf[200];

	(void)state;
	nmi_reset();
	nmi_set_cpu_fn(cpu_no);
	trap_set_recovery(&j);		/* a test is running */
	nmi_set_context("load_l2");
	if (setjmp(fatal_jmp)) {
		trap_set_recovery(NULL);
		fail_msg("an unknown NMI abandoned the test or ended the run");
	}
	trap_dispatch(&f);		/* no hook: pmi=vector */
	this_cpu_no = 2;
	nmi_set_context(NULL);
	trap_dispatch(&f);
	nmi_hook = hook;		/* pmi=nmi: the PMU's NMI is claimed, not counted */
	claim = true;
	trap_dispatch(&f);
	claim = false;
	trap_dispatch(&f);
	nmi_hook = NULL;
	trap_set_recovery(NULL);
	assert_int_equal(nmi_count(), 3);
	assert_int_equal(nmi_count_cpu(0), 1);
	assert_int_equal(nmi_count_cpu(2), 2);
	assert_int_equal(f.rip, 0xffff800000101234ull);	/* resumes where it landed */
	nmi_describe(0, NMI_LOG, buf, sizeof(buf));
	assert_string_equal(buf, "3 unknown NMIs: cpu 0 at RIP 0xffff800000101234 in load_l2, "
			    "cpu 2 at RIP 0xffff800000101234 outside a test, "
			    "cpu 2 at RIP 0xffff800000101234 outside a test");
	nmi_describe_cpus(buf, sizeof(buf));
	assert_string_equal(buf, "cpu0 1, cpu2 2");
	nmi_set_cpu_fn(NULL);
}

/* more NMIs than the log keeps: the count is exact, the last NMI_LOG landings are named */
static void test_nmi_log_wraps(void **state)
{
	struct trap_frame f = { .vector = VEC_NMI, .rip = 1 };
	struct nmi_landing l[NMI_LOG + 2];
	char buf[400];

	(void)state;
	nmi_reset();
	for (unsigned i = 0; i < NMI_LOG + 3; i++) {
		f.rip = 0x100 + i;
		trap_dispatch(&f);
	}
	assert_int_equal(nmi_count(), NMI_LOG + 3);
	assert_int_equal(nmi_landings(0, l, NMI_LOG + 2), NMI_LOG);
	assert_int_equal(l[0].rip, 0x103);
	assert_int_equal(nmi_landings(NMI_LOG + 2, l, 4), 1);
	assert_int_equal(l[0].rip, 0x100 + NMI_LOG + 2);
	nmi_describe(0, NMI_LOG, buf, sizeof(buf));
	assert_non_null(strstr(buf, "11 unknown NMIs: cpu 0 at RIP 0x103 outside a test,"));
	assert_non_null(strstr(buf, " and 3 more"));
	nmi_describe(NMI_LOG + 1, 1, buf, sizeof(buf));
	assert_string_equal(buf, "2 unknown NMIs: cpu 0 at RIP 0x109 outside a test and 1 more");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_nested_same_cpu),
		cmocka_unit_test(test_other_cpu),
		cmocka_unit_test(test_seeded_interleave),
		cmocka_unit_test(test_fixup_rules),
		cmocka_unit_test(test_nmi_unknown),
		cmocka_unit_test(test_nmi_log_wraps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

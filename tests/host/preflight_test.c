/*
 * preflight_test.c: the kernel probes over real CPUs, as the preflight runs them.
 * Every fixture in tests/fixtures/cpuid/ (origin: SOURCES.md there) goes through the kernel's
 * own probes (kernel/cpu.c, pebs/caps.c, pebs/uarch.c, loads/geometry.c) behind the
 * preflight's hw.h (tools/preflight_hw.c) and must give the row preflight_fixtures.c writes
 * out from the sources. IA32_MISC_ENABLE and the microcode come from the dump's own MSR lines
 * where it has them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "loads/geometry.h"
#include "pebs/caps.h"
#include "tools/cpuid_dump.h"
#include "tools/preflight_hw.h"
#include "tests/host/preflight_fixtures.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static void check_level(const char *file, const char *lvl, const struct cache_level *c,
			uint64_t want)
{
	if (!want) {
		if (c->src != CSRC_DEFAULT)
			fail_msg("%s %s: want none from CPUID, got %llu (src %d)", file, lvl,
				 (unsigned long long)c->size, c->src);
		return;
	}
	if (c->size != want || c->src == CSRC_DEFAULT)
		fail_msg("%s %s: want %llu, got %llu (src %d)", file, lvl, (unsigned long long)want,
			 (unsigned long long)c->size, c->src);
}

static void check_fixture(const struct fixture *fx)
{
	char path[128], err[160], msr[64];
	struct cpuid_dump d;
	struct cpu_info ci;
	struct pebs_caps c;
	struct cache_geometry g;
	const char *why;
	unsigned unread;
	char *text;

	snprintf(path, sizeof(path), "tests/fixtures/cpuid/%s.txt", fx->file);
	text = slurp(path);
	if (!text)
		fail_msg("%s: cannot read (run from the repository root)", path);
	if (cpuid_dump_parse(&d, text, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	free(text);
	pf_hw_clear_msrs();
	if (fx->perf_cap != NO_CAP) {
		snprintf(msr, sizeof(msr), "IA32_PERF_CAPABILITIES=0x%llx",
			 (unsigned long long)fx->perf_cap);
		assert_int_equal(pf_hw_set_msr(msr, err, sizeof(err)), 0);
	}
	/* MSR_PEBS_LD_LAT_THRESHOLD exists on every part whose row has a load-latency event
	 * (SDM Vol. 3B 20.3.1.1.2); the kernel probes it for hypervisors that fault on it */
	if (fx->perf_cap != NO_CAP)
		assert_int_equal(pf_hw_set_msr("MSR_PEBS_LD_LAT_THRESHOLD=3", err, sizeof(err)), 0);
	if (fx->misc) {
		snprintf(msr, sizeof(msr), "IA32_MISC_ENABLE=0x%llx", (unsigned long long)fx->misc);
		assert_int_equal(pf_hw_set_msr(msr, err, sizeof(err)), 0);
	}
	pf_hw_use_dump(&d, fx->cpu);
	cpu_probe(&ci);
	pebs_caps_probe(&c, &ci);
	geometry_probe(&g, &ci);
	unread = pf_hw_unread();
	cpuid_dump_free(&d);

	if (ci.family != fx->family || ci.model != fx->model || ci.stepping != fx->stepping)
		fail_msg("%s: %02X_%02XH stepping %u, want %02X_%02XH stepping %u", fx->file,
			 ci.family, ci.model, ci.stepping, fx->family, fx->model, fx->stepping);
	if (ci.core_type != fx->core_type)
		fail_msg("%s CPU %u: core type 0x%x, want 0x%x", fx->file, fx->cpu, ci.core_type,
			 fx->core_type);
	if (!fx->uarch != !c.uarch || (fx->uarch && strcmp(fx->uarch, c.uarch->name)))
		fail_msg("%s: uarch '%s', want '%s'", fx->file, c.uarch ? c.uarch->name : "(none)",
			 fx->uarch ? fx->uarch : "(none)");
	/* the row's format agrees with the SDM's (0xff: the row leaves it to the MSR) */
	if (c.uarch && c.uarch->pebs_fmt != 0xff && c.uarch->pebs_fmt != fx->fmt)
		fail_msg("%s: row '%s' says PEBS format %u, the SDM %u", fx->file, c.uarch->name,
			 c.uarch->pebs_fmt, fx->fmt);
	if (fx->perf_cap != NO_CAP && c.pebs_fmt != fx->fmt)
		fail_msg("%s: PEBS format %u, want %u", fx->file, c.pebs_fmt, fx->fmt);
	check_level(fx->file, "L1d", &g.l1d, fx->l1d);
	check_level(fx->file, "L2", &g.l2, fx->l2);
	check_level(fx->file, "L3", &g.l3, fx->l3);
	if (!pebs_caps_pebs_ok(&c, &why) != !!fx->pebs_why[0] || strcmp(why, fx->pebs_why))
		fail_msg("%s: PEBS '%s', want '%s'", fx->file, why, fx->pebs_why);
	if (!pebs_caps_ll_ok(&c, &why) != !!fx->ll_why[0] || strcmp(why, fx->ll_why))
		fail_msg("%s: load latency '%s', want '%s'", fx->file, why, fx->ll_why);
	/* everything the probe asked for was there, but for the microcode revision in the
	 * dumps without MSR lines (it gates PEBS on Sandy Bridge only) */
	if (fx->perf_cap != NO_CAP)
		assert_int_equal(unread & ~4u, 0);
}

static void test_fixtures(void **state)
{
	const struct fixture *fx = *state;

	check_fixture(fx);
}

int main(void)
{
	enum { NMAX = 64 };
	static struct CMUnitTest tests[NMAX];
	static char names[NMAX][64];
	unsigned nf = preflight_nfixtures < NMAX ? preflight_nfixtures : NMAX;

	for (unsigned i = 0; i < nf; i++) {
		snprintf(names[i], sizeof(names[i]), "fixture %s cpu %u", preflight_fixtures[i].file,
			 preflight_fixtures[i].cpu);
		tests[i] = (struct CMUnitTest){ names[i], test_fixtures, NULL, NULL,
						     (void *)&preflight_fixtures[i] };
	}
	return _cmocka_run_group_tests("preflight", tests, nf, NULL, NULL);
}

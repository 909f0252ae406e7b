/*
 * loadbench_perf_test.c: PMU discovery and the permission decision of tools/loadbench --pebs
 * (tools/loadbench_perf.c) on fake sysfs trees built here: no PMU at all (this machine's
 * case), a core PMU without mem-loads, without a settable ldlat, Intel mem-loads with the
 * threshold forced to 3, mem-loads-aux as leader, hybrid cpu_core/cpu_atom chosen by the CPU
 * number, AMD ibs_op; the cpulist syntax; the sysfs format ranges; perf_event_paranoid levels
 * and privilege.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/loadbench_perf.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static int setup(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/lbp_sysfs.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s", root, root);
	return system(cmd);
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void intel_pmu(const char *name, const char *type, const char *loads)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%s/type", name);
	put(rel, type);
	snprintf(rel, sizeof(rel), "%s/format/event", name);
	put(rel, "config:0-7");
	snprintf(rel, sizeof(rel), "%s/format/umask", name);
	put(rel, "config:8-15");
	snprintf(rel, sizeof(rel), "%s/format/ldlat", name);
	put(rel, "config1:0-15");
	if (loads) {
		snprintf(rel, sizeof(rel), "%s/events/mem-loads", name);
		put(rel, loads);
	}
}

static void test_no_pmu(void **state)
{
	struct lb_pmu p;

	(void)state;
	put("software/type", "1");
	put("tracepoint/type", "2");
	put("msr/type", "9");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_NO_PMU);
	assert_non_null(strstr(p.why, "no PMU"));
	assert_non_null(strstr(p.why, "has no cpu, cpu_core/cpu_atom or ibs_op"));
	assert_int_equal(lbp_find("/nonexistent/dir", 0, 3, &p), LBP_NO_PMU);
}

static void test_intel_mem_loads(void **state)
{
	struct lb_pmu p;

	(void)state;
	intel_pmu("cpu", "4", "event=0xcd,umask=0x1,ldlat=3");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_OK);
	assert_string_equal(p.name, "cpu");
	assert_int_equal(p.type, 4);
	assert_int_equal(p.config[0], 0x1cd);
	assert_int_equal(p.config[1], 3);
	assert_false(p.aux);
	assert_false(p.ibs);
	/* the threshold asked for wins over the event's own */
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=30");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_OK);
	assert_int_equal(p.config[1], 3);
	/* an event without an ldlat term still gets one through format/ldlat */
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1");
	assert_int_equal(lbp_find(root, 0, 7, &p), LBP_OK);
	assert_int_equal(p.config[1], 7);
	/* Sapphire Rapids style: mem-loads-aux must lead */
	put("cpu/events/mem-loads-aux", "event=0x03,umask=0x82");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_OK);
	assert_true(p.aux);
	assert_int_equal(p.aux_config[0], 0x8203);
	assert_non_null(strstr(p.event, "mem-loads-aux"));
}

static void test_no_event(void **state)
{
	struct lb_pmu p;
	char rel[128];

	(void)state;
	intel_pmu("cpu", "4", NULL);
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_NO_EVENT);
	assert_non_null(strstr(p.why, "events/mem-loads absent"));
	/* mem-loads listed, but no way to set the threshold */
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1");
	snprintf(rel, sizeof(rel), "%s/cpu/format/ldlat", root);
	assert_int_equal(remove(rel), 0);
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_NO_EVENT);
	assert_non_null(strstr(p.why, "format/ldlat"));
	/* a term whose format is missing */
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1,frob=2");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_NO_EVENT);
	assert_non_null(strstr(p.why, "frob"));
}

static void test_hybrid(void **state)
{
	struct lb_pmu p;

	(void)state;
	intel_pmu("cpu_core", "4", "event=0xcd,umask=0x1,ldlat=3");
	intel_pmu("cpu_atom", "10", "event=0xd0,umask=0x5,ldlat=3");
	put("cpu_core/cpus", "0-7");
	put("cpu_atom/cpus", "8-15");
	assert_int_equal(lbp_find(root, 3, 3, &p), LBP_OK);
	assert_string_equal(p.name, "cpu_core");
	assert_int_equal(p.type, 4);
	assert_int_equal(p.config[0], 0x1cd);
	assert_int_equal(lbp_find(root, 9, 3, &p), LBP_OK);
	assert_string_equal(p.name, "cpu_atom");
	assert_int_equal(p.type, 10);
	assert_int_equal(p.config[0], 0x5d0);
	assert_int_equal(lbp_find(root, 20, 3, &p), LBP_NO_PMU);
	assert_non_null(strstr(p.why, "CPU 20"));
}

static void test_amd_ibs(void **state)
{
	struct lb_pmu p;

	(void)state;
	put("cpu/type", "4");
	put("ibs_op/type", "11");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_OK);
	assert_true(p.ibs);
	assert_string_equal(p.name, "ibs_op");
	assert_int_equal(p.type, 11);
	/* an AMD core PMU without IBS op: a PMU, but no load-latency event */
	teardown(state);
	setup(state);
	put("cpu/type", "4");
	assert_int_equal(lbp_find(root, 0, 3, &p), LBP_NO_EVENT);
}

static void test_cpulist_and_format(void **state)
{
	uint64_t cfg[3];
	char why[256];

	(void)state;
	assert_true(lbp_cpulist_has("0-3,8,10-11", 0));
	assert_true(lbp_cpulist_has("0-3,8,10-11", 3));
	assert_false(lbp_cpulist_has("0-3,8,10-11", 4));
	assert_true(lbp_cpulist_has("0-3,8,10-11", 8));
	assert_false(lbp_cpulist_has("0-3,8,10-11", 9));
	assert_true(lbp_cpulist_has("0-3,8,10-11", 11));
	assert_false(lbp_cpulist_has("", 0));
	assert_false(lbp_cpulist_has("x", 0));
	put("pmu/format/event", "config:0-7,32-35");	/* split range: 12 bits */
	put("pmu/format/edge", "config:18");
	put("pmu/format/ldlat", "config2:0-15");
	put("pmu/format/bad", "period:0-3");
	{
		char dir[300];

		snprintf(dir, sizeof(dir), "%s/pmu", root);
		assert_int_equal(lbp_event_config(dir, "event=0x4cd,edge", 3, cfg, why, sizeof(why)),
				 0);
		assert_int_equal(cfg[0], 0xcd | 4ull << 32 | 1ull << 18);
		assert_int_equal(cfg[2], 3);
		/* a value wider than its field */
		assert_int_equal(lbp_event_config(dir, "event=0x1fff", 3, cfg, why, sizeof(why)),
				 -1);
		assert_int_equal(lbp_event_config(dir, "bad=1", 3, cfg, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "bad"));
	}
}

static void test_permission(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(lbp_perm_decide(2, false, "P", why, sizeof(why)), LBP_OK);
	assert_int_equal(lbp_perm_decide(-1, false, "P", why, sizeof(why)), LBP_OK);
	assert_int_equal(lbp_perm_decide(3, true, "P", why, sizeof(why)), LBP_OK);
	assert_int_equal(lbp_perm_decide(3, false, "P", why, sizeof(why)), LBP_NO_PERM);
	assert_non_null(strstr(why, "no permission: P is 3"));
	assert_int_equal(lbp_perm_decide(4, false, "P", why, sizeof(why)), LBP_NO_PERM);
	assert_int_equal(lbp_perm_decide(-2000, true, "P", why, sizeof(why)), LBP_NO_PMU);
	assert_non_null(strstr(why, "cannot be read"));
	/* through the file */
	put("paranoid", "3");
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/paranoid", root);
		assert_int_equal(lbp_perm_check(path, why, sizeof(why)),
				 geteuid() == 0 ? LBP_OK : LBP_NO_PERM);
		snprintf(path, sizeof(path), "%s/missing", root);
		assert_int_equal(lbp_perm_check(path, why, sizeof(why)), LBP_NO_PMU);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intel_mem_loads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hybrid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amd_ibs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpulist_and_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_permission, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

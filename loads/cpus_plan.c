/*
 * cpus_plan.c: which CPUs the per-CPU load test runs on and what its output is called (see
 * cpus_plan.h). Core types per SDM Vol. 2A CPUID leaf 1AH (EAX[31:24]: 20H Atom, 40H Core).
 */
#include "loads/cpus_plan.h"
#include "kernel/fmt.h"

static const char *const level_id[] = { "l1", "l2", "l3", "dram" };

const char *cpus_plan_skip(const struct cpus_plan_in *in, char *b, size_t n)
{
	if (in->online < 2) {
		fmt_snprintf(b, n, "one CPU online: the per-CPU runs need an application "
			     "processor (%s)", in->why_none ? in->why_none :
			     "the MADT lists one processor");
		return b;
	}
	if (in->aps)
		return NULL;
	switch (in->mode) {
	case SMP_CPUS_BSP:
		fmt_snprintf(b, n, "cpus=bsp: the boot CPU only, whose load tests are load_l1.."
			     "load_dram");
		break;
	case SMP_CPUS_TYPES:
		fmt_snprintf(b, n, "cpus=types: no online CPU of another core type than the boot "
			     "CPU's (cpus=all runs every CPU)");
		break;
	default:
		fmt_snprintf(b, n, "cpus=%s selects no online application processor",
			     smp_cpus_mode_name(in->mode));
		break;
	}
	return b;
}

bool cpus_plan_names(unsigned n, unsigned level, char *kernel, size_t kn, char *sub,
		     size_t sn)
{
	if (level >= sizeof(level_id) / sizeof(level_id[0]))
		return false;
	fmt_snprintf(kernel, kn, "load_%s@cpu%u", level_id[level], n);
	fmt_snprintf(sub, sn, "cpu%u_%s_", n, level_id[level]);
	return true;
}

const char *cpus_plan_type(uint8_t core_type)
{
	return core_type == 0x40 ? "P-core" : core_type == 0x20 ? "E-core" : "-";
}

/*
 * preflight_hw.c: the hw.h seam for the preflight (see preflight_hw.h). CPUID through the
 * instruction on the pinned CPU (SDM Vol. 2A, CPUID) or the dump; /dev/cpu/N/msr reads an MSR
 * at file offset = MSR address (Linux arch/x86/kernel/msr.c, msr_read). Nothing is written to
 * the machine: a write is kept in a shadow that later reads of that MSR return, so the
 * kernel's write-and-read-back probes (pebs/probe.c) see a PMU that keeps what it is given.
 */
#define _GNU_SOURCE
#include "tools/preflight_hw.h"
#include "ibs/ibs_regs.h"
#include "kernel/hw.h"
#include "pebs/msr.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct pf_msr_def pf_msr_defs[PF_NMSR] = {
	{ .name = "IA32_PERF_CAPABILITIES", .msr = MSR_IA32_PERF_CAPABILITIES,
	  .decides = "PEBS record format, adaptive PEBS, full-width writes" },
	{ .name = "IA32_MISC_ENABLE", .msr = MSR_IA32_MISC_ENABLE,
	  .decides = "whether performance monitoring [7] and PEBS [12] are available" },
	{ .name = "IA32_BIOS_SIGN_ID", .msr = MSR_IA32_BIOS_SIGN_ID,
	  .decides = "the microcode revision (PEBS microcode gates)" },
	{ .name = "MSR_PEBS_LD_LAT_THRESHOLD", .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .decides = "whether the load-latency threshold MSR exists" },
	{ .name = "IBS_CTL", .msr = MSR_IBS_CTL,
	  .decides = "whether firmware assigned the IBS interrupt an APIC LVT offset "
		     "(LvtOffsetVal[8])" },
};

static const struct cpuid_dump *dump;
static unsigned dump_cpu, live_cpu;
static int msr_fd = -1;
static bool given[PF_NMSR];
static uint64_t given_val[PF_NMSR];
static unsigned unread, assumed;
static char source[96] = "none";
static struct {
	uint32_t msr;
	uint64_t val;
} shadow[16];
static unsigned nshadow;

static int def_index(uint32_t msr)
{
	for (int i = 0; i < PF_NMSR; i++)
		if (pf_msr_defs[i].msr == msr)
			return i;
	return -1;
}

void pf_hw_use_dump(const struct cpuid_dump *d, unsigned cpu)
{
	dump = d;
	dump_cpu = cpu;
	unread = assumed = 0;
	nshadow = 0;
	snprintf(source, sizeof(source), "--msr and the dump's MSR lines");
}

int pf_hw_use_live(unsigned cpu, char *err, size_t n)
{
	cpu_set_t set;
	char path[64];

	dump = NULL;
	live_cpu = cpu;
	unread = assumed = 0;
	nshadow = 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, n, "cannot pin to CPU %u: %s", cpu, strerror(errno));
		return -1;
	}
	if (msr_fd >= 0)
		close(msr_fd);
	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", cpu);
	msr_fd = open(path, O_RDONLY);
	if (msr_fd >= 0)
		snprintf(source, sizeof(source), "%s", path);
	else
		snprintf(source, sizeof(source), "--msr and sysfs microcode (%s: %s)", path,
			 strerror(errno));
	return 0;
}

int pf_hw_set_msr(const char *arg, char *err, size_t n)
{
	const char *eq = strchr(arg, '=');
	char *end;
	unsigned long long v;
	int idx = -1;

	if (eq) {
		for (int i = 0; i < PF_NMSR; i++)
			if (strlen(pf_msr_defs[i].name) == (size_t)(eq - arg) &&
			    !strncmp(arg, pf_msr_defs[i].name, (size_t)(eq - arg)))
				idx = i;
		if (idx < 0 && !strncmp(arg, "0x", 2)) {
			unsigned long a = strtoul(arg, &end, 16);

			if (end == eq)
				idx = def_index((uint32_t)a);
		}
	}
	if (idx < 0) {
		snprintf(err, n, "--msr %s: want NAME=VALUE with NAME one of IA32_PERF_CAPABILITIES, "
			 "IA32_MISC_ENABLE, IA32_BIOS_SIGN_ID, MSR_PEBS_LD_LAT_THRESHOLD, IBS_CTL "
			 "(or 0xADDR)", arg);
		return -1;
	}
	errno = 0;
	v = strtoull(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end) {
		snprintf(err, n, "--msr %s: bad value '%s'", arg, eq + 1);
		return -1;
	}
	given[idx] = true;
	given_val[idx] = v;
	return 0;
}

void pf_hw_clear_msrs(void)
{
	memset(given, 0, sizeof(given));
}

const char *pf_hw_msr_source(void)
{
	return source;
}

unsigned pf_hw_unread(void)
{
	return unread;
}

unsigned pf_hw_assumed(void)
{
	return assumed;
}

/* Offline, not given, not in the dump: MSR_PEBS_LD_LAT_THRESHOLD exists on bare metal on every
 * model the kernel asks it of (preflight_hw.h); under a hypervisor (CPUID.1:ECX[31], SDM Vol. 2A
 * CPUID "not used", reserved for hypervisors by convention) it may fault, so not assumed. */
static bool assume_present(uint32_t msr)
{
	struct cpuid_regs r;

	if (!dump || msr != MSR_PEBS_LD_LAT_THRESHOLD)
		return false;
	cpuid_dump_get(dump, dump_cpu, 1, 0, &r);
	return !(r.ecx & 1u << 31);
}

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	if (dump) {
		cpuid_dump_get(dump, dump_cpu, leaf, subleaf, r);
		return;
	}
	__cpuid_count(leaf, subleaf, r->eax, r->ebx, r->ecx, r->edx);
}

/* Linux's sysfs microcode revision, readable without root: IA32_BIOS_SIGN_ID[63:32]. */
static bool sysfs_microcode(uint64_t *v)
{
	char path[96];
	unsigned long rev;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/microcode/version", live_cpu);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%lx", &rev) == 1;
	fclose(f);
	*v = (uint64_t)rev << 32;
	return ok;
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int i = def_index(msr);

	*val = 0;
	for (unsigned k = 0; k < nshadow; k++)
		if (shadow[k].msr == msr) {
			*val = shadow[k].val;
			return 0;
		}
	if (i < 0)
		return 0;	/* a PMU programming MSR: reads 0, nothing is programmed */
	if (given[i]) {
		*val = given_val[i];
		return 0;
	}
	if (dump ? cpuid_dump_msr(dump, dump_cpu, msr, val) :
	    (msr_fd >= 0 && pread(msr_fd, val, 8, msr) == 8) ||
	    (msr == MSR_IA32_BIOS_SIGN_ID && sysfs_microcode(val)))
		return 0;
	*val = 0;
	if (assume_present(msr)) {
		assumed |= 1u << i;
		return 0;
	}
	unread |= 1u << i;
	return -1;
}

uint64_t rdmsr(uint32_t msr)
{
	uint64_t v;

	(void)rdmsr_safe(msr, &v);
	return v;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	unsigned k = 0;

	if (msr == MSR_IA32_BIOS_SIGN_ID)
		return 0;	/* the latch protocol (SDM Vol. 3A 10.11.7): reads give the revision */
	while (k < nshadow && shadow[k].msr != msr)
		k++;
	if (k == sizeof(shadow) / sizeof(shadow[0]))
		return 0;	/* full: the write is lost, as before */
	shadow[k].msr = msr;
	shadow[k].val = val;
	if (k == nshadow)
		nshadow++;
	return 0;
}

void wrmsr(uint32_t msr, uint64_t val)
{
	(void)wrmsr_safe(msr, val);
}

int rdpmc_safe(uint32_t counter, uint64_t *val)
{
	(void)counter;
	*val = 0;
	return 0;
}

/* The TSC reads of kernel/hw.h: a counter that stands still. Port 0x61 reads 0xff here (no
 * 8254), so kernel/tsc.c reads the counter once and never waits on it; nothing the preflight
 * prints depends on time. */
uint64_t rdtsc(void)
{
	return 0;
}

uint64_t rdtsc_ordered(void)
{
	return 0;
}

uint8_t inb(uint16_t port)
{
	(void)port;
	return 0xff;
}

void outb(uint16_t port, uint8_t val)
{
	(void)port;
	(void)val;
}

uint16_t inw(uint16_t port)
{
	(void)port;
	return 0xffff;
}

void outw(uint16_t port, uint16_t val)
{
	(void)port;
	(void)val;
}

uint32_t mmio_read32(uintptr_t addr)
{
	(void)addr;
	return 0xffffffffu;
}

void mmio_write32(uintptr_t addr, uint32_t val)
{
	(void)addr;
	(void)val;
}

uint8_t mmio_read8(uintptr_t addr)
{
	(void)addr;
	return 0xff;
}

void mmio_write8(uintptr_t addr, uint8_t val)
{
	(void)addr;
	(void)val;
}

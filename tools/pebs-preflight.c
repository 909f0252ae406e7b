/*
 * pebs-preflight.c: what will the kernel do on this machine? Runs the kernel's own probes
 * (kernel/cpu.c, kernel/hypervisor.c, kernel/tsc.c, pebs/caps.c, pebs/uarch.c, pebs/cycles.c,
 * loads/geometry.c) over CPUID read on this machine or from a saved dump (tools/preflight_hw.h),
 * prints the header lines the kernel prints from them, then the plan: each test of the kernel's
 * table (ktests/table.c) and whether it runs or SKIPs and why (ktests/needs.c, the PEBS and
 * timing gates). One block per core type on hybrid parts (CPUID.1AH:EAX[31:24]). On AMD the
 * kernel samples with IBS in place of PEBS (init/main.c kibs_register): the block adds the
 * IBS probe's header lines (ibs/ibs_caps.c, with the Zen generation) and the plan gives the
 * IBS gate (ibs_caps_ok; docs/ibs.md) where Intel parts give the PEBS one.
 *   pebs-preflight [--cpuid FILE] [--msr NAME=VALUE]...
 * Exit: 0 printed; 2 bad arguments or an unreadable/malformed dump (the line is named).
 */
#define _GNU_SOURCE
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "ibs/amd_zen.h"
#include "ibs/ibs_caps.h"
#include "loads/geometry.h"
#include "pebs/caps.h"
#include "pebs/cycles.h"
#include "tools/cpuid_dump.h"
#include "tools/preflight_hw.h"
#include "tools/preflight_smbios.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void console_write(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: pebs-preflight [--cpuid FILE] [--msr NAME=VALUE]... [--smbios PATH]\n"
		"  FILE: `cpuid -r` output or an InstLatx64 CPUID dump; NAME: IA32_PERF_CAPABILITIES,\n"
		"  IA32_MISC_ENABLE, IA32_BIOS_SIGN_ID, MSR_PEBS_LD_LAT_THRESHOLD\n"
		"  PATH: a `dmidecode --dump-bin` file or /sys/firmware/dmi/tables (root only): the\n"
		"  kernel's '# smbios:' lines for it\n");
	exit(2);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The MSR a reason depends on when that MSR was not read, else NULL. */
static const struct pf_msr_def *undecided(const char *why)
{
	unsigned u = pf_hw_unread();

	for (unsigned i = 0; i < PF_NMSR; i++) {
		const struct pf_msr_def *d = &pf_msr_defs[i];

		if ((u & 1u << i) && (strstr(why, d->name) ||
				      (d->msr == 0x8b && !strncmp(why, "microcode", 9))))
			return d;
	}
	return NULL;
}

/* Offline (--cpuid): an MSR that is neither given nor in the dump is "not given" (there was
 * nothing to read); live it is "not read" (no /dev/cpu/N/msr, no permission). */
static bool offline;

static const char *unread_word(void)
{
	return offline ? "not given" : "not read";
}

/* A header line of the kernel's probe (pebs/caps_print.c, pebs/cycles.c) as the preflight
 * prints it: the probe reports an MSR that was not read as a fault with vector -1 (the value
 * rdmsr_safe returns here for it), which is none: say "not given"/"not read". The PEBS line
 * "load latency: " carries the load-latency reason itself (the probe prints it empty). */
static void fix_line(char *b, size_t n, const struct pebs_caps *c)
{
	static const char fault[] = "rdmsr fault (vector -1)", ll[] = "load latency: ";
	char *p, tmp[256];
	const char *why;

	while ((p = strstr(b, fault))) {
		snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)(p - b), b, unread_word(),
			 p + sizeof(fault) - 1);
		snprintf(b, n, "%s", tmp);
	}
	if ((p = strstr(b, " (not read)")) && offline) {
		snprintf(tmp, sizeof(tmp), "%.*s (not given)%s", (int)(p - b), b, p + 11);
		snprintf(b, n, "%s", tmp);
	}
	p = strstr(b, ll);
	if (p && !p[sizeof(ll) - 1] && !pebs_caps_ll_ok(c, &why)) {
		snprintf(tmp, sizeof(tmp), "%s%s", b, why);
		snprintf(b, n, "%s", tmp);
		fix_line(b, n, c);
	}
}

static void reason(const char *what, const char *why)
{
	const struct pf_msr_def *d = undecided(why);

	if (d)
		kprintf("%s undecided: %s %s", what, d->name, unread_word());
	else
		kprintf("%s SKIP %s", what, why);
}

/* The sampling gate of the load and pmu tests: IBS on AMD, PEBS load latency elsewhere. */
static void sampling(const struct pebs_caps *c, const struct ibs_caps *ic, bool ll_ok,
		     const char *ll)
{
	const char *why;

	if (c->vendor != VENDOR_AMD) {
		if (ll_ok)
			kprintf("; PEBS load-latency steps run (format %u)", c->pebs_fmt);
		else
			reason("; PEBS steps", ll);
	} else if (ibs_caps_ok(ic, &why)) {
		const struct amd_zen *z = amd_zen_lookup(ic->family, ic->model);

		kprintf("; IBS op-sampling steps run (%s, decoder row %s, dsrc %s)",
			z ? z->name : "no Zen generation known", ic->fam->name,
			ibs_dsrc_table_name(ic->ext_dsrc ? IBS_DS_EXT : IBS_DS_LEGACY));
	} else {
		reason("; IBS steps", why);
	}
}

static void plan(const struct ibs_caps *ic)
{
	const struct pebs_caps *c = pebs_caps_init();
	const char *timing = cpu_timing_unjudgeable(&cpu), *ll;
	bool ll_ok = pebs_caps_ll_ok(c, &ll);

	for (unsigned i = 0; i < ktest_count; i++) {
		const struct ktest_desc *t = &ktest_table[i];
		const char *why = ktest_need_reason(t->needs);

		kprintf("# plan: %s:", t->name);
		if (why) {
			reason("", why);
			kprintf("\n");
			continue;
		}
		kprintf(t->on_request ? " runs only when named (tests=%s)" : " runs", t->name);
		if (!strncmp(t->name, "load", 4)) {
			if (timing)
				kprintf("; timing verdicts SKIP %s", timing);
			else
				kprintf("; timing judged%s", cpu.hypervisor ?
					" (vCPU: host noise included)" : "");
		}
		if (!strncmp(t->name, "load", 4) || !strcmp(t->name, "pmu"))
			sampling(c, ic, ll_ok, ll);
		kprintf("\n");
	}
}

static void block(const char *what)
{
	struct cache_geometry g;
	struct pmu_cycles cyc;
	struct ibs_caps ic;
	char b[256];
	int rc;

	cpu_probe(&cpu);
	tsc_init();
	pebs_caps_probe(&pebs_caps, &cpu);
	(void)pebs_caps_init();	/* the kernel's copy: ktests/needs.c asks it */
	geometry_probe(&g, &cpu);
	kprintf("# preflight: %s\n", what);
	for (unsigned i = 0; cpu_header_line(&cpu, i, b, sizeof(b)); i++)
		kprintf("# %s\n", b);
	if (!strcmp(tsc_source, "CPUID.15H"))
		kprintf("# tsc: %llu kHz (%s)%s\n", (unsigned long long)(tsc_hz / 1000), tsc_source,
			cpu.invariant_tsc ? ", invariant" : "");
	else if (!strncmp(tsc_source, "CPUID.16H", 9))
		kprintf("# tsc: measured at boot (PIT calibration; no CPUID.15H crystal clock), "
			"CPUID.16H base %llu kHz\n", (unsigned long long)(tsc_hz / 1000));
	else
		kprintf("# tsc: measured at boot (PIT calibration; no CPUID.15H crystal clock)\n");
	for (unsigned i = 0; pebs_caps_line(&pebs_caps, i, b, sizeof(b)); i++) {
		if (!pebs_caps_line_shown(&pebs_caps, i))	/* the kernel's filter */
			continue;
		fix_line(b, sizeof(b), &pebs_caps);
		kprintf("# %s\n", b);
	}
	ibs_caps_probe(&ic, &cpu);	/* per block: not the kernel's once-only copy */
	if (cpu.vendor == VENDOR_AMD)
		ibs_caps_print(&ic);	/* init/main.c prints it on AMD, after the pebs lines */
	for (unsigned i = 0; geometry_header_line(&g, i, b, sizeof(b)); i++)
		kprintf("# %s\n", b);
	if (cpu.vendor == VENDOR_AMD) {	/* ibs/amd_cycles.c: needs a counter that counts */
		struct cpuid_regs r6 = { 0 };

		if (cpu.max_leaf >= 6)
			cpuid_count(6, 0, &r6);
		kprintf("# core clock: decided at boot: PMCx076 on the highest free PerfCtr0-3 "
			"(it must count), else IA32_APERF%s\n", r6.ecx & 1 ? "" :
			" (absent: CPUID 06H:ECX[0] = 0)");
	} else {
		rc = pmu_cycles_init(&cyc, &pebs_caps);
		pmu_cycles_header_line(&cyc, rc, b, sizeof(b));
		fix_line(b, sizeof(b), &pebs_caps);
		kprintf("# %s\n", b);
	}
	for (unsigned i = 0; i < PF_NMSR; i++) {
		if (pf_hw_unread() & 1u << i)
			kprintf("# %s: %s (0x%x): %s; give it with --msr %s=VALUE\n", unread_word(),
				pf_msr_defs[i].name, pf_msr_defs[i].msr, pf_msr_defs[i].decides,
				pf_msr_defs[i].name);
		if (pf_hw_assumed() & 1u << i)
			kprintf("# assumed: %s (0x%x) present, as on every model whose table row has "
				"a load-latency event, outside a hypervisor; give it with --msr %s=VALUE\n",
				pf_msr_defs[i].name, pf_msr_defs[i].msr, pf_msr_defs[i].name);
	}
	kprintf("# preflight: not known before a boot: the memory map, boot loader, APIC, ACPI, "
		"console and framebuffer lines\n");
	plan(&ic);
}

/* Core type of the current CPUID source: CPUID.1AH:EAX[31:24] on hybrid parts, else 0. */
static uint8_t core_type(void)
{
	struct cpu_info ci;

	cpu_probe(&ci);
	return ci.core_type;
}

static int run_dump(const char *path)
{
	struct cpuid_dump d;
	char err[160], what[200];
	char *text = read_file(path);
	uint32_t seen = 0;

	if (!text) {
		fprintf(stderr, "pebs-preflight: %s: cannot read (missing, unreadable or binary)\n",
			path);
		return 2;
	}
	if (cpuid_dump_parse(&d, text, err, sizeof(err))) {
		fprintf(stderr, "pebs-preflight: %s: %s\n", path, err);
		free(text);
		return 2;
	}
	free(text);
	offline = true;
	for (unsigned i = 0; i < d.ncpus; i++) {
		uint8_t ct;

		pf_hw_use_dump(&d, d.cpus[i]);
		ct = core_type();
		if (seen & 1u << (ct >> 3))
			continue;	/* one block per core type */
		seen |= 1u << (ct >> 3);
		snprintf(what, sizeof(what), "CPUID from %s, CPU %u%s%s; MSRs from %s", path,
			 d.cpus[i], ct ? ", " : "", cpu_core_type_name(ct), pf_hw_msr_source());
		pf_hw_use_dump(&d, d.cpus[i]);
		block(what);
	}
	cpuid_dump_free(&d);
	return 0;
}

static int run_live(void)
{
	cpu_set_t all;
	char err[160], what[200];
	uint32_t seen = 0;

	if (sched_getaffinity(0, sizeof(all), &all)) {
		perror("pebs-preflight: sched_getaffinity");
		return 2;
	}
	for (unsigned c = 0; c < CPU_SETSIZE; c++) {
		uint8_t ct;

		if (!CPU_ISSET(c, &all))
			continue;
		if (pf_hw_use_live(c, err, sizeof(err))) {
			fprintf(stderr, "pebs-preflight: %s\n", err);
			return 2;
		}
		ct = core_type();
		if (seen & 1u << (ct >> 3))
			continue;
		seen |= 1u << (ct >> 3);
		snprintf(what, sizeof(what), "CPUID executed on CPU %u%s%s (pinned); MSRs from %s",
			 c, ct ? ", " : "", cpu_core_type_name(ct), pf_hw_msr_source());
		block(what);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dump = NULL, *smbios = NULL;
	char err[200];
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpuid") && i + 1 < argc) {
			dump = argv[++i];
		} else if (!strcmp(argv[i], "--smbios") && i + 1 < argc) {
			smbios = argv[++i];
		} else if (!strcmp(argv[i], "--msr") && i + 1 < argc) {
			if (pf_hw_set_msr(argv[++i], err, sizeof(err))) {
				fprintf(stderr, "pebs-preflight: %s\n", err);
				return 2;
			}
		} else {
			usage();
		}
	}
	rc = dump ? run_dump(dump) : run_live();
	if (!rc && smbios)
		rc = pf_smbios_print(smbios);
	return rc;
}

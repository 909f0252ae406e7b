/*
 * cpuid_dump.c: the two CPUID dump formats (see cpuid_dump.h). A line is a record when it
 * starts like one ("0x" after blanks, "CPUID ", "MSR "); a record must then be complete, so a
 * truncated file fails on its cut line. Everything else (InstLatx64's prose, cache summaries,
 * clock lines) is ignored.
 */
#include "tools/cpuid_dump.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exactly `digits` hex digits at *p (no more), advancing *p. */
static bool hex_n(const char **p, unsigned digits, uint64_t *v)
{
	*v = 0;
	for (unsigned i = 0; i < digits; i++, (*p)++) {
		if (!isxdigit((unsigned char)**p))
			return false;
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)**p) ? **p - '0' :
					   (tolower((unsigned char)**p) - 'a' + 10));
	}
	return !isxdigit((unsigned char)**p);
}

static bool lit(const char **p, const char *s)
{
	size_t n = strlen(s);

	if (strncmp(*p, s, n))
		return false;
	*p += n;
	return true;
}

/* Room for one more element in an array of `size`-byte elements (doubling). */
static bool grow(void **arr, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 64;
	void *p;

	if (n < *cap)
		return true;
	p = realloc(*arr, c * size);
	if (!p)
		return false;
	*arr = p;
	*cap = c;
	return true;
}

static bool add_leaf(struct cpuid_dump *d, unsigned cpu, uint64_t leaf, uint64_t sub,
		     const uint64_t r[4])
{
	if (!grow((void **)&d->leaves, d->nleaves, &d->cap_leaves, sizeof(*d->leaves)))
		return false;
	d->leaves[d->nleaves++] = (struct cpuid_dump_leaf){
		.cpu = cpu, .leaf = (uint32_t)leaf, .subleaf = (uint32_t)sub,
		.r = { .eax = (uint32_t)r[0], .ebx = (uint32_t)r[1], .ecx = (uint32_t)r[2],
		       .edx = (uint32_t)r[3] } };
	return true;
}

static bool add_msr(struct cpuid_dump *d, unsigned cpu, uint64_t msr, uint64_t v)
{
	if (!grow((void **)&d->msrs, d->nmsrs, &d->cap_msrs, sizeof(*d->msrs)))
		return false;
	d->msrs[d->nmsrs++] = (struct cpuid_dump_msr){ .cpu = cpu, .msr = (uint32_t)msr, .value = v };
	return true;
}

/* A record line: `prefix`, then hex digits up to ':' or the end of the line (cut there).
 * "CPUID Manufacturer: ..." and "CPUID CPU Name ..." are prose. */
static bool record(const char *p, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(p, prefix, n) || !isxdigit((unsigned char)p[n]))
		return false;
	for (p += n; isxdigit((unsigned char)*p); p++)
		;
	return *p == ':' || *p == '\0' || (!strcmp(prefix, "0x") && *p == ' ');
}

static bool start_cpu(struct cpuid_dump *d, unsigned cpu)
{
	if (d->ncpus == sizeof(d->cpus) / sizeof(d->cpus[0]))
		return false;
	for (unsigned i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return false;
	d->cpus[d->ncpus++] = cpu;
	return true;
}

/* "   0x00000004 0x01: eax=0x... ebx=0x... ecx=0x... edx=0x..." (cpuid -r) */
static bool parse_raw(const char *p, uint64_t *leaf, uint64_t *sub, uint64_t r[4])
{
	static const char *const nm[4] = { " eax=0x", " ebx=0x", " ecx=0x", " edx=0x" };

	if (!lit(&p, "0x") || !hex_n(&p, 8, leaf) || !lit(&p, " 0x") || !hex_n(&p, 2, sub) ||
	    !lit(&p, ":"))
		return false;
	for (int i = 0; i < 4; i++)
		if (!lit(&p, nm[i]) || !hex_n(&p, 8, &r[i]))
			return false;
	return true;
}

/* "CPUID 00000004: 7C004121-01C0003F-0000003F-00000000 [SL 00]" (InstLatx64) */
static bool parse_instlat(const char *p, uint64_t *leaf, uint64_t *sub, uint64_t r[4])
{
	const char *sl;

	if (!lit(&p, "CPUID ") || !hex_n(&p, 8, leaf) || !lit(&p, ": "))
		return false;
	for (int i = 0; i < 4; i++)
		if ((i && !lit(&p, "-")) || !hex_n(&p, 8, &r[i]))
			return false;
	*sub = 0;
	sl = strstr(p, "[SL ");
	if (sl) {
		sl += 4;
		if (!hex_n(&sl, 2, sub) || *sl != ']')
			return false;
	}
	return true;
}

/* "MSR 000001A0: 0000-0040-6097-2489" (InstLatx64) */
static bool parse_msr(const char *p, uint64_t *msr, uint64_t *v)
{
	uint64_t w;

	if (!lit(&p, "MSR ") || !hex_n(&p, 8, msr) || !lit(&p, ": "))
		return false;
	*v = 0;
	for (int i = 0; i < 4; i++) {
		if ((i && !lit(&p, "-")) || !hex_n(&p, 4, &w))
			return false;
		*v = *v << 16 | w;
	}
	return true;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); cpuid_dump_free(d); return -1; } \
	while (0)

int cpuid_dump_parse(struct cpuid_dump *d, const char *text, char *err, size_t errlen)
{
	unsigned line = 0, cpu = 0, msr_cpu = 0;
	bool have_cpu = false, in_msr = false;

	memset(d, 0, sizeof(*d));
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n'), *p = s;
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char buf[512];
		uint64_t leaf, sub, r[4], msr, v;
		unsigned long c;

		line++;
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, s, n);
		buf[n] = '\0';
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = '\0';
		s = e ? e + 1 : s + strlen(s);
		for (p = buf; *p == ' ' || *p == '\t'; p++)
			;
		if (!strncmp(p, "------[", 7)) {
			/* InstLatx64 (AIDA64) section: "Logical CPU #N", "CPUID Registers /
			 * Logical CPU #N", "MSR Registers[ / Logical CPU #N]", others */
			const char *h = strstr(p, "CPU #");

			c = h ? strtoul(h + 5, NULL, 10) : 0;
			in_msr = strstr(p, "MSR Registers") != NULL;
			if (in_msr) {
				msr_cpu = h ? (unsigned)c : d->ncpus ? d->cpus[0] : 0;
				continue;
			}
			if (!h)
				continue;
			if (!start_cpu(d, (unsigned)c))
				FAIL("line %u: CPU %lu listed twice or beyond 256 blocks", line, c);
			cpu = msr_cpu = (unsigned)c;
			have_cpu = true;
		} else if (!strncmp(p, "CPU#", 4) || (!strncmp(p, "CPU ", 4) &&
			   isdigit((unsigned char)p[4])) || !strcmp(p, "CPU:")) {
			/* "CPU#000 AffMask: ..." (InstLatx64), "CPU 3:" / "CPU:" (cpuid -r) */
			char *end;

			c = strtoul(p + 4, &end, 10);
			if (!strcmp(p, "CPU:"))
				c = 0;
			else if (end == p + 4 || (p[3] == ' ' && strcmp(end, ":")))
				continue;	/* prose that starts with "CPU " */
			if (!start_cpu(d, (unsigned)c))
				FAIL("line %u: CPU %lu listed twice or beyond 256 blocks", line, c);
			cpu = msr_cpu = (unsigned)c;
			have_cpu = true;
			in_msr = false;
		} else if (record(p, "0x") || record(p, "CPUID ")) {
			bool ok = p[0] == '0' ? parse_raw(p, &leaf, &sub, r) :
						parse_instlat(p, &leaf, &sub, r);

			if (!ok)
				FAIL("line %u: malformed or truncated CPUID record: \"%.60s\"", line, p);
			if (!have_cpu) {
				start_cpu(d, 0);
				have_cpu = true;
			}
			/* older InstLatx64 dumps list subleaves in order without "[SL nn]" */
			if (p[0] == 'C' && !strstr(p, "[SL ") && d->nleaves &&
			    d->leaves[d->nleaves - 1].cpu == cpu &&
			    d->leaves[d->nleaves - 1].leaf == leaf)
				sub = d->leaves[d->nleaves - 1].subleaf + 1;
			if (!add_leaf(d, cpu, leaf, sub, r))
				FAIL("line %u: out of memory", line);
		} else if (record(p, "MSR ") && !strstr(p, ": < FAILED >")) {
			/* (AIDA64 writes "< FAILED >" for an MSR that faulted: not a value) */
			if (!parse_msr(p, &msr, &v))
				FAIL("line %u: malformed or truncated MSR record: \"%.60s\"", line, p);
			if (!add_msr(d, in_msr ? msr_cpu : cpu, msr, v))
				FAIL("line %u: out of memory", line);
		}
	}
	if (!d->nleaves)
		FAIL("line %u: no CPUID records (neither `cpuid -r` nor InstLatx64 format)", line);
	for (unsigned i = 0; i < d->ncpus; i++) {
		struct cpuid_regs r0;

		cpuid_dump_get(d, d->cpus[i], 0, 0, &r0);
		if (!r0.eax && !r0.ebx)
			FAIL("line %u: CPU %u has no CPUID leaf 0 (truncated dump?)", line,
			     d->cpus[i]);
	}
	return 0;
}

void cpuid_dump_free(struct cpuid_dump *d)
{
	free(d->leaves);
	free(d->msrs);
	memset(d, 0, sizeof(*d));
}

void cpuid_dump_get(const struct cpuid_dump *d, unsigned cpu, uint32_t leaf, uint32_t subleaf,
		    struct cpuid_regs *r)
{
	*r = (struct cpuid_regs){ .eax = 0 };
	for (size_t i = 0; i < d->nleaves; i++) {
		const struct cpuid_dump_leaf *l = &d->leaves[i];

		if (l->cpu == cpu && l->leaf == leaf && l->subleaf == subleaf) {
			*r = l->r;
			return;
		}
	}
}

bool cpuid_dump_msr(const struct cpuid_dump *d, unsigned cpu, uint32_t msr, uint64_t *v)
{
	for (size_t i = 0; i < d->nmsrs; i++)
		if (d->msrs[i].cpu == cpu && d->msrs[i].msr == msr) {
			*v = d->msrs[i].value;
			return true;
		}
	return false;
}

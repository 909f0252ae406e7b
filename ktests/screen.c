/*
 * screen.c: the status line and the result page of a run (screen.h), composed from what the
 * run already knows: the KTAP results as they are reported (kernel/ktap.h observer), the
 * kept timings of load_l1..load_dram (loads/kload.h), the CPU (kernel/cpu.h), SMBIOS types
 * 0/1/2/4/17 (platform/smbios.h, DMTF DSP0134) and the memory map. The lines are handed to
 * platform/screen.h, which draws them; nothing here prints to the log.
 */
#include "ktests/screen.h"
#include "kernel/boot.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "loads/kload.h"
#include "platform/platform.h"
#include "platform/screen.h"
#include "platform/smbios.h"

#include <stdarg.h>
#include <string.h>

#define FAILS_KEPT 16
#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

static const char *const level_test[LOAD_NLEVELS] = {
	[LOAD_L1] = "load_l1", [LOAD_L2] = "load_l2", [LOAD_L3] = "load_l3",
	[LOAD_DRAM] = "load_dram",
};

static struct {
	bool ran;		/* its test reported */
	bool timed;		/* run: the numbers below */
	uint64_t ws, ns_x100, core_x100;
	bool have_core;
	char src[120];		/* the sampling step's pebs_source, or the test's SKIP */
	enum kt_result src_r;
} lvl[LOAD_NLEVELS];
static char fails[FAILS_KEPT][160];
static unsigned nfails;
static const struct ktest_desc *sub_failed;	/* the test whose failed subtest was kept last */

static int level_of(const struct ktest *t)
{
	for (int l = 0; l < LOAD_NLEVELS; l++)
		if (!strcmp(t->desc->name, level_test[l]))
			return l;
	return -1;
}

/* "name # detail" -> detail (after "# SKIP " too), or "" */
static const char *detail_of(const char *text)
{
	const char *d = text;

	while ((d = strchr(d, '#')) && (d == text || d[-1] != ' ' || d[1] != ' '))
		d++;
	if (!d)
		return "";
	d += 2;
	return strncmp(d, "SKIP ", 5) ? d : d + 5;
}

static void keep_fail(const struct ktest *t, const char *text)
{
	if (nfails < FAILS_KEPT)
		fmt_snprintf(fails[nfails], sizeof(fails[0]), "FAIL %s: %s", t->desc->name, text);
	nfails++;
}

static void observe(const struct ktest *t, bool top, enum kt_result r, const char *text)
{
	int l = level_of(t);

	if (!top) {
		if (r == KT_FAIL) {
			keep_fail(t, text);
			sub_failed = t->desc;
		}
		if (l >= 0 && !strncmp(text, "pebs_source", 11) && (!text[11] || text[11] == ' ')) {
			fmt_snprintf(lvl[l].src, sizeof(lvl[l].src), "%s", detail_of(text));
			lvl[l].src_r = r;
		}
		return;
	}
	if (r == KT_FAIL && sub_failed != t->desc)	/* no failed subtest says why: its line's */
		keep_fail(t, *detail_of(text) ? detail_of(text) : "failed");
	sub_failed = NULL;
	if (l < 0)
		return;
	lvl[l].ran = true;
	if (kload_level_last((enum load_level)l)) {	/* kept now: load_cpus re-runs levels */
		const struct load_run *k = kload_level_last((enum load_level)l);

		lvl[l].timed = true;
		lvl[l].ws = k->ws;
		lvl[l].ns_x100 = k->ns_x100;
		lvl[l].have_core = k->res.have_core;
		lvl[l].core_x100 = k->res.core_med_x100;
	}
	if (r == KT_SKIP && !lvl[l].src[0]) {
		fmt_snprintf(lvl[l].src, sizeof(lvl[l].src), "%s", detail_of(text));
		lvl[l].src_r = r;
	}
}

void kscreen_init(void)
{
	ktap_set_observer(observe);
}

void kscreen_status(unsigned k, unsigned n, const char *name)
{
	const struct ktap_totals *t = ktap_get_totals();
	char line[160];

	fmt_snprintf(line, sizeof(line), "test %u of %u: %-12s  so far: pass %u, fail %u, skip %u",
		     k, n, name, t->pass, t->fail, t->skip);
	screen_status(line);
}

struct page {
	unsigned row, rows, cols;
	unsigned nnotes;
	const char *note[LOAD_NLEVELS];	/* distinct reasons the table refers to, (1)..(4) */
};

/* One line, wrapped at the width (at a blank where there is one) onto indented lines. */
static void put(struct page *p, enum screen_ink ink, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(struct page *p, enum screen_ink ink, const char *fmt, ...)
{
	char line[320], part[256];
	const char *s = line;
	unsigned indent = 0;
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	while (p->row < p->rows) {
		size_t len = strlen(s), w = p->cols > indent + 8 ? p->cols - indent : len;

		if (w >= sizeof(part) - 8)
			w = sizeof(part) - 8 - indent;
		if (len > w) {
			size_t cut = w;

			while (cut > w / 2 && s[cut] != ' ')
				cut--;
			len = cut > w / 2 ? cut : w;
		}
		fmt_snprintf(part, sizeof(part), "%*s%.*s", (int)indent, "", (int)len, s);
		screen_page_line(p->row++, part, ink);
		s += len;
		while (*s == ' ')
			s++;
		if (!*s)
			return;
		indent = 4;
	}
}

static void identity(struct page *p)
{
	const struct smbios_info *sm = platform_smbios();
	char b[200];

	put(p, INK_TITLE, "%s", boot_run_identity);
	for (unsigned i = 0; cpu_header_line(&cpu, i, b, sizeof(b)); i++)
		put(p, INK_TEXT, "%s", b);
	for (unsigned i = 0; sm && smbios_header_line(sm, i, b, sizeof(b)); i++)
		if (strncmp(b, "smbios: processors", 18))	/* the cpu line says it */
			put(p, INK_TEXT, "%s", b);
	put(p, INK_TEXT, "memory: %llu MiB usable (memory map)",
	    (unsigned long long)(pmm_total_bytes() >> 20));
}

/* The footnote number of a reason (rows of the table that share one refer to it). */
static unsigned note_of(struct page *p, const char *why)
{
	for (unsigned i = 0; i < p->nnotes; i++)
		if (!strcmp(p->note[i], why))
			return i + 1;
	if (p->nnotes == LOAD_NLEVELS)
		return 0;
	p->note[p->nnotes] = why;
	return ++p->nnotes;
}

static void table(struct page *p)
{
	const char *sampler = cpu.vendor == VENDOR_AMD ? "IBS" : "PEBS", *clock = NULL;
	void *ctx;
	char ws[24], core[24], src[140];

	put(p, INK_TITLE, "level  working set   ns/load  core cycles  %s share of the level, or why "
	    "none", sampler);
	for (int l = 0; l < LOAD_NLEVELS; l++) {
		const char *name = load_level_name((enum load_level)l);
		enum kt_result r = lvl[l].src_r;

		if (!lvl[l].ran) {
			put(p, INK_NOTE, "%-5s  not run (tests=)", name);
			continue;
		}
		if (r == KT_SKIP)
			fmt_snprintf(src, sizeof(src), "none (%u)", note_of(p, lvl[l].src));
		else
			fmt_snprintf(src, sizeof(src), "%s%s", r == KT_FAIL ? "FAIL: " : "",
				     lvl[l].src[0] ? lvl[l].src : "-");
		if (!lvl[l].timed) {
			put(p, INK_NOTE, "%-5s  not timed: %s", name, src);
			continue;
		}
		if (lvl[l].have_core)
			fmt_snprintf(core, sizeof(core), "%llu.%02llu", X100(lvl[l].core_x100));
		else
			fmt_snprintf(core, sizeof(core), "-");
		put(p, r == KT_FAIL ? INK_FAIL : INK_TEXT, "%-5s  %11s %6llu.%02llu  %11s  %s", name,
		    geometry_size_str(lvl[l].ws, ws, sizeof(ws)), X100(lvl[l].ns_x100), core, src);
	}
	for (unsigned i = 0; i < p->nnotes; i++)
		put(p, INK_NOTE, "(%u) %s", i + 1, p->note[i]);
	if (!kload_core_clock(&ctx, &clock))
		put(p, INK_NOTE, "core cycles -: no core-cycle counter here (TSC only)");
	if (kload_timing()->unjudged)
		put(p, INK_NOTE, "timings not judged: %s", kload_timing()->unjudged);
}

void kscreen_page(bool failed)
{
	const struct ktap_totals *c = ktap_get_cases(), *t = ktap_get_totals();
	unsigned cols;
	struct page p = { .rows = screen_page_begin(failed, &cols) };

	p.cols = cols;

	if (!p.rows)
		return;
	identity(&p);
	p.row++;
	table(&p);
	p.row++;
	put(&p, failed ? INK_FAIL : INK_PASS, "Totals: pass:%u fail:%u skip:%u total:%u; "
	    "top-level tests: %u, %u failed", c->pass, c->fail, c->skip,
	    c->pass + c->fail + c->skip, t->pass + t->fail + t->skip, t->fail);
	if (!nfails)
		put(&p, INK_PASS, "no FAIL");
	else {	/* as many as fit above the last line; the rest counted */
		unsigned room = p.rows > p.row + 1 ? p.rows - p.row - 1 : 0;
		unsigned show = nfails < FAILS_KEPT ? nfails : FAILS_KEPT;

		if (show > room || show < nfails)
			show = show < room ? show : room ? room - 1 : 0;
		for (unsigned i = 0; i < show; i++)
			put(&p, INK_FAIL, "%s", fails[i]);
		if (show < nfails)
			put(&p, INK_FAIL, "... and %u more FAILs: see the serial log",
			    nfails - show);
	}
	put(&p, INK_NOTE, "the whole log: the serial console (KTAP, docs/output.md)");
}

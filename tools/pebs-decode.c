/*
 * pebs-decode: decode raw PEBS records captured on another machine, with the same pebs/
 * decoder the kernel uses (record.c walker, datasrc.c tables; SDM Vol 3B ch.18 PEBS records).
 *
 *   pebs-decode --cpu FF_MM [--core p|e] [--format N|arch] [--event load|store]
 *               [--summary [--json]] FILE|-
 *   pebs-decode --vendor amd --cpu FF_MM [--dsrc legacy|ext] [--summary [--json]] FILE|-
 *   pebs-decode --help
 *
 * --vendor amd reads AMD IBS op samples (docs/ibs.md "Dump layout", 64 bytes each) through
 * ibs/ibs_decode.c (tools/pebs_decode_ibs.c); --dsrc overrides the family row's DataSrc table
 * (CPUID 8000_001BH:EAX[11] decides it on the machine).
 *
 * One JSON object per record per line on stdout; with --summary only the per-level table
 * instead (on stdout), with --summary --json both: the records on stdout, the table on stderr
 * (tools/pebs-report reads them so). A log's `dump=raw` lines become record files with
 * `tools/pebs-report --extract DIR LOG`. Exit 0 when every record decoded, 1 when any
 * record had an error (the first one is also named on stderr with its byte offset), 2 for bad
 * arguments or an unreadable file (one line on stderr). --format arch is format 0xF
 * (architectural PEBS, pebs/arch_record.c; docs/arch-pebs.md), also implied by --cpu for the
 * models that report it.
 * --summary: the per-level latency table (pebs_agg_print, perf names), and for records with
 * counter snapshots (format 6, arch) the core cycles per sampled window per level
 * (pebs/cntr_snap.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/agg_print.h"
#include "pebs/aggbuf.h"
#include "sample/aggregate.h"
#include "pebs/cntr_snap.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"
#include "tools/pebs_decode_ibs.h"
#include "tools/pebs_decode_json.h"

#define MAX_INPUT (1ull << 31)

static const char *prog = "pebs-decode";

#define USAGE "[--vendor intel|amd] --cpu FF_MM [--core p|e] [--format N|arch] " \
	"[--event load|store] [--dsrc legacy|ext] [--summary [--json]] FILE|-"

static void usage_exit(const char *msg, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s (usage: %s " USAGE "; --help)\n", prog, msg,
		arg ? ": " : "", arg ? arg : "", prog);
	exit(2);
}

static void help(void)
{
	printf("usage: %s " USAGE "\n"
	       "Decode raw PEBS records (or AMD IBS op samples) with the kernel's own decoder.\n"
	       "  --cpu FF_MM      DisplayFamily_DisplayModel in hex, e.g. 06_55 (the dump line's cpu=)\n"
	       "  --core p|e       core type on hybrid parts\n"
	       "  --format N|arch  PEBS record format (PERF_CAPABILITIES[11:8]); default: the model's\n"
	       "  --event load|store  the sampled event (data-source encoding)\n"
	       "  --vendor amd     IBS op samples, 64 bytes each; --dsrc legacy|ext overrides the table\n"
	       "  --summary        only the per-level latency table, on stdout\n"
	       "  --json           with --summary: the records as JSON lines on stdout, the table on stderr\n"
	       "  FILE|-           the records (stdin: -); from a log's dump=raw lines:\n"
	       "                   tools/pebs-report --extract DIR run.log\n"
	       "Output: one JSON object per record per line. Exit 0 every record decoded, 1 a record\n"
	       "had an error, 2 bad arguments or an unreadable file.\n", prog);
	exit(0);
}

/* Where --summary writes: stdout alone, stderr beside the JSON records (--summary --json). */
static FILE *sum_out;
static bool records_out = true;

static int parse_hex(const char *s, size_t n, unsigned max, unsigned *out)
{
	unsigned v = 0;

	if (n == 0 || n > 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		v = v * 16 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL) {
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > MAX_INPUT) {
				fprintf(stderr, "%s: %s: input larger than 2 GiB\n", prog, path);
				exit(2);
			}
			buf = realloc(buf, cap);
			if (buf == NULL) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(2);
			}
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

static void sum_sink(void *ctx, const char *str, size_t n)
{
	(void)ctx;
	fwrite(str, 1, n, sum_out);
}

static void sum_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(sum_out, "%s\n", line);
}

/* The record sink of both decoders: a JSON line unless --summary alone. */
static void out_record(const struct pebs_record *r, const struct pebs_dsrc *d)
{
	if (records_out)
		pd_print_record(r, d);
}

static int decode_amd(unsigned fam, unsigned mod, int dsrc, const char *file, bool summary)
{
	const struct ibs_family *f = ibs_family_lookup(fam, mod);
	static struct pebs_agg agg;
	unsigned char *buf;
	size_t len;
	int rc;

	if (f == NULL)
		usage_exit("no IBS family row for this CPU (docs/ibs.md \"Families\")", NULL);
	buf = read_all(file, &len);
	pebs_agg_init(&agg);
	rc = pebs_decode_ibs(buf, len, f, dsrc < 0 ? f->table == IBS_DS_EXT : dsrc == 1,
			     out_record, &agg);
	if (summary)
		pebs_agg_print(&agg, sum_sink, NULL);
	free(buf);
	return fflush(stdout) ? 2 : rc;
}

int main(int argc, char **argv)
{
	const char *cpu = NULL, *file = NULL;
	enum pebs_core core = PEBS_CORE_ANY;
	enum pebs_event ev = PEBS_EV_LOAD;
	int format = -1, dsrc = -1;
	bool summary = false, amd = false, json = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			help();
		if (!strcmp(a, "--summary")) {
			summary = true;
			continue;
		}
		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(a, "-") || a[0] != '-') {
			if (file)
				usage_exit("more than one input file", a);
			file = a;
			continue;
		}
		if (strcmp(a, "--cpu") && strcmp(a, "--core") && strcmp(a, "--format") &&
		    strcmp(a, "--event") && strcmp(a, "--vendor") && strcmp(a, "--dsrc"))
			usage_exit("unknown option", a);
		if (val == NULL)
			usage_exit("option needs a value", a);
		i++;
		if (!strcmp(a, "--vendor")) {
			if (strcmp(val, "amd") && strcmp(val, "intel"))
				usage_exit("--vendor must be intel or amd", val);
			amd = !strcmp(val, "amd");
		} else if (!strcmp(a, "--dsrc")) {
			if (strcmp(val, "legacy") && strcmp(val, "ext"))
				usage_exit("--dsrc must be legacy or ext", val);
			dsrc = !strcmp(val, "ext");
		} else if (!strcmp(a, "--cpu")) {
			cpu = val;
		} else if (!strcmp(a, "--core")) {
			if (!strcmp(val, "p"))
				core = PEBS_CORE_P;
			else if (!strcmp(val, "e"))
				core = PEBS_CORE_E;
			else
				usage_exit("--core must be p or e", val);
		} else if (!strcmp(a, "--format")) {
			char *end;
			unsigned long f = strtoul(val, &end, 0);

			if (!strcmp(val, "arch"))
				f = PEBS_FMT_ARCH, end = (char *)"";
			if (*val == '\0' || *end != '\0' || f > 15)
				usage_exit("--format must be 0..15 (PERF_CAPABILITIES[11:8]) or arch",
					   val);
			format = (int)f;
		} else {
			if (!strcmp(val, "load"))
				ev = PEBS_EV_LOAD;
			else if (!strcmp(val, "store"))
				ev = PEBS_EV_STORE;
			else
				usage_exit("--event must be load or store", val);
		}
	}
	if (cpu == NULL)
		usage_exit("--cpu FF_MM is required", NULL);
	if (file == NULL)
		usage_exit("no input file (use - for stdin)", NULL);
	records_out = !summary || json;
	sum_out = json ? stderr : stdout;

	const char *us = strchr(cpu, '_');
	unsigned fam, mod;

	if (us == NULL || parse_hex(cpu, (size_t)(us - cpu), 0xff, &fam) ||
	    parse_hex(us + 1, strlen(us + 1), 0xff, &mod))
		usage_exit("--cpu must be DisplayFamily_DisplayModel in hex, e.g. 06_3C", cpu);
	if (amd)
		return decode_amd(fam, mod, dsrc, file, summary);
	const struct pebs_model *m = pebs_model_lookup(fam, mod, core);

	if (m == NULL) {
		if (pebs_model_lookup(fam, mod, PEBS_CORE_ANY))
			usage_exit("this model has no such core type", cpu);
		usage_exit("unknown model", cpu);
	}
	if (format < 0)
		format = m->format;
	if (!pebs_format_supported((unsigned)format)) {
		fprintf(stderr, "%s: PEBS record format %d is not supported\n", prog, format);
		return 2;
	}

	size_t len;
	unsigned char *buf = read_all(file, &len);
	static struct pebs_agg agg;
	static struct pebs_cntr_agg cagg;
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;
	int rc = 0;

	pebs_agg_init(&agg);
	pebs_cntr_agg_init(&cagg);
	pebs_walk_init(&w, buf, len, (unsigned)format, m->split_latency ? PEBS_WALK_SPLIT_LATENCY : 0);
	while (pebs_walk_next(&w, &r)) {
		pebs_dsrc_decode((r.valid & PEBS_F_AUX) ? m : NULL, ev, r.aux, &d);
		out_record(&r, &d);
		pebs_agg_add(&agg, &r, &d);
		pebs_cntr_agg_add(&cagg, &r, d.level);
		if (r.err && rc == 0)
			fprintf(stderr, "%s: record %u at offset %u (0x%x): %s\n", prog, r.index,
				r.offset, r.offset, pebs_rec_strerror(r.err));
		if (r.err)
			rc = 1;
	}
	if (summary)
		pebs_agg_print(&agg, sum_sink, NULL);
	if (summary && cagg.records != cagg.no_cycles)
		pebs_cntr_agg_lines(&cagg, "pebs", sum_line, NULL);
	free(buf);
	if (fflush(stdout) != 0)
		return 2;
	return rc;
}

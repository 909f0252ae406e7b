/*
 * ktap_detail.c: the log's budget (docs/output.md "Log budget"): detail lines held until the
 * result line they explain, and SKIP reasons given once. KTAP (Linux
 * Documentation/dev-tools/ktap.rst) lets diagnostics be any `#` line and a SKIP directive any
 * text, so a reader (kunit.py parse, tools/pebs-report) sees the same results either way;
 * pebs-report resolves "same as <where>" to the reason given there.
 */
#include "kernel/ktap_detail.h"
#include "kernel/console.h"
#include "kernel/fmt.h"

#include <stdarg.h>
#include <string.h>

static bool full;
static char pending[KTAP_DETAIL_BYTES];
static size_t pending_len;

struct given {
	char reason[160];
	char where[64];
};
static struct given given[KTAP_SKIP_REASONS];
static unsigned ngiven;

void log_set_full(bool f)
{
	full = f;
}

bool log_full(void)
{
	return full;
}

static void flush(void)
{
	if (pending_len)
		console_write(pending, pending_len);
	pending_len = 0;
}

void kt_detail(struct ktest *t, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t n;

	memcpy(line, t ? "  # " : "# ", t ? 4 : 2);
	n = t ? 4 : 2;
	va_start(ap, fmt);
	fmt_vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	n = strlen(line);
	line[n++] = '\n';
	if (full) {
		console_write(line, n);
		return;
	}
	if (pending_len + n > sizeof(pending))
		flush();	/* out of room: print what is held, never drop it unseen */
	memcpy(pending + pending_len, line, n);
	pending_len += n;
}

void ktap_detail_settle(bool show)
{
	if (show || full)
		flush();
	pending_len = 0;
}

const char *ktap_skip_text(const char *where, const char *reason, char *buf, size_t n)
{
	if (full)
		return reason;
	for (unsigned i = 0; i < ngiven; i++) {
		if (strcmp(given[i].reason, reason) == 0) {
			fmt_snprintf(buf, n, KTAP_SKIP_SAME "%s", given[i].where);
			return buf;
		}
	}
	/* remembered only when it fits whole: a cut reason would match another one */
	size_t lr = strlen(reason), lw = strlen(where);

	if (ngiven < KTAP_SKIP_REASONS && lr < sizeof(given[0].reason) &&
	    lw < sizeof(given[0].where)) {
		memcpy(given[ngiven].reason, reason, lr + 1);
		memcpy(given[ngiven].where, where, lw + 1);
		ngiven++;
	}
	return reason;
}

void ktap_detail_reset(void)
{
	pending_len = 0;
	ngiven = 0;
}

/*
 * ranges.c: numbers as ranges, "0-3,5,8-11" (kernel/ranges.h). Pure C: no SDM facts here;
 * the form is Linux's cpulist (lib/bitmap-str.c bitmap_print_to_pagebuf with a list),
 * without its per-CPU cost: one range per run, however long the run.
 */
#include "kernel/ranges.h"
#include "kernel/fmt.h"

void ranges_init(struct ranges *r, char *buf, size_t size)
{
	*r = (struct ranges){ .buf = buf, .size = size };
	if (size)
		buf[0] = '\0';
}

/* Append one range; when it would not fit with room for "..." after it, end in "...". */
static void flush(struct ranges *r)
{
	char tmp[32];
	int n;

	if (!r->open || r->cut || r->size < 4)
		return;
	if (r->lo == r->hi)
		n = fmt_snprintf(tmp, sizeof(tmp), "%s%u", r->len ? "," : "", r->lo);
	else
		n = fmt_snprintf(tmp, sizeof(tmp), "%s%u-%u", r->len ? "," : "", r->lo, r->hi);
	if (r->len + (size_t)n + 5 > r->size) {	/* room left for ",..." */
		fmt_snprintf(r->buf + r->len, r->size - r->len, "%s...", r->len ? "," : "");
		r->len += r->len ? 4 : 3;
		r->cut = true;
		return;
	}
	fmt_snprintf(r->buf + r->len, r->size - r->len, "%s", tmp);
	r->len += (size_t)n;
}

void ranges_add(struct ranges *r, uint32_t v)
{
	r->count++;
	if (r->open && r->hi != UINT32_MAX && v == r->hi + 1) {
		r->hi = v;
		return;
	}
	flush(r);
	r->lo = r->hi = v;
	r->open = true;
}

const char *ranges_end(struct ranges *r)
{
	flush(r);
	r->open = false;
	if (!r->count && r->size >= 2)
		fmt_snprintf(r->buf, r->size, "-");
	return r->buf;
}

/*
 * cmdline.c: command-line parser (see cmdline.h). Pure C: no allocation, bounded everywhere.
 */
#include "kernel/cmdline.h"
#include "kernel/fmt.h"

#include <string.h>

static void warnf(cmdline_warn_fn warn, unsigned *count, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warnf(cmdline_warn_fn warn, unsigned *count, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (count)
		(*count)++;
	if (!warn)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(msg);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const struct option_desc *key_desc(const struct option_desc *known, const char *key)
{
	for (; known && known->name; known++)
		if (!strcmp(known->name, key))
			return known;
	return NULL;
}

static bool word_in(const char *words, const char *v)
{
	size_t n = strlen(v);

	for (const char *w = words; w && *w;) {
		const char *bar = strchr(w, '|');
		size_t len = bar ? (size_t)(bar - w) : strlen(w);

		if (len == n && n && !strncmp(w, v, n))
			return true;
		w += len + (bar != NULL);
	}
	return false;
}

/* "0,2-3": numbers and ascending ranges, comma-separated, nothing empty. */
static bool number_list(const char *v)
{
	char item[24];

	if (!*v)
		return false;
	for (;;) {
		const char *comma = strchr(v, ',');
		size_t len = comma ? (size_t)(comma - v) : strlen(v);
		uint64_t lo, hi;
		char *dash;

		if (!len || len >= sizeof(item))
			return false;
		memcpy(item, v, len);
		item[len] = '\0';
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (!cmdline_parse_u64(item, &lo) ||
		    (dash && (!cmdline_parse_u64(dash + 1, &hi) || hi < lo)))
			return false;
		if (!comma)
			return true;
		v = comma + 1;
	}
}

bool option_value_ok(const struct option_desc *d, const char *v, char *want, size_t n)
{
	uint64_t x;

	switch (d->kind) {
	case OPT_WORDS:
		if (word_in(d->words, v))
			return true;
		fmt_snprintf(want, n, "want %s", d->words);
		return false;
	case OPT_WORDS_OR_LIST:
		if (word_in(d->words, v) || number_list(v))
			return true;
		fmt_snprintf(want, n, "want %s or a list like 0,2-3", d->words);
		return false;
	case OPT_U64:
		if (cmdline_parse_u64(v, &x) && x >= d->min && x <= d->max)
			return true;
		fmt_snprintf(want, n, "want a number in %llu..%llu", (unsigned long long)d->min,
			     (unsigned long long)d->max);
		return false;
	case OPT_TEXT:
	default:
		return true;
	}
}

static bool key_known(const struct option_desc *known, const char *key)
{
	if (!known)
		return true;
	for (; known->name; known++)
		if (!strcmp(known->name, key))
			return true;
	return false;
}

unsigned cmdline_parse(struct cmdline *cl, const char *src, size_t len,
		       const struct option_desc *known, cmdline_warn_fn warn)
{
	size_t n = 0;
	char *p;

	memset(cl, 0, sizeof(*cl));
	if (!src)
		return 0;
	while (n < len && src[n]) {
		if (n == sizeof(cl->buf) - 1) {
			warnf(warn, &cl->warnings,
			      "command line longer than %u bytes: the rest is ignored",
			      (unsigned)sizeof(cl->buf) - 1);
			break;
		}
		/* control bytes are treated as separators, never passed on */
		cl->buf[n] = (src[n] >= 0x20 && src[n] < 0x7f) ? src[n] : ' ';
		n++;
	}
	cl->buf[n] = '\0';

	p = cl->buf;
	for (;;) {
		char *key, *eq;

		while (*p && is_space(*p))
			p++;
		if (!*p)
			break;
		key = p;
		while (*p && !is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';
		eq = strchr(key, '=');
		if (eq)
			*eq = '\0';
		if (!*key) {
			warnf(warn, &cl->warnings, "option '=%s' has no key: ignored", eq + 1);
			continue;
		}
		if (!key_known(known, key)) {
			warnf(warn, &cl->warnings, "unknown option '%s': ignored", key);
			continue;
		}
		if (eq && known) {
			char want[96];

			if (!option_value_ok(key_desc(known, key), eq + 1, want, sizeof(want))) {
				warnf(warn, &cl->warnings, "option %s='%s': %s; using the default",
				      key, eq + 1, want);
				continue;
			}
		}
		if (cl->nopt == CMDLINE_MAX_OPTS) {
			warnf(warn, &cl->warnings, "more than %d options: '%s' and later ignored",
			      CMDLINE_MAX_OPTS, key);
			break;
		}
		cl->opt[cl->nopt].key = key;
		cl->opt[cl->nopt].value = eq ? eq + 1 : "";
		cl->opt[cl->nopt].has_value = eq != NULL;
		cl->nopt++;
	}
	return cl->warnings;
}

static const struct cmdline_opt *find(const struct cmdline *cl, const char *key)
{
	for (unsigned i = cl->nopt; i-- > 0;)
		if (!strcmp(cl->opt[i].key, key))
			return &cl->opt[i];
	return NULL;
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	const struct cmdline_opt *o = find(cl, key);

	return o ? o->value : NULL;
}

bool cmdline_has(const struct cmdline *cl, const char *key)
{
	return find(cl, key) != NULL;
}

bool cmdline_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0, base = 10;
	unsigned shift = 0;
	bool any = false;

	if (!s || !*s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
		any = true;
	}
	if (!any)
		return false;
	if (*s == 'K' || *s == 'k')
		shift = 10;
	else if (*s == 'M' || *s == 'm')
		shift = 20;
	else if (*s == 'G' || *s == 'g')
		shift = 30;
	if (shift) {
		if (v > (UINT64_MAX >> shift))
			return false;
		v <<= shift;
		s++;
	}
	if (*s)
		return false;
	*out = v;
	return true;
}

uint64_t cmdline_u64(const struct cmdline *cl, const char *key, uint64_t def,
		     uint64_t min, uint64_t max, cmdline_warn_fn warn)
{
	const struct cmdline_opt *o = find(cl, key);
	uint64_t v;

	if (!o)
		return def;
	if (!o->has_value || !cmdline_parse_u64(o->value, &v)) {
		warnf(warn, NULL, "option %s='%s': not a number, using %llu", key, o->value,
		      (unsigned long long)def);
		return def;
	}
	if (v < min || v > max) {
		warnf(warn, NULL, "option %s=%s: outside [%llu, %llu], using %llu", key, o->value,
		      (unsigned long long)min, (unsigned long long)max, (unsigned long long)def);
		return def;
	}
	return v;
}

bool glob_match(const char *pat, const char *name)
{
	const char *star = NULL, *resume = NULL;

	while (*name) {
		if (*pat == '*') {
			star = pat++;
			resume = name;
		} else if (*pat == '?' || *pat == *name) {
			pat++;
			name++;
		} else if (star) {
			pat = star + 1;
			name = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

bool glob_list_match(const char *list, const char *name)
{
	char one[64];

	while (list && *list) {
		size_t n = 0;

		while (list[n] && list[n] != ',')
			n++;
		if (n && n < sizeof(one)) {
			memcpy(one, list, n);
			one[n] = '\0';
			if (glob_match(one, name))
				return true;
		}
		list += n;
		if (*list == ',')
			list++;
	}
	return false;
}

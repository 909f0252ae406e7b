/*
 * cmdline.h: the kernel command line from GRUB ("key=value key2 ..."), parsed once (pure C).
 * An unknown key or a bad value prints a clear warning and the default is used: the command
 * line is never fatal. Known keys and their help text live in one table (kernel/options.c).
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMDLINE_MAX_LEN   1024	/* longer command lines are cut here, with a warning */
#define CMDLINE_MAX_OPTS  48

struct cmdline_opt {
	const char *key;
	const char *value;	/* "" for a bare key */
	bool has_value;
};

struct cmdline {
	char buf[CMDLINE_MAX_LEN];
	struct cmdline_opt opt[CMDLINE_MAX_OPTS];
	unsigned nopt;
	unsigned warnings;
};

/* What a known key's value must be; cmdline_parse checks it once, at boot, whatever the
 * hardware (a value no test would read on this machine is still checked). */
enum opt_kind {
	OPT_TEXT = 0,		/* anything (its user checks it: console=, tests=) */
	OPT_WORDS,		/* one of `words` ("auto|x2apic|xapic") */
	OPT_U64,		/* a number (cmdline_parse_u64) in [min, max] */
	OPT_WORDS_OR_LIST,	/* one of `words`, or a list of numbers and ranges ("0,2-3") */
};

/* A known key: name, one line of help, and what its value must be. The table ends with a
 * NULL name. */
struct option_desc {
	const char *name;
	const char *help;
	enum opt_kind kind;
	const char *words;	/* OPT_WORDS, OPT_WORDS_OR_LIST: '|'-separated */
	uint64_t min, max;	/* OPT_U64 */
};
extern const struct option_desc option_table[];

/* Warnings go through this function (kernel: kprintf "# warning: ..."; host: captured). */
typedef void (*cmdline_warn_fn)(const char *msg);

/* Parse `src` (NUL-terminated or up to `len` bytes). Returns the number of warnings. A value
 * that does not fit its key's kind is a warning naming the key, the value and what it must
 * be, and the option is left out, so its user takes the default. */
unsigned cmdline_parse(struct cmdline *cl, const char *src, size_t len,
		       const struct option_desc *known, cmdline_warn_fn warn);

/* Lookups. A key given twice: the last one wins. */
const char *cmdline_get(const struct cmdline *cl, const char *key);
bool cmdline_has(const struct cmdline *cl, const char *key);

/*
 * Numeric option: decimal, 0x hex, optional K/M/G suffix (powers of 2). Missing key: `def`.
 * Bad syntax, overflow or out of [min, max]: a warning naming the key and `def`.
 */
uint64_t cmdline_u64(const struct cmdline *cl, const char *key, uint64_t def,
		     uint64_t min, uint64_t max, cmdline_warn_fn warn);

/* Parse a number as above into *out; false on bad syntax or overflow. */
bool cmdline_parse_u64(const char *s, uint64_t *out);

/* Whether `v` fits d's kind; when it does not, `want` says what it must be. */
bool option_value_ok(const struct option_desc *d, const char *v, char *want, size_t n);

/* Shell-style glob with '*' and '?' (for tests=GLOB[,GLOB...]). */
bool glob_match(const char *pattern, const char *name);
/* True when `name` matches any comma-separated pattern in `list`. */
bool glob_list_match(const char *list, const char *name);

/* The kernel's parsed command line (init/main.c fills it). */
extern struct cmdline kcmdline;

#endif

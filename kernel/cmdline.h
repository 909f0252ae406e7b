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

/* A known key: name and one line of help. The table ends with a NULL name. */
struct option_desc {
	const char *name;
	const char *help;
};
extern const struct option_desc option_table[];

/* Warnings go through this function (kernel: kprintf "# warning: ..."; host: captured). */
typedef void (*cmdline_warn_fn)(const char *msg);

/* Parse `src` (NUL-terminated or up to `len` bytes). Returns the number of warnings. */
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

/* Shell-style glob with '*' and '?' (for tests=GLOB[,GLOB...]). */
bool glob_match(const char *pattern, const char *name);
/* True when `name` matches any comma-separated pattern in `list`. */
bool glob_list_match(const char *list, const char *name);

/* The kernel's parsed command line (init/main.c fills it). */
extern struct cmdline kcmdline;

#endif

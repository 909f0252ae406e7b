/*
 * latmatrix_print.c: a latency matrix's lines (loads/latmatrix.h; docs/output.md §3 "Latency
 * matrices"): the columns line with each column's package (and, for CPUs, node and core: the
 * boundaries tools/pebs-report draws), then one line per row, ns rounded to integers, "-" for
 * a cell not measured, and the cells' data-source labels. ASCII only (the console font). Pure.
 */
#include "loads/latmatrix.h"
#include "kernel/fmt.h"

#define LINE_MAX_LEN 1200u

struct lbuf {
	char b[LINE_MAX_LEN];
	unsigned o;
};

static void put(struct lbuf *l, int k)
{
	l->o += k > 0 ? (unsigned)k : 0;
	if (l->o >= sizeof(l->b))
		l->o = sizeof(l->b) - 1;
}

/* Append text s, or (s == NULL) " <v>". */
static void add(struct lbuf *l, const char *s, unsigned long long v)
{
	if (s)
		put(l, fmt_snprintf(l->b + l->o, sizeof(l->b) - l->o, "%s", s));
	else
		put(l, fmt_snprintf(l->b + l->o, sizeof(l->b) - l->o, " %llu", v));
}

static void id_list(struct lbuf *l, const char *what, const uint32_t *v, unsigned n)
{
	add(l, "; ", 0);
	add(l, what, 0);
	for (unsigned c = 0; c < n; c++)
		if (v[c] == ~0u)
			add(l, " -", 0);
		else
			add(l, NULL, v[c]);
}

void latm_lines(void (*out)(void *ctx, const char *line), void *ctx, const struct latm *m)
{
	bool cpus = m->no_diag;
	struct lbuf l = { .o = 0 };

	l.b[0] = '\0';
	add(&l, m->name, 0);
	add(&l, ": columns ", 0);
	add(&l, m->unit, 0);
	for (unsigned c = 0; c < m->ncol; c++)
		add(&l, NULL, m->col_id[c]);
	id_list(&l, "package", m->col_pkg, m->ncol);
	if (cpus) {
		id_list(&l, "node", m->col_node, m->ncol);
		id_list(&l, "core", m->col_core, m->ncol);
	}
	out(ctx, l.b);
	for (unsigned r = 0; r < m->nrow; r++) {
		l.o = 0;
		l.b[0] = '\0';
		add(&l, m->name, 0);
		add(&l, ": from ", 0);
		add(&l, m->unit, 0);
		add(&l, NULL, m->row_id[r]);
		if (!cpus) {
			add(&l, " (cpu", 0);
			add(&l, NULL, m->row_cpu[r]);
			add(&l, ")", 0);
		}
		add(&l, ":", 0);
		for (unsigned c = 0; c < m->ncol; c++) {
			const struct latm_cell *x = latm_at(m, r, c);

			if (x->flags & LATM_DONE)
				add(&l, NULL, (x->ns_x100 + 50) / 100);
			else
				add(&l, " -", 0);
		}
		add(&l, " ns (dsrc", 0);
		for (unsigned c = 0; c < m->ncol; c++) {
			const struct latm_cell *x = latm_at(m, r, c);

			add(&l, " ", 0);
			add(&l, (x->flags & LATM_SRC) ? x->src : "-", 0);
		}
		add(&l, ")", 0);
		out(ctx, l.b);
	}
}

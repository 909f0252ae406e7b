/*
 * c2c_plan.c: which CPUs load_c2c pairs and how its cells must rank (loads/c2c_plan.h; SDM
 * Vol. 3A 9.6: SMT siblings share the core's caches; 12.4: a modified line in another core's
 * cache is answered by a snoop, HITM). Pure C.
 */
#include "loads/c2c_plan.h"
#include "kernel/fmt.h"

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)
#define CLASS_CELLS (C2C_MAX_CPUS * C2C_MAX_CPUS)

static bool picked(const unsigned *pick, unsigned k, unsigned i)
{
	for (unsigned j = 0; j < k; j++)
		if (pick[j] == i)
			return true;
	return false;
}

static void add(unsigned *pick, unsigned *k, unsigned max, unsigned i)
{
	if (*k < max && !picked(pick, *k, i))
		pick[(*k)++] = i;
}

enum key { K_PKG, K_NODE, K_TYPE };

static uint32_t key(const struct c2c_cpu *c, enum key k)
{
	return k == K_PKG ? c->package : k == K_NODE ? c->node : c->core_type;
}

/* Does the pick hold a CPU with c's value of key k? */
static bool covers(const struct c2c_cpu *cpus, const unsigned *pick, unsigned k, unsigned i,
		   enum key what)
{
	for (unsigned j = 0; j < k; j++)
		if (key(&cpus[pick[j]], what) == key(&cpus[i], what))
			return true;
	return false;
}

static bool siblings(const struct c2c_cpu *a, const struct c2c_cpu *b)
{
	return a != b && a->online && b->online && a->package == b->package && a->core == b->core;
}

/* An SMT pair of package p in the pick; or (want_any) anywhere among the online CPUs:
 * *x, *y its members (a member already picked comes first). */
static bool pair_in(const struct c2c_cpu *cpus, unsigned n, const unsigned *pick, unsigned k,
		    uint32_t p, bool want_any, unsigned *x, unsigned *y)
{
	for (unsigned a = 0; a < (want_any ? n : k); a++) {
		unsigned i = want_any ? a : pick[a];

		if (cpus[i].package != p || !cpus[i].online)
			continue;
		for (unsigned j = 0; j < n; j++)
			if (siblings(&cpus[i], &cpus[j]) && (want_any || picked(pick, k, j))) {
				*x = i;
				*y = j;
				return true;
			}
	}
	return false;
}

unsigned c2c_pick(const struct c2c_cpu *cpus, unsigned n, unsigned max, unsigned *pick)
{
	unsigned k = 0, online = 0, x, y;

	if (max > C2C_MAX_CPUS)
		max = C2C_MAX_CPUS;
	for (unsigned i = 0; i < n; i++)
		online += cpus[i].online;
	for (unsigned i = 0; i < n && online > max; i++)
		if (cpus[i].online && cpus[i].cpu == 0)
			add(pick, &k, max, i);
	for (unsigned w = K_PKG; w <= K_TYPE && online > max; w++)
		for (unsigned i = 0; i < n; i++)
			if (cpus[i].online && !covers(cpus, pick, k, i, (enum key)w))
				add(pick, &k, max, i);
	for (unsigned i = 0; i < n && online > max; i++)
		if (cpus[i].online && !pair_in(cpus, n, pick, k, cpus[i].package, false, &x, &y)) {
			/* a partner of a CPU already picked first, else the package's first pair */
			bool found = false;

			for (unsigned a = 0; a < k && !found; a++)
				for (unsigned j = 0; j < n && !found; j++)
					if (cpus[pick[a]].package == cpus[i].package &&
					    siblings(&cpus[pick[a]], &cpus[j])) {
						add(pick, &k, max, j);
						found = true;
					}
			if (!found && pair_in(cpus, n, pick, k, cpus[i].package, true, &x, &y)) {
				add(pick, &k, max, x);
				add(pick, &k, max, y);
			}
		}
	/* the rest spread evenly over the online CPUs, then in order */
	for (unsigned t = 0, seen = 0, i = 0; i < n && k < max; i++) {
		if (!cpus[i].online)
			continue;
		if (online <= max || seen++ * max >= t * online) {
			add(pick, &k, max, i);
			t++;
		}
	}
	for (unsigned i = 0; i < n && k < max; i++)
		if (cpus[i].online)
			add(pick, &k, max, i);
	for (unsigned a = 1; a < k; a++)	/* ascending */
		for (unsigned b = a; b && pick[b - 1] > pick[b]; b--) {
			unsigned t = pick[b];

			pick[b] = pick[b - 1];
			pick[b - 1] = t;
		}
	return k;
}

int c2c_coverage(const struct c2c_cpu *cpus, unsigned n, const unsigned *pick, unsigned k,
		 char *d, size_t dn)
{
	static const char *const what[] = { "package", "node", "core type" };
	unsigned x, y;

	for (unsigned i = 0; i < n; i++) {
		if (!cpus[i].online)
			continue;
		for (unsigned w = K_PKG; w <= K_TYPE; w++)
			if (!covers(cpus, pick, k, i, (enum key)w)) {
				fmt_snprintf(d, dn, "no CPU of %s %u among the %u picked", what[w],
					     key(&cpus[i], (enum key)w), k);
				return 0;
			}
		if (pair_in(cpus, n, pick, k, cpus[i].package, true, &x, &y) &&
		    !pair_in(cpus, n, pick, k, cpus[i].package, false, &x, &y)) {
			fmt_snprintf(d, dn, "no SMT sibling pair of package %u among the %u picked",
				     cpus[i].package, k);
			return 0;
		}
	}
	fmt_snprintf(d, dn, "%u CPUs: every package, node, core type and an SMT pair per package "
		     "that has one", k);
	return 1;
}

enum c2c_class c2c_class_of(const struct latm *m, unsigned a, unsigned b)
{
	if (m->col_pkg[a] != m->col_pkg[b])
		return C2C_REMOTE;
	return m->col_core[a] == m->col_core[b] ? C2C_SMT : C2C_PACKAGE;
}

const char *c2c_class_name(enum c2c_class c)
{
	static const char *const name[C2C_NCLASS] = {
		[C2C_SMT] = "SMT sibling", [C2C_PACKAGE] = "same package",
		[C2C_REMOTE] = "other package",
	};

	return c < C2C_NCLASS ? name[c] : "?";
}

static uint64_t median(uint64_t *v, unsigned n)
{
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b && v[b - 1] > v[b]; b--) {
			uint64_t t = v[b];

			v[b] = v[b - 1];
			v[b - 1] = t;
		}
	return v[n / 2];
}

int c2c_order(const struct latm *m, char *d, size_t dn)
{
	uint64_t v[CLASS_CELLS], med[C2C_NCLASS] = { 0 };
	unsigned have = 0, o = 0, prev = C2C_NCLASS;
	int ok = 1;

	for (unsigned cl = 0; cl < C2C_NCLASS; cl++) {
		unsigned k = 0;

		for (unsigned r = 0; r < m->nrow; r++) {
			int rc = latm_col_of(m, m->row_id[r]);

			for (unsigned c = 0; rc >= 0 && c < m->ncol && k < CLASS_CELLS; c++)
				if (c != (unsigned)rc && (latm_at(m, r, c)->flags & LATM_DONE) &&
				    c2c_class_of(m, (unsigned)rc, c) == cl)
					v[k++] = latm_at(m, r, c)->ns_x100;
		}
		if (!k)
			continue;
		med[cl] = median(v, k);
		have++;
		o += (unsigned)fmt_snprintf(d + o, dn > o ? dn - o : 0, "%s%s %llu.%02llu ns (%u)",
					    o ? ", " : "", c2c_class_name((enum c2c_class)cl),
					    X100(med[cl]), k);
		if (prev < C2C_NCLASS && med[cl] <= med[prev])
			ok = 0;
		prev = cl;
	}
	if (have < 2) {
		fmt_snprintf(d + (o < dn ? o : 0), o < dn ? dn - o : 0, "%sfewer than two classes",
			     o ? "; " : "");
		return -1;
	}
	return ok;
}

int c2c_src_verdict(const struct latm *m, const char *want, char *d, size_t dn)
{
	unsigned judged = 0, bad = 0;

	for (unsigned r = 0; r < m->nrow; r++)
		for (unsigned c = 0; c < m->ncol; c++) {
			const struct latm_cell *x = latm_at(m, r, c);

			if (!(x->flags & LATM_SRC_JUDGED))
				continue;
			judged++;
			if ((x->flags & LATM_SRC_BAD) && !bad++)
				fmt_snprintf(d, dn, "from cpu %u: cpu %u's records are %s, not %s",
					     m->row_id[r], m->col_id[c], x->src, want);
		}
	if (bad)
		return 0;
	if (!judged) {
		fmt_snprintf(d, dn, "no cell has sampled records");
		return -1;
	}
	fmt_snprintf(d, dn, "%u cells, each's records %s", judged, want);
	return 1;
}

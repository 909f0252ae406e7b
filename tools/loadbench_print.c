/*
 * loadbench_print.c: tools/loadbench's rows and per-level summary (loadbench_print.h).
 */
#include "tools/loadbench_print.h"
#include "loads/chase.h"
#include "loads/geometry.h"
#include "loads/plan.h"
#include "loads/steady.h"

void lb_put_x100(FILE *f, uint64_t v)
{
	fprintf(f, "%llu.%02llu", (unsigned long long)(v / 100), (unsigned long long)(v % 100));
}

void lb_print_point(const struct opts *o, const struct point *pt, uint64_t size, uint64_t hz,
		    uint64_t cpt)
{
	uint64_t ns = chase_ns_x100(pt->med_x100, hz), cyc = pt->med_x100 * cpt / 1000;
	uint64_t spread = steady_spread_pct(pt->min_x100, pt->max_x100, pt->med_x100);

	if (o->json) {
		printf("{\"size_bytes\":%llu,\"ns_per_load\":", (unsigned long long)size);
		lb_put_x100(stdout, ns);
		printf(",\"tsc_per_load\":");
		lb_put_x100(stdout, pt->med_x100);
		printf(",\"cycles_per_load_est\":");
		lb_put_x100(stdout, cyc);
		printf(",\"tsc_min\":");
		lb_put_x100(stdout, pt->min_x100);
		printf(",\"tsc_max\":");
		lb_put_x100(stdout, pt->max_x100);
		printf(",\"rounds\":%u,\"reps\":%u,\"loads\":%llu,\"spread_pct\":%llu,"
		       "\"remeasured\":%u,\"noisy\":%s,\"warm_bound\":%u}\n", o->rounds, o->reps,
		       (unsigned long long)pt->steps, (unsigned long long)spread, pt->remeasured,
		       pt->noisy ? "true" : "false", pt->warm_bound);
		return;
	}
	printf("  %12llu", (unsigned long long)size);
	for (int k = 0; k < 5; k++) {
		uint64_t v = k == 0 ? ns : k == 1 ? pt->med_x100 : k == 2 ? cyc :
			     k == 3 ? pt->min_x100 : pt->max_x100;

		printf(" %*llu.%02llu", k < 2 ? 9 : 7, (unsigned long long)(v / 100),
		       (unsigned long long)(v % 100));
	}
	printf(" %7llu%%%s%s\n", (unsigned long long)spread, pt->noisy ? " noisy" : "",
	       pt->warm_bound ? " warm-bound" : "");
}

/*
 * Per level: the median of the sweep points inside the level's window (L1 up to L1d/2, L2
 * 2x L1d..L2/4, L3 2x L2..4x L2, DRAM from 2x L3: inside each plateau by CPUID, away from
 * the edges where a shared VM's effective sizes move), and the point nearest the working
 * set the kernel tests use (loads/plan.c).
 */
void lb_print_levels(const struct opts *o, const struct point *pt,
		     const struct cache_geometry *g, uint64_t hz, FILE *info)
{
	const uint64_t lo[LOAD_NLEVELS] = { 0, 2 * g->l1d.size, 2 * g->l2.size, 2 * g->l3.size };
	const uint64_t hi[LOAD_NLEVELS] = { g->l1d.size / 2, g->l2.size / 4, 4 * g->l2.size,
					    UINT64_MAX };

	for (int l = 0; l < LOAD_NLEVELS; l++) {
		uint64_t want = load_ws((enum load_level)l, g), bestd = UINT64_MAX, v[MAX_SIZES];
		unsigned best = 0, n = 0;
		char a[24], b[24], c[24], e[24];

		for (unsigned i = 0; i < o->nsizes; i++) {
			uint64_t d = o->sizes[i] > want ? o->sizes[i] - want : want - o->sizes[i];

			if (d < bestd)
				bestd = d, best = i;
			if (o->sizes[i] >= lo[l] && o->sizes[i] <= hi[l])
				v[n++] = pt[i].med_x100;
		}
		fprintf(info, "# level %-4s plateau ", load_level_name((enum load_level)l));
		if (n)
			lb_put_x100(info, chase_ns_x100(chase_median(v, n), hz));
		else
			fprintf(info, "-");
		fprintf(info, " ns (median of %u points in %s..%s); at %s (plan %s): ", n,
			geometry_size_str(lo[l], a, sizeof(a)),
			hi[l] == UINT64_MAX ? "" : geometry_size_str(hi[l], b, sizeof(b)),
			geometry_size_str(o->sizes[best], c, sizeof(c)),
			geometry_size_str(want, e, sizeof(e)));
		lb_put_x100(info, chase_ns_x100(pt[best].med_x100, hz));
		fprintf(info, " ns\n");
	}
}

/*
 * topo_model.c: the PMU model's CPU topology and node distances (topo_model.h). The modelled
 * latencies are the model's assumptions (docs/latency-method.md §11: another socket's DRAM
 * 1.65x local, another SNC node of the package 1.1x, CXL Type-3 memory 2x, 2.6x from the
 * other socket); the declared SLIT uses the values Linux and the firmware conventionally write
 * (10 local, 12 SNC neighbour, 21 another socket: ACPI 6.5 §5.2.17; a CXL node 24 from its
 * own socket, 30 from the other, above every DRAM node as its latency is).
 */
#include "model/topo_model.h"

#include <string.h>

static const struct shape {
	const char *name;
	unsigned packages, cores, threads, snc, memonly;
} shapes[] = {
	{ .name = "2s", .packages = 2, .cores = 4, .threads = 2, .snc = 1, .memonly = 0 },
	{ .name = "2s-snc2-cxl", .packages = 2, .cores = 4, .threads = 2, .snc = 2, .memonly = 1 },
	{ .name = "2s-512", .packages = 2, .cores = 128, .threads = 2, .snc = 3, .memonly = 0 },
};

const char *topo_model_names(void)
{
	return "2s|2s-snc2-cxl|2s-512";
}

static void distances(struct topo_model *t)
{
	for (unsigned a = 0; a < t->nnodes; a++)
		for (unsigned b = 0; b < t->nnodes; b++) {
			uint32_t pa = t->node_pkg[a], pb = t->node_pkg[b];
			unsigned s, l;

			if (a == b) {
				s = 10, l = 100;
			} else if (pb == ~0u || pa == ~0u) {	/* CXL on package 0 */
				uint32_t p = pa == ~0u ? pb : pa;

				s = p == 0 ? 24 : 30, l = p == 0 ? 200 : 260;
			} else if (pa == pb) {
				s = 12, l = 110;
			} else {
				s = 21, l = 165;
			}
			t->slit[a][b] = (uint8_t)s;
			t->lat_pct[a][b] = l;
		}
	if (t->remote_faster_pct && t->nnodes > 1)
		t->lat_pct[1][0] = 100 - t->remote_faster_pct;
}

bool topo_model_init(struct topo_model *t, const char *name, unsigned remote_faster_pct)
{
	const struct shape *s = NULL;

	for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (!strcmp(shapes[i].name, name))
			s = &shapes[i];
	if (!s || remote_faster_pct >= 100)
		return false;
	memset(t, 0, sizeof(*t));
	t->name = s->name;
	t->packages = s->packages;
	t->cores = s->cores;
	t->threads = s->threads;
	t->snc = s->snc;
	t->memonly = s->memonly;
	t->remote_faster_pct = remote_faster_pct;
	t->ncpu = s->packages * s->cores * s->threads;
	t->nnodes = s->packages * s->snc + s->memonly;
	for (unsigned i = 0; i < t->ncpu; i++) {
		unsigned per = s->packages * s->cores, k = i % per;
		struct topo_cpu *c = &t->cpu[i];

		c->thread = i / per;
		c->package = k / s->cores;
		c->core = k % s->cores;
		c->node = c->package * s->snc + c->core * s->snc / s->cores;
	}
	for (unsigned n = 0; n < t->nnodes; n++)
		t->node_pkg[n] = n < s->packages * s->snc ? n / s->snc : ~0u;
	distances(t);
	return true;
}

uint64_t topo_model_mem_ns(const struct topo_model *t, unsigned from, unsigned to,
			   uint64_t local_x100)
{
	return local_x100 * t->lat_pct[from][to] / 100;
}

unsigned topo_model_pair_class(const struct topo_model *t, unsigned a, unsigned b)
{
	if (t->cpu[a].package != t->cpu[b].package)
		return 2;
	return t->cpu[a].core == t->cpu[b].core ? 0 : 1;
}

int topo_model_cpu_of_node(const struct topo_model *t, unsigned n)
{
	for (unsigned i = 0; i < t->ncpu; i++)
		if (t->cpu[i].node == n)
			return (int)i;
	return -1;
}

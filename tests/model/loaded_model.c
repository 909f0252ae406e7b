/*
 * loaded_model.c: the load-dependent DRAM latency model (loaded_model.h). The rows are round
 * figures of the kind Intel MLC reports for such memories (idle 80-110 ns; peak a share of the
 * channels x transfer rate x 8 bytes), chosen for the tests' shape, not measured.
 */
#include "model/loaded_model.h"
#include "loads/loaded.h"

/* 6 channels DDR4-2666: 128 GB/s theoretical, ~105 GB/s deliverable. */
const struct loaded_mem loaded_mem_ddr4_6ch = { .name = "ddr4-2666 x6", .idle_ns_x100 = 9000,
	.peak_mbps = 105000, .core_mbps = 12000, .iter_ps = 400, .q_pct = 12 };
/* 8 channels DDR5-4800: 307 GB/s theoretical, ~250 GB/s deliverable. */
const struct loaded_mem loaded_mem_ddr5_8ch = { .name = "ddr5-4800 x8", .idle_ns_x100 = 11000,
	.peak_mbps = 250000, .core_mbps = 16000, .iter_ps = 500, .q_pct = 10 };
/* 2 channels DDR4-3200: 51 GB/s theoretical, ~40 GB/s deliverable. */
const struct loaded_mem loaded_mem_ddr4_2ch = { .name = "ddr4-3200 x2", .idle_ns_x100 = 8000,
	.peak_mbps = 40000, .core_mbps = 14000, .iter_ps = 250, .q_pct = 15 };

uint64_t loaded_model_mbps(const struct loaded_mem *m, unsigned n, uint64_t delay)
{
	uint64_t line_ps, demand, cap = m->peak_mbps * LOADED_MODEL_RHO_MAX / 100;

	if (!n || delay == LOADED_IDLE || !m->core_mbps)
		return 0;
	line_ps = 64000000ull / m->core_mbps;	/* 64 B at core_mbps MB/s, in ps */
	demand = n * (64000000ull / (line_ps + delay * m->iter_ps));
	return demand < cap ? demand : cap;
}

uint64_t loaded_model_ns_x100(const struct loaded_mem *m, uint64_t mbps)
{
	uint64_t rho = mbps * 1000 / m->peak_mbps;	/* permille */

	if (rho > LOADED_MODEL_RHO_MAX * 10)
		rho = LOADED_MODEL_RHO_MAX * 10;
	return m->idle_ns_x100 + m->idle_ns_x100 * m->q_pct * rho / (1000 - rho) / 100;
}

unsigned loaded_model_pct(const struct loaded_mem *m, uint64_t mbps)
{
	return (unsigned)(loaded_model_ns_x100(m, mbps) * 100 / m->idle_ns_x100);
}

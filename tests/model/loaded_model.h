/*
 * loaded_model.h: a load-dependent DRAM latency for the host side of load_loaded (issue 32):
 * what injected bandwidth a delay gives and what latency the probe then sees. A MODEL, not a
 * fact about any machine: each injector demands one 64-byte line per (line time + delay x
 * iteration time), the memory delivers the demand up to RHO_MAX of its peak, and the latency
 * grows as the mean wait of an M/M/1 queue, idle x (1 + q x rho / (1 - rho)) (Kleinrock,
 * "Queueing Systems" Vol. 1, 3.2: waiting time rho/(1-rho) service times), rho = delivered /
 * peak. Measured loaded-latency curves (Intel MLC --loaded_latency) have this shape: flat, a
 * knee, then a steep rise near the peak; q sets how steep. Integer only, deterministic.
 */
#ifndef MODEL_LOADED_MODEL_H
#define MODEL_LOADED_MODEL_H

#include <stdint.h>

#define LOADED_MODEL_RHO_MAX 95u	/* percent of the peak the memory delivers at most */

struct loaded_mem {
	const char *name;
	uint64_t idle_ns_x100;	/* unloaded DRAM latency, ns x100 */
	uint64_t peak_mbps;	/* the memory's peak, MB/s */
	uint64_t core_mbps;	/* one injector at delay 0, MB/s */
	uint64_t iter_ps;	/* one delay-loop iteration (about a core cycle), ps */
	unsigned q_pct;		/* queueing weight q, percent */
};

/* The modelled memories (the model-log CPUs' and the tests'). */
extern const struct loaded_mem loaded_mem_ddr4_6ch, loaded_mem_ddr5_8ch, loaded_mem_ddr4_2ch;

/* Delivered bandwidth, MB/s, of n injectors at `delay` iterations (LOADED_IDLE or n = 0: 0). */
uint64_t loaded_model_mbps(const struct loaded_mem *m, unsigned n, uint64_t delay);
/* The probe's latency at that bandwidth, ns x100 (the idle latency at 0). */
uint64_t loaded_model_ns_x100(const struct loaded_mem *m, uint64_t mbps);
/* The same as a percentage of the idle latency (100 at idle). */
unsigned loaded_model_pct(const struct loaded_mem *m, uint64_t mbps);

#endif

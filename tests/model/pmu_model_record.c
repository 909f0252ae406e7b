/*
 * pmu_model_record.c: the PEBS record the PMU model's assist writes for counter i (see
 * pmu_model.h): its size for the CPU's format and PEBS_DATA_CFG, and its bytes: the legacy
 * layouts of formats 0-3 (docs/hardware.md §4.2), the adaptive basic, memory-info and format-6
 * counter groups (§4.3), and the DS reset slot of each counter (§3.1, §3.3). Timed PEBS
 * (IA32_PERF_CAPABILITIES[17], SDM Vol. 3B "Timed Processor Event Based Sampling"): the basic
 * group's bits 47:32 carry the retire latency, core cycles since the previous instruction
 * retired (Linux ds.c setup_pebs_adaptive_sample_data, struct pebs_basic retire_latency),
 * saturating at 0xffff (Intel perfmon README "Timed Processor Event Based Sampling (TPEBS)",
 * quoting the ISE's Retire Latency field); without the bit those bits stay 0.
 */
#include "model/pmu_model_int.h"
#include "pebs/msr.h"

#include <string.h>

int model_reset_slot(bool fixed, unsigned i)
{
	unsigned ngp = M.fmt >= 5 ? 32 : 8;

	return fixed ? (int)(ngp + i) : (int)i;
}

unsigned model_record_size(unsigned i)
{
	static const unsigned legacy[] = { 0x90, 0xb0, 0xc0, 0xc8 };
	uint64_t cfg = M.data_cfg;
	unsigned size = 32;

	if (!M.baseline)
		return M.fmt < 4 ? legacy[M.fmt] : 32;
	if (!(M.evtsel[i] & EVTSEL_ADAPTIVE))
		return 32;
	size += cfg & PEBS_DATACFG_MEMINFO ? 32 : 0;
	size += cfg & PEBS_DATACFG_GP ? 144 : 0;
	size += cfg & PEBS_DATACFG_XMMS ? 256 : 0;
	if (cfg & PEBS_DATACFG_LBRS)
		size += (unsigned)(((cfg >> 24) & 0xff) + 1) * 24;
	if (cfg & PEBS_DATACFG_CNTR)	/* format 6 counter group (§4.3) */
		size += 16 + 8 * (unsigned)(__builtin_popcountll((cfg >> 32) & 0xffff) +
					    __builtin_popcountll((cfg >> 48) & 0xff));
	return size;
}

static void put(uint8_t *rec, unsigned off, uint64_t v) { memcpy(rec + off, &v, 8); }

uint16_t model_retire_latency(const struct model_load *ld)
{
	/* a dependent chase retires each load one load latency after the one before; the
	 * knob retire_pct scales it (pmu_model_hostile.h) */
	uint64_t v = ld->lat * (M.h.retire_pct ? M.h.retire_pct : 100) / 100;

	return v > 0xffff ? 0xffff : (uint16_t)v;
}

void model_write_record(uint8_t *rec, unsigned size, unsigned i, const struct model_load *ld)
{
	bool ll = M.cpu->ll_event && EVTSEL_CODE(M.evtsel[i]) == M.cpu->ll_event;
	struct model_load z = { 0, 0, 0, 0x401000 };

	if (!ld)
		ld = &z;
	memset(rec, 0, size);
	if (!M.baseline) {
		put(rec, 0x00, 0x202);
		put(rec, 0x08, ld->ip + 3);	/* trap-like: next instruction */
		put(rec, 0x88, M.st.records_written + 1);	/* R15: a serial, for tests */
		if (M.fmt >= 1) {
			put(rec, 0x90, M.fmt >= 3 ? 1ull << i : M.global_status | 1ull << i);
			put(rec, 0x98, ld->addr);
			put(rec, 0xa0, ld->dsrc);
			put(rec, 0xa8, ll ? ld->lat : 0);
		}
		if (M.fmt >= 2)
			put(rec, 0xb0, ld->ip);
		if (M.fmt >= 3)
			put(rec, 0xc0, M.tsc);
		return;
	}
	put(rec, 0x00, (M.evtsel[i] & EVTSEL_ADAPTIVE ? (M.data_cfg & 0xffffffff) : 0) |
		       (M.cpu->perf_cap & PERF_CAP_PEBS_TIMING_INFO ?
			(uint64_t)model_retire_latency(ld) << 32 : 0) | (uint64_t)size << 48);
	put(rec, 0x08, ld->ip);
	put(rec, 0x10, 1ull << i);
	put(rec, 0x18, M.tsc);
	if (size > 32 && (M.data_cfg & PEBS_DATACFG_MEMINFO)) {
		put(rec, 0x20, ld->addr);
		put(rec, 0x28, ld->dsrc);
		put(rec, 0x30, !ll ? 0 : M.cpu->split_latency ? ld->lat << 32 | (ld->lat & 0xffff) :
			       ld->lat);
	}
	if ((M.evtsel[i] & EVTSEL_ADAPTIVE) && (M.data_cfg & PEBS_DATACFG_CNTR)) {
		/* the counter group is last: header, then GP then fixed values (§4.3) */
		uint32_t gp = (uint32_t)(M.data_cfg >> 32) & 0xffff;
		uint32_t fx = (uint32_t)(M.data_cfg >> 48) & 0xff;
		unsigned o = size - 16 - 8 * (unsigned)(__builtin_popcount(gp) +
							__builtin_popcount(fx));

		memcpy(rec + o, &gp, 4);
		memcpy(rec + o + 4, &fx, 4);
		o += 16;
		for (unsigned k = 0; k < M_GP; k++)
			if (gp & (1u << k))
				put(rec, o, M.pmc[k]), o += 8;
		for (unsigned k = 0; k < M_FIX; k++)
			if (fx & (1u << k))
				put(rec, o, M.fixed[k] + M.h.snap_skew), o += 8;
	}
}

/*
 * bandwidth.c: test `bandwidth` (issue 32; on request: tests=bandwidth): GB/s of the
 * bandwidth kernels (loads/bw.h: read, write, write_nt, read:write 1:1, 2:1, 3:1; assembly of
 * kernel/hw_stream.c) per level, working sets from the cache geometry (CPUID 04H /
 * 8000_001DH, SDM Vol. 2A), on the boot CPU alone and on every CPU of the run at once (the
 * application processors through smp_call_start, smp/smp.h; the cpus= option: its default
 * `types` means every online CPU here, `bsp` the boot CPU alone). One line per level x mode
 * with the method (bytes, passes, TSC ticks, CPUs). Subtests:
 *   bytes_counted     every run counted whole passes and every load read what was stored
 *   workers_started_stopped  every CPU got ready, ran, stopped and answered (SKIP: one CPU)
 *   order_per_core    read: L3 > DRAM, L1 and L2 >= 90% of the next (loads/bw.h)
 *   dram_peak         all CPUs' DRAM read within [peak / 4, 110% of peak], the peak from
 *                     SMBIOS type 17 (DSP0134 7.18: configured speed MT/s x 8 B x channels)
 *   prefetch_restored with prefetch=off|on (loads/kprefetch.h): every CPU's MSR put back
 * Timing verdicts SKIP where timing is not judged (software emulation: the run is short and
 * the structure is what is judged).
 */
#include "ktests/tests.h"
#include "kernel/fmt.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "loads/bw.h"
#include "loads/bw_cpus.h"
#include "loads/kload.h"
#include "loads/kprefetch.h"
#include "platform/platform.h"
#include "smp/smp.h"

#define BW_KREPS 5
#define WAIT_S 2u		/* bound on each wait, seconds (x5 under emulation) */

static struct bw_ap *aps;	/* per CPU number, kalloc'ed per run (loads/bw_cpus.h) */

static bool in_run(unsigned i)
{
	const struct smp_cpus_req *r = smp_cpus();

	if (smp_cpu(i)->state != CPU_ONLINE)
		return false;
	return r->mode == SMP_CPUS_TYPES || (r->mode != SMP_CPUS_BSP && smp_selected(i));
}

static void gb(char *b, unsigned n, uint64_t x100)
{
	fmt_snprintf(b, n, "%llu.%02llu", (unsigned long long)(x100 / 100),
		     (unsigned long long)(x100 % 100));
}

/* Each NUMA node's memory (memory-only nodes included), read by the boot CPU: one line per
 * node, the DRAM working set in the node's first range that holds it (ACPI SRAT, through
 * platform/numa.h). Returns the nodes with memory; *done: those measured. */
static unsigned per_node(struct ktest *t, uint64_t ws, uint64_t budget, unsigned *done)
{
	unsigned nodes = 0;

	*done = 0;
	for (unsigned nd = 0; nd < numa_nodes(&numa); nd++) {
		uint64_t lo, hi;
		uint8_t *buf = NULL;
		struct bw_result r;
		char a[16];

		if (!numa_node_range(&numa, nd, 0, &lo, &hi))
			continue;
		nodes++;
		for (unsigned i = 0; !buf && numa_node_range(&numa, nd, i, &lo, &hi); i++)
			if (hi - lo >= ws)
				buf = mm_map_buffer_in(ws, PS_2M, lo, hi);
		if (!buf) {
			kt_info(t, "bandwidth: DRAM read node %u: not run: no range of the node holds "
				"%lluK free", nd, (unsigned long long)(ws >> 10));
			continue;
		}
		if (bw_measure(BW_READ, buf, ws, BW_KREPS, budget, tsc_hz, &r) || !r.sum_ok ||
		    !r.passes) {
			kt_info(t, "bandwidth: DRAM read node %u: the measurement failed", nd);
			continue;
		}
		(*done)++;
		gb(a, sizeof(a), r.gbps_x100);
		kt_info(t, "bandwidth: DRAM read node %u ws %lluK: cpu0 (node %u) %s GB/s (%llu B x "
			"%llu / %llu TSC)", nd, (unsigned long long)(r.lay.ws >> 10),
			smp_cpu(0)->node, a, (unsigned long long)(r.lay.rd + r.lay.wr),
			(unsigned long long)r.passes, (unsigned long long)r.ticks_med);
	}
	return nodes;
}

enum kt_result test_bandwidth(struct ktest *t)
{
	const struct cache_geometry *g = kload_geometry();
	const struct timing_plan *tp = kload_timing();
	const char *emu = kload_timing_unjudgeable(), *note = "", *ntwhy = "";
	uint64_t budget = tsc_hz / 1000 * tp->budget_ms, read1[LOAD_NLEVELS] = { 0 };
	uint64_t wait = tsc_hz * WAIT_S * (emu ? 5 : 1), dram_all = 0, max1 = 0, maxn = 0;
	uint64_t ws1[LOAD_NLEVELS], wsn[LOAD_NLEVELS];
	unsigned n = 1, runs = 0, counted = 0, all_runs = 0, all_ok = 0, online = 1;
	unsigned nodes = 0, nodes_done = 0;
	bool nt = bw_nt_ok(&ntwhy), all_online;
	uint8_t *bsp_buf;
	char why[96], a[16], b[16];
	int bad;

	if (!tsc_hz)
		return kt_skip(t, "TSC frequency unknown: no GB/s");
	kload_test_begin();
	aps = kalloc(sizeof(*aps) * smp_cpu_count(), 64);
	if (!aps)
		return kt_skip(t, "out of memory for the per-CPU state");
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		aps[i] = (struct bw_ap){ 0 };
		online += smp_cpu(i)->state == CPU_ONLINE;
		n += in_run(i);
	}
	all_online = n == online;
	for (unsigned l = 0; l < LOAD_NLEVELS; l++) {
		ws1[l] = bw_ws(l, g, 1);
		wsn[l] = bw_ws(l, g, n);
		if (l == LOAD_DRAM) {
			ws1[l] = kload_ws_cap(ws1[l], &note);
			wsn[l] = wsn[l] < ws1[l] ? wsn[l] : ws1[l];
		}
		max1 = ws1[l] > max1 ? ws1[l] : max1;
		maxn = wsn[l] > maxn ? wsn[l] : maxn;
	}
	bsp_buf = mm_map_buffer(max1, PS_2M);
	if (!bsp_buf)
		return kt_skip(t, "no memory for the boot CPU's buffer");
	for (unsigned i = 1; i < smp_cpu_count() && n > 1; i++)
		if (in_run(i) && !(aps[i].buf = mm_map_buffer(maxn, PS_2M)))
			return kt_skip(t, "no memory for cpu%u's buffer", i);
	kprefetch_begin(t, "bandwidth", in_run);
	kt_info(t, "bandwidth: method: bytes = program bytes read + written (RFO reads of "
		"regular stores not counted), GB = 10^9 B, TSC %llu kHz; 1 CPU: median of %u reps "
		"in %u ms; all: %u CPUs from one go flag, sum of per-CPU rates",
		(unsigned long long)(tsc_hz / 1000), BW_KREPS, tp->budget_ms, n);
	for (unsigned l = 0; l < LOAD_NLEVELS; l++) {
		for (unsigned m = 0; m < BW_NMODES; m++) {
			struct bw_result r;
			struct bw_all o = { 0 };

			if (m == BW_WRITE_NT && !nt) {
				kt_info(t, "bandwidth: %s %s: not run: %s", load_level_name(l),
					bw_mode_name(m), ntwhy);
				continue;
			}
			runs++;
			if (bw_measure(m, bsp_buf, ws1[l], BW_KREPS, budget, tsc_hz, &r) == 0 &&
			    r.sum_ok && r.passes)
				counted++;
			if (m == BW_READ)
				read1[l] = r.gbps_x100;
			gb(a, sizeof(a), r.gbps_x100);
			if (n > 1) {
				bw_run_all(aps, smp_cpu_count(), m, wsn[l], bsp_buf, budget, wait, &o);
				all_runs++;
				all_ok += o.done == o.cpus && o.cpus == n;
				counted += o.counted;
				runs++;
				if (l == LOAD_DRAM && m == BW_READ)
					dram_all = o.gbps_x100;
			}
			gb(b, sizeof(b), o.gbps_x100);
			kt_info(t, "bandwidth: %s %s ws %lluK: 1 cpu %s GB/s (%llu B x %llu / %llu "
				"TSC); %u cpus %s GB/s (%llu B, %u done)", load_level_name(l),
				bw_mode_name(m), (unsigned long long)(r.lay.ws >> 10), a,
				(unsigned long long)(r.lay.rd + r.lay.wr),
				(unsigned long long)r.passes, (unsigned long long)r.ticks_med,
				o.cpus, n > 1 ? b : "-", (unsigned long long)o.bytes, o.done);
		}
	}
	bw_cpus_done();
	if (*note)
		kt_info(t, "bandwidth: DRAM working set%s", note);
	if (numa_nodes(&numa) > 1)
		nodes = per_node(t, ws1[LOAD_DRAM], budget, &nodes_done);
	kprefetch_end(t, "bandwidth");
	kt_check(t, runs && counted == runs, "bytes_counted # %u of %u runs", counted, runs);
	if (n < 2)
		kt_skip_sub(t, "workers_started_stopped", "one CPU in this run (cpus=%s, %u online)",
			    smp_cpus_mode_name(smp_cpus()->mode), online);
	else
		kt_check(t, all_ok == all_runs, "workers_started_stopped # %u of %u runs with all "
			 "%u CPUs done", all_ok, all_runs, n);
	if (nodes < 2)
		kt_skip_sub(t, "nodes_measured", "one NUMA node with memory (%s)",
			    numa_nodes(&numa) > 1 ? "the others have none" : "no SRAT, or one node");
	else
		kt_check(t, nodes_done == nodes, "nodes_measured # %u of %u nodes' memory read",
			 nodes_done, nodes);
	bad = bw_order_check(read1);
	if (emu)
		kt_skip_sub(t, "order_per_core", "%s", emu);
	else
		kt_check(t, bad < 0, "order_per_core # read GB/s x100 L1 %llu L2 %llu L3 %llu "
			 "DRAM %llu%s%s", (unsigned long long)read1[0], (unsigned long long)read1[1],
			 (unsigned long long)read1[2], (unsigned long long)read1[3],
			 bad < 0 ? "" : ", fails at ", bad < 0 ? "" : load_level_name(bad));
	{
		unsigned mts, ch;
		uint64_t peak = bw_peak_smbios(platform_smbios(), &mts, &ch, why, sizeof(why));

		if (emu)
			kt_skip_sub(t, "dram_peak", "%s", emu);
		else if (!peak)
			kt_skip_sub(t, "dram_peak", "%s", why);
		else if (n < 2 || !all_online)
			kt_skip_sub(t, "dram_peak", "judged with every online CPU (cpus=all): %u "
				    "of %u ran", n, online);
		else
			kt_check(t, bw_peak_ok(dram_all, peak), "dram_peak # %llu.%02llu GB/s on "
				 "%u CPUs vs peak %llu.%02llu (%u MT/s x 8 B x %u channels)",
				 (unsigned long long)(dram_all / 100),
				 (unsigned long long)(dram_all % 100), n,
				 (unsigned long long)(peak / 100), (unsigned long long)(peak % 100),
				 mts, ch);
	}
	return kt_verdict(t);
}

/*
 * bw.c: bandwidth passes, timing and verdicts (loads/bw.h; docs/bandwidth.md). The passes
 * are kernel/hw_stream.h's assembly; time is the TSC through rdtsc_ordered (LFENCE; RDTSC;
 * LFENCE, SDM Vol. 3B 18.17); MOVNTI needs CPUID.01H:EDX.SSE2 (SDM Vol. 2A CPUID, Table
 * 3-11). The kernel, tools/loadbench and the host tests compile this file.
 */
#include "loads/bw.h"
#include "apic/apic_enc.h"
#include "kernel/hw.h"
#include "kernel/hw_stream.h"
#include "loads/chase.h"
#include "kernel/fmt.h"
#include "platform/smbios.h"

#include <stddef.h>

#define CPUID1_EDX_SSE2 (1u << 26)

static const char *const names[BW_NMODES] = {
	[BW_READ] = "read", [BW_WRITE] = "write", [BW_WRITE_NT] = "write_nt",
	[BW_MIX1] = "rw1:1", [BW_MIX2] = "rw2:1", [BW_MIX3] = "rw3:1",
};

static volatile uint64_t bw_sink;	/* sums land here: no pass is dead code */

const char *bw_mode_name(enum bw_mode m)
{
	return m < BW_NMODES ? names[m] : "?";
}

enum bw_mode bw_mode_parse(const char *s)
{
	for (unsigned m = 0; m < BW_NMODES; m++) {
		const char *a = names[m], *b = s;

		while (*a && *a == *b)
			a++, b++;
		if (!*a && !*b)
			return (enum bw_mode)m;
	}
	return BW_NMODES;
}

bool bw_nt_ok(const char **why)
{
	struct cpuid_regs r;

	cpuid_count(1, 0, &r);
	if (r.edx & CPUID1_EDX_SSE2)
		return true;
	*why = "CPUID.01H:EDX.SSE2[bit 26] = 0: no MOVNTI";
	return false;
}

static unsigned mix_reads(enum bw_mode m)
{
	return m == BW_MIX1 ? 1 : m == BW_MIX2 ? 2 : m == BW_MIX3 ? 3 : 0;
}

int bw_layout(enum bw_mode m, uint64_t ws, struct bw_layout *l)
{
	unsigned r = mix_reads(m);
	uint64_t part;

	*l = (struct bw_layout){ 0 };
	if (m >= BW_NMODES)
		return -1;
	if (!r) {
		part = ws / HW_STREAM_UNIT * HW_STREAM_UNIT;
		if (!part)
			return -1;
		l->rd = m == BW_READ ? part : 0;
		l->wr = m == BW_READ ? 0 : part;
		l->ws = part;
		return 0;
	}
	/* r read streams and one write stream of `part` bytes each */
	part = ws / (r + 1) / HW_STREAM_LINE * HW_STREAM_LINE;
	if (!part)
		return -1;
	l->rd = r * part;
	l->wr = part;
	l->ws = (r + 1) * part;
	return 0;
}

uint64_t bw_pass(enum bw_mode m, uint8_t *buf, const struct bw_layout *l, uint64_t val)
{
	switch (m) {
	case BW_READ:
		return hw_stream_read(buf, l->rd);
	case BW_WRITE:
		hw_stream_write(buf, l->wr, val);
		return 0;
	case BW_WRITE_NT:
		hw_stream_write_nt(buf, l->wr, val);
		return 0;
	case BW_MIX1:
		return hw_stream_mix1(buf, buf + l->rd, l->wr, val);
	case BW_MIX2:
		return hw_stream_mix2(buf, buf + l->rd, l->wr, val);
	case BW_MIX3:
		return hw_stream_mix3(buf, buf + l->rd, l->wr, val);
	default:
		return 0;
	}
}

uint64_t bw_sum_of(uint64_t bytes, uint64_t val)
{
	return bytes / 8 * val;
}

uint64_t bw_read_pass(const void *buf, uint64_t bytes)
{
	bytes = bytes / HW_STREAM_UNIT * HW_STREAM_UNIT;
	bw_sink = hw_stream_read(buf, bytes);
	return bytes;
}

static uint64_t page_down(uint64_t x)
{
	x &= ~4095ull;
	return x ? x : 4096;
}

uint64_t bw_ws(enum load_level l, const struct cache_geometry *g, unsigned n)
{
	uint64_t ws = load_ws(l, g);

	if (n <= 1 || l < LOAD_L3)
		return ws;
	if (l == LOAD_L3)
		return page_down(g->l3.size / 2 / n);
	ws /= n;
	return page_down(ws < (2ull << 20) ? 2ull << 20 : ws);
}

uint64_t bw_gbps_x100(uint64_t bytes, uint64_t ticks, uint64_t hz)
{
	uint64_t bps;

	if (!ticks || !hz)
		return 0;
	bps = apic_muldiv64(bytes, hz, ticks);	/* bytes per second, saturating */
	return bps / 10000000u;			/* 10^9 bytes = 1 GB, x100 */
}

/* The words a pass reads all hold val: the sum check of one pass. */
static bool pass_ok(enum bw_mode m, uint64_t sum, const struct bw_layout *l, uint64_t val)
{
	return m == BW_WRITE || m == BW_WRITE_NT || sum == bw_sum_of(l->rd, val);
}

/* After write passes: read the written range back once. */
static bool written_ok(enum bw_mode m, uint8_t *buf, const struct bw_layout *l, uint64_t val)
{
	if (m != BW_WRITE && m != BW_WRITE_NT)
		return true;
	return hw_stream_read(buf, l->wr) == bw_sum_of(l->wr, val);
}

void bw_fill(uint8_t *buf, const struct bw_layout *l)
{
	uint64_t *w = (uint64_t *)buf;

	/* untimed: plain C, whatever the compiler makes of it */
	for (uint64_t i = 0; i < l->ws / 8; i++)
		w[i] = BW_FILL;
}

int bw_measure(enum bw_mode m, uint8_t *buf, uint64_t ws, unsigned reps,
	       uint64_t budget_ticks, uint64_t hz, struct bw_result *r)
{
	uint64_t t[BW_MAX_REPS], t0, one, bytes;
	bool ok = true;

	*r = (struct bw_result){ 0 };
	if (reps < 1 || reps > BW_MAX_REPS || bw_layout(m, ws, &r->lay))
		return -1;
	bw_fill(buf, &r->lay);
	t0 = rdtsc_ordered();
	ok &= pass_ok(m, bw_pass(m, buf, &r->lay, BW_FILL), &r->lay, BW_FILL);
	one = rdtsc_ordered() - t0 + 1;
	r->passes = budget_ticks / reps / one;
	if (!r->passes)
		r->passes = 1;
	r->reps = reps;
	for (unsigned i = 0; i < reps; i++) {
		t0 = rdtsc_ordered();
		for (uint64_t p = 0; p < r->passes; p++)
			ok &= pass_ok(m, bw_pass(m, buf, &r->lay, BW_FILL), &r->lay, BW_FILL);
		t[i] = rdtsc_ordered() - t0;
	}
	r->sum_ok = ok && written_ok(m, buf, &r->lay, BW_FILL);
	r->ticks_med = chase_median(t, reps);	/* sorts t */
	r->ticks_min = t[0];
	r->ticks_max = t[reps - 1];
	bytes = (r->lay.rd + r->lay.wr) * r->passes;
	r->gbps_x100 = bw_gbps_x100(bytes, r->ticks_med, hz);
	r->gbps_min_x100 = bw_gbps_x100(bytes, r->ticks_max, hz);
	r->gbps_max_x100 = bw_gbps_x100(bytes, r->ticks_min, hz);
	return 0;
}

int bw_order_check(const uint64_t gbps_x100[LOAD_NLEVELS])
{
	for (int l = LOAD_L1; l < LOAD_L3; l++)
		if (gbps_x100[l] * 100 < gbps_x100[l + 1] * (100 - BW_TIE_TOL_PCT))
			return l;
	return gbps_x100[LOAD_L3] > gbps_x100[LOAD_DRAM] ? -1 : LOAD_L3;
}

uint64_t bw_peak_gbps_x100(unsigned mts, unsigned channels)
{
	/* MT/s x 8 B = MB/s; / 10 = GB/s x100 */
	return (uint64_t)mts * 8u * channels / 10u;
}

bool bw_peak_ok(uint64_t meas_x100, uint64_t peak_x100)
{
	return peak_x100 && meas_x100 >= peak_x100 / BW_PEAK_MIN_DIV &&
	       meas_x100 <= peak_x100 * BW_PEAK_MAX_PCT / 100;
}

uint64_t bw_peak_smbios(const struct smbios_info *s, unsigned *mts, unsigned *ch, char *why,
			size_t n)
{
	unsigned len = 0;

	*mts = 0;
	*ch = 0;
	if (!s || !s->present) {
		fmt_snprintf(why, n, "no SMBIOS tables%s%s", s && s->why[0] ? ": " : "",
			     s ? s->why : "");
		return 0;
	}
	while (s->channels[len])
		len++;
	*mts = s->conf_speed ? s->conf_speed : s->speed;
	*ch = len * (s->sockets_populated > 1 ? s->sockets_populated : 1);
	if (!*mts || !*ch || s->mixed_speed) {
		fmt_snprintf(why, n, "SMBIOS type 17 gives %s%s%s", !*mts ? "no speed" : "",
			     !*ch ? (!*mts ? " and no channel letters" : "no channel letters") : "",
			     *mts && *ch ? "mixed speeds" : "");
		return 0;
	}
	return bw_peak_gbps_x100(*mts, *ch);
}

/*
 * steady.c: the warm-up and spread rules of loads/steady.h. Integer arithmetic only (the
 * kernel has no FPU state to spare: -mgeneral-regs-only).
 */
#include "loads/steady.h"

void steady_begin(struct steady_warm *w)
{
	*w = (struct steady_warm){ .state = STEADY_WARMING };
}

/* |b - a| <= tol % of a (a is the earlier lap). */
static bool agree(uint64_t a, uint64_t b, unsigned tol)
{
	uint64_t d = a > b ? a - b : b - a;

	return d <= a / 100 * tol + a % 100 * tol / 100;
}

enum steady_state steady_lap(struct steady_warm *w, const struct steady_rule *r,
			     uint64_t lap_ticks)
{
	unsigned tol = r->tol_pct ? r->tol_pct : STEADY_TOL_PCT;
	unsigned max = r->max_laps ? r->max_laps : STEADY_MAX_LAPS;

	if (w->state != STEADY_WARMING)
		return w->state;
	if (max < 2)
		max = 2;
	w->prev = w->last;
	w->last = lap_ticks;
	w->ticks += lap_ticks;
	w->laps++;
	if (w->laps >= 2 && agree(w->prev, w->last, tol))
		w->state = STEADY_SETTLED;
	else if (w->laps >= 2 && (w->laps >= max || (r->max_ticks && w->ticks >= r->max_ticks)))
		w->state = STEADY_BOUND;
	return w->state;
}

uint64_t steady_spread_pct(uint64_t min, uint64_t max, uint64_t med)
{
	return med && max > min ? (max - min) * 100 / med : 0;
}

bool steady_noisy(uint64_t min, uint64_t max, uint64_t med)
{
	return med && max > min && (max - min) * 100 > (uint64_t)STEADY_SPREAD_PCT * med;
}

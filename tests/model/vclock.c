/*
 * vclock.c: the virtual TSC behind kernel/hw.h's rdtsc()/rdtsc_ordered() in host tests
 * (see vclock.h). The ordered read differs on hardware only in what it waits for (LFENCE,
 * SDM Vol. 3B 18.17); on a virtual clock both are one step.
 */
#include "model/vclock.h"
#include "kernel/hw.h"

#include <string.h>

struct vclock vclock;

void vclock_reset(uint64_t start, uint64_t step)
{
	memset(&vclock, 0, sizeof(vclock));
	vclock.now = start;
	vclock.step = step;
}

void vclock_script(const uint64_t *steps, unsigned n)
{
	if (n > VCLOCK_SCRIPT_MAX)
		n = VCLOCK_SCRIPT_MAX;
	memcpy(vclock.script, steps, n * sizeof(*steps));
	vclock.nscript = n;
	vclock.next = 0;
}

void vclock_advance(uint64_t ticks)
{
	uint64_t before = vclock.now;

	vclock.now += ticks;
	if (vclock.hook)
		vclock.hook(before, false);
}

uint64_t rdtsc(void)
{
	uint64_t before = vclock.now;

	vclock.now += vclock.next < vclock.nscript ? vclock.script[vclock.next++] : vclock.step;
	vclock.reads++;
	if (vclock.hook)
		vclock.hook(before, true);
	return vclock.now;
}

uint64_t rdtsc_ordered(void)
{
	return rdtsc();
}

/*
 * ktap_undo.c: the undo list of the running test (kernel/ktap_undo.h). One test runs at a
 * time, on the boot CPU, so the list is one fixed table; the runner empties it at the end of
 * every test. Each entry is taken off before it runs, so an undo that faults or re-enters the
 * runner is not run twice. Only the boot CPU's pushes and drops count (ktap_undo.h).
 */
#include "kernel/ktap_undo.h"

#include <stddef.h>

static struct {
	kt_undo_fn fn;
	void *arg;
} undo[KT_UNDO_MAX];
static unsigned nundo;
static unsigned (*cpu_fn)(void);

void kt_undo_set_cpu(unsigned (*this_cpu)(void))
{
	cpu_fn = this_cpu;
}

static bool boot_cpu(void)
{
	return !cpu_fn || cpu_fn() == 0;
}

bool kt_undo_push(kt_undo_fn fn, void *arg)
{
	if (!fn || nundo >= KT_UNDO_MAX || !boot_cpu())
		return false;
	undo[nundo].fn = fn;
	undo[nundo++].arg = arg;
	return true;
}

void kt_undo_drop(kt_undo_fn fn, void *arg)
{
	for (unsigned i = boot_cpu() ? nundo : 0; i-- > 0;) {
		if (undo[i].fn != fn || undo[i].arg != arg)
			continue;
		for (unsigned k = i; k + 1 < nundo; k++)
			undo[k] = undo[k + 1];
		nundo--;
		return;
	}
}

unsigned kt_undo_run(void)
{
	unsigned ran = 0;

	while (nundo) {
		kt_undo_fn fn = undo[nundo - 1].fn;
		void *arg = undo[nundo - 1].arg;

		undo[--nundo].fn = NULL;
		fn(arg);
		ran++;
	}
	return ran;
}

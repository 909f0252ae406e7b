/*
 * msr_note.c: _safe MSR accesses that record the first fault (see msr_note.h).
 */
#include "pebs/msr_note.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

static int note(int *fault, char *err, size_t errlen, const char *op, uint32_t msr, int vec)
{
	if (vec && !*fault) {
		*fault = vec;
		fmt_snprintf(err, errlen, "%s 0x%x: fault (vector %d)", op, msr, vec);
	}
	return vec;
}

int msr_note_write(int *fault, char *err, size_t errlen, uint32_t msr, uint64_t v)
{
	return note(fault, err, errlen, "wrmsr", msr, wrmsr_safe(msr, v));
}

int msr_note_read(int *fault, char *err, size_t errlen, uint32_t msr, uint64_t *v)
{
	return note(fault, err, errlen, "rdmsr", msr, rdmsr_safe(msr, v));
}

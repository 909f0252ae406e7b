/*
 * msr_note.h: MSR accesses that keep the first fault. A counter helper (pebs/count.c,
 * pebs/cycles.c) runs a sequence of _safe accesses; the first one that faults is recorded
 * with its MSR and vector for the report, later ones only return their vector.
 */
#ifndef PEBS_MSR_NOTE_H
#define PEBS_MSR_NOTE_H

#include <stddef.h>
#include <stdint.h>

/* Write/read `msr` through the _safe accessors; on a fault, when *fault is still 0, store
 * the vector in *fault and "wrmsr 0xN: fault (vector V)" in err. Returns the vector (0: ok). */
int msr_note_write(int *fault, char *err, size_t errlen, uint32_t msr, uint64_t v);
int msr_note_read(int *fault, char *err, size_t errlen, uint32_t msr, uint64_t *v);

#endif

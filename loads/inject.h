/*
 * inject.h: the traffic injector of load_loaded (loads/loaded.h), the same instructions in the
 * kernel and in loadbench --loaded: assembly (loads/inject.c), so neither -O2 on the host nor
 * -mgeneral-regs-only in the kernel can change it. Per 64-byte line: eight 8-byte loads into
 * four general registers (MOV/ADD, SDM Vol. 2A), for LOADED_RW also eight 8-byte stores back to
 * the line, then the delay loop: `delay` iterations of DEC/JNZ, about one core cycle each
 * (SDM Vol. 2A DEC, Jcc; Intel Optimization Manual "macro-fusion": the pair is one uop).
 * inject_run is an injector's whole job on its CPU or thread: passes of LOADED_CHUNK bytes over
 * its buffer until `stop`, its own bytes and TSC ticks counted (SDM Vol. 3B 18.17).
 */
#ifndef LOADS_INJECT_H
#define LOADS_INJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/loaded.h"

/* One pass over [buf, buf + bytes) (bytes a multiple of 64): the 64-bit sum of every qword
 * read (the rw pass then writes that running sum to each qword of the line). */
uint64_t inject_read_pass(const void *buf, uint64_t bytes, uint64_t delay);
uint64_t inject_rw_pass(void *buf, uint64_t bytes, uint64_t delay);
/* The delay loop alone: n iterations (n >= 1). */
void inject_delay(uint64_t n);

/* TSC ticks per delay iteration x100, timed over `iters` iterations (the fastest of three). */
uint64_t inject_calibrate(uint64_t iters);

/* One injector's job: set up by the measuring side, run by the injector (inject_run). */
struct inject_job {
	uint8_t *buf;
	uint64_t bytes;			/* buffer size, a multiple of LOADED_CHUNK */
	uint64_t delay;
	enum loaded_mix mix;
	volatile uint32_t stop;		/* set by the measuring side */
	volatile uint32_t running;	/* set by the injector once its first chunk began */
	uint64_t bound_ticks;		/* the injector stops by itself after this long (0: never) */
	struct loaded_inj res;
	uint64_t sum;			/* what the passes read (keeps nothing dead) */
};
/* Ready job for a step at `delay`, stopping by itself after bound_ticks: not stopped, not
 * running, nothing counted yet. */
void inject_job_arm(struct inject_job *job, uint64_t delay, uint64_t bound_ticks);
/* Run until job->stop (or the bound): chunks of LOADED_CHUNK, round the buffer. */
void inject_run(struct inject_job *job);
/* Bytes one line moves for the mix: 64 read, or 64 read + 64 written. */
unsigned inject_line_bytes(enum loaded_mix mix);

#endif

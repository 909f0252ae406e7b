/*
 * stream_model.h: a host model of the bandwidth instruction kernels (kernel/hw_stream.h) for
 * the host tests of loads/bw.c. It does what the assembly does to memory (every word of the
 * range read and summed, or stored; the same streams and ranges) in plain C, and moves the
 * virtual clock (tests/model/vclock.c) by the bytes the call moved at the rate of the level
 * its footprint falls in: a footprint up to l1 bytes runs at rate[0], up to l2 at rate[1],
 * up to l3 at rate[2], beyond at rate[3] (bytes per 1000 ticks). The rates are knobs: a
 * test gives each level its own, and an order no cache hierarchy has (L3 faster than L2) to
 * see the ordering verdict fail, and one read sum off by one (bad_sum_call) to see the
 * sum check fail. Calls and bytes are counted.
 */
#ifndef MODEL_STREAM_MODEL_H
#define MODEL_STREAM_MODEL_H

#include <stdint.h>

struct stream_model {
	uint64_t l1, l2, l3;		/* level sizes, bytes */
	uint64_t rate[4];		/* bytes per 1000 TSC ticks, per level */
	uint64_t calls, nt_calls, bytes_read, bytes_written;
	uint64_t bad_sum_call;		/* knob: this call's sum comes back off by one (a load
					 * that returned the wrong data); 0: never */
};

extern struct stream_model smod;

/* 48 KiB / 2 MiB / 32 MiB; 64, 32, 16, 8 bytes per tick; counts 0. */
void stream_model_reset(void);

#endif

/* smp_call_late.c: smp_call_wait and the late-CPU knob of smp_call_late.h. */
#include "tests/stubs/smp_call_late.h"
#include "tests/model/vclock.h"
#include "kernel/tsc.h"

#include <string.h>

struct smp_call_late scl;

void smp_call_late_reset(void)
{
	memset(&scl, 0, sizeof(scl));
}

int smp_call_wait(unsigned i, uint32_t timeout_ms)
{
	smp_fn fn = scl.fn[i];

	if (!fn)
		return SMP_CALL_DONE;
	if (scl.late[i]) {
		vclock_advance((uint64_t)timeout_ms * (tsc_hz / 1000));
		return SMP_CALL_TIMEOUT;
	}
	scl.fn[i] = NULL;
	fn(scl.arg[i]);
	return SMP_CALL_DONE;
}

void smp_call_run_late(unsigned i)
{
	smp_fn fn = scl.fn[i];

	scl.late[i] = false;
	scl.fn[i] = NULL;
	if (fn)
		fn(scl.arg[i]);
}

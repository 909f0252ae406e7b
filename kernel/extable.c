/*
 * extable.c: lookup in the exception-fixup table the linker gathers (section .extable,
 * bounded by __extable_start/__extable_end in linker.ld). A few dozen entries: linear scan.
 */
#include "kernel/extable.h"

extern const struct extable_entry __extable_start[], __extable_end[];

bool extable_fixup(uint64_t rip, uint64_t *new_rip)
{
	for (const struct extable_entry *e = __extable_start; e < __extable_end; e++) {
		if (e->insn == rip) {
			*new_rip = e->fixup;
			return true;
		}
	}
	return false;
}

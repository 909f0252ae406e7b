/*
 * apic_eilvt.c: AMD extended interrupt LVT entries (see apic_eilvt.h; AMD64 APM Vol. 2 "Local
 * APIC", "Extended APIC Feature Register", "Extended Interrupt Local Vector Table
 * Registers"). The entry number is checked against ExtLvtCount before any access: an offset
 * past it is not a register on this CPU.
 */
#include "apic/apic_eilvt.h"
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"

unsigned apic_eilvt_count(void)
{
	if (apic_mode() == APIC_DISABLED)
		return 0;
	return (apic_read(APIC_EFEAT) >> APIC_EFEAT_XLC_SHIFT) & 0xffu;
}

static bool entry_ok(unsigned n)
{
	return n < APIC_EILVT_MAX && n < apic_eilvt_count();
}

bool apic_eilvt_read(unsigned n, uint32_t *v)
{
	if (!entry_ok(n))
		return false;
	*v = apic_read(APIC_EILVT(n));
	return true;
}

bool apic_eilvt_write(unsigned n, uint32_t v)
{
	if (!entry_ok(n))
		return false;
	apic_write(APIC_EILVT(n), v);
	return true;
}

uint32_t apic_eilvt_entry(uint8_t vector, bool nmi, bool masked)
{
	return apic_lvt_pack(vector, nmi ? APIC_EILVT_MSG_NMI : APIC_EILVT_MSG_FIX, masked, 0);
}

/*
 * pmu_model_arch.c: the PMU model's architectural-PEBS rows (format 0xF): CPUID leaf 23H,
 * IA32_PEBS_BASE / IA32_PEBS_INDEX / IA32_PMC_GPi_CFG_C / IA32_PMC_FXj_CFG_C with their
 * reserved bits and rules, and the assist that writes arch records (header + basic, AUX,
 * GPR, counter groups as CFG_C asks) at base + WR, reloads the counter from CFG_C[31:0],
 * raises GLOBAL_STATUS[54] at THRESH and sets FULL when a record does not fit; with
 * model_arch_split(true) every record is written as two fragments, and a record that does not
 * fit leaves its first fragment (CONT set) at the buffer's end. Facts: docs/arch-pebs.md.
 * Modelled assumptions (UNVERIFIED on hardware): the reload value is sign-extended from bit
 * 31; records are 16-B multiples (WR counts 16-B units); a full buffer drops the record.
 */
#include "model/pmu_model_int.h"
#include "model/arch_rec_build.h"
#include "kernel/hw.h"
#include "pebs/arch_msr.h"
#include "pebs/msr.h"

#define GP 13
#define CFG_C_RSVD (~(CFG_C_RELOAD_MASK | CFG_C_GROUPS | CFG_C_PEBS_EN))

static bool arch(void) { return M.fmt == 0xF; }

static uint64_t buf_bytes(void) { return 4096ull << (M.pebs_base & ARCH_BASE_SIZE_MASK); }

void model_arch_split(bool on) { M.arch_split = on; }

bool model_arch_pebs_on(unsigned i)
{
	return arch() && i < M_GP && (M.cfg_c[i] & CFG_C_PEBS_EN) &&
	       (M.pebs_index & ARCH_INDEX_EN);
}

void model_arch_cpuid(uint32_t subleaf, struct cpuid_regs *r)
{
	const struct model_cpu *c = M.cpu;

	if (!c->arch_caps)
		return;
	if (subleaf == 0)
		r->eax = CPUID_23_0_EAX_CNTR | CPUID_23_0_EAX_PEBS_CAPS | CPUID_23_0_EAX_PEBS_CNTRS;
	else if (subleaf == 1)
		r->eax = (1u << c->n_gp) - 1, r->ebx = (1u << c->n_fixed) - 1;
	else if (subleaf == 4)
		r->ebx = c->arch_caps;
	else if (subleaf == 5)
		r->eax = c->arch_pebs_gp;
}

static bool cfg_c_msr(uint32_t msr, unsigned *i, bool *fixed)
{
	const struct model_cpu *c = M.cpu;

	for (unsigned k = 0; k < c->n_gp; k++)
		if (msr == MSR_IA32_PMC_GP_CFG_C(k))
			return *i = k, *fixed = false, true;
	for (unsigned k = 0; k < c->n_fixed; k++)
		if (msr == MSR_IA32_PMC_FX_CFG_C(k))
			return *i = k, *fixed = true, true;
	return false;
}

bool model_arch_rdmsr(uint32_t msr, uint64_t *v, int *vec)
{
	unsigned i;
	bool fixed;

	if (!arch())
		return false;
	*vec = 0;
	if (msr == MSR_IA32_PEBS_BASE)
		*v = M.pebs_base;
	else if (msr == MSR_IA32_PEBS_INDEX)
		*v = M.pebs_index;
	else if (cfg_c_msr(msr, &i, &fixed))
		*v = fixed ? M.fx_cfg_c[i] : M.cfg_c[i];
	else
		return false;
	return true;
}

static int write_cfg_c(unsigned i, bool fixed, uint64_t v)
{
	uint64_t groups = v & CFG_C_GROUPS;

	if (v & CFG_C_RSVD)
		return GP;
	if (groups & ~((uint64_t)M.cpu->arch_caps << 32)) {
		model_violate("CFG_C groups 0x%llx not enumerated in CPUID.23H.4:EBX 0x%x",
			      (unsigned long long)(groups >> 32), M.cpu->arch_caps);
		return GP;
	}
	if ((v & CFG_C_PEBS_EN) && (fixed || !(M.cpu->arch_pebs_gp & (1u << i)))) {
		model_violate("CFG_C.PEBS_EN on %s counter %u outside CPUID.23H.5 0x%x",
			      fixed ? "fixed" : "GP", i, M.cpu->arch_pebs_gp);
		return GP;
	}
	if (fixed) {
		M.fx_cfg_c[i] = v;
	} else {
		model_no_write_while_active(i, "CFG_C");
		M.cfg_c[i] = v;
	}
	return 0;
}

bool model_arch_wrmsr(uint32_t msr, uint64_t v, int *vec)
{
	unsigned i;
	bool fixed;

	if (!arch())
		return false;
	*vec = 0;
	if (msr == MSR_IA32_PEBS_BASE) {
		if (v & ARCH_BASE_RSVD_MASK)
			return *vec = GP, true;
		if (model_any_pebs_active())
			model_violate("IA32_PEBS_BASE changed while PEBS enabled");
		M.pebs_base = v;
		if (v && !model_mapped(v & ~0xfffull, buf_bytes()))
			model_violate("IA32_PEBS_BASE 0x%llx: %llu-byte buffer not mapped",
				      (unsigned long long)v, (unsigned long long)buf_bytes());
	} else if (msr == MSR_IA32_PEBS_INDEX) {
		if (v & ARCH_INDEX_RSVD_MASK)
			return *vec = GP, true;
		if ((ARCH_INDEX_WR(v) << 4) > buf_bytes() ||
		    (ARCH_INDEX_THRESH(v) << 4) > buf_bytes()) {
			model_violate("IA32_PEBS_INDEX 0x%llx: offset beyond the %llu-byte buffer",
				      (unsigned long long)v, (unsigned long long)buf_bytes());
			return *vec = GP, true;
		}
		if ((v & ARCH_INDEX_EN) && !M.pebs_base)
			model_violate("IA32_PEBS_INDEX.EN with IA32_PEBS_BASE = 0");
		M.pebs_index = v;
	} else if (cfg_c_msr(msr, &i, &fixed)) {
		*vec = write_cfg_c(i, fixed, v);
	} else {
		return false;
	}
	return true;
}

/* Rules for every arch-PEBS counter that is enabled (called from model_check_active). */
void model_arch_check(void)
{
	for (unsigned i = 0; i < M.cpu->n_gp; i++) {
		if (!model_pebs_active(i))
			continue;
		if (!M.pebs_base || !model_mapped(M.pebs_base & ~0xfffull, buf_bytes()))
			model_violate("arch PEBS on counter %u without a mapped IA32_PEBS_BASE", i);
		if (M.cpu->ll_event && EVTSEL_CODE(M.evtsel[i]) == M.cpu->ll_event &&
		    !(M.cfg_c[i] & CFG_C_AUX))
			model_violate("load latency on arch counter %u without CFG_C.AUX", i);
		if (!(M.cfg_c[i] & CFG_C_RELOAD_MASK))
			model_violate("arch PEBS counter %u with reload value 0", i);
	}
}

void model_arch_rearm_check(void)
{
	if (!arch() || !M.in_pmi)
		return;
	if (M.global_status & GLOBAL_STATUS_ARCH_PEBS)
		model_violate("LVTPC unmasked before GLOBAL_STATUS[54] was acked");
}

void model_arch_exit_check(void)
{
	if (!arch())
		return;
	if ((M.pebs_index & ARCH_INDEX_EN) && ARCH_INDEX_THRESH(M.pebs_index) &&
	    ARCH_INDEX_WR(M.pebs_index) >= ARCH_INDEX_THRESH(M.pebs_index))
		model_violate("PMI re-armed with IA32_PEBS_INDEX still at the threshold");
}

void model_arch_assist(unsigned i, const struct model_load *ld)
{
	uint64_t cfg = M.cfg_c[i], vals[M_GP + M_FIX], groups = AR_BASIC, first, rest;
	uint64_t off = ARCH_INDEX_WR(M.pebs_index) << 4, size = buf_bytes();
	uint8_t *buf = (uint8_t *)(uintptr_t)(M.pebs_base & ~0xfffull);
	bool ll = M.cpu->ll_event && EVTSEL_CODE(M.evtsel[i]) == M.cpu->ll_event;
	struct model_load z = { 0, 0, 0, 0x401000 };
	struct arch_rec_spec s;
	unsigned n = 0;

	M.st.assists++;
	M.tsc += M.assist_ticks;
	M.armed[i] = false;
	ld = ld ? ld : &z;
	s = (struct arch_rec_spec){ .ip = ld->ip, .applicable = 1ull << i, .tsc = M.tsc,
				    .addr = ld->addr, .aux = ld->dsrc,
				    .cache_lat = ll ? (uint16_t)ld->lat : 0,
				    .instr_lat = ll ? (uint16_t)ld->lat : 0, .gpr_ip = ld->ip + 3,
				    .retire_valid = true, .retire = model_retire_latency(ld) };
	groups |= cfg & CFG_C_AUX ? AR_AUX : 0;
	groups |= cfg & CFG_C_GPR ? AR_GPR : 0;
	if (cfg & (CFG_C_CNTR_GP | CFG_C_CNTR_FIXED)) {
		groups |= AR_CNTR;
		for (unsigned k = 0; k < M.cpu->n_gp; k++)
			if ((cfg & CFG_C_CNTR_GP) && (M.cfg_c[k] & CFG_C_CNTR_ALLOW))
				s.cntr_gp |= 1u << k, vals[n++] = M.pmc[k];
		for (unsigned k = 0; k < M.cpu->n_fixed; k++)
			if ((cfg & CFG_C_CNTR_FIXED) && (M.fx_cfg_c[k] & CFG_C_CNTR_ALLOW))
				s.cntr_fixed |= 1u << k, vals[n++] = M.fixed[k] + M.h.snap_skew;
		s.cntr_vals = vals;
	}
	first = M.arch_split && groups != AR_BASIC ? AR_BASIC : groups;
	rest = groups & ~first;
	if ((arch_frag_size(&s, first) + (rest ? arch_frag_size(&s, rest) : 0)) % 16)
		model_violate("arch record not a multiple of 16 B (IA32_PEBS_INDEX counts 16 B)");
	if (!buf || (M.pebs_index & ARCH_INDEX_FULL) || off + arch_frag_size(&s, first) > size) {
		M.st.dropped++;		/* nothing written, no reload */
		M.pebs_index |= ARCH_INDEX_FULL;
		M.pmc[i] = (M.pmc[i] + 1) & M.gp_mask;
		return;
	}
	off += arch_frag_write(buf + off, size - off, &s, first, rest != 0);
	if (rest && off + arch_frag_size(&s, rest) <= size) {
		off += arch_frag_write(buf + off, size - off, &s, rest, false);
	} else if (rest) {
		M.pebs_index |= ARCH_INDEX_FULL;	/* the first fragment is all there is */
		M.st.dropped++;
	}
	M.pebs_index = (M.pebs_index & ~ARCH_INDEX_WR_MASK) | (off >> 4) << ARCH_INDEX_WR_SHIFT;
	M.st.records_written++;
	M.pmc[i] = (uint64_t)(int64_t)(int32_t)(uint32_t)(cfg & CFG_C_RELOAD_MASK) & M.gp_mask;
	if ((ARCH_INDEX_WR(M.pebs_index) >= ARCH_INDEX_THRESH(M.pebs_index) ||
	     (M.pebs_index & ARCH_INDEX_FULL)) && !(M.global_status & GLOBAL_STATUS_ARCH_PEBS)) {
		M.global_status |= GLOBAL_STATUS_ARCH_PEBS;
		model_raise();
	}
}

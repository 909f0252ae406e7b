/*
 * memtype.h: the memory type in force for a physical address and the page that maps it (SDM
 * Vol. 3A ch. 12 "Memory Cache Control": 12.11 MTRRs, 12.12 PAT, 12.5.2.2 and Table 12-7
 * "Effective Page-Level Memory Types", 12.5.1 and Table 12-5 for CR0.CD/NW). Pure decoding
 * of register values (memtype.c); memtype_read.c reads them through the _safe accessors.
 * Used to name why every cache level of a load test timed alike (loads/alike.h).
 */
#ifndef KERNEL_MEMTYPE_H
#define KERNEL_MEMTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Memory type encodings (SDM Vol. 3A Table 12-8 MTRR types, Table 12-10 PAT types); UC- is a
 * PAT value only, MT_UNDEF an overlap of variable ranges the SDM leaves undefined. */
enum mem_type { MT_UC = 0, MT_WC = 1, MT_WT = 4, MT_WP = 5, MT_WB = 6, MT_UCM = 7,
		MT_UNDEF = 0xff };

#define MSR_IA32_MTRRCAP	0xfe	/* VCNT[7:0], FIX[8], WC[10] */
#define MSR_IA32_MTRR_DEF_TYPE	0x2ff	/* Type[7:0], FE[10], E[11] */
#define MSR_IA32_MTRR_PHYSBASE0	0x200	/* PHYSBASEn = 0x200 + 2n, PHYSMASKn = 0x201 + 2n */
#define MSR_IA32_PAT_MT		0x277
#define MTRR_DEF_FE		(1ull << 10)
#define MTRR_DEF_E		(1ull << 11)
#define MTRR_MASK_VALID		(1ull << 11)
#define MTRR_CAP_FIX		(1ull << 8)
#define MTRR_VAR_MAX		32
#define MTRR_FIXED_N		11
#define CR0_NW			(1ull << 29)
#define CR0_CD			(1ull << 30)

/* What the kernel read: the MTRR MSRs, IA32_PAT, CR0 and the leaf entry mapping an address. */
struct memtype_regs {
	bool have_mtrr, have_pat;	/* CPUID.01H:EDX.MTRR[12], PAT[16] */
	int fault;			/* the vector of the first faulting read, 0 if none */
	uint64_t cap, def_type, pat, cr0;
	uint64_t base[MTRR_VAR_MAX], mask[MTRR_VAR_MAX];
	uint64_t fixed[MTRR_FIXED_N];	/* 0x250, 0x258, 0x259, 0x268..0x26f */
	uint8_t phys_bits;		/* MAXPHYADDR (CPUID.80000008H:EAX[7:0]) */
};

struct memtype_of {
	uint8_t mtrr, pat, eff;		/* enum mem_type */
	char mtrr_src[48];		/* "default type", "variable range 1", "MTRRs disabled" */
	unsigned pat_index;		/* PAT:PCD:PWT of the entry */
	bool cd, nw;			/* CR0.CD, CR0.NW */
};

const char *mem_type_name(unsigned t);
/* The MTRR type of pa (SDM 12.11.4.1 "MTRR Precedences"); src says which register decided. */
uint8_t mtrr_type_of(const struct memtype_regs *r, uint64_t pa, char *src, size_t n);
/* The PAT index of a leaf entry: PAT bit 7 (4 KiB PTE) or 12 (2 MiB/1 GiB), PCD 4, PWT 3
 * (SDM Vol. 3A 12.12.3 "Selecting a Memory Type from the PAT"). */
unsigned pat_index_of(uint64_t entry, uint64_t page_size);
/* Table 12-7: effective type of an MTRR type and a PAT type. */
uint8_t mem_type_effective(uint8_t mtrr, uint8_t pat);
/* All of it for one address mapped by `entry`; CR0.CD forces no-fill (Table 12-5). */
void memtype_decide(const struct memtype_regs *r, uint64_t pa, uint64_t entry,
		    uint64_t page_size, struct memtype_of *o);
/* One phrase: "WB (MTRR WB variable range 0, PAT 0 WB)", "UC: CR0.CD=1 (caches off)". */
void memtype_describe(const struct memtype_of *o, char *b, size_t n);

/* memtype_read.c: read the registers (CPUID, _safe MSR reads, CR0), and look up va in the
 * kernel's page tables; false when va is not mapped. */
void memtype_read_regs(struct memtype_regs *r);
bool memtype_of_va(const struct memtype_regs *r, const void *va, struct memtype_of *o,
		   uint64_t *pa);

#endif

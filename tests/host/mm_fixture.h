/*
 * mm_fixture.h: identity maps built by kernel/pgtable.c as kernel/mm.c builds them, and the
 * machine layouts tests/host/mm_expect_test.c judges (tests/host/mm_fixture.c).
 */
#ifndef TESTS_HOST_MM_FIXTURE_H
#define TESTS_HOST_MM_FIXTURE_H

#include "kernel/mb2.h"
#include "kernel/mm_expect.h"
#include "kernel/pgtable.h"

/* cmocka group setup/teardown: the page pool */
int mm_fixture_setup(void **state);
int mm_fixture_teardown(void **state);
/* Small span, large span, then each device range in order; asserts every map succeeds. */
struct pgt mm_fixture_build(const struct mm_layout *l);

/* OVMF_CODE.fd as -bios on `pc`, -m 512M: framebuffer at 2 GiB, 18 map entries */
extern const struct mb2_mmap_entry ovmf_pc_map[18];
extern const struct mm_layout ovmf_pc;
extern const struct mm_io_range ovmf_pc_io[2];
/* q35 + SeaBIOS, -m 4G, 1 GiB pages, overlapping device mappings; 8 map entries */
extern const struct mb2_mmap_entry seabios_4g_map[8];
extern const struct mm_layout seabios_4g;
/* a framebuffer above the identity span, no NX, no PAT */
extern const struct mm_layout high_fb;

#endif

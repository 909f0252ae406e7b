/*
 * pmi_scenario.h: one seeded hostile PEBS run over the PMU model (pmi_scenario.c), shared by
 * tests/host/pmi_hostile_test.c (a fixed set of seeds under `make test`, PMI_SEED=n alone)
 * and `make soak` (tests/soak.sh, many random seeds), and the record sink both use.
 */
#ifndef TESTS_HOST_PMI_SCENARIO_H
#define TESTS_HOST_PMI_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pebs/pebs.h"

/* Counts the records a session drains and catches one handed over twice or out of order
 * (the model stamps each record: a serial in R15 of a legacy record, the TSC of an
 * adaptive one; architectural records are counted only). */
struct pmi_sink {
	const struct pebs_session *s;
	uint64_t n, dup, last;
	bool step;		/* each record is a point where a late PMI can land */
};

void pmi_sink_init(struct pmi_sink *k, const struct pebs_session *s);
void pmi_sink_fn(void *ctx, const uint8_t *rec, size_t len);

/* Run the scenario of `seed`. 0 when every check held; -1 with the first failure in why. */
int pmi_scenario(uint64_t seed, char *why, size_t n);

#endif

/* tlab_seq.h: what `tlab --protocol seq` adds around stats/abseq.h: the
 * seeded A/B order within each pair and the seq fields of the JSON output.
 * Kept out of cmd_ab.c so the command stays one flow for every protocol. */
#ifndef TLPERF_AB_SEQ_H
#define TLPERF_AB_SEQ_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "stats/abseq.h"

/* 1 when B runs first in pair `pair` (1-based) of a session seeded with
 * seed: a fair coin per pair, a pure function of (seed, pair), so a resumed
 * session draws the same order for the pairs it still has to measure. */
int ab_seq_b_first(uint64_t seed, long pair);

/* A seed for a session that was given none (time and process id). */
uint64_t ab_seq_default_seed(void);

/* Adds the seq fields to the verdict object j: stop_reason, gain,
 * gain_interval, within_state_gain, within_state_interval, critical_z,
 * min_pairs, max_pairs, min_gain, order_seed, signflip_p, states {A, B,
 * gap_a, gap_b, drift_per_run, ambiguous, fisher_p}. Allocation failures
 * leave fields out (cJSON's convention). */
void ab_seq_add_json(cJSON *j, const struct abseq_result *r, const struct abseq_params *p,
		     uint64_t seed);

/* Adds "state" ("fast", "slow", "outlier") to every object of the array
 * runs that has "arm" and "pair" (1-based, at most npairs), from
 * state_a[pair-1] / state_b[pair-1]. */
void ab_seq_add_run_states(cJSON *runs, const int *state_a, const int *state_b, size_t npairs);

#endif

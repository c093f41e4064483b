/* abseq_v1.h: the state-fitting rule, `--protocol seq-v1`: tlab's default
 * until seq (abseq.h), the rule with an error guarantee, replaced it. It is
 * kept only so that `make bench` can show the two side by side (issue 27
 * asks for it to be removed once the comparison is no longer wanted).
 *
 * Its model, on the log scale: every run lands in a fast or a slow state;
 * each arm's run medians are split into clusters where sorted values jump
 * by more than state_gap, a common drift is fitted within them, the
 * within-state paired differences give a level difference (t interval),
 * each arm's slow fraction gets Clopper-Pearson bounds (an unseen state
 * priced at prior_gap), the bounds combine by square-and-add and an exact
 * unconditional test of the state counts, and a verdict needs the bounds
 * at the critical z crit_inf + crit_k / n. It has no error guarantee: the
 * constants were tuned on the calibration grid, and it fits the states on
 * the data it then judges (docs/tlab.md, "How seq decides"); measured,
 * its worst null cell adopts falsely in 2.15% of sessions on the
 * evaluation grid and 5.33% on the calibration grid (G 11%, outside the
 * evaluation range), docs/benchmarks.md.
 */
#ifndef TLPERF_ABSEQ_V1_H
#define TLPERF_ABSEQ_V1_H

#include "stats/abseq.h"

#define ABSEQ_V1_MIN_PAIRS 4 /* seq-v1's first look */

/* Fills the v1 fields of p (crit_inf, crit_k, tie_z, state_gap,
 * outlier_gap, prior_gap, guard_p); abseq_params_default calls it under
 * either rule. */
void abseq_v1_defaults(struct abseq_params *p);

/* One look of the v1 rule; the contract of abseq_decide (p already checked). */
int abseq_v1_decide(const double *a, const double *b, const int *b_first, size_t n,
		    const struct abseq_params *p, int *state_a, int *state_b,
		    struct abseq_result *out);

#endif

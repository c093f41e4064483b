/* abseq.h: the sequential A/B protocol (`--protocol seq`, tlab's default).
 *
 * After every pair of runs the caller passes all run medians so far (one
 * value per run: launches are never pooled) and the order of each pair;
 * abseq_decide says "continue" or returns a verdict with its numbers.
 *
 * The model, on the log scale: every run of arm X lands in a fast or a
 * slow state (run-level bimodality), so y = level_X + gap_X * slow + small
 * noise, plus slow drift shared by both arms.
 *  1. States: each arm's detrended run medians are split where sorted
 *     values jump by more than state_gap; the lowest cluster is fast, the
 *     next one slow, anything beyond (or more than outlier_gap above fast)
 *     an outlier run (reported, left out). A common linear drift is fitted
 *     within clusters and the split repeated until it is stable.
 *  2. Like with like: each run is brought to its arm's fast level
 *     (y - gap_X * slow); the paired differences of those values give the
 *     within-state gain (Hodges-Lehmann estimate, t-based interval).
 *  3. What B would gain on average in production also depends on how often
 *     each arm lands slow: log mean = level + log(1 + p (e^gap - 1)). Each
 *     arm's fraction gets exact (Clopper-Pearson) bounds; an arm with one
 *     cluster may hide a state it has not shown (above the candidate,
 *     below the incumbent); the bounds combine by square-and-add, checked
 *     by an exact unconditional test of both arms' counts together (which
 *     alone decides, at the level of crit_inf, when neither arm shows a
 *     state). A decision must hold under every reading of the states the
 *     data cannot rule out: the other of two disagreeing gaps, a second
 *     cluster under 2 state_gap read as one state, and the incumbent's
 *     single upper run read as an outlier when its lower cluster sits at
 *     the other arm's slow level (it may have been slow every time).
 *  4. Verdicts, checked at every look from min_pairs to max_pairs with a
 *     critical value crit(n) = crit_inf + crit_k / n calibrated by
 *     simulation (`tlperf sim`) so that false adoption stays under 2.5%
 *     across all looks:
 *       B_better   the mean-gain interval is above 0 and the estimate is
 *                  at least min_gain;   A_better the mirror image;
 *       tie        the mean-gain interval is inside +-noise, or the state
 *                  counts do not differ (Fisher p > guard_p) and the
 *                  within-state interval is inside +-noise without a
 *                  proven within-state difference of min_gain or more;
 *       inconclusive  only at max_pairs.
 * Pure: no I/O, no allocation beyond what the helpers in hl.h need.
 */
#ifndef TLPERF_ABSEQ_H
#define TLPERF_ABSEQ_H

#include <stddef.h>

#include "stats/ab.h"

#define ABSEQ_MAX_PAIRS 128

struct abseq_params {
	size_t min_pairs;    /* first look (default 4, at least 3) */
	size_t max_pairs;    /* budget: inconclusive here (default 16, <= ABSEQ_MAX_PAIRS) */
	double min_gain;     /* smallest relative gain worth adopting (0.01) */
	double noise;        /* tie margin, relative (0.03) */
	double crit_inf;     /* critical z for the mean gain at a late look */
	double crit_k;       /* crit(n) = crit_inf + crit_k / n: stricter early */
	double tie_z;        /* normal quantile of the within-state interval (t-corrected) */
	double state_gap;    /* log jump that separates two run-state clusters (0.015) */
	double outlier_gap;  /* largest log gap of a slow state above fast; runs beyond are outliers (0.13) */
	double prior_gap;    /* log gap assumed for a state neither arm has shown yet (0.0953 = 10%) */
	double guard_p;      /* Fisher p at or below which the arms' state counts differ (0.1) */
	int signflip;        /* 1: also compute the exact sign-flip p of the raw log-ratios */
};

/* Fills the defaults listed above (the calibrated crit_inf, crit_k). */
void abseq_params_default(struct abseq_params *p);

/* Checks ranges: 3 <= min_pairs <= max_pairs <= ABSEQ_MAX_PAIRS,
 * 0 <= min_gain < noise < 0.5, positive gaps and critical values,
 * 0 <= guard_p < 1. Returns 0, or -1 and a static message in *why. */
int abseq_params_check(const struct abseq_params *p, const char **why);

enum abseq_state {
	ABSEQ_FAST = 0,     /* the arm's lower cluster (or its only one) */
	ABSEQ_SLOW = 1,     /* the arm's upper cluster */
	ABSEQ_OUTLIER = 2   /* far above the clusters: left out of the estimates */
};

/* "fast", "slow", "outlier". */
const char *abseq_state_name(int s);

enum abseq_reason {
	ABSEQ_CONTINUE = 0,     /* no decision yet: measure another pair */
	ABSEQ_GAIN = 1,         /* mean-gain interval above 0, estimate >= min_gain */
	ABSEQ_LOSS = 2,         /* mean-gain interval below 0, estimate <= -min_gain */
	ABSEQ_TIE = 3,          /* mean-gain interval inside +-noise */
	ABSEQ_TIE_WITHIN = 4,   /* same state counts, within-state interval inside +-noise */
	ABSEQ_BUDGET = 5        /* max_pairs reached without any of the above */
};

/* "continue", "gain", "loss", "tie", "tie_within_state", "budget". */
const char *abseq_reason_name(enum abseq_reason r);

/* Run states of both arms (step 1 above). */
struct abseq_states {
	int nclusters_a, nclusters_b; /* 1 or 2 state clusters seen in each arm */
	int ambiguous;     /* one arm shows one cluster, the other two: which state it is in is unknown */
	double gap_a;      /* log slow - log fast of arm A (0 with one cluster) */
	double gap_b;
	double drift;      /* fitted common drift, log per run */
	int conflict;      /* both arms showed two clusters with disagreeing gaps: the
			      smaller was taken for outliers (abseq_decide also weighs
			      the other reading) */
	unsigned a_fast, a_slow, a_outlier;  /* run counts per state */
	unsigned b_fast, b_slow, b_outlier;
};

/* Classifies every run (step 1). ya, yb: log run medians of pair i;
 * b_first[i]: 1 when B ran first in pair i (for the drift's time axis; NULL
 * means A first in every pair). Writes state_a[i], state_b[i] (ABSEQ_*)
 * and the summary. Returns 0, or -1 when n == 0, n > ABSEQ_MAX_PAIRS or a
 * value is not finite. */
int abseq_states(const double *ya, const double *yb, const int *b_first, size_t n,
		 double state_gap, double outlier_gap, int *state_a, int *state_b,
		 struct abseq_states *out);

struct abseq_result {
	enum abseq_reason reason;  /* ABSEQ_CONTINUE, or why it stopped */
	enum ab_verdict verdict;   /* meaningful when reason != ABSEQ_CONTINUE */
	size_t pairs;              /* pairs used */
	size_t pairs_used;         /* pairs without an outlier run (enter the estimates) */
	double crit;               /* critical z at this look */
	double gain;               /* estimated mean relative gain of B: 1 - b/a (> 0: B faster) */
	double gain_lo, gain_hi;   /* its interval at this look */
	double within_gain;        /* gain of B within the same run state (like with like) */
	double within_lo, within_hi;
	double log_gain, log_se;   /* mean gain on the log scale and its standard error */
	double within_log, within_se;
	double fisher_p;           /* state counts A vs B (1.0 when no states) */
	double signflip_p;         /* exact one-sided p of the raw log-ratios (NAN unless params.signflip) */
	struct abseq_states states;
};

/* One look of the protocol over pairs 0..n-1. a[i], b[i]: run medians
 * (any positive unit, e.g. us) of pair i; b_first as in abseq_states.
 * state_a, state_b (n each, may be NULL) receive each run's state.
 * Returns 0 with *out filled (reason ABSEQ_CONTINUE while n < min_pairs or
 * nothing is decided before max_pairs), or -1 when n == 0,
 * n > max_pairs, a value is not finite and > 0, or params are invalid. */
int abseq_decide(const double *a, const double *b, const int *b_first, size_t n,
		 const struct abseq_params *p, int *state_a, int *state_b,
		 struct abseq_result *out);

#endif

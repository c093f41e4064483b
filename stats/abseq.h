/* abseq.h: the sequential A/B protocols: `--protocol seq` (tlab's
 * default, the rule with the error guarantee below, in stats/abseq.c) and
 * seq-v1 (the state-fitting rule it replaced, stats/abseq_v1.h: no longer a
 * protocol of tlab, kept for `tlperf sim --protocol seq-v1`, which shows the
 * two side by side, and for the gate, which replays the sessions an older
 * tlab decided with it).
 *
 * After every pair of runs the caller passes all run medians so far (one
 * value per run: launches are never pooled) and the order of each pair;
 * abseq_decide says "continue" or returns a verdict with its numbers.
 *
 * seq, on the paired log-ratios d_i = log a_i - log b_i (> 0: B's run
 * faster), whose mean mu is B's gain in geometric-mean terms:
 *  1. An interval for mu at each look n (min_pairs..max_pairs): mean +-
 *     t sd / sqrt(n), t Student's quantile (n - 1 degrees of freedom) at
 *     the look's share of alpha, alpha n^spend_power / sum of k^spend_power
 *     over the looks (abseq_look_alpha): for Gaussian d_i each look misses
 *     mu with at most its share, so by the union bound the interval ever
 *     misses it with probability at most alpha, however the looks stop.
 *  2. A bar for the state-frequency shift the Gaussian model cannot see:
 *     when runs fall in a fast and a slow state (the same log gap, at most
 *     gap_max, in both arms, any frequencies, no noise within a state)
 *     and B is not faster, the chance that some look's mean log-ratio and
 *     studentized mean clear its bar is computed exactly over the whole
 *     session (stats/twostate.h) and held to 80% of alpha (abseq_look_bar).
 *  3. Verdicts at every look from min_pairs to max_pairs:
 *       B_better      interval above 0, estimate >= min_gain, bar cleared;
 *       A_better      interval below 0, estimate <= -min_gain (not an
 *                     adoption: the interval alone);
 *       tie           interval inside +-noise;
 *       inconclusive  at max_pairs, or earlier (futility) when, at the sd
 *                     seen so far and an estimate two standard errors
 *                     more decisive than the one seen, the budget could
 *                     not reach any verdict; pairs_needed says how many
 *                     pairs it would take.
 * So the chance of ever adopting a B that is not faster is at most 2.0%
 * over the whole session, a theorem for each of two models: Gaussian
 * log-ratios (any mean and sd; the interval, its levels scaled so that
 * the looks together cross with chance 1.97%) and the two-state family
 * (the bar). Between them (noise within states, outliers, drift) it is
 * measured against alpha (2.5%), not proven: the worst null cell adopts
 * in 1.40% of sessions on the evaluation grid (2,000 per cell) and 2.17%
 * on the calibration grid (600 per cell; docs/tlab.md "How seq decides").
 * The price is power: a steady 5% gain waits for pair 10, and a 5% gain
 * under an 8% state gap in as few as 55% of sessions where seq-v1, which
 * had no guarantee, adopted it in 91% (docs/tlab.md, "What the guarantee
 * costs": which cells miss the targets, and why).
 *
 * fast (ABSEQ_RULE_FAST, `--protocol fast`): the same interval and bars,
 * for the runs users have. B_better claims that B's geometric-mean run
 * (the mean log-ratio) is faster, by at least min_gain, and that B's run
 * was the faster in most pairs. Its bound: false adoption at most 2.0%
 * for Gaussian log-ratios (pivotal: the looks' levels, weighted to pairs
 * 4-8, scaled to 1.99%) and for a narrower two-state family than seq's:
 * equal state frequencies with gaps up to 11%, and state-frequency shifts
 * |pB - pA| <= 0.3 with gaps up to 8% (stats/twostate.h, computed
 * exactly); wider equal-mean shifts are not covered (docs/tlab.md reports
 * how often they are adopted). Ties and losses adopt nothing and are not
 * spent: tie when the interval at a one-sided 20% each side is inside
 * +-noise and the estimate within 0.4 of it; A_better when the interval
 * at 0.5% is below 0; futile at one standard error (seq: two).
 * Pure: no I/O; the bars are computed at the first look that needs them
 * and kept per thread (abseq_look_bar; fast's take well under a second).
 */
#ifndef TLPERF_ABSEQ_H
#define TLPERF_ABSEQ_H

#include <stddef.h>

#include "stats/ab.h"
#include "stats/twostate.h"

#define ABSEQ_MAX_PAIRS 128

/* seq's own defaults (abseq_params_default is their only reader). */
#define ABSEQ_TIE_MARGIN 0.03  /* tie margin: the reference rule's noise threshold */
#define ABSEQ_MIN_GAIN 0.01    /* smallest gain worth adopting */
#define ABSEQ_MIN_PAIRS 3      /* seq's first look: the sd of 2 pairs has one degree of freedom */
#define ABSEQ_MAX_PAIRS_DEFAULT 16 /* budget: 32 profiler runs */

enum abseq_rule {
	ABSEQ_RULE_SEQ = 0, /* seq, the default: the rule with the guarantee above */
	ABSEQ_RULE_V1 = 1,  /* seq-v1: the state-fitting rule, for comparison (stats/abseq_v1.h) */
	ABSEQ_RULE_FAST = 2 /* fast: seq's interval and bars over a narrower family (below) */
};

struct abseq_params {
	int rule;            /* enum abseq_rule */
	size_t min_pairs;    /* first look (default 3, at least 3) */
	size_t max_pairs;    /* budget: inconclusive here (default 16, <= ABSEQ_MAX_PAIRS) */
	double min_gain;     /* smallest relative gain worth adopting (0.01) */
	double noise;        /* tie margin, relative (0.03) */
	double alpha;        /* error budget the looks spend (0.025); the proven bound
				is 80% of it (abseq_false_adoption_bound) */
	double gap_max;      /* largest log gap between run states the bar assumes */
	double spend_power;  /* look n spends alpha in proportion to n^spend_power (2) */
	/* seq-v1 only (stats/abseq_v1.h) */
	double crit_inf;     /* critical z at a late look */
	double crit_k;       /* crit(n) = crit_inf + crit_k / n */
	double tie_z;        /* normal quantile of the within-state interval */
	double state_gap;    /* log jump that separates two run-state clusters */
	double outlier_gap;  /* largest log gap of a slow state above fast */
	double prior_gap;    /* log gap assumed for a state neither arm has shown */
	double guard_p;      /* Fisher p at or below which state counts differ */
	int signflip;        /* 1: also compute the exact sign-flip p of the raw log-ratios */
};

/* Fills every default of RULE (an enum abseq_rule): the only place
 * seq's and seq-v1's defaults come from (seq-v1's own fields are filled
 * under either rule). */
void abseq_params_default(struct abseq_params *p, int rule);

/* Switches P, whose fields may already hold a caller's options, to RULE:
 * takes RULE's default first look unless MIN_PAIRS_GIVEN (the one default
 * that differs between the rules); every other field is kept. */
void abseq_params_set_rule(struct abseq_params *p, int rule, int min_pairs_given);

/* Checks ranges: 3 <= min_pairs <= max_pairs <= ABSEQ_MAX_PAIRS
 * (seq: <= TWOSTATE_MAX_N, 24),
 * 0 <= min_gain < noise < 0.5, 0 < alpha < 0.5, 0 <= spend_power <= 8,
 * 0 < gap_max < 1 (and seq-v1's constants when rule is ABSEQ_RULE_V1),
 * a known rule. Returns 0,
 * or -1 and a static message in *why. */
int abseq_params_check(const struct abseq_params *p, const char **why);

enum abseq_state {
	ABSEQ_FAST = 0,     /* the arm's lower cluster (or its only one) */
	ABSEQ_SLOW = 1,     /* the arm's upper cluster */
	ABSEQ_OUTLIER = 2   /* far above the clusters */
};

/* "fast", "slow", "outlier". */
const char *abseq_state_name(int s);

enum abseq_reason {
	ABSEQ_CONTINUE = 0,     /* no decision yet: measure another pair */
	ABSEQ_GAIN = 1,         /* interval above 0, estimate >= min_gain */
	ABSEQ_LOSS = 2,         /* interval below 0, estimate <= -min_gain */
	ABSEQ_TIE = 3,          /* interval inside +-noise */
	ABSEQ_TIE_WITHIN = 4,   /* seq-v1: same state counts, within-state interval inside */
	ABSEQ_BUDGET = 5,       /* max_pairs reached without any of the above */
	ABSEQ_FUTILE = 6,       /* the budget cannot reach a verdict at this noise */
	ABSEQ_NREASONS = 7
};

/* "continue", "gain", "loss", "tie", "tie_within_state", "budget", "futile". */
const char *abseq_reason_name(enum abseq_reason r);

/* Run states of both arms, as reported (seq-v1 decides on them; seq only
 * reports them). */
struct abseq_states {
	int nclusters_a, nclusters_b; /* 1 or 2 state clusters seen in each arm */
	int ambiguous;     /* one arm shows one cluster, the other two */
	double gap_a;      /* log slow - log fast of arm A (0 with one cluster) */
	double gap_b;
	double drift;      /* fitted common drift, log per run */
	int conflict;      /* both arms showed two clusters with disagreeing gaps */
	unsigned a_fast, a_slow, a_outlier;  /* run counts per state */
	unsigned b_fast, b_slow, b_outlier;
};

/* Classifies every run into fast, slow or outlier (stats/abseq_v1.c).
 * ya, yb: log run medians of pair i; b_first[i]: 1 when B ran first in
 * pair i (NULL: A first). Returns 0, or -1 when n == 0, n >
 * ABSEQ_MAX_PAIRS or a value is not finite. */
int abseq_states(const double *ya, const double *yb, const int *b_first, size_t n,
		 double state_gap, double outlier_gap, int *state_a, int *state_b,
		 struct abseq_states *out);

struct abseq_result {
	enum abseq_reason reason;  /* ABSEQ_CONTINUE, or why it stopped */
	enum ab_verdict verdict;   /* meaningful when reason != ABSEQ_CONTINUE */
	size_t pairs;              /* pairs used */
	size_t pairs_used;         /* pairs that enter the estimate */
	size_t pairs_needed;       /* seq: pairs a verdict would take at this noise (0: unknown) */
	double crit;               /* seq: t multiplier of the interval; v1: critical z */
	double gain;               /* estimated relative gain of B: 1 - b/a (> 0: B faster) */
	double gain_lo, gain_hi;   /* its interval at this look */
	double within_gain;        /* v1: gain within the same run state (seq: NAN) */
	double within_lo, within_hi;
	double log_gain, log_se;   /* gain on the log scale and its standard error */
	double within_log, within_se;
	double fisher_p;           /* v1: state counts A vs B (1.0 when no states) */
	double signflip_p;         /* exact one-sided p of the raw log-ratios (NAN unless params.signflip) */
	struct abseq_states states;
};

/* One look of the protocol over pairs 0..n-1. a[i], b[i]: run medians
 * (any positive unit, e.g. us) of pair i; b_first as in abseq_states.
 * state_a, state_b (n each, may be NULL) receive each run's state.
 * Returns 0 with *out filled (reason ABSEQ_CONTINUE while n < min_pairs or
 * nothing is decided), or -1 when n == 0, n > max_pairs, a value is not
 * finite and > 0, or params are invalid. */
int abseq_decide(const double *a, const double *b, const int *b_first, size_t n,
		 const struct abseq_params *p, int *state_a, int *state_b,
		 struct abseq_result *out);

/* The error look n may spend: alpha n^2 / sum of k^2 over the looks
 * min_pairs..max_pairs (0 outside them); the looks' shares sum to alpha. */
double abseq_look_alpha(size_t n, const struct abseq_params *p);

/* The bound on false adoption that P's rule proves: the chance that a
 * session ever adopts a B that is not faster is at most BAR_SHARE alpha
 * (2.0% with the defaults) under the rule's models (seq: Gaussian
 * log-ratios and two run states up to gap_max apart; fast: Gaussian
 * log-ratios and its narrower two-state family), over all looks; alpha
 * itself (2.5%) is the budget the looks spend and the target measured
 * where no theorem applies (abseq.c). NAN for seq-v1, which proves none.
 * tlab prints it as "false_adoption_bound". */
double abseq_false_adoption_bound(const struct abseq_params *p);

/* The level of Student's quantile at look n: abseq_look_alpha scaled so
 * that, for Gaussian log-ratios, the looks together cross with chance
 * 1.97% for the default schedule (GAUSS_SCALE, computed) and at most 2.0%
 * for any other (BAR_SHARE, by the sum); abseq.c. */
double abseq_look_level(size_t n, const struct abseq_params *p);

/* The t multiplier of look n: the interval is mean +- t sd / sqrt(n), t
 * the Student quantile (n - 1 degrees of freedom) at abseq_look_level. */
double abseq_look_t(size_t n, const struct abseq_params *p);

/* The two-state bar of look n (stats/twostate.h): a gain is declared only
 * when the mean log-ratio and its studentized mean clear it
 * (twostate_clears). The bars of all looks are computed at the first
 * look that needs them (about 5 s for the default budget, then kept for
 * the thread). Returns 0, or -1 outside the looks or when they cannot be
 * computed. */
int abseq_look_bar(size_t n, const struct abseq_params *p, struct twostate_bar *bar);

/* The bars of looks min_pairs..max_pairs computed afresh (the default
 * schedule's are kept in stats/abseq_bars.inc): the chance of adopting by
 * look n held within BAR_SHARE of the levels of looks min_pairs..n added
 * up, t at least abseq_look_t. Returns 0, or -1 when max_pairs exceeds
 * TWOSTATE_MAX_N or on no memory. */
int abseq_compute_bars(const struct abseq_params *p, struct twostate_bar *bar);

#endif

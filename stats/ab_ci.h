/* ab_ci.h: a distribution-free confidence interval for the paired relative
 * change of an A/B comparison. Pure functions.
 *
 * Why order statistics: run medians are bimodal (fast/slow process states),
 * so normal-theory intervals mislead. The interval for the median of the
 * per-pair changes r_i = (a_i - b_i) / a_i is [r_(k), r_(n+1-k)], whose
 * coverage 1 - 2 P(X <= k-1), X ~ Binomial(n, 1/2), holds for any
 * continuous distribution (it is the inversion of the sign test). With few
 * pairs the attainable coverage is coarse (3 pairs: at most 75%), so the
 * achieved level is reported alongside the bounds.
 */
#ifndef TLPERF_AB_CI_H
#define TLPERF_AB_CI_H

#include <stddef.h>

struct stats_ci {
	double lo;         /* lower bound */
	double hi;         /* upper bound */
	double estimate;   /* the point estimate (median of the values) */
	double level;      /* achieved coverage, e.g. 0.978515625 for n=10 */
	double requested;  /* the level asked for */
	size_t k;          /* bounds are the k-th smallest and k-th largest (1-based) */
};

/* Order-statistic interval for the median of x[0..n-1] with coverage at
 * least conf (0 < conf < 1) when n allows it: the narrowest such interval.
 * When even [min, max] falls short of conf, returns [min, max] and its
 * (lower) achieved level. x is not modified.
 * Returns 0, or -1 when n == 0, conf is outside (0,1) or a value is not
 * finite (*out untouched). */
int stats_median_ci(const double *x, size_t n, double conf, struct stats_ci *out);

/* Per-pair relative change r_i = (a_i - b_i) / a_i (> 0 when B is faster,
 * same sign convention as b_rel_change) and the stats_median_ci of the r_i.
 * Returns 0, or -1 when npairs == 0, conf is outside (0,1), or some a_i or
 * b_i is not finite and > 0. */
int stats_ab_rel_ci(const double *a, const double *b, size_t npairs, double conf,
		    struct stats_ci *out);

#endif

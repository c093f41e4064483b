/* stats.h: descriptive statistics over arrays of doubles.
 *
 * Pure functions: no I/O, no exit, never modify the caller's array (they
 * sort a private copy). Every function returns NAN when n == 0 or when an
 * input is NaN, unless its contract says otherwise.
 */
#ifndef TLPERF_STATS_H
#define TLPERF_STATS_H

#include <stddef.h>

/* "Noise" has one default per meaning, each beside its reader:
 * AB_REF_NOISE (stats/ab.h, the reference rule's tie margin),
 * ABSEQ_TIE_MARGIN (stats/abseq.h, seq's), STATS_PLATEAU_NOISE
 * (stats/plateau.h), STATS_WINNER_NOISE (stats/winner.h),
 * OPTLOG_NOISE_DEFAULT_PCT (model/optlog.h, an opt_log that states none),
 * STAGE_RESULT_NOISE_DEFAULT (model/stage_result.h) and
 * LOOP_PLAN_NOISE_DEFAULT (io/loopplan.h). All are 3% today, by the seeds'
 * "improving by more than the noise threshold (3%)"; changing one changes
 * only its meaning. */

/* Median of x[0..n-1]; the mean of the two middle values when n is even. */
double stats_median(const double *x, size_t n);

/* Quantile p in [0,1] with linear interpolation between order statistics
 * (Hyndman-Fan type 7, the default of R and numpy). NAN when p is outside
 * [0,1]. */
double stats_quantile(const double *x, size_t n, double p);

/* Median absolute deviation from the median, unscaled (multiply by 1.4826
 * for a normal-consistent sigma). */
double stats_mad(const double *x, size_t n);

double stats_mean(const double *x, size_t n);
double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);

/* Geometric mean computed through logarithms: exp(mean(log x)). NAN when
 * any value is <= 0 or not finite. */
double stats_geomean(const double *x, size_t n);

/* The geometric mean as values arrive (the one way the project computes
 * it: exp of the mean of logarithms). A value that is not a positive
 * finite number makes the mean NAN, as in stats_geomean. */
struct stats_geomean_acc {
	double logsum;
	size_t n;
	int bad;        /* a value was not positive and finite */
};
void stats_geomean_init(struct stats_geomean_acc *g);
void stats_geomean_add(struct stats_geomean_acc *g, double x);
/* NAN when no value was added or one was bad. */
double stats_geomean_value(const struct stats_geomean_acc *g);

/* Sorts a copy of x ascending into out (out must hold n values; may not
 * alias x). Returns 0, or -1 when any value is NaN (out is then undefined). */
int stats_sorted_copy(const double *x, size_t n, double *out);

#endif

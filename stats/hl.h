/* hl.h: paired-difference statistics for the sequential A/B protocol:
 * the Hodges-Lehmann estimate and the exact sign-flip (randomisation)
 * test. Pure functions; the caller's arrays are never modified.
 */
#ifndef TLPERF_HL_H
#define TLPERF_HL_H

#include <stddef.h>

/* Hodges-Lehmann estimate of the centre of d[0..n-1]: the median of the
 * n(n+1)/2 Walsh averages (d[i]+d[j])/2, i <= j. Robust to a few wild
 * values, nearly as efficient as the mean on normal data.
 * Returns NAN when n == 0, a value is not finite, or memory runs out. */
double stats_hl_estimate(const double *d, size_t n);

/* Exact one-sided sign-flip p-value for "the d[i] are centred above 0":
 * the fraction of the 2^n sign assignments s (s[i] = +-1) whose sum
 * s[i]*|d[i]| is at least the observed sum of d (values within 1e-12
 * relative count as equal). Under "no difference" with A/B order
 * randomised within each pair, every assignment is equally likely, so the
 * p-value is exact whatever the run-state distribution. Enumerates by
 * meet-in-the-middle (2 * 2^(n/2) partial sums).
 * Returns NAN when n == 0, n > 40, a value is not finite, or memory runs
 * out. (d = {1,2,3}: 1/8; d = {1,-2,3}: 3/8.) */
double stats_signflip_p(const double *d, size_t n);

#endif

/* ab.c: the reference A/B rule of ab_test.py and the exact sign test. */
#include "stats/ab.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/stats.h"

const char *ab_verdict_name(enum ab_verdict v)
{
	switch (v) {
	case AB_TIE:
		return "tie";
	case AB_B_BETTER:
		return "B_better";
	case AB_A_BETTER:
		return "A_better";
	case AB_INCONCLUSIVE:
		return "inconclusive";
	}
	return "unknown";
}

double stats_sign_test_p(size_t n, size_t k)
{
	if (n == 0 || k > n)
		return 1.0;
	size_t tail = k < n - k ? k : n - k;
	double p;
	if (n <= 62) {
		/* Exact, as ab_test.py computes it: the tail as an integer (C(62,31)
		 * and any tail sum stay below 2^63), converted to double once
		 * (rounded to nearest, like Python's int -> float), then scaled by
		 * 2^-n, which is exact. n=3 gives 0.25, not 0.25+3e-16. */
		uint64_t c = 1, sum = 1; /* C(n, 0) */
		for (size_t i = 1; i <= tail; i++) {
			c = c / i * (n - i + 1) + c % i * (n - i + 1) / i; /* C(n, i), no overflow */
			sum += c;
		}
		p = ldexp(2.0 * (double)sum, -(int)n);
	} else {
		/* GSL takes unsigned int; n beyond that is not a number of pairs. */
		p = 2.0 * gsl_cdf_binomial_P((unsigned)tail, 0.5, (unsigned)n);
	}
	if (!isfinite(p) || p > 1.0)
		p = 1.0;
	return p;
}

/* 1 when every figure of A and B [0, n) is finite and positive. */
static int pairs_valid(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(a[i]) || !isfinite(b[i]) || a[i] <= 0.0 || b[i] <= 0.0)
			return 0;
	return 1;
}

/* The reference verdict from the relative change REL of the medians. */
static enum ab_verdict ref_verdict(double rel, double noise, int significant)
{
	if (!isfinite(rel))
		return AB_INCONCLUSIVE; /* e.g. medians of 1.7e308 overflow: a NaN is no verdict */
	if (fabs(rel) < noise)
		return AB_TIE;
	if (significant)
		return rel > 0.0 ? AB_B_BETTER : AB_A_BETTER;
	return AB_INCONCLUSIVE;
}

int stats_ab_ref(const double *a, const double *b, size_t npairs, double noise,
		 struct ab_ref_result *out)
{
	if (npairs == 0 || !a || !b || !out || !isfinite(noise) || !pairs_valid(a, b, npairs))
		return -1;

	double ma = stats_median(a, npairs), mb = stats_median(b, npairs);
	double sum = 0.0;
	size_t nonzero = 0, positive = 0, negative = 0;
	for (size_t i = 0; i < npairs; i++) {
		double d = b[i] - a[i];
		sum += d;
		if (d > 0.0)
			positive++;
		else if (d < 0.0)
			negative++;
	}
	nonzero = positive + negative;

	/* Every difference non-zero and on the side of their sum; a zero sum
	 * with all differences non-zero implies mixed signs. */
	int consistent = nonzero == npairs &&
			 ((sum > 0.0 && negative == 0) || (sum < 0.0 && positive == 0));
	double p = stats_sign_test_p(nonzero, positive);
	double rel = (ma - mb) / ma;
	int significant = consistent && (npairs < 5 || p < 0.1);

	enum ab_verdict v = ref_verdict(rel, noise, significant);

	out->a_merged_median_us = ma;
	out->b_merged_median_us = mb;
	out->b_rel_change = rel;
	out->sign_test_p = p;
	out->direction_consistent = consistent;
	out->significant = significant;
	out->verdict = v;
	return 0;
}

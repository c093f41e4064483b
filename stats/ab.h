/* ab.h: A/B arbitration verdicts and the reference protocol (the rule of
 * the Python ab_test.py, reproduced exactly). Pure functions.
 * The sequential protocol (`--protocol seq`) lives in stats/abseq.h. */
#ifndef TLPERF_AB_H
#define TLPERF_AB_H

#include <stddef.h>

/* The reference rule's tie margin: ab_test.py's default --noise (3%). */
#define AB_REF_NOISE 0.03

enum ab_verdict {
	AB_TIE = 0,          /* |relative change| inside the tie margin */
	AB_B_BETTER = 1,     /* candidate B is faster, significantly */
	AB_A_BETTER = 2,     /* incumbent A is faster, significantly */
	AB_INCONCLUSIVE = 3  /* not significant and not a tie */
};

/* "tie", "B_better", "A_better", "inconclusive". */
const char *ab_verdict_name(enum ab_verdict v);

struct ab_ref_result {
	double a_merged_median_us;  /* median of A's run medians */
	double b_merged_median_us;  /* median of B's run medians */
	double b_rel_change;        /* (a_merged - b_merged) / a_merged: > 0 when B is faster */
	double sign_test_p;         /* exact two-sided sign test over non-zero pair diffs (B - A) */
	int direction_consistent;   /* every pair diff non-zero and of the sign of their sum */
	int significant;            /* consistent and (pairs < 5 or p < 0.1) */
	enum ab_verdict verdict;
};

/* Exact two-sided sign test: n non-zero differences of which k are
 * positive; p = min(1, 2 * P(X <= min(k, n-k))) for X ~ Binomial(n, 1/2).
 * Returns 1.0 when n == 0. (n=3,k=3: 0.25; n=10,k=9: 0.021484375) */
double stats_sign_test_p(size_t n, size_t k);

/* The reference rule over npairs pairs of run medians a[i], b[i] (pair i
 * measured A and B once each). noise is the tie margin (0.03).
 * Returns 0, or -1 when npairs == 0 or an input is not finite and > 0. */
int stats_ab_ref(const double *a, const double *b, size_t npairs, double noise,
		 struct ab_ref_result *out);

#endif

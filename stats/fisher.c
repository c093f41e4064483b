/* fisher.c: Fisher's exact test (see fisher.h). */
#include "stats/fisher.h"

#include <gsl/gsl_randist.h>

double stats_fisher_exact_p(unsigned a, unsigned b, unsigned c, unsigned d)
{
	unsigned r1 = a + b, r2 = c + d, c1 = a + c;
	if (r1 == 0 || r2 == 0 || c1 == 0 || b + d == 0)
		return 1.0;
	/* a ~ Hypergeometric(c1 successes drawn from r1 "good" and r2 "bad"):
	 * gsl_ran_hypergeometric_pdf(k, n1, n2, t) */
	unsigned lo = c1 > r2 ? c1 - r2 : 0;
	unsigned hi = c1 < r1 ? c1 : r1;
	double p0 = gsl_ran_hypergeometric_pdf(a, r1, r2, c1);
	double p = 0.0;
	for (unsigned k = lo; k <= hi; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, r1, r2, c1);
		if (pk <= p0 * (1.0 + 1e-7))
			p += pk;
	}
	return p > 1.0 ? 1.0 : p;
}

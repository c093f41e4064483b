/* fisher.h: Fisher's exact test on a 2x2 table (GSL hypergeometric).
 * Used to compare how often each arm's runs land in the slow state. */
#ifndef TLPERF_FISHER_H
#define TLPERF_FISHER_H

/* Two-sided Fisher exact p for the table
 *     | col1 col2
 *   r1|  a    b
 *   r2|  c    d
 * p = sum of the probabilities, under fixed margins, of all tables no more
 * likely than the observed one (R's fisher.test convention, relative
 * tolerance 1e-7). Returns 1.0 when a row or column total is zero.
 * (a,b,c,d = 3,1,1,3: 0.4857142857; 4,0,0,4: 0.0285714286.) */
double stats_fisher_exact_p(unsigned a, unsigned b, unsigned c, unsigned d);

#endif

/* twostate.h: the two-state null family of the A/B decision, computed
 * exactly over a whole sequential session, and the bar of each look that
 * keeps it within a given error.
 *
 * The family: every run of A lands in a slow state (log gap g above its
 * fast level) with probability pA, every run of B with pB, independently,
 * the same gap g <= gap_max in both arms, no noise within a state, and B
 * not faster (the mean log-ratio E d <= 0). A pair's log-ratio d = log a -
 * log b then takes the values g (r + x), x in {+1, 0, -1}, with r = pB -
 * pA at E d = 0 (x = +1: A slow, B fast). It is the extreme the
 * studentized mean cannot see through: a sample of such pairs may show no
 * spread at all, and a state-frequency shift with B's mean equal to A's
 * shows a clean, constant "gain" in most of its pairs.
 *
 * A session adopts at look n when the mean log-ratio of its n pairs is
 * above m_n and their studentized mean T = mean / (sd / sqrt(n)) at least
 * t_n. Over the family, the chance of adopting by look n is largest at
 * E d = 0 and g = gap_max (T does not depend on g, the mean grows with it,
 * and a slower B moves both down). After n pairs the sample is summed up
 * by the counts (k+, k-) of the values +1 and -1, a Markov chain: the
 * chance of ever adopting is computed exactly by carrying the mass of
 * every count pattern not yet adopted from look to look, not bounded look
 * by look. Its maximum over (pA, pB) is searched by r = pB - pA and pA:
 * a pattern is in a look's region exactly when r is above a threshold of
 * its own, so the search takes r just above every such threshold of every
 * look so far (where some region has just grown) and on a grid, and pA
 * on a grid refined around its best value.
 * Pure: no I/O; twostate_bars allocates its scratch and frees it.
 */
#ifndef TLPERF_TWOSTATE_H
#define TLPERF_TWOSTATE_H

#include <stddef.h>

/* Largest look computed: the exact search grows as the cube of the pairs
 * (all 16 looks of the default budget take about a second). */
#define TWOSTATE_MAX_N 24

/* The bar of one look: adopt when the mean log-ratio is above m and the
 * studentized mean at least t, or the mean above m2 and the studentized
 * mean at least t2 (a second way over the bar, for samples with more
 * spread than the steady design). */
struct twostate_bar {
	double m, t;
	double m2, t2;
};

/* A narrower family: runs of A and B at equal state frequencies
 * (pA = pB) with a gap up to gap_equal, and state-frequency shifts
 * |pB - pA| <= shift_max with a gap up to gap_shift; no other member.
 * The wide family of twostate_worst and twostate_bars is every shift
 * with one gap (twostate_family_wide). */
struct twostate_family {
	double gap_equal;   /* largest log gap at pA = pB */
	double gap_shift;   /* largest log gap when pA != pB */
	double shift_max;   /* largest |pB - pA| (1: any) */
};

/* Fills F with the wide family: any frequencies, gaps up to gap_max. */
void twostate_family_wide(struct twostate_family *f, double gap_max);

/* Whether a sample of mean log-ratio `mean` and studentized mean z
 * clears the bar. */
int twostate_clears(const struct twostate_bar *b, double mean, double z);

/* The family's largest chance of adopting at some look first..n of a
 * session whose looks have the bars bar[first..n] (indexed by look),
 * 2 <= first <= n <= TWOSTATE_MAX_N; NAN on bad arguments or no memory. */
double twostate_worst(size_t first, size_t n, double gap_max, const struct twostate_bar *bar);

/* twostate_worst over family F. */
double twostate_worst_in(size_t first, size_t n, const struct twostate_family *f,
			 const struct twostate_bar *bar);

/* The bars of looks first..last, look by look: the chance of adopting by
 * look n is kept within spent[n] (non-decreasing in n) over the whole
 * family, and t >= t_floor[n]. Among the first rectangles a look may
 * have (t = t_floor + k/4, k = 0..32, each with the least m the remaining
 * error allows) the one is kept that gives a steady design gain (paired
 * log-ratios N(design_mean, design_sd^2)) the best chance; the second
 * (t2 = t_floor + t2_above) then gets the least m2 the error left at every
 * point allows. Returns 0 with bar[first..last] filled, or -1 on bad arguments
 * or no memory. */
int twostate_bars(size_t first, size_t last, double gap_max, const double *spent,
		  const double *t_floor, double t2_above, double design_mean, double design_sd,
		  struct twostate_bar *bar);

/* twostate_bars over family F. */
int twostate_bars_in(size_t first, size_t last, const struct twostate_family *f,
		     const double *spent, const double *t_floor, double t2_above,
		     double design_mean, double design_sd, struct twostate_bar *bar);

#endif

/* twostate.h: the two-state null family of the A/B decision, computed
 * exactly, and the adoption region of one look that keeps it within a
 * given error.
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
 * A region {mean > m, T >= t} (T = mean / (sd / sqrt(n)), the
 * studentized mean of n pairs) has, over this family, its largest
 * probability at E d = 0 and g = gap_max (T does not depend on g, the
 * mean grows with it, and a slower B moves both down), so the worst case
 * is a finite sum over the counts (k+, k0, k-) of the three values,
 * maximised over (pA, pB). The maximum is taken over a grid of
 * TWOSTATE_GRID steps per probability, then refined around the grid's
 * best point (twostate.c); the region is chosen so that even the refined
 * maximum stays within the look's share of the error.
 * Pure: no I/O; twostate_region allocates its scratch and frees it.
 */
#ifndef TLPERF_TWOSTATE_H
#define TLPERF_TWOSTATE_H

#include <stddef.h>

/* Steps of pA and pB over [0, 1] in the coarse search of the maximum. */
#define TWOSTATE_GRID 60
/* Largest look the exact sums are computed for: C(n+2, 2) patterns, and
 * the search grows as their square (all 40 looks of a 40-pair budget take
 * about 5 s, against 0.2 s for 16). */
#define TWOSTATE_MAX_N 40

/* The adoption region of one look: the mean log-ratio above m and the
 * studentized mean at least t. */
struct twostate_region {
	double m;      /* log-ratio the mean must exceed */
	double t;      /* studentized mean it must reach (>= the floor given) */
	double worst;  /* the family's largest probability of the region */
};

/* The family's largest probability of {mean > m, T >= t} after n pairs
 * (2 <= n <= TWOSTATE_MAX_N), over pA, pB in [0, 1] and g <= gap_max;
 * NAN on bad arguments. */
double twostate_worst(size_t n, double gap_max, double m, double t);

/* The region of look n with the largest chance of adopting a steady
 * design gain (paired log-ratios N(design_mean, design_sd^2)) among those
 * whose worst case is at most share: t runs over t_floor + k/4 (k =
 * 0..32), each with the least m it allows. Returns 0 with *out filled,
 * or -1 on bad arguments or no memory. */
int twostate_region(size_t n, double gap_max, double share, double t_floor,
		    double design_mean, double design_sd, struct twostate_region *out);

#endif

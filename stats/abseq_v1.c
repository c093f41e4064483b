/* abseq_v1.c: `--protocol seq-v1`, the state-fitting rule tlab used before
 * the anytime-valid rule of abseq.c (kept for comparison, see abseq_v1.h). */
#include "stats/abseq_v1.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

#include "stats/fisher.h"
#include "stats/hl.h"
#include "stats/stats.h"

/* crit(n) = CRIT_INF + CRIT_K / n, the critical z of every bound at look n.
 * Calibrated on `tlperf sim --grid calibration` (300 trials per cell,
 * seed 1; CRIT_INF 2.3 and 2.45, CRIT_K 2, 3 and 5 compared): 2.45 + 3/n
 * keeps the mean pairs of an 8% gain near 6 where both arms are slow 85%
 * of the time, at the cost of false adoption in the harshest calibration
 * cells (a gap jittering by 20% at G = 11%). Reported on the separate
 * evaluation grid (docs/benchmarks.md). */
#define CRIT_INF 2.45
#define CRIT_K 3.0
/* A slow state may sit up to 13% (log 0.13) above the fast one: the gaps
 * of the decision-quality grid go to 10%, plus drift and noise. */
#define OUTLIER_GAP 0.13
/* The gap assumed for a state no run has shown yet: 10% (log 0.0953). */
#define PRIOR_GAP 0.0953

void abseq_v1_defaults(struct abseq_params *p)
{
	p->crit_inf = CRIT_INF;
	p->crit_k = CRIT_K;
	p->tie_z = 3.0;
	p->state_gap = 0.015;
	p->outlier_gap = OUTLIER_GAP;
	p->prior_gap = PRIOR_GAP;
	p->guard_p = 0.1;
}

/* ---- step 1: run states ------------------------------------------------ */

/* Splits one arm's values z[0..n-1] into clusters where the sorted values
 * jump by more than sg. The lowest cluster is fast. Of the clusters above
 * it whose level is within og of fast, the one with the most runs is the
 * slow state (ties: the level nearest hint, when hint is finite, else the
 * lowest); every other run is an outlier. So a run between the states or
 * just above the slow cluster (an outlier near the slow state) does not
 * displace the real slow runs, and a slow state up to og above fast is a
 * state, never discarded as outliers. Writes st[], returns the number of
 * state clusters (1 or 2) and the gap (mean slow - mean fast) in *gap. */
/* The clusters of one arm: sorted values split where neighbours are more
 * than sg apart. Writes each run's cluster (0 = lowest) to cl[], the
 * clusters' sums and counts, and returns the number of clusters. */
static size_t split_clusters(const double *z, size_t n, double sg, size_t *cl, double *csum,
			     size_t *ccnt)
{
	size_t idx[ABSEQ_MAX_PAIRS];
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* insertion sort of indices by value: n is small */
	for (size_t i = 1; i < n; i++) {
		size_t k = idx[i], j = i;
		while (j > 0 && z[idx[j - 1]] > z[k]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = k;
	}
	size_t g = 0;
	csum[0] = 0;
	ccnt[0] = 0;
	for (size_t r = 0; r < n; r++) {
		size_t i = idx[r];
		if (r > 0 && z[i] - z[idx[r - 1]] > sg) {
			g++;
			csum[g] = 0;
			ccnt[g] = 0;
		}
		cl[i] = g;
		csum[g] += z[i];
		ccnt[g]++;
	}
	return g + 1;
}

/* Of the clusters 1..nc-1 whose level is within og of the lowest, the one
 * with the most runs (ties: the level nearest hint when finite, else the
 * lowest); 0 when there is none. Its level goes to *lvl. */
static size_t pick_slow(const double *csum, const size_t *ccnt, size_t nc, double og, double hint,
			double *lvl)
{
	double fast = csum[0] / (double)ccnt[0];
	size_t best = 0;
	*lvl = 0;
	for (size_t c = 1; c < nc; c++) {
		double l = csum[c] / (double)ccnt[c];
		if (l - fast > og)
			break; /* sorted: every later cluster is farther */
		int take = best == 0 || ccnt[c] > ccnt[best];
		if (!take && ccnt[c] == ccnt[best] && isfinite(hint))
			take = fabs(l - fast - hint) < fabs(*lvl - fast - hint);
		if (take) {
			best = c;
			*lvl = l;
		}
	}
	return best;
}

static int cluster_arm(const double *z, size_t n, double sg, double og, double hint, int *st,
		       double *gap)
{
	size_t cl[ABSEQ_MAX_PAIRS], ccnt[ABSEQ_MAX_PAIRS];
	double csum[ABSEQ_MAX_PAIRS], slow;
	size_t nc = split_clusters(z, n, sg, cl, csum, ccnt);
	double fast = csum[0] / (double)ccnt[0];
	if (!pick_slow(csum, ccnt, nc, og, hint, &slow)) {
		for (size_t i = 0; i < n; i++)
			st[i] = cl[i] == 0 ? ABSEQ_FAST : ABSEQ_OUTLIER;
		*gap = 0.0;
		return 1;
	}
	/* Reassign by distance, so a state cluster smeared by a jittering gap
	 * or by drift is not cut into pieces: below the midpoint fast, up to
	 * half a gap above the slow level slow, beyond that an outlier. */
	double mid = 0.5 * (fast + slow), top = slow + fmax(sg, 0.5 * (slow - fast));
	double sum[2] = { 0, 0 };
	size_t cnt[2] = { 0, 0 };
	for (size_t i = 0; i < n; i++) {
		if (z[i] < mid)
			st[i] = ABSEQ_FAST;
		else if (z[i] <= top && z[i] - fast <= og)
			st[i] = ABSEQ_SLOW;
		else
			st[i] = ABSEQ_OUTLIER;
		if (st[i] != ABSEQ_OUTLIER) {
			sum[st[i]] += z[i];
			cnt[st[i]]++;
		}
	}
	*gap = sum[1] / (double)cnt[1] - sum[0] / (double)cnt[0];
	return 2;
}

/* Common drift: least-squares slope of y on t within the (arm, state)
 * groups, outliers left out. 0 when there is no spread in t. */
static double within_slope(const double *ya, const double *yb, const double *ta,
			   const double *tb, const int *sa, const int *sb, size_t n)
{
	double st[2][2] = { { 0 } }, sy[2][2] = { { 0 } };
	size_t c[2][2] = { { 0 } };
	for (size_t i = 0; i < n; i++) {
		if (sa[i] != ABSEQ_OUTLIER) {
			st[0][sa[i]] += ta[i];
			sy[0][sa[i]] += ya[i];
			c[0][sa[i]]++;
		}
		if (sb[i] != ABSEQ_OUTLIER) {
			st[1][sb[i]] += tb[i];
			sy[1][sb[i]] += yb[i];
			c[1][sb[i]]++;
		}
	}
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		for (int arm = 0; arm < 2; arm++) {
			int s = arm ? sb[i] : sa[i];
			if (s == ABSEQ_OUTLIER)
				continue;
			double t = arm ? tb[i] : ta[i], y = arm ? yb[i] : ya[i];
			double tm = st[arm][s] / (double)c[arm][s], ym = sy[arm][s] / (double)c[arm][s];
			num += (t - tm) * (y - ym);
			den += (t - tm) * (t - tm);
		}
	}
	return den > 0 ? num / den : 0.0;
}

/* Both arms' clusters and the common drift (step 1), the split repeated
 * until it is stable; the fit of one arm, per arm. */
struct arm_fit {
	int ncl;     /* 1 or 2 state clusters */
	double gap;  /* slow - fast (0 with one cluster) */
};

/* Clusters both arms' drift-corrected values (time axes ta, tb), then
 * refits the drift within the clusters, until nothing changes (8 rounds at
 * most). Writes sa[], sb[], the fits and returns the drift. */
static double fit_states(const double *ya, const double *yb, const double *ta, const double *tb,
			 size_t n, double state_gap, double outlier_gap, int *sa, int *sb,
			 struct arm_fit *fa, struct arm_fit *fb)
{
	double za[ABSEQ_MAX_PAIRS], zb[ABSEQ_MAX_PAIRS];
	/* a slope fitted before the states are known follows outliers and states */
	double beta = 0.0;
	fa->ncl = fb->ncl = 1;
	fa->gap = fb->gap = 0.0;
	for (size_t i = 0; i < n; i++)
		sa[i] = sb[i] = ABSEQ_FAST;
	for (int it = 0; it < 8; it++) {
		int changed = 0;
		int na[ABSEQ_MAX_PAIRS], nb[ABSEQ_MAX_PAIRS];
		for (size_t i = 0; i < n; i++) {
			za[i] = ya[i] - beta * ta[i];
			zb[i] = yb[i] - beta * tb[i];
		}
		/* each arm's slow state is looked for near the other's gap */
		double ha = fb->ncl == 2 ? fb->gap : NAN, hb = fa->ncl == 2 ? fa->gap : NAN;
		fa->ncl = cluster_arm(za, n, state_gap, outlier_gap, ha, na, &fa->gap);
		fb->ncl = cluster_arm(zb, n, state_gap, outlier_gap, hb, nb, &fb->gap);
		for (size_t i = 0; i < n; i++) {
			changed |= na[i] != sa[i] || nb[i] != sb[i];
			sa[i] = na[i];
			sb[i] = nb[i];
		}
		if (!changed && it > 0)
			break;
		beta = within_slope(ya, yb, ta, tb, sa, sb, n);
	}
	return beta;
}

/* Both arms run the same kind of kernel on the same machine: two "slow
 * states" whose gaps disagree are not both states. One arm is then an arm
 * with one state plus outlier runs, e.g. a run just above an arm that was
 * slow every time, or one state's runs cut in two by a jittering gap.
 * Which one it is cannot always be told: abseq_decide weighs both
 * readings. prefer: which arm loses its second cluster, 0 the one with
 * the smaller gap, 1 the larger. Returns 1 when the gaps disagreed. */
static int resolve_conflict(int *sa, int *sb, size_t n, double state_gap, int prefer,
			    struct arm_fit *fa, struct arm_fit *fb)
{
	if (fa->ncl != 2 || fb->ncl != 2)
		return 0;
	double tol = fmax(2.0 * state_gap, 0.35 * fmax(fa->gap, fb->gap));
	if (!(fabs(fa->gap - fb->gap) > tol))
		return 0;
	int demote_a = (fa->gap < fb->gap) != (prefer == 1);
	int *sx = demote_a ? sa : sb;
	struct arm_fit *f = demote_a ? fa : fb;
	for (size_t i = 0; i < n; i++)
		if (sx[i] == ABSEQ_SLOW)
			sx[i] = ABSEQ_OUTLIER;
	f->ncl = 1;
	f->gap = 0.0;
	return 1;
}

/* prefer: as in resolve_conflict. */
static int states_impl(const double *ya, const double *yb, const int *b_first, size_t n,
		       double state_gap, double outlier_gap, int prefer, int *state_a,
		       int *state_b, struct abseq_states *out)
{
	double ta[ABSEQ_MAX_PAIRS], tb[ABSEQ_MAX_PAIRS];
	int sa[ABSEQ_MAX_PAIRS], sb[ABSEQ_MAX_PAIRS];
	struct arm_fit fa, fb;

	if (n == 0 || n > ABSEQ_MAX_PAIRS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(ya[i]) || !isfinite(yb[i]))
			return -1;
		int bf = b_first ? (b_first[i] != 0) : 0;
		ta[i] = (double)(2 * i + (size_t)bf);
		tb[i] = (double)(2 * i + 1 - (size_t)bf);
	}
	double beta = fit_states(ya, yb, ta, tb, n, state_gap, outlier_gap, sa, sb, &fa, &fb);
	int conflict = resolve_conflict(sa, sb, n, state_gap, prefer, &fa, &fb);

	memset(out, 0, sizeof(*out));
	out->nclusters_a = fa.ncl;
	out->nclusters_b = fb.ncl;
	out->ambiguous = fa.ncl != fb.ncl;
	out->gap_a = fa.ncl == 2 ? fa.gap : fb.ncl == 2 ? fb.gap : 0.0;
	out->gap_b = fb.ncl == 2 ? fb.gap : fa.ncl == 2 ? fa.gap : 0.0;
	out->drift = beta;
	out->conflict = conflict;
	for (size_t i = 0; i < n; i++) {
		out->a_fast += sa[i] == ABSEQ_FAST;
		out->a_slow += sa[i] == ABSEQ_SLOW;
		out->a_outlier += sa[i] == ABSEQ_OUTLIER;
		out->b_fast += sb[i] == ABSEQ_FAST;
		out->b_slow += sb[i] == ABSEQ_SLOW;
		out->b_outlier += sb[i] == ABSEQ_OUTLIER;
		if (state_a)
			state_a[i] = sa[i];
		if (state_b)
			state_b[i] = sb[i];
	}
	return 0;
}

int abseq_states(const double *ya, const double *yb, const int *b_first, size_t n,
		 double state_gap, double outlier_gap, int *state_a, int *state_b,
		 struct abseq_states *out)
{
	return states_impl(ya, yb, b_first, n, state_gap, outlier_gap, 0, state_a, state_b, out);
}

/* Moves arm `arm`'s (0 A, 1 B) slow runs to state `to` (ABSEQ_FAST: they
 * join its fast runs; ABSEQ_OUTLIER: they are outliers) and updates the
 * summary: the arm then has one state, carrying the other arm's gap
 * (abseq_states' rule). */
static void demote_slow(int arm, int to, int *sa, int *sb, size_t n, struct abseq_states *st)
{
	int *sx = arm ? sb : sa;
	unsigned *slow = arm ? &st->b_slow : &st->a_slow;
	unsigned *dest = to == ABSEQ_FAST ? (arm ? &st->b_fast : &st->a_fast)
					  : (arm ? &st->b_outlier : &st->a_outlier);
	for (size_t i = 0; i < n; i++)
		if (sx[i] == ABSEQ_SLOW)
			sx[i] = to;
	*dest += *slow;
	*slow = 0;
	if (arm)
		st->nclusters_b = 1;
	else
		st->nclusters_a = 1;
	if (st->nclusters_a == 2) {
		st->gap_b = st->gap_a;
	} else if (st->nclusters_b == 2) {
		st->gap_a = st->gap_b;
	} else {
		st->gap_a = st->gap_b = 0.0;
	}
	st->ambiguous = st->nclusters_a != st->nclusters_b;
}

/* ---- steps 2-4 --------------------------------------------------------- */

/* Upper quantile of Student's t with nu degrees of freedom at the one-sided
 * level of the normal quantile z (GSL: exact, also at 2 degrees of freedom). */
static double t_quantile(double z, double nu)
{
	return gsl_cdf_tdist_Pinv(gsl_cdf_ugaussian_P(z), nu);
}

/* Exact (Clopper-Pearson) bounds at the one-sided level of z for k
 * successes in n trials (n > 0): with 4 to 16 runs per arm the binomial
 * tails are far heavier than a normal score interval (Wilson) assumes, and
 * with Wilson bounds false adoption reached 5% where a state frequency
 * shifts from 0.1 to 0.8. */
static void fraction_bounds(unsigned k, unsigned n, double z, double *lo, double *hi)
{
	double a = gsl_cdf_ugaussian_Q(z);
	*lo = k == 0 ? 0.0 : gsl_cdf_beta_Pinv(a, k, n - k + 1);
	*hi = k == n ? 1.0 : gsl_cdf_beta_Qinv(a, k + 1, n - k);
}

/* Log of the mean duration of a two-state arm relative to its fast level:
 * log(1 + p (e^g - 1)). */
static double mix_log(double p, double g)
{
	return log1p(p * expm1(g));
}

static double to_gain(double l)
{
	return 1.0 - exp(-l);
}

/* Within-state paired differences d'_i for pairs without an outlier; returns
 * how many. The single-cluster arm of an ambiguous fit is put in state s1. */
static size_t within_diffs(const double *ya, const double *yb, const int *sa, const int *sb,
			   size_t n, const struct abseq_states *st, int amb_state, double *d)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (sa[i] == ABSEQ_OUTLIER || sb[i] == ABSEQ_OUTLIER)
			continue;
		int a_s = sa[i], b_s = sb[i];
		if (st->ambiguous) {
			if (st->nclusters_a == 1)
				a_s = amb_state;
			else
				b_s = amb_state;
		}
		d[m++] = (ya[i] - st->gap_a * a_s) - (yb[i] - st->gap_b * b_s);
	}
	return m;
}

static double sample_sd(const double *d, size_t m)
{
	double mean = 0, ss = 0;
	for (size_t i = 0; i < m; i++)
		mean += d[i];
	mean /= (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	return sqrt(ss / (double)(m - 1));
}

/* One arm's second state for the exact test: k of n runs in a state off
 * (log) away from the arm's level; its mean is level + log(1 + p(e^off - 1)). */
struct arm_term {
	unsigned n, k;
	double off;
};

static double term_mean(const struct arm_term *t, double p)
{
	return log1p(p * expm1(t->off));
}

#define EXACT_GRID 64

/* Exact unconditional p-value of "B's mean is not below A's" given the
 * state counts: the largest probability, over every pair (pA, pB) with
 * dlo + mA(pA) - mB(pB) = 0 (the boundary of the null; dlo is the lower
 * bound of the level difference), that the counts alone show a mean gain
 * of at least what was observed. pA runs over a grid of EXACT_GRID + 1
 * points; pB follows from the boundary. The binomial tails of 4 to 16 runs
 * are too heavy for the normal approximations when both arms' fractions
 * are off at once (0.05 -> 0.4 in A while 0.95 -> 0.8 in B). */
static double exact_gain_p(const struct arm_term *A, const struct arm_term *B, double dlo)
{
	double pa_row[ABSEQ_MAX_PAIRS + 1], pb_row[ABSEQ_MAX_PAIRS + 1];
	double ua[ABSEQ_MAX_PAIRS + 1], ub[ABSEQ_MAX_PAIRS + 1];
	for (unsigned k = 0; k <= A->n; k++)
		ua[k] = term_mean(A, (double)k / A->n);
	for (unsigned k = 0; k <= B->n; k++)
		ub[k] = term_mean(B, (double)k / B->n);
	double u_obs = ua[A->k] - ub[B->k] - 1e-12;
	double worst = 0.0;
	for (int g = 0; g <= EXACT_GRID; g++) {
		double pa = (double)g / EXACT_GRID;
		double target = term_mean(A, pa) + dlo; /* mB(pB) on the boundary */
		double pb;
		if (B->off == 0.0)
			continue;
		pb = expm1(target) / expm1(B->off);
		/* the null region is mB(pB) >= target; the probability is largest
		 * at its edge: the smallest pB when mB rises with pB, else the largest */
		if (B->off > 0) {
			if (pb > 1.0)
				continue;
			if (pb < 0.0)
				pb = 0.0;
		} else {
			if (pb < 0.0)
				continue;
			if (pb > 1.0)
				pb = 1.0;
		}
		for (unsigned k = 0; k <= A->n; k++)
			pa_row[k] = gsl_ran_binomial_pdf(k, pa, A->n);
		for (unsigned k = 0; k <= B->n; k++)
			pb_row[k] = gsl_ran_binomial_pdf(k, pb, B->n);
		double prob = 0.0;
		for (unsigned i = 0; i <= A->n; i++) {
			if (pa_row[i] == 0.0)
				continue;
			for (unsigned j = 0; j <= B->n; j++)
				if (ua[i] - ub[j] >= u_obs)
					prob += pa_row[i] * pb_row[j];
		}
		if (prob > worst)
			worst = prob;
	}
	return worst;
}

/* Exact lower confidence bound at level alpha of the counts' term
 * mA(pA) - mB(pB): the smallest Delta whose boundary mA - mB = Delta still
 * explains the observed counts with probability above alpha (the p-value
 * grows with Delta; bisection to 1e-5). */
static double exact_count_lower(const struct arm_term *A, const struct arm_term *B, double alpha)
{
	double u_obs = term_mean(A, (double)A->k / A->n) - term_mean(B, (double)B->k / B->n);
	double lo = u_obs - 0.6, hi = u_obs;
	if (exact_gain_p(A, B, -lo) > alpha)
		return lo;
	while (hi - lo > 1e-5) {
		double mid = 0.5 * (lo + hi);
		if (exact_gain_p(A, B, -mid) > alpha)
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

/* What step 3 yields under one reading of the states. */
struct mean_view {
	double lg;        /* estimated mean gain (log), outlier runs left out */
	double lg_up;     /* the estimate the gain test uses (B's outliers counted slow) */
	double lg_dn;     /* the estimate the loss test uses (A's outliers counted slow) */
	double t_lo;      /* lower bound of the mean gain, for adoption */
	double t_hi;      /* upper bound, for A_better */
	double level;     /* level difference, A's fast level - B's (log) */
};

/* One arm's mean term (log, relative to its level) and how far it may be
 * below (*dlo) or above (*dhi), with its term for the exact test.
 * ncl, k, nn: clusters, slow runs, runs in a state; outl: outlier runs,
 * counted as slow-state runs when count_outliers (a run far above the
 * others may be the slow state: the side it would hurt must assume so);
 * g: the arm's gap, gu: the gap of a state it has not shown; below: an
 * unseen state is assumed below the arm (the incumbent's side). */
static void arm_mean(int ncl, unsigned k, unsigned nn, unsigned outl, int count_outliers,
		     double g, double gu, double gc, int below, double crit, double *est,
		     double *dlo, double *dhi, struct arm_term *t)
{
	double lo, hi;
	if (ncl == 1)
		g = gu;
	if (count_outliers && outl > 0) {
		/* counted as slow runs; two or more at their own height: a
		 * state beyond the outlier gap (a jittering gap can put it
		 * there) must not make the arm look faster than it is */
		k += outl;
		nn += outl;
		if (outl >= 2)
			g = fmax(g, gc);
	}
	if (nn == 0) {
		*est = *dlo = *dhi = 0.0;
		*t = (struct arm_term){ 0, 0, 0.0 };
		return;
	}
	if (ncl == 2 || k > 0) {
		fraction_bounds(k, nn, crit, &lo, &hi);
		*est = mix_log((double)k / nn, g);
		*dlo = *est - mix_log(lo, g);
		*dhi = mix_log(hi, g) - *est;
		*t = (struct arm_term){ nn, k, g };
		return;
	}
	/* one cluster, nothing above it: a state it has not shown may sit
	 * above or below, as often as the exact bound for 0 of nn runs */
	fraction_bounds(0, nn, crit, &lo, &hi);
	*est = 0.0;
	*dhi = mix_log(hi, g);
	*dlo = -log1p(hi * expm1(-g));
	*t = (struct arm_term){ nn, 0, below ? -g : g };
}

/* Height of each arm's slow and outlier runs together above its fast
 * level, on the drift-corrected scale (0 when an arm has none). */
static void upper_heights(const double *ya, const double *yb, const int *b_first, const int *sa,
			  const int *sb, size_t n, double drift, double gc[2])
{
	for (int arm = 0; arm < 2; arm++) {
		const double *y = arm ? yb : ya;
		const int *sx = arm ? sb : sa;
		double f = 0, u = 0;
		unsigned nf = 0, nu = 0;
		for (size_t i = 0; i < n; i++) {
			int bf = b_first ? (b_first[i] != 0) : 0;
			double tt = (double)(2 * i + (size_t)(arm ? 1 - bf : bf));
			double z = y[i] - drift * tt;
			if (sx[i] == ABSEQ_FAST) {
				f += z;
				nf++;
			} else {
				u += z;
				nu++;
			}
		}
		gc[arm] = nf && nu ? u / nu - f / nf : 0.0;
	}
}

/* 1 when the term is an arm's state it has not shown (one cluster, no
 * run counted in the other state). */
static int unseen_term(const struct arm_term *t, int ncl)
{
	return ncl == 1 && t->n > 0 && t->k == 0;
}

/* The bound on the mean gain est - ... from the exact unconditional test
 * of both arms' counts together: inc is the incumbent's term, cand the
 * candidate's, u the estimate of inc - cand, lw the level bound (joined by
 * square-and-add). When neither arm has shown a second state (alone), the
 * probability that both still hide it falls with every look (no run in
 * the first n is a subset of no run in the first n - 1), so the first look
 * whose bound excludes the truth is the only chance of an error: no
 * sequential correction, the level of crit_inf. */
static double exact_bound(const struct arm_term *inc, const struct arm_term *cand, int alone,
			  double est, double u, double lw, double crit, const struct abseq_params *p)
{
	double alpha = gsl_cdf_ugaussian_Q(alone ? p->crit_inf : crit);
	double lu = exact_count_lower(inc, cand, alpha);
	return est - sqrt(lw * lw + (u - lu) * (u - lu));
}

/* The counts of both arms together: where the per-arm bounds of v suggest
 * a verdict, the exact bound of the counts' term joins them (their
 * square-and-add is too kind when both arms' fractions are off at once,
 * e.g. 0.05 -> 0.4 in A while 0.95 -> 0.8 in B), and the verdict must
 * hold under both; where neither arm shows a state it replaces them.
 * t, e: the arms' terms and estimates [arm][outliers counted]. */
static void exact_sides(const struct arm_term t[2][2], const struct abseq_states *st,
			const double e[2][2], double lw, double crit, const struct abseq_params *p,
			struct mean_view *v)
{
	int alone = unseen_term(&t[0][0], st->nclusters_a) && unseen_term(&t[1][1], st->nclusters_b);
	if (alone || v->t_lo > 0) {
		double x = exact_bound(&t[0][0], &t[1][1], alone, v->lg_up, e[0][0] - e[1][1], lw,
				       crit, p);
		v->t_lo = alone ? x : fmin(v->t_lo, x);
	}
	/* mirror: B is the incumbent, A the candidate; B's unseen state
	 * below it, A's above */
	struct arm_term tb = t[1][0], ta = t[0][1];
	if (tb.k == 0 && st->nclusters_b == 1)
		tb.off = -fabs(tb.off);
	if (ta.k == 0 && st->nclusters_a == 1)
		ta.off = fabs(ta.off);
	alone = unseen_term(&tb, st->nclusters_b) && unseen_term(&ta, st->nclusters_a);
	if (alone || v->t_hi < 0) {
		double x = -exact_bound(&tb, &ta, alone, -v->lg_dn, e[1][0] - e[0][1], lw, crit, p);
		v->t_hi = alone ? x : fmax(v->t_hi, x);
	}
}

/* Step 3 under the reading (sa, sb, st): each arm's log mean duration is
 * its level plus log(1 + p (e^gap - 1)). The levels' difference comes from
 * the paired differences with every run brought to its arm's fast level
 * (an arm with one cluster stays at its observed level), its interval from
 * Student's t. Each arm's term gets exact (Clopper-Pearson) bounds of its
 * slow fraction at the look's critical z; an arm with one cluster may hold
 * an unseen state (its gap: the other arm's, or prior_gap when neither
 * shows two). The bounds combine by square-and-add (Newcombe), and an
 * exact unconditional test of the state counts must agree before a
 * verdict (when neither arm shows a second state, the exact test alone
 * decides, see exact_bound). Returns -1 when fewer than 3 pairs are free
 * of outliers (or m is given and differs). */
static int mean_view(const double *ya, const double *yb, const int *b_first, const int *sa,
		     const int *sb, size_t n, size_t m, const struct abseq_states *stp,
		     const struct abseq_params *p, double crit, struct mean_view *v)
{
	struct abseq_states st = *stp;
	double md[ABSEQ_MAX_PAIRS];
	size_t mm = within_diffs(ya, yb, sa, sb, n, &st, ABSEQ_FAST, md);
	if (m == 0)
		m = mm;
	if (m < 3 || mm != m)
		return -1;
	double level = stats_hl_estimate(md, m);
	double lsd = fmax(sample_sd(md, m), 5e-4);
	double lw = t_quantile(crit, (double)(m - 1)) * lsd / sqrt((double)m);
	double ga = st.gap_a, gb = st.gap_b;
	/* an unseen state sits at the other arm's gap when that arm shows its
	 * second state in two runs or more; a second cluster of one run may be
	 * an outlier just above the arm's only state, so then prior_gap */
	double gua = st.nclusters_b == 2 && st.b_slow >= 2 ? gb : p->prior_gap;
	double gub = st.nclusters_a == 2 && st.a_slow >= 2 ? ga : p->prior_gap;
	unsigned na = st.a_fast + st.a_slow, nb = st.b_fast + st.b_slow;
	unsigned ka = st.nclusters_a == 2 ? st.a_slow : 0, kb = st.nclusters_b == 2 ? st.b_slow : 0;
	double gc[2];
	upper_heights(ya, yb, b_first, sa, sb, n, st.drift, gc);
	/* [arm][counted]: est, dlo, dhi, term; A below / B above for the gain
	 * test, mirrored for the loss test */
	double e[2][2], lo[2][2], hi[2][2];
	struct arm_term t[2][2];
	for (int c = 0; c < 2; c++) {
		arm_mean(st.nclusters_a, ka, na, st.a_outlier, c, ga, gua, gc[0], !c, crit, &e[0][c],
			 &lo[0][c], &hi[0][c], &t[0][c]);
		arm_mean(st.nclusters_b, kb, nb, st.b_outlier, c, gb, gub, gc[1], !c, crit, &e[1][c],
			 &lo[1][c], &hi[1][c], &t[1][c]);
	}
	/* gain: A's outliers left out, B's counted; loss: the other way */
	v->level = level;
	v->lg = level + e[0][0] - e[1][0];
	v->lg_up = level + e[0][0] - e[1][1];
	v->lg_dn = level + e[0][1] - e[1][0];
	v->t_lo = v->lg_up - sqrt(lw * lw + lo[0][0] * lo[0][0] + hi[1][1] * hi[1][1]);
	v->t_hi = v->lg_dn + sqrt(lw * lw + hi[0][1] * hi[0][1] + lo[1][0] * lo[1][0]);
	exact_sides(t, &st, e, lw, crit, p, v);
	return 0;
}

/* Step 3 over every reading of the states a decision must survive. */
struct mean_bounds {
	double lg;             /* the estimate under the primary reading */
	double t_lo, t_hi;     /* the widest bounds over the readings */
	double lg_min, lg_max; /* the gain test's smallest, the loss test's largest estimate */
};

/* Widens b by the reading v: on the gain side (the lower bound), the loss
 * side (the upper) or both. */
static void widen(struct mean_bounds *b, const struct mean_view *v, int gain_side, int loss_side)
{
	if (gain_side) {
		b->t_lo = fmin(b->t_lo, v->t_lo);
		b->lg_min = fmin(b->lg_min, v->lg_up);
	}
	if (loss_side) {
		b->t_hi = fmax(b->t_hi, v->t_hi);
		b->lg_max = fmax(b->lg_max, v->lg_dn);
	}
}

/* The data of one look, as the readings need them. */
struct look {
	const double *ya, *yb;
	const int *b_first;
	const int *sa, *sb;
	size_t n, m;
	const struct abseq_states *st;
	const struct abseq_params *p;
	double crit;
};

/* The reading in which arm `arm`'s slow runs move to state `to`
 * (demote_slow); m: the pairs it keeps (0: count again). */
static void demoted_reading(const struct look *L, int arm, int to, size_t m, int gain_side,
			    int loss_side, struct mean_bounds *b)
{
	int sa2[ABSEQ_MAX_PAIRS], sb2[ABSEQ_MAX_PAIRS];
	struct abseq_states st2 = *L->st;
	struct mean_view v;
	memcpy(sa2, L->sa, L->n * sizeof(*sa2));
	memcpy(sb2, L->sb, L->n * sizeof(*sb2));
	demote_slow(arm, to, sa2, sb2, L->n, &st2);
	if (mean_view(L->ya, L->yb, L->b_first, sa2, sb2, L->n, m, &st2, L->p, L->crit, &v) == 0)
		widen(b, &v, gain_side, loss_side);
}

/* 1 when arm `arm`'s fast level sits at the other arm's slow level (within
 * 2 state_gap; level: A's fast level - B's) and the other arm has shown
 * its slow state in two runs or more: then the arm may have been in that
 * slow state every time. */
static int at_others_slow(const struct abseq_states *st, int arm, double level, double sg)
{
	int ncl = arm ? st->nclusters_a : st->nclusters_b;
	unsigned slow = arm ? st->a_slow : st->b_slow;
	double g = arm ? st->gap_a : st->gap_b, d = arm ? -level : level;
	return ncl == 2 && slow >= 2 && fabs(d - g) <= 2.0 * sg;
}

/* Step 3 under the primary reading of the states and every other reading
 * the data cannot rule out; a decision must hold under all of them:
 *  - the arms' gaps disagree (conflict): the other arm's second cluster
 *    is the one that is not a state;
 *  - a second cluster less than 2 state_gap above the first may be one
 *    state cut in two by a jittering gap or drift: that arm read as one
 *    state (an unseen state then costs);
 *  - the incumbent's second cluster is a single run and its first sits at
 *    the other arm's slow level: the single run may be an outlier above a
 *    state the arm showed every time, that state the slow one and the fast
 *    one not shown yet (outliers reach the height of a slow state above
 *    it). The incumbent is A for the gain test, B for the loss test. */
static void mean_bounds(const struct look *L, struct mean_bounds *b)
{
	const struct abseq_states *st = L->st;
	struct mean_view v;
	mean_view(L->ya, L->yb, L->b_first, L->sa, L->sb, L->n, L->m, st, L->p, L->crit, &v);
	b->lg = v.lg;
	b->t_lo = v.t_lo;
	b->t_hi = v.t_hi;
	b->lg_min = v.lg_up;
	b->lg_max = v.lg_dn;
	double level = v.level;
	if (st->conflict) {
		int sa2[ABSEQ_MAX_PAIRS], sb2[ABSEQ_MAX_PAIRS];
		struct abseq_states st2;
		if (states_impl(L->ya, L->yb, L->b_first, L->n, L->p->state_gap, L->p->outlier_gap, 1,
				sa2, sb2, &st2) == 0 &&
		    mean_view(L->ya, L->yb, L->b_first, sa2, sb2, L->n, 0, &st2, L->p, L->crit, &v) == 0)
			widen(b, &v, 1, 1);
	}
	for (int arm = 0; arm < 2; arm++) {
		int ncl = arm ? st->nclusters_b : st->nclusters_a;
		double g = arm ? st->gap_b : st->gap_a;
		unsigned slow = arm ? st->b_slow : st->a_slow;
		if (ncl != 2)
			continue;
		if (g < 2.0 * L->p->state_gap)
			demoted_reading(L, arm, ABSEQ_FAST, L->m, 1, 1, b);
		if (slow == 1 && at_others_slow(st, arm, level, L->p->state_gap))
			demoted_reading(L, arm, ABSEQ_OUTLIER, 0, arm == 0, arm == 1, b);
	}
}

/* Step 2: the within-state gain from the paired differences d[0..m-1]
 * (returned m); an ambiguous arm takes the state that makes the
 * within-state difference smallest. */
static size_t within_step(const double *ya, const double *yb, const int *sa, const int *sb,
			  size_t n, const struct abseq_states *st, double *d, double *within)
{
	size_t m = within_diffs(ya, yb, sa, sb, n, st, ABSEQ_FAST, d);
	*within = m ? stats_hl_estimate(d, m) : NAN;
	if (st->ambiguous && m) {
		double d2[ABSEQ_MAX_PAIRS];
		within_diffs(ya, yb, sa, sb, n, st, ABSEQ_SLOW, d2);
		double w2 = stats_hl_estimate(d2, m);
		if (fabs(w2) < fabs(*within)) {
			*within = w2;
			memcpy(d, d2, m * sizeof(*d));
		}
	}
	return m;
}

/* Whether the within-state interval (z tie_z) is inside +-noise with the
 * arms' state counts alike (Fisher p above guard_p, no ambiguous arm);
 * *diff: whether it proves a within-state difference of min_gain. */
static int within_tie(const struct abseq_params *p, double within, double within_se,
		      const struct abseq_states *st, double fisher_p, int *diff)
{
	double lgain = -log(1.0 - p->min_gain);
	double up = -log(1.0 - p->noise), down = -log(1.0 + p->noise);
	double w_lo = within - p->tie_z * within_se, w_hi = within + p->tie_z * within_se;
	*diff = (w_lo > 0 && within >= lgain) || (w_hi < 0 && within <= -lgain);
	return !st->ambiguous && fisher_p > p->guard_p && w_lo > down && w_hi < up;
}

/* Step 4 at look n: the verdict from the bounds b (log scale) and the
 * within-state estimate (within, within_se); out->fisher_p is set. */
static void verdict(const struct abseq_params *p, size_t n, const struct mean_bounds *b,
		    double within, double within_se, const struct abseq_states *st,
		    struct abseq_result *out)
{
	double lgain = -log(1.0 - p->min_gain);
	double up = -log(1.0 - p->noise), down = -log(1.0 + p->noise);
	int within_diff, inside = within_tie(p, within, within_se, st, out->fisher_p, &within_diff);
	if (!(isfinite(b->lg) && isfinite(b->t_lo) && isfinite(b->t_hi))) {
		/* a NaN never becomes a verdict */
		if (n >= p->max_pairs) {
			out->reason = ABSEQ_BUDGET;
			out->verdict = AB_INCONCLUSIVE;
		}
	} else if (b->t_lo > 0 && b->lg_min >= lgain) {
		out->reason = ABSEQ_GAIN;
		out->verdict = AB_B_BETTER;
	} else if (b->t_hi < 0 && b->lg_max <= -lgain) {
		out->reason = ABSEQ_LOSS;
		out->verdict = AB_A_BETTER;
	} else if (b->t_lo > down && b->t_hi < up) {
		out->reason = ABSEQ_TIE;
		out->verdict = AB_TIE;
	} else if (inside && !within_diff) {
		out->reason = ABSEQ_TIE_WITHIN;
		out->verdict = AB_TIE;
	} else if (n >= p->max_pairs) {
		/* at the budget a difference inside the margin is a tie */
		out->reason = ABSEQ_BUDGET;
		out->verdict = inside ? AB_TIE : AB_INCONCLUSIVE;
	}
}

/* The result of a look with fewer than 3 pairs free of outliers: no
 * estimate; inconclusive at the budget. */
static void too_few_pairs(const struct abseq_params *p, size_t n, struct abseq_result *out)
{
	out->gain = out->gain_lo = out->gain_hi = NAN;
	out->within_gain = out->within_lo = out->within_hi = NAN;
	out->log_gain = out->log_se = out->within_log = out->within_se = NAN;
	out->fisher_p = 1.0;
	out->crit = p->crit_inf + p->crit_k / (double)n;
	if (n >= p->max_pairs) {
		out->reason = ABSEQ_BUDGET;
		out->verdict = AB_INCONCLUSIVE;
	}
}

/* Logs of the run medians; -1 when one is not finite and > 0. */
static int to_logs(const double *a, const double *b, size_t n, double *ya, double *yb)
{
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(a[i]) && a[i] > 0 && isfinite(b[i]) && b[i] > 0))
			return -1;
		ya[i] = log(a[i]);
		yb[i] = log(b[i]);
	}
	return 0;
}

/* The numbers of a look: bounds, estimates, the state counts' Fisher p. */
static void fill_numbers(const struct mean_bounds *mb, double within, double within_se,
			 double crit, const struct abseq_params *p, const struct abseq_states *st,
			 struct abseq_result *out)
{
	out->crit = crit;
	out->within_log = within;
	out->within_se = within_se;
	out->log_gain = mb->lg;
	out->log_se = (mb->t_hi - mb->t_lo) / (2.0 * crit);
	out->gain = to_gain(mb->lg);
	out->gain_lo = to_gain(mb->t_lo);
	out->gain_hi = to_gain(mb->t_hi);
	out->within_gain = to_gain(within);
	out->within_lo = to_gain(within - p->tie_z * within_se);
	out->within_hi = to_gain(within + p->tie_z * within_se);
	out->fisher_p = (st->nclusters_a == 2 || st->nclusters_b == 2) && !st->ambiguous
				? stats_fisher_exact_p(st->a_fast, st->a_slow, st->b_fast, st->b_slow)
				: 1.0;
}

int abseq_v1_decide(const double *a, const double *b, const int *b_first, size_t n,
		 const struct abseq_params *p, int *state_a, int *state_b,
		 struct abseq_result *out)
{
	double ya[ABSEQ_MAX_PAIRS], yb[ABSEQ_MAX_PAIRS], d[ABSEQ_MAX_PAIRS];
	int sa[ABSEQ_MAX_PAIRS], sb[ABSEQ_MAX_PAIRS];
	struct abseq_states st;

	if (n == 0 || n > p->max_pairs)
		return -1;
	if (to_logs(a, b, n, ya, yb) != 0 ||
	    abseq_states(ya, yb, b_first, n, p->state_gap, p->outlier_gap, sa, sb, &st) != 0)
		return -1;

	memset(out, 0, sizeof(*out));
	out->states = st;
	out->pairs = n;
	out->reason = ABSEQ_CONTINUE;
	out->verdict = AB_INCONCLUSIVE;
	out->signflip_p = NAN;
	if (state_a)
		memcpy(state_a, sa, n * sizeof(*sa));
	if (state_b)
		memcpy(state_b, sb, n * sizeof(*sb));
	if (p->signflip) {
		double raw[ABSEQ_MAX_PAIRS];
		for (size_t i = 0; i < n; i++)
			raw[i] = ya[i] - yb[i];
		out->signflip_p = stats_signflip_p(raw, n);
	}

	double within;
	size_t m = within_step(ya, yb, sa, sb, n, &st, d, &within);
	out->pairs_used = m;
	if (m < 3) {
		too_few_pairs(p, n, out);
		return 0;
	}
	double sd = fmax(sample_sd(d, m), 5e-4); /* run medians are never that precise */
	double crit = p->crit_inf + p->crit_k / (double)n;
	double within_se = sd / sqrt((double)m) * t_quantile(p->tie_z, (double)(m - 1)) / p->tie_z;

	struct look L = { ya, yb, b_first, sa, sb, n, m, &st, p, crit };
	struct mean_bounds mb;
	mean_bounds(&L, &mb);

	fill_numbers(&mb, within, within_se, crit, p, &st, out);
	if (n >= p->min_pairs)
		verdict(p, n, &mb, within, within_se, &st, out);
	return 0;
}

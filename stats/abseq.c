/* abseq.c: the sequential A/B protocol (see abseq.h for the model). */
#include "stats/abseq.h"

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

void abseq_params_default(struct abseq_params *p)
{
	memset(p, 0, sizeof(*p));
	p->min_pairs = 4;
	p->max_pairs = 16;
	p->min_gain = 0.01;
	p->noise = STATS_NOISE_DEFAULT;
	p->crit_inf = CRIT_INF;
	p->crit_k = CRIT_K;
	p->tie_z = 3.0;
	p->state_gap = 0.015;
	p->outlier_gap = OUTLIER_GAP;
	p->prior_gap = PRIOR_GAP;
	p->guard_p = 0.1;
	p->signflip = 0;
}

int abseq_params_check(const struct abseq_params *p, const char **why)
{
	const char *w = NULL;
	if (p->min_pairs < 3)
		w = "min-pairs must be at least 3";
	else if (p->max_pairs < p->min_pairs)
		w = "max-pairs must be at least min-pairs";
	else if (p->max_pairs > ABSEQ_MAX_PAIRS)
		w = "max-pairs must be at most 128";
	else if (!(p->noise > 0.0 && p->noise < 0.5))
		w = "noise must be in (0, 0.5)";
	else if (!(p->min_gain >= 0.0 && p->min_gain < p->noise))
		w = "min-gain must be in [0, noise)";
	else if (!(p->crit_inf > 0.0 && p->crit_k >= 0.0 && p->tie_z > 0.0))
		w = "critical values must be positive";
	else if (!(p->state_gap > 0.0 && p->outlier_gap > p->state_gap))
		w = "state gaps must be positive, outlier gap above state gap";
	else if (!(p->prior_gap > 0.0 && p->prior_gap < 1.0))
		w = "prior gap must be in (0, 1)";
	else if (!(p->guard_p >= 0.0 && p->guard_p < 1.0))
		w = "guard p must be in [0, 1)";
	if (why)
		*why = w;
	return w ? -1 : 0;
}

const char *abseq_state_name(int s)
{
	switch (s) {
	case ABSEQ_FAST: return "fast";
	case ABSEQ_SLOW: return "slow";
	case ABSEQ_OUTLIER: return "outlier";
	}
	return "?";
}

const char *abseq_reason_name(enum abseq_reason r)
{
	switch (r) {
	case ABSEQ_CONTINUE: return "continue";
	case ABSEQ_GAIN: return "gain";
	case ABSEQ_LOSS: return "loss";
	case ABSEQ_TIE: return "tie";
	case ABSEQ_TIE_WITHIN: return "tie_within_state";
	case ABSEQ_BUDGET: return "budget";
	}
	return "?";
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
static int cluster_arm(const double *z, size_t n, double sg, double og, double hint, int *st,
		       double *gap)
{
	size_t idx[ABSEQ_MAX_PAIRS], cl[ABSEQ_MAX_PAIRS];
	double csum[ABSEQ_MAX_PAIRS];
	size_t ccnt[ABSEQ_MAX_PAIRS];
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
	double fast = csum[0] / (double)ccnt[0];
	size_t best = 0;
	double best_lvl = 0;
	for (size_t c = 1; c <= g; c++) {
		double lvl = csum[c] / (double)ccnt[c];
		if (lvl - fast > og)
			break; /* sorted: every later cluster is farther */
		int take = best == 0 || ccnt[c] > ccnt[best];
		if (!take && ccnt[c] == ccnt[best] && isfinite(hint))
			take = fabs(lvl - fast - hint) < fabs(best_lvl - fast - hint);
		if (take) {
			best = c;
			best_lvl = lvl;
		}
	}
	if (!best) {
		for (size_t i = 0; i < n; i++)
			st[i] = cl[i] == 0 ? ABSEQ_FAST : ABSEQ_OUTLIER;
		*gap = 0.0;
		return 1;
	}
	/* Reassign by distance, so a state cluster smeared by a jittering gap
	 * or by drift is not cut into pieces: below the midpoint fast, up to
	 * half a gap above the slow level slow, beyond that an outlier. */
	double mid = 0.5 * (fast + best_lvl), top = best_lvl + fmax(sg, 0.5 * (best_lvl - fast));
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

/* prefer: which arm loses its second cluster when the arms' gaps
 * disagree: 0 the smaller gap, 1 the larger. */
static int states_impl(const double *ya, const double *yb, const int *b_first, size_t n,
		       double state_gap, double outlier_gap, int prefer, int *state_a,
		       int *state_b, struct abseq_states *out)
{
	int conflict = 0;
	double ta[ABSEQ_MAX_PAIRS], tb[ABSEQ_MAX_PAIRS], za[ABSEQ_MAX_PAIRS], zb[ABSEQ_MAX_PAIRS];
	int sa[ABSEQ_MAX_PAIRS], sb[ABSEQ_MAX_PAIRS];
	double beta = 0, gap_a = 0, gap_b = 0;
	int ncl_a = 1, ncl_b = 1;

	if (n == 0 || n > ABSEQ_MAX_PAIRS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(ya[i]) || !isfinite(yb[i]))
			return -1;
		int bf = b_first ? (b_first[i] != 0) : 0;
		ta[i] = (double)(2 * i + (size_t)bf);
		tb[i] = (double)(2 * i + 1 - (size_t)bf);
		sa[i] = sb[i] = ABSEQ_FAST;
	}
	beta = 0.0; /* a slope fitted before the states are known follows outliers and states */
	for (int it = 0; it < 8; it++) {
		int changed = 0;
		int na[ABSEQ_MAX_PAIRS], nb[ABSEQ_MAX_PAIRS];
		for (size_t i = 0; i < n; i++) {
			za[i] = ya[i] - beta * ta[i];
			zb[i] = yb[i] - beta * tb[i];
		}
		/* each arm's slow state is looked for near the other's gap */
		double ha = ncl_b == 2 ? gap_b : NAN, hb = ncl_a == 2 ? gap_a : NAN;
		ncl_a = cluster_arm(za, n, state_gap, outlier_gap, ha, na, &gap_a);
		ncl_b = cluster_arm(zb, n, state_gap, outlier_gap, hb, nb, &gap_b);
		for (size_t i = 0; i < n; i++) {
			changed |= na[i] != sa[i] || nb[i] != sb[i];
			sa[i] = na[i];
			sb[i] = nb[i];
		}
		if (!changed && it > 0)
			break;
		beta = within_slope(ya, yb, ta, tb, sa, sb, n);
	}

	/* Both arms run the same kind of kernel on the same machine: two
	 * "slow states" whose gaps disagree are not both states. The one with
	 * fewer runs (the smaller gap on a tie) is an arm with one state plus
	 * outlier runs, e.g. a run just above an arm that was slow every time,
	 * or one state's runs cut in two by a jittering gap. Which one it is
	 * cannot always be told: abseq_decide weighs both readings. */
	if (ncl_a == 2 && ncl_b == 2) {
		double tol = fmax(2.0 * state_gap, 0.35 * fmax(gap_a, gap_b));
		if (fabs(gap_a - gap_b) > tol) {
			unsigned ka = 0, kb = 0;
			for (size_t i = 0; i < n; i++) {
				ka += sa[i] == ABSEQ_SLOW;
				kb += sb[i] == ABSEQ_SLOW;
			}
			int demote_a = (gap_a < gap_b) != (prefer == 1);
			conflict = 1;
			int *sx = demote_a ? sa : sb;
			for (size_t i = 0; i < n; i++)
				if (sx[i] == ABSEQ_SLOW)
					sx[i] = ABSEQ_OUTLIER;
			if (demote_a) {
				ncl_a = 1;
				gap_a = 0.0;
			} else {
				ncl_b = 1;
				gap_b = 0.0;
			}
		}
	}

	memset(out, 0, sizeof(*out));
	out->nclusters_a = ncl_a;
	out->nclusters_b = ncl_b;
	out->ambiguous = ncl_a != ncl_b;
	out->gap_a = ncl_a == 2 ? gap_a : ncl_b == 2 ? gap_b : 0.0;
	out->gap_b = ncl_b == 2 ? gap_b : ncl_a == 2 ? gap_a : 0.0;
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
	double p_gain, p_loss; /* unused: kept 1 */
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

/* Step 3 under the reading (sa, sb, st): each arm's log mean duration is
 * its level plus log(1 + p (e^gap - 1)). The levels' difference comes from
 * the paired differences with every run brought to its arm's fast level
 * (an arm with one cluster stays at its observed level), its interval from
 * Student's t. Each arm's term gets exact (Clopper-Pearson) bounds of its
 * slow fraction at the look's critical z; an arm with one cluster may hold
 * an unseen state (its gap: the other arm's, or prior_gap when neither
 * shows two). The bounds combine by square-and-add (Newcombe), and an
 * exact unconditional test of the state counts must agree before a
 * verdict. Returns -1 when fewer than 3 pairs are free of outliers (or m
 * is given and differs). */
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
	double lsd = sample_sd(md, m);
	if (lsd < 5e-4)
		lsd = 5e-4;
	double lw = t_quantile(crit, (double)(m - 1)) * lsd / sqrt((double)m);
	double ga = st.gap_a, gb = st.gap_b;
	/* an unseen state sits at the other arm's gap when that arm shows its
	 * second state in two runs or more; a second cluster of one run may be
	 * an outlier just above the arm's only state, so then prior_gap */
	double gua = st.nclusters_b == 2 && st.b_slow >= 2 ? gb : p->prior_gap;
	double gub = st.nclusters_a == 2 && st.a_slow >= 2 ? ga : p->prior_gap;
	unsigned na = st.a_fast + st.a_slow, nb = st.b_fast + st.b_slow;
	unsigned ka = st.nclusters_a == 2 ? st.a_slow : 0, kb = st.nclusters_b == 2 ? st.b_slow : 0;
	/* height of slow and outlier runs together above the fast level, on
	 * the drift-corrected scale */
	double gc[2];
	for (int arm = 0; arm < 2; arm++) {
		const double *y = arm ? yb : ya;
		const int *sx = arm ? sb : sa;
		double f = 0, u = 0;
		unsigned nf = 0, nu = 0;
		for (size_t i = 0; i < n; i++) {
			int bf = b_first ? (b_first[i] != 0) : 0;
			double tt = (double)(2 * i + (size_t)(arm ? 1 - bf : bf));
			double z = y[i] - st.drift * tt;
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
	v->lg = level + e[0][0] - e[1][0];
	v->lg_up = level + e[0][0] - e[1][1];
	v->lg_dn = level + e[0][1] - e[1][0];
	v->t_lo = v->lg_up - sqrt(lw * lw + lo[0][0] * lo[0][0] + hi[1][1] * hi[1][1]);
	v->t_hi = v->lg_dn + sqrt(lw * lw + hi[0][1] * hi[0][1] + lo[1][0] * lo[1][0]);
	/* The counts of both arms together: where the bounds above suggest a
	 * verdict, the exact bound of the counts' term replaces the two
	 * per-arm bounds (their square-and-add is too kind when both arms'
	 * fractions are off at once, e.g. 0.05 -> 0.4 in A while 0.95 -> 0.8
	 * in B), and the verdict must hold under both. */
	double alpha = gsl_cdf_ugaussian_Q(crit);
	v->p_gain = v->p_loss = 1.0;
	if (v->t_lo > 0) {
		double u = e[0][0] - e[1][1];
		double lu = exact_count_lower(&t[0][0], &t[1][1], alpha);
		v->t_lo = fmin(v->t_lo, v->lg_up - sqrt(lw * lw + (u - lu) * (u - lu)));
	}
	if (v->t_hi < 0) {
		/* mirror: B is the incumbent, A the candidate; B's unseen state
		 * below it, A's above */
		struct arm_term tb = t[1][0], ta = t[0][1];
		if (tb.k == 0 && st.nclusters_b == 1)
			tb.off = -fabs(tb.off);
		if (ta.k == 0 && st.nclusters_a == 1)
			ta.off = fabs(ta.off);
		double u = e[1][0] - e[0][1];
		double lu = exact_count_lower(&tb, &ta, alpha);
		v->t_hi = fmax(v->t_hi, v->lg_dn + sqrt(lw * lw + (u - lu) * (u - lu)));
	}
	return 0;
}

int abseq_decide(const double *a, const double *b, const int *b_first, size_t n,
		 const struct abseq_params *p, int *state_a, int *state_b,
		 struct abseq_result *out)
{
	double ya[ABSEQ_MAX_PAIRS], yb[ABSEQ_MAX_PAIRS], d[ABSEQ_MAX_PAIRS];
	int sa[ABSEQ_MAX_PAIRS], sb[ABSEQ_MAX_PAIRS];
	struct abseq_states st;

	if (n == 0 || abseq_params_check(p, NULL) != 0 || n > p->max_pairs)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(a[i]) && a[i] > 0 && isfinite(b[i]) && b[i] > 0))
			return -1;
		ya[i] = log(a[i]);
		yb[i] = log(b[i]);
	}
	if (abseq_states(ya, yb, b_first, n, p->state_gap, p->outlier_gap, sa, sb, &st) != 0)
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

	/* step 2: within-state gain; an ambiguous arm takes the state that
	 * makes the within-state difference smallest */
	size_t m = within_diffs(ya, yb, sa, sb, n, &st, ABSEQ_FAST, d);
	double within = m ? stats_hl_estimate(d, m) : NAN;
	if (st.ambiguous && m) {
		double d2[ABSEQ_MAX_PAIRS];
		within_diffs(ya, yb, sa, sb, n, &st, ABSEQ_SLOW, d2);
		double w2 = stats_hl_estimate(d2, m);
		if (fabs(w2) < fabs(within)) {
			within = w2;
			memcpy(d, d2, m * sizeof(*d));

		}
	}
	out->pairs_used = m;
	if (p->signflip) {
		double raw[ABSEQ_MAX_PAIRS];
		for (size_t i = 0; i < n; i++)
			raw[i] = ya[i] - yb[i];
		out->signflip_p = stats_signflip_p(raw, n);
	}
	if (m < 3) {
		out->gain = out->gain_lo = out->gain_hi = NAN;
		out->within_gain = out->within_lo = out->within_hi = NAN;
		out->log_gain = out->log_se = out->within_log = out->within_se = NAN;
		out->fisher_p = 1.0;
		out->crit = p->crit_inf + p->crit_k / (double)n;
		if (n >= p->max_pairs) {
			out->reason = ABSEQ_BUDGET;
			out->verdict = AB_INCONCLUSIVE;
		}
		return 0;
	}
	double sd = sample_sd(d, m);
	if (sd < 5e-4)
		sd = 5e-4; /* run medians are never that precise: avoid a zero interval */
	double crit = p->crit_inf + p->crit_k / (double)n;
	double tie_t = t_quantile(p->tie_z, (double)(m - 1));
	double within_se = sd / sqrt((double)m) * tie_t / p->tie_z;

	/* step 3: the mean gain, under the primary reading of the states and,
	 * when the arms' gaps disagree, the other one too: a decision must
	 * hold under both. */
	struct mean_view v;
	mean_view(ya, yb, b_first, sa, sb, n, m, &st, p, crit, &v);
	double lg = v.lg, t_lo = v.t_lo, t_hi = v.t_hi;
	double lg_min = v.lg_up, lg_max = v.lg_dn;
	if (st.conflict) {
		int sa2[ABSEQ_MAX_PAIRS], sb2[ABSEQ_MAX_PAIRS];
		struct abseq_states st2;
		struct mean_view v2;
		if (states_impl(ya, yb, b_first, n, p->state_gap, p->outlier_gap, 1, sa2, sb2, &st2) == 0 &&
		    mean_view(ya, yb, b_first, sa2, sb2, n, 0, &st2, p, crit, &v2) == 0) {
			t_lo = fmin(t_lo, v2.t_lo);
			t_hi = fmax(t_hi, v2.t_hi);
			lg_min = fmin(lg_min, v2.lg_up);
			lg_max = fmax(lg_max, v2.lg_dn);
		}
	}
	double lse = (t_hi - t_lo) / (2.0 * crit);

	out->crit = crit;
	out->within_log = within;
	out->within_se = within_se;
	out->log_gain = lg;
	out->log_se = lse;
	out->gain = to_gain(lg);
	out->gain_lo = to_gain(t_lo);
	out->gain_hi = to_gain(t_hi);
	out->within_gain = to_gain(within);
	out->within_lo = to_gain(within - p->tie_z * within_se);
	out->within_hi = to_gain(within + p->tie_z * within_se);
	out->fisher_p = (st.nclusters_a == 2 || st.nclusters_b == 2) && !st.ambiguous
				? stats_fisher_exact_p(st.a_fast, st.a_slow, st.b_fast, st.b_slow)
				: 1.0;

	if (n < p->min_pairs)
		return 0;

	/* step 4: verdicts, in gain units (1 - b/a) */
	double lgain = -log(1.0 - p->min_gain);
	double up = -log(1.0 - p->noise), down = -log(1.0 + p->noise);
	int within_diff = (within - p->tie_z * within_se > 0 && within >= lgain) ||
			  (within + p->tie_z * within_se < 0 && within <= -lgain);
	int guard_ok = !st.ambiguous && out->fisher_p > p->guard_p;
	if (!(isfinite(lg) && isfinite(t_lo) && isfinite(t_hi))) {
		/* a NaN never becomes a verdict */
		if (n >= p->max_pairs) {
			out->reason = ABSEQ_BUDGET;
			out->verdict = AB_INCONCLUSIVE;
		}
	} else if (t_lo > 0 && lg_min >= lgain) {
		out->reason = ABSEQ_GAIN;
		out->verdict = AB_B_BETTER;
	} else if (t_hi < 0 && lg_max <= -lgain) {
		out->reason = ABSEQ_LOSS;
		out->verdict = AB_A_BETTER;
	} else if (t_lo > down && t_hi < up) {
		out->reason = ABSEQ_TIE;
		out->verdict = AB_TIE;
	} else if (guard_ok && !within_diff && within - p->tie_z * within_se > down &&
		   within + p->tie_z * within_se < up) {
		out->reason = ABSEQ_TIE_WITHIN;
		out->verdict = AB_TIE;
	} else if (n >= p->max_pairs) {
		/* at the budget a difference inside the margin is a tie */
		int inside = guard_ok && within - p->tie_z * within_se > down &&
			     within + p->tie_z * within_se < up;
		out->reason = ABSEQ_BUDGET;
		out->verdict = inside ? AB_TIE : AB_INCONCLUSIVE;
	}
	return 0;
}

/* twostate.c: the two-state null family's worst case, and the region of
 * one look chosen within it (twostate.h). */
#include "stats/twostate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

/* The exact search of the maximum (worst_of): r on a grid of R_STEPS
 * over [-1, 1] besides the points where the region grows, pA on a grid
 * of PA_STEPS, then REFINE_STEPS finer steps each side of the best. */
#define R_STEPS 200
#define PA_STEPS 40
#define REFINE_STEPS 10
/* The candidate t: the floor plus k / T_STEPS_PER_UNIT, k = 0..T_STEPS. */
#define T_STEPS 32
#define T_STEPS_PER_UNIT 4.0

/* One count pattern (k+, k0, k-) of n pairs, with what does not depend
 * on (pA, pB). */
struct pattern {
	int kp, k0, km;
	double xm;    /* mean of x: (k+ - k-) / n */
	double xs;    /* sd of x (n - 1 denominator) */
	double lcoef; /* log multinomial coefficient */
	double rho;   /* worst_of: the r above which the pattern is in the region */
};

static struct pattern *patterns(size_t n, size_t *count)
{
	size_t cnt = (n + 1) * (n + 2) / 2, i = 0;
	struct pattern *p = malloc(cnt * sizeof(*p));
	if (!p)
		return NULL;
	double lfn = lgamma((double)n + 1);
	for (size_t kp = 0; kp <= n; kp++)
		for (size_t km = 0; km + kp <= n; km++) {
			size_t k0 = n - kp - km;
			double xm = ((double)kp - (double)km) / (double)n;
			double ss = (double)kp * (1 - xm) * (1 - xm) + (double)k0 * xm * xm +
				    (double)km * (1 + xm) * (1 + xm);
			p[i].kp = (int)kp;
			p[i].k0 = (int)k0;
			p[i].km = (int)km;
			p[i].xm = xm;
			p[i].xs = sqrt(fmax(ss, 0.0) / (double)(n - 1));
			if (kp == n || km == n || k0 == n)
				p[i].xs = 0.0; /* exactly no spread */
			p[i].lcoef = lfn - lgamma((double)kp + 1) - lgamma((double)k0 + 1) -
				     lgamma((double)km + 1);
			i++;
		}
	*count = cnt;
	return p;
}

/* The cell probabilities of a pair at (pA, pB), and r = pB - pA. */
struct point {
	double lpp, lp0, lpm; /* logs (-INFINITY for 0) */
	double r;
};

static struct point point_at(double pa, double pb)
{
	double pp = pa * (1 - pb), pm = pb * (1 - pa), p0 = 1 - pp - pm;
	struct point q = { log(pp), log(fmax(p0, 0.0)), log(pm), pb - pa };
	return q;
}

static double pattern_prob(const struct pattern *x, const struct point *q)
{
	double l = x->lcoef;
	if (x->kp)
		l += x->kp * q->lpp;
	if (x->k0)
		l += x->k0 * q->lp0;
	if (x->km)
		l += x->km * q->lpm;
	return isfinite(l) ? exp(l) : 0.0;
}

/* The studentized mean of a pattern at r (its mean is gap (r + xm)). */
static double pattern_t(const struct pattern *x, double r, size_t n)
{
	double num = r + x->xm;
	if (x->xs == 0.0)
		return num > 0 ? INFINITY : num < 0 ? -INFINITY : 0.0;
	return num / x->xs * sqrt((double)n);
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The largest probability of {mean > m, T >= t} over the family, by r = pB
 * - pA and pA. A pattern is in the region exactly when r is above its own
 * threshold (both its mean and its T grow with r), so as r grows the
 * region only gains patterns, at known points; for a fixed r it is a
 * fixed set, whose probability is a polynomial in pA. The search takes r
 * just above every such point (where the region has just grown, so a
 * grid could miss a narrow peak) and on a grid of R_STEPS, and for each
 * r the best of PA_STEPS values of pA, refined around the best one. */
static double prefix_prob(const struct pattern *pat, size_t k, const struct point *q)
{
	double s = 0;
	for (size_t i = 0; i < k; i++)
		s += pattern_prob(&pat[i], q);
	return s;
}

/* pat sorted by rho, k of them below r: the region's best over pA. */
static double worst_at_r(const struct pattern *pat, size_t k, double r)
{
	double lo = fmax(0.0, -r), hi = fmin(1.0, 1.0 - r), best = 0, arg = lo;
	if (hi < lo || k == 0)
		return 0.0;
	double h = (hi - lo) / PA_STEPS;
	for (int i = 0; i <= PA_STEPS; i++) {
		double pa = lo + i * h;
		struct point q = point_at(pa, clamp01(pa + r));
		double v = prefix_prob(pat, k, &q);
		if (v > best) {
			best = v;
			arg = pa;
		}
	}
	for (int i = -REFINE_STEPS; i <= REFINE_STEPS; i++) {
		double pa = fmin(hi, fmax(lo, arg + i * h / REFINE_STEPS));
		struct point q = point_at(pa, clamp01(pa + r));
		best = fmax(best, prefix_prob(pat, k, &q));
	}
	return best;
}

static int by_rho(const void *x, const void *y)
{
	double a = ((const struct pattern *)x)->rho, b = ((const struct pattern *)y)->rho;
	return a < b ? -1 : a > b;
}

/* How many of pat (sorted by rho) are below r. */
static size_t below(const struct pattern *pat, size_t cnt, double r)
{
	size_t lo = 0, hi = cnt;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pat[mid].rho < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Sorts pat by each pattern's threshold of r for {mean > m, T >= t}. */
static double worst_of(struct pattern *pat, size_t cnt, size_t n, double gap, double m, double t)
{
	double best = 0, rn = sqrt((double)n);
	for (size_t e = 0; e < cnt; e++) {
		double rho = fmax(m / gap - pat[e].xm, -pat[e].xm); /* mean > m, and > 0 */
		if (pat[e].xs > 0)
			rho = fmax(rho, t * pat[e].xs / rn - pat[e].xm); /* T >= t */
		pat[e].rho = rho;
	}
	qsort(pat, cnt, sizeof(*pat), by_rho);
	for (int i = 0; i <= R_STEPS; i++) {
		double r = -1.0 + 2.0 * i / R_STEPS;
		best = fmax(best, worst_at_r(pat, below(pat, cnt, r), r));
	}
	for (size_t e = 0; e < cnt && pat[e].rho < 1.0; e++) {
		double r = pat[e].rho + 1e-12 * (1.0 + fabs(pat[e].rho));
		if (r >= -1.0 && (e + 1 == cnt || pat[e + 1].rho > pat[e].rho))
			best = fmax(best, worst_at_r(pat, below(pat, cnt, r), r));
	}
	return best;
}

double twostate_worst(size_t n, double gap_max, double m, double t)
{
	size_t cnt;
	if (n < 2 || n > TWOSTATE_MAX_N || !(gap_max > 0) || isnan(m) || isnan(t))
		return NAN;
	struct pattern *pat = patterns(n, &cnt);
	if (!pat)
		return NAN;
	double w = worst_of(pat, cnt, n, gap_max, m, t);
	free(pat);
	return w;
}

/* For each candidate t_k = t_floor + k / T_STEPS_PER_UNIT, the least m
 * (over the coarse grid) with P(mean > m, T >= t_k) <= share at every
 * point: mean depends on k+ - k- alone, so per point the mass of each
 * value of k+ - k- among the patterns that reach t_k is summed from the
 * top until it exceeds share; m must reach that value. */
static int least_m(const struct pattern *pat, size_t cnt, size_t n, double gap, double share,
		   double t_floor, double *m_of)
{
	size_t nj = 2 * n + 1;
	double *mass = malloc((T_STEPS + 1) * nj * sizeof(*mass));
	if (!mass)
		return -1;
	for (int k = 0; k <= T_STEPS; k++)
		m_of[k] = 0.0;
	for (int i = 0; i <= TWOSTATE_GRID; i++)
		for (int j = 0; j <= TWOSTATE_GRID; j++) {
			struct point q = point_at((double)i / TWOSTATE_GRID, (double)j / TWOSTATE_GRID);
			for (size_t z = 0; z < (T_STEPS + 1) * nj; z++)
				mass[z] = 0;
			for (size_t e = 0; e < cnt; e++) {
				double tt = pattern_t(&pat[e], q.r, n);
				if (!(tt >= t_floor))
					continue;
				double kk = floor((tt - t_floor) * T_STEPS_PER_UNIT);
				int top = kk > T_STEPS ? T_STEPS : (int)kk;
				mass[(size_t)top * nj + (size_t)(pat[e].kp - pat[e].km + (int)n)] +=
					pattern_prob(&pat[e], &q);
			}
			for (int k = T_STEPS - 1; k >= 0; k--) /* reaching t_k: every higher bin too */
				for (size_t z = 0; z < nj; z++)
					mass[(size_t)k * nj + z] += mass[(size_t)(k + 1) * nj + z];
			for (int k = 0; k <= T_STEPS; k++) {
				double cum = 0;
				for (size_t z = nj; z-- > 0;) {
					cum += mass[(size_t)k * nj + z];
					if (cum > share) {
						double mean = gap * (q.r + ((double)z - (double)n) / (double)n);
						m_of[k] = fmax(m_of[k], mean);
						break;
					}
				}
			}
		}
	free(mass);
	return 0;
}

/* The chance that a steady design gain (log-ratios N(mu, sd^2)) is in
 * {mean > m, T >= t} after n pairs: the two conditions' normal
 * approximations, multiplied. */
static double design_power(size_t n, double mu, double sd, double m, double t)
{
	double rn = sqrt((double)n), ncp = mu * rn / sd;
	double pm = gsl_cdf_ugaussian_P((mu - m) * rn / sd);
	double pt = gsl_cdf_ugaussian_P((ncp - t) / sqrt(1 + ncp * ncp / (2.0 * ((double)n - 1))));
	return pm * pt;
}

int twostate_region(size_t n, double gap_max, double share, double t_floor,
		    double design_mean, double design_sd, struct twostate_region *out)
{
	double m_of[T_STEPS + 1];
	size_t cnt;
	if (n < 2 || n > TWOSTATE_MAX_N || !(gap_max > 0) || !(share > 0 && share < 1) ||
	    !isfinite(t_floor) || !(design_sd > 0) || !isfinite(design_mean))
		return -1;
	struct pattern *pat = patterns(n, &cnt);
	if (!pat)
		return -1;
	/* The coarse grid can miss the maximum between its points: aim lower
	 * until the refined maximum is within share. */
	for (double aim = share; aim > share * 1e-3; aim *= 0.8) {
		if (least_m(pat, cnt, n, gap_max, aim, t_floor, m_of) != 0)
			break;
		int best = 0;
		double bp = -1;
		for (int k = 0; k <= T_STEPS; k++) {
			double pw = design_power(n, design_mean, design_sd, m_of[k],
						 t_floor + k / T_STEPS_PER_UNIT);
			if (pw > bp) {
				bp = pw;
				best = k;
			}
		}
		out->m = m_of[best];
		out->t = t_floor + best / T_STEPS_PER_UNIT;
		out->worst = worst_of(pat, cnt, n, gap_max, out->m, out->t);
		if (out->worst <= share) {
			free(pat);
			return 0;
		}
	}
	free(pat);
	return -1;
}

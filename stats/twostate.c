/* twostate.c: the two-state null family over a sequential session, and
 * the bars of its looks (twostate.h). */
#include "stats/twostate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The exact search of the maximum: r on a grid of R_STEPS over [-1, 1]
 * besides the points where a region grows, pA on a grid of PA_STEPS, then
 * REFINE_STEPS finer steps each side of the best. */
#define R_STEPS 200
#define PA_STEPS 40
#define REFINE_STEPS 10
/* The coarse grid the bars are chosen on (then checked by the search):
 * GRID steps of pA and of pB over [0, 1]. */
#define GRID 60
/* The candidate t of a look: the floor plus k / T_STEPS_PER_UNIT. */
#define T_STEPS 32
#define T_STEPS_PER_UNIT 4.0

#define W (TWOSTATE_MAX_N + 1)
#define IDX(kp, km) ((size_t)(kp) * W + (size_t)(km))

/* Mean and sd (n - 1 denominator) of the x of a pattern: k+ values +1,
 * k- values -1, the rest 0. */
static void xstats(size_t n, int kp, int km, double *xm, double *xs)
{
	double k0 = (double)n - kp - km, m = ((double)kp - km) / (double)n;
	double ss = kp * (1 - m) * (1 - m) + k0 * m * m + km * (1 + m) * (1 + m);
	*xm = m;
	*xs = (kp == (int)n || km == (int)n || kp + km == 0) ? 0.0 /* exactly no spread */
							    : sqrt(fmax(ss, 0.0) / ((double)n - 1));
}

/* The studentized mean of a pattern at r (its mean is gap (r + xm)). */
static double pattern_t(double xm, double xs, double r, size_t n)
{
	double num = r + xm;
	if (xs == 0.0)
		return num > 0 ? INFINITY : num < 0 ? -INFINITY : 0.0;
	return num / xs * sqrt((double)n);
}

int twostate_clears(const struct twostate_bar *b, double mean, double z)
{
	return mean > 0 && ((mean > b->m && z >= b->t) || (mean > b->m2 && z >= b->t2));
}

static int in_bar(double xm, double xs, double r, size_t n, double gap, const struct twostate_bar *b)
{
	return gap > 0 && twostate_clears(b, gap * (r + xm), pattern_t(xm, xs, r, n));
}

/* The largest gap of family F at shift r = pB - pA (0: no member). */
static double fam_gap(const struct twostate_family *f, double r)
{
	if (r == 0.0)
		return fmax(f->gap_equal, f->gap_shift);
	return fabs(r) <= f->shift_max + 1e-12 ? f->gap_shift : 0.0;
}

void twostate_family_wide(struct twostate_family *f, double gap_max)
{
	f->gap_equal = f->gap_shift = gap_max;
	f->shift_max = 1.0;
}

/* One step of the chain: the mass of every pattern after k - 1 pairs
 * (not yet adopted) becomes the mass after k pairs, in place (level
 * k+ + k- from the top, each from the level below and itself). */
static void step(double *mass, size_t k, double pp, double p0, double pm)
{
	for (size_t lv = k + 1; lv-- > 0;)
		for (size_t kp = 0; kp <= lv; kp++) {
			size_t km = lv - kp;
			double v = lv < k ? mass[IDX(kp, km)] * p0 : 0.0;
			if (kp > 0)
				v += mass[IDX(kp - 1, km)] * pp;
			if (km > 0)
				v += mass[IDX(kp, km - 1)] * pm;
			mass[IDX(kp, km)] = v;
		}
}

static void cells(double pa, double pb, double *pp, double *p0, double *pm)
{
	*pp = pa * (1 - pb);
	*pm = pb * (1 - pa);
	*p0 = fmax(1 - *pp - *pm, 0.0);
}

/* Which patterns of looks first..n are in their look's region at one r
 * (a byte per pattern and look: the same for every pA at that r). */
static void mask_at_r(size_t first, size_t n, double r, double gap, const struct twostate_bar *bar,
		      unsigned char *in)
{
	for (size_t k = first; k <= n; k++)
		for (int kp = 0; kp <= (int)k; kp++)
			for (int km = 0; km + kp <= (int)k; km++) {
				double xm, xs;
				xstats(k, kp, km, &xm, &xs);
				in[k * W * W + IDX(kp, km)] = (unsigned char)in_bar(xm, xs, r, k, gap, &bar[k]);
			}
}

/* The chance of adopting at some look first..n at (pA, pB = pA + r),
 * with the regions of mask_at_r. */
static double session_prob(size_t first, size_t n, double pa, double pb, const unsigned char *in,
			   double *mass)
{
	double pp, p0, pm, cum = 0;
	cells(pa, pb, &pp, &p0, &pm);
	memset(mass, 0, W * W * sizeof(*mass));
	mass[0] = 1.0;
	for (size_t k = 1; k <= n; k++) {
		step(mass, k, pp, p0, pm);
		if (k < first)
			continue;
		const unsigned char *ink = in + k * W * W;
		for (size_t kp = 0; kp <= k; kp++)
			for (size_t km = 0; km + kp <= k; km++)
				if (ink[IDX(kp, km)]) {
					cum += mass[IDX(kp, km)];
					mass[IDX(kp, km)] = 0;
				}
	}
	return cum;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The best over pA at one r. */
static double worst_at_r(size_t first, size_t n, double r, const struct twostate_family *f,
			 const struct twostate_bar *bar, unsigned char *in, double *mass)
{
	double lo = fmax(0.0, -r), hi = fmin(1.0, 1.0 - r), best = 0, arg = lo;
	double gap = fam_gap(f, r);
	if (hi < lo || !(gap > 0))
		return 0.0;
	mask_at_r(first, n, r, gap, bar, in);
	double h = (hi - lo) / PA_STEPS;
	for (int i = 0; i <= PA_STEPS; i++) {
		double pa = lo + i * h;
		double v = session_prob(first, n, pa, clamp01(pa + r), in, mass);
		if (v > best) {
			best = v;
			arg = pa;
		}
	}
	for (int i = -REFINE_STEPS; i <= REFINE_STEPS; i++) {
		double pa = fmin(hi, fmax(lo, arg + i * h / REFINE_STEPS));
		best = fmax(best, session_prob(first, n, pa, clamp01(pa + r), in, mass));
	}
	return best;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* Appends to rs[nr..] the r just above which each pattern of looks
 * first..n enters its look's region at gap gap_max (the lower of its two
 * rectangles' thresholds); returns the new count. */
static size_t add_thresholds(double *rs, size_t nr, size_t first, size_t n, double gap_max,
			     const struct twostate_bar *bar)
{
	for (size_t k = first; k <= n; k++)
		for (int kp = 0; kp <= (int)k; kp++)
			for (int km = 0; km + kp <= (int)k; km++) {
				double xm, xs;
				xstats(k, kp, km, &xm, &xs);
				double rho = fmax(bar[k].m / gap_max - xm, -xm);
				double rho2 = fmax(bar[k].m2 / gap_max - xm, -xm);
				if (xs > 0) {
					rho = fmax(rho, bar[k].t * xs / sqrt((double)k) - xm);
					rho2 = fmax(rho2, bar[k].t2 * xs / sqrt((double)k) - xm);
				}
				rho = fmin(rho, rho2);
				if (rho >= -1.0 && rho < 1.0)
					rs[nr++] = rho + 1e-12 * (1.0 + fabs(rho));
			}
	return nr;
}

double twostate_worst(size_t first, size_t n, double gap_max, const struct twostate_bar *bar)
{
	struct twostate_family f;
	twostate_family_wide(&f, gap_max);
	return twostate_worst_in(first, n, &f, bar);
}

double twostate_worst_in(size_t first, size_t n, const struct twostate_family *f,
			 const struct twostate_bar *bar)
{
	if (first < 2 || n < first || n > TWOSTATE_MAX_N || !f || !(f->gap_equal > 0) ||
	    !(f->gap_shift > 0) || !(f->shift_max >= 0) || !bar)
		return NAN;
	size_t cap = R_STEPS + 4 + 2 * (n + 1) * W * W, nr = 0;
	double *rs = malloc(cap * sizeof(*rs)), *mass = malloc(W * W * sizeof(*mass));
	unsigned char *in = malloc((n + 1) * W * W);
	if (!rs || !mass || !in) {
		free(rs);
		free(mass);
		free(in);
		return NAN;
	}
	for (int i = 0; i <= R_STEPS; i++)
		rs[nr++] = -1.0 + 2.0 * i / R_STEPS;
	rs[nr++] = 0.0; /* the equal-frequency members, and the ends of the shifts */
	rs[nr++] = -f->shift_max;
	rs[nr++] = f->shift_max;
	nr = add_thresholds(rs, nr, first, n, f->gap_equal, bar);
	if (f->gap_shift != f->gap_equal)
		nr = add_thresholds(rs, nr, first, n, f->gap_shift, bar);
	qsort(rs, nr, sizeof(*rs), by_value);
	double best = 0, last = -INFINITY;
	for (size_t i = 0; i < nr; i++) {
		if (rs[i] == last)
			continue;
		last = rs[i];
		best = fmax(best, worst_at_r(first, n, rs[i], f, bar, in, mass));
	}
	free(rs);
	free(mass);
	free(in);
	return best;
}

/* ---- choosing the bars ------------------------------------------------- */

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

/* The coarse grid's chains: per point the mass of every pattern not yet
 * adopted and the chance adopted so far; and the mean and sd of every
 * pattern of the current look, the same at every point. */
struct grid {
	size_t npts;
	double *mass;  /* npts * W * W */
	double *cum;   /* npts */
	double *bins;  /* (T_STEPS + 1) * (2 TWOSTATE_MAX_N + 1) */
	double xm[W * W], xs[W * W]; /* xstats of (k+, k-) at look n (look_stats) */
};

/* Fills g's pattern table for look n. */
static void look_stats(struct grid *g, size_t n)
{
	for (int kp = 0; kp <= (int)n; kp++)
		for (int km = 0; km + kp <= (int)n; km++)
			xstats(n, kp, km, &g->xm[IDX(kp, km)], &g->xs[IDX(kp, km)]);
}

static double grid_pa(size_t i)
{
	return (double)(i / (GRID + 1)) / GRID;
}

static double grid_pb(size_t i)
{
	return (double)(i % (GRID + 1)) / GRID;
}

/* bins[z]: the mass of one point's patterns with k+ - k- = z - n. Summed
 * from the highest mean down, the mean at which it first exceeds budget:
 * a region may only hold means above it (0 when it never does). */
static double mean_over_budget(const double *bins, size_t n, double budget, double gap, double r)
{
	double cum = 0;
	for (size_t z = 2 * n + 1; z-- > 0;) {
		cum += bins[z];
		if (cum > budget)
			return gap * (r + ((double)z - (double)n) / (double)n);
	}
	return 0.0;
}

/* For each candidate t_k = t_floor + k / T_STEPS_PER_UNIT, the least m
 * with every point's chance of adopting by look n within budget(point) =
 * aim - cum(point): the mean depends on k+ - k- alone, so per point the
 * mass of each value of k+ - k- among the patterns that reach t_k is
 * summed from the top until it exceeds the budget; m must reach that
 * value. */
static void least_m(struct grid *g, size_t n, const struct twostate_family *f, double aim,
		    double t_floor, double *m_of)
{
	size_t nj = 2 * n + 1;
	for (int k = 0; k <= T_STEPS; k++)
		m_of[k] = 0.0;
	for (size_t i = 0; i < g->npts; i++) {
		double r = grid_pb(i) - grid_pa(i), budget = aim - g->cum[i], gap = fam_gap(f, r);
		const double *mass = g->mass + i * W * W;
		if (!(gap > 0))
			continue;
		memset(g->bins, 0, (T_STEPS + 1) * nj * sizeof(*g->bins));
		for (int kp = 0; kp <= (int)n; kp++)
			for (int km = 0; km + kp <= (int)n; km++) {
				double xm = g->xm[IDX(kp, km)], xs = g->xs[IDX(kp, km)], v = mass[IDX(kp, km)];
				if (v == 0)
					continue;
				if (!(r + xm > 0))
					continue;
				double tt = pattern_t(xm, xs, r, n);
				if (!(tt >= t_floor))
					continue;
				double kk = floor((tt - t_floor) * T_STEPS_PER_UNIT);
				int top = kk > T_STEPS ? T_STEPS : (int)kk;
				g->bins[(size_t)top * nj + (size_t)(kp - km + (int)n)] += v;
			}
		for (int k = T_STEPS - 1; k >= 0; k--) /* reaching t_k: every higher bin too */
			for (size_t z = 0; z < nj; z++)
				g->bins[(size_t)k * nj + z] += g->bins[(size_t)(k + 1) * nj + z];
		for (int k = 0; k <= T_STEPS; k++)
			m_of[k] = fmax(m_of[k], mean_over_budget(g->bins + (size_t)k * nj, n, budget, gap, r));
	}
}

/* The second rectangle of look n's bar: the least m2 such that, with
 * the first rectangle (b->m, b->t) fixed, every point's patterns with T
 * at least b->t2 that the first leaves out fit in what its budget has
 * left, summed from the highest mean down. */
static double least_m2(struct grid *g, size_t n, const struct twostate_family *f, double aim,
		       const struct twostate_bar *b)
{
	size_t nj = 2 * n + 1;
	double m2 = 0.0;
	struct twostate_bar first = *b;
	first.m2 = INFINITY;
	for (size_t i = 0; i < g->npts; i++) {
		double r = grid_pb(i) - grid_pa(i), budget = aim - g->cum[i], gap = fam_gap(f, r);
		const double *mass = g->mass + i * W * W;
		if (!(gap > 0))
			continue;
		memset(g->bins, 0, nj * sizeof(*g->bins));
		for (int kp = 0; kp <= (int)n; kp++)
			for (int km = 0; km + kp <= (int)n; km++) {
				double xm = g->xm[IDX(kp, km)], xs = g->xs[IDX(kp, km)], v = mass[IDX(kp, km)];
				if (v == 0)
					continue;
				if (in_bar(xm, xs, r, n, gap, &first))
					budget -= v;
				else if (r + xm > 0 && pattern_t(xm, xs, r, n) >= b->t2)
					g->bins[(size_t)(kp - km + (int)n)] += v;
			}
		m2 = fmax(m2, mean_over_budget(g->bins, n, budget, gap, r));
	}
	return m2;
}

/* Every point's chain past look n's bar: its patterns in the region are
 * adopted. */
static void absorb(struct grid *g, size_t n, const struct twostate_family *f,
		   const struct twostate_bar *b)
{
	for (size_t i = 0; i < g->npts; i++) {
		double r = grid_pb(i) - grid_pa(i), *mass = g->mass + i * W * W, gap = fam_gap(f, r);
		for (int kp = 0; kp <= (int)n; kp++)
			for (int km = 0; km + kp <= (int)n; km++) {
				double *v = &mass[IDX(kp, km)];
				if (*v != 0 && in_bar(g->xm[IDX(kp, km)], g->xs[IDX(kp, km)], r, n, gap, b)) {
					g->cum[i] += *v;
					*v = 0;
				}
			}
	}
}

int twostate_bars(size_t first, size_t last, double gap_max, const double *spent,
		  const double *t_floor, double t2_above, double design_mean, double design_sd,
		  struct twostate_bar *bar)
{
	struct twostate_family f;
	twostate_family_wide(&f, gap_max);
	return twostate_bars_in(first, last, &f, spent, t_floor, t2_above, design_mean, design_sd,
				bar);
}

int twostate_bars_in(size_t first, size_t last, const struct twostate_family *f,
		     const double *spent, const double *t_floor, double t2_above,
		     double design_mean, double design_sd, struct twostate_bar *bar)
{
	struct grid g;
	double m_of[T_STEPS + 1];
	int rc = 0;
	if (first < 2 || last < first || last > TWOSTATE_MAX_N || !f || !(f->gap_equal > 0) ||
	    !(f->gap_shift > 0) || !(f->shift_max >= 0) || !(design_sd > 0) || !isfinite(design_mean) || !(t2_above >= 0))
		return -1;
	g.npts = (GRID + 1) * (GRID + 1);
	g.mass = calloc(g.npts * W * W, sizeof(*g.mass));
	g.cum = calloc(g.npts, sizeof(*g.cum));
	g.bins = malloc((T_STEPS + 1) * (2 * TWOSTATE_MAX_N + 1) * sizeof(*g.bins));
	if (!g.mass || !g.cum || !g.bins)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < g.npts; i++)
		g.mass[i * W * W] = 1.0;
	for (size_t n = 1; rc == 0 && n <= last; n++) {
		for (size_t i = 0; i < g.npts; i++) {
			double pp, p0, pm;
			cells(grid_pa(i), grid_pb(i), &pp, &p0, &pm);
			step(g.mass + i * W * W, n, pp, p0, pm);
		}
		if (n < first)
			continue;
		look_stats(&g, n);
		if (!(spent[n] > 0 && spent[n] < 1) || !isfinite(t_floor[n])) {
			rc = -1;
			break;
		}
		/* The coarse grid can miss the maximum between its points: aim
		 * lower until the exact search agrees. */
		int ok = 0;
		for (double aim = spent[n]; !ok && aim > spent[n] * 1e-3; aim *= 0.9) {
			least_m(&g, n, f, aim, t_floor[n], m_of);
			int best = 0;
			double bp = -1;
			for (int k = 0; k <= T_STEPS; k++) {
				double pw = design_power(n, design_mean, design_sd, m_of[k],
							 t_floor[n] + k / T_STEPS_PER_UNIT);
				if (pw > bp) {
					bp = pw;
					best = k;
				}
			}
			bar[n].m = m_of[best];
			bar[n].t = t_floor[n] + best / T_STEPS_PER_UNIT;
			bar[n].t2 = t_floor[n] + t2_above;
			bar[n].m2 = fmax(least_m2(&g, n, f, aim, &bar[n]), bar[n].m);
			ok = twostate_worst_in(first, n, f, bar) <= spent[n];
		}
		if (!ok)
			rc = -1;
		else
			absorb(&g, n, f, &bar[n]);
	}
	free(g.mass);
	free(g.cum);
	free(g.bins);
	return rc;
}

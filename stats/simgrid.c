/* simgrid.c: scenario grids for the sequential A/B protocol (see simgrid.h). */
#include "stats/simgrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ab.h"
#include "stats/synth.h"

#define LAUNCHES 15
#define FAST_US 10.0

static const char *const family_names[SIMGRID_NFAMILIES] = {
	"null", "slower", "gain5_g4", "gain5_g8", "gain3_g4", "pairs8", "identical", "slower2",
	"steady0", "steady5", "steady3", "steady_m3", "noisy"
};

const char *simgrid_family_name(int f)
{
	return f >= 0 && f < SIMGRID_NFAMILIES ? family_names[f] : "?";
}

const char *simgrid_grid_name(int g)
{
	return g == SIMGRID_CALIBRATION ? "calibration" : "evaluation";
}

int simgrid_grid_parse(const char *s)
{
	if (strcmp(s, "calibration") == 0)
		return SIMGRID_CALIBRATION;
	if (strcmp(s, "evaluation") == 0)
		return SIMGRID_EVALUATION;
	return -1;
}

/* Evaluation: 3% outlier runs in every variant; near = just above the slow
 * cluster, far = 10-30% above the run's state, walk = anywhere 2-12% above
 * with random-walk drift, a jittering gap and a second-run penalty. */
static const struct simgrid_variant eval_variants[] = {
	{ "near", 0.03, 1, 0.005, 0.04, 0.0005, 0.0, 0.0, 0.0 },
	{ "far", 0.03, 0, 0.10, 0.30, 0.0005, 0.0, 0.0, 0.0 },
	{ "walk", 0.03, 0, 0.02, 0.12, 0.0, 0.002, 0.15, 0.003 },
};

/* Calibration: other rates, sizes and drifts. */
static const struct simgrid_variant cal_variants[] = {
	{ "near-c", 0.04, 1, 0.01, 0.05, 0.001, 0.0, 0.0, 0.0 },
	{ "far-c", 0.04, 0, 0.08, 0.25, -0.0005, 0.0, 0.0, 0.0 },
	{ "walk-c", 0.03, 0, 0.03, 0.10, 0.0, 0.003, 0.20, 0.005 },
};
#define NVAR 3

/* The noise shapes of the runs users have (issue 36), one set per grid:
 * one state with Gaussian run noise (gauss-C: C% CV) or heavy tails
 * (t3-C: Student t with 3 degrees of freedom, C% sd), three states at
 * equal frequencies (three-G, gap G), random-walk drift and outlier runs
 * over run noise. */
static const struct simgrid_variant eval_shapes[] = {
	{ "gauss-1", 0, 0, 0, 0, 0, 0, 0, 0, 0.01, 0, 0 },
	{ "gauss-2", 0, 0, 0, 0, 0, 0, 0, 0, 0.02, 0, 0 },
	{ "gauss-4", 0, 0, 0, 0, 0, 0, 0, 0, 0.04, 0, 0 },
	{ "t3-2", 0, 0, 0, 0, 0, 0, 0, 0, 0.02, 3, 0 },
	{ "t3-5", 0, 0, 0, 0, 0, 0, 0, 0, 0.05, 3, 0 },
	{ "three-6", 0, 0, 0, 0, 0, 0, 0, 0, 0.005, 0, 1 },
	{ "three-10", 0, 0, 0, 0, 0, 0, 0, 0, 0.005, 0, 1 },
	{ "walk-1.5", 0, 0, 0, 0, 0, 0.003, 0, 0.003, 0.015, 0, 0 },
	{ "outl-1.5", 0.03, 0, 0.10, 0.30, 0, 0, 0, 0, 0.015, 0, 0 },
};
static const struct simgrid_variant cal_shapes[] = {
	{ "gauss-0.7", 0, 0, 0, 0, 0, 0, 0, 0, 0.007, 0, 0 },
	{ "gauss-1.4", 0, 0, 0, 0, 0, 0, 0, 0, 0.014, 0, 0 },
	{ "gauss-3", 0, 0, 0, 0, 0, 0, 0, 0, 0.03, 0, 0 },
	{ "t4-3", 0, 0, 0, 0, 0, 0, 0, 0, 0.03, 4, 0 },
	{ "t3-1.5", 0, 0, 0, 0, 0, 0, 0, 0, 0.015, 3, 0 },
	{ "three-5", 0, 0, 0, 0, 0, 0, 0, 0, 0.004, 0, 1 },
	{ "three-11", 0, 0, 0, 0, 0, 0, 0, 0, 0.004, 0, 1 },
	{ "walk-1", 0, 0, 0, 0, 0, 0.004, 0, 0.005, 0.01, 0, 0 },
	{ "outl-1", 0.05, 0, 0.05, 0.20, 0, 0, 0, 0, 0.01, 0, 0 },
};
#define NSHAPE 9
/* The gap of a three-state shape (its name's number), 0 for the others. */
static double shape_gap(const struct simgrid_variant *v)
{
	return v->three_states ? strtod(v->name + 6, NULL) / 100.0 : 0.0;
}

/* Steady kernels: one state, runs of these CVs; then noisy ones. */
static const struct simgrid_variant eval_steady[] = {
	{ "gauss-1", 0, 0, 0, 0, 0, 0, 0, 0, 0.01, 0, 0 },
	{ "gauss-1.4", 0, 0, 0, 0, 0, 0, 0, 0, 0.014, 0, 0 },
	{ "gauss-2", 0, 0, 0, 0, 0, 0, 0, 0, 0.02, 0, 0 },
	{ "noisy-10", 0, 0, 0, 0, 0, 0, 0, 0, 0.10, 0, 0 },
	{ "noisy-14", 0, 0, 0, 0, 0, 0, 0, 0, 0.14, 0, 0 },
};
static const struct simgrid_variant cal_steady[] = {
	{ "gauss-0.8", 0, 0, 0, 0, 0, 0, 0, 0, 0.008, 0, 0 },
	{ "gauss-1.2", 0, 0, 0, 0, 0, 0, 0, 0, 0.012, 0, 0 },
	{ "gauss-1.7", 0, 0, 0, 0, 0, 0, 0, 0, 0.017, 0, 0 },
	{ "noisy-8", 0, 0, 0, 0, 0, 0, 0, 0, 0.08, 0, 0 },
	{ "noisy-12", 0, 0, 0, 0, 0, 0, 0, 0, 0.12, 0, 0 },
};
#define NSTEADY 3 /* the first three are steady, the last two noisy */
#define NNOISY 2

static const double eval_gaps[] = { 0.02, 0.04, 0.06, 0.08, 0.10 };
static const double eval_ps[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9 };
static const double cal_gaps[] = { 0.03, 0.05, 0.07, 0.09, 0.11 };
static const double cal_ps[] = { 0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95 };
static const double eval_power_ps[] = { 0.2, 0.5, 0.8 };
static const double cal_power_ps[] = { 0.15, 0.35, 0.65, 0.85 };
#define N(a) (sizeof(a) / sizeof((a)[0]))

static size_t put(struct simgrid_cell *out, size_t cap, size_t n, int fam, double gap, double pa,
		  double pb, double gain, const struct simgrid_variant *v)
{
	if (n < cap) {
		out[n].family = fam;
		out[n].gap = gap;
		out[n].pa = pa;
		out[n].pb = pb;
		out[n].gain = gain;
		out[n].variant = v;
	}
	return n + 1;
}

size_t simgrid_cells(int g, struct simgrid_cell *out, size_t cap)
{
	int cal = g == SIMGRID_CALIBRATION;
	const struct simgrid_variant *var = cal ? cal_variants : eval_variants;
	const double *gaps = cal ? cal_gaps : eval_gaps;
	const double *ps = cal ? cal_ps : eval_ps;
	const double *pps = cal ? cal_power_ps : eval_power_ps;
	size_t ng = cal ? N(cal_gaps) : N(eval_gaps), np = cal ? N(cal_ps) : N(eval_ps);
	size_t npp = cal ? N(cal_power_ps) : N(eval_power_ps);
	size_t n = 0, k = 0;

	/* every (G, pA, pB) with equal means, under every variant */
	for (size_t v = 0; v < NVAR; v++)
		for (size_t i = 0; i < ng; i++)
			for (size_t a = 0; a < np; a++)
				for (size_t b = 0; b < np; b++)
					n = put(out, cap, n, SIMGRID_NULL, gaps[i], ps[a], ps[b], 0.0, &var[v]);
	/* B 4% slower: every (G, pA, pB), the variant rotating */
	for (size_t i = 0; i < ng; i++)
		for (size_t a = 0; a < np; a++)
			for (size_t b = 0; b < np; b++)
				n = put(out, cap, n, SIMGRID_SLOWER, gaps[i], ps[a], ps[b], -0.04,
					&var[k++ % NVAR]);
	/* power: equal state frequencies, every variant */
	for (size_t v = 0; v < NVAR; v++)
		for (size_t j = 0; j < npp; j++) {
			n = put(out, cap, n, SIMGRID_GAIN5_G4, 0.04, pps[j], pps[j], 0.05, &var[v]);
			n = put(out, cap, n, SIMGRID_GAIN5_G8, 0.08, pps[j], pps[j], 0.05, &var[v]);
			n = put(out, cap, n, SIMGRID_GAIN3_G4, 0.04, pps[j], pps[j], 0.03, &var[v]);
			n = put(out, cap, n, SIMGRID_PAIRS8, 0.04, pps[j], pps[j], 0.08, &var[v]);
			n = put(out, cap, n, SIMGRID_PAIRS8, 0.08, pps[j], pps[j], 0.08, &var[v]);
		}
	/* the runs users have: other noise shapes, steady and noisy kernels */
	const struct simgrid_variant *sh = cal ? cal_shapes : eval_shapes;
	const struct simgrid_variant *st = cal ? cal_steady : eval_steady;
	for (size_t v = 0; v < NSHAPE; v++)
		n = put(out, cap, n, SIMGRID_IDENT, shape_gap(&sh[v]), 0.5, 0.5, 0.0, &sh[v]);
	for (size_t v = 0; v < NSHAPE; v++)
		n = put(out, cap, n, SIMGRID_SLOWER2, shape_gap(&sh[v]), 0.5, 0.5, -0.02, &sh[v]);
	for (size_t v = 0; v < NVAR; v++)
		for (size_t i = 0; i < ng; i++)
			n = put(out, cap, n, SIMGRID_SLOWER2, gaps[i], 0.5, 0.5, -0.02, &var[v]);
	static const int steady_fam[] = { SIMGRID_STEADY0, SIMGRID_STEADY5, SIMGRID_STEADY3,
					  SIMGRID_STEADYM3 };
	static const double steady_gain[] = { 0.0, 0.05, 0.03, -0.03 };
	for (size_t f = 0; f < 4; f++)
		for (size_t v = 0; v < NSTEADY; v++)
			n = put(out, cap, n, steady_fam[f], 0.0, 0.0, 0.0, steady_gain[f], &st[v]);
	for (size_t v = NSTEADY; v < NSTEADY + NNOISY; v++)
		n = put(out, cap, n, SIMGRID_NOISY, 0.0, 0.0, 0.0, 0.0, &st[v]);
	return n;
}

void simgrid_wilson95(long k, long n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	if (n <= 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double nn = (double)n, ph = (double)k / nn, z2 = z * z, den = 1 + z2 / nn;
	double c = (ph + z2 / (2 * nn)) / den;
	double h = z / den * sqrt(ph * (1 - ph) / nn + z2 / (4 * nn * nn));
	*lo = fmax(0.0, c - h);
	*hi = fmin(1.0, c + h);
}

uint64_t simgrid_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u;
}

/* Mean duration of an arm per unit of its fast level. */
static double mean_factor(const struct simgrid_cell *c, const struct simgrid_variant *v, double p)
{
	double state = 1.0 + p * c->gap;
	double u = 1.0 + 0.5 * (v->outlier_lo + v->outlier_hi);
	double outl = (v->outlier_ref ? 1.0 + c->gap : state) * u;
	return (1.0 - v->outlier_p) * state + v->outlier_p * outl;
}

static void make_arm(const struct simgrid_cell *c, double fast, double p, struct synth_arm *a)
{
	const struct simgrid_variant *v = c->variant;
	double h = c->gap / (2.0 + c->gap);
	memset(a, 0, sizeof(*a));
	a->mean_us = fast / (1.0 - h);
	a->half_gap = h;
	a->p_slow = p;
	a->launch_noise = 0.01;
	a->drift_per_run = v->drift_per_run;
	a->second_penalty = v->second_penalty;
	a->outlier_p = v->outlier_p;
	a->outlier_lo = v->outlier_lo;
	a->outlier_hi = v->outlier_hi;
	a->outlier_ref = v->outlier_ref;
	a->gap_jitter = v->gap_jitter;
	a->run_cv = v->run_cv;
	a->run_tail_df = v->run_tail_df;
	a->three_states = v->three_states;
}

double simgrid_median_run(double *x)
{
	for (size_t i = 1; i < LAUNCHES; i++) {
		double t = x[i];
		size_t j = i;
		while (j > 0 && x[j - 1] > t) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = t;
	}
	return x[LAUNCHES / 2];
}

void simgrid_run_cell(const struct simgrid_cell *c, long trials, uint64_t seed,
		      const struct abseq_params *p, struct simgrid_result *out)
{
	const struct simgrid_variant *v = c->variant;
	struct synth_arm A, B;
	double fb = FAST_US * mean_factor(c, v, c->pa) / mean_factor(c, v, c->pb) * (1.0 - c->gain);
	make_arm(c, FAST_US, c->pa, &A);
	make_arm(c, fb, c->pb, &B);
	uint64_t cs = simgrid_mix(simgrid_mix(simgrid_mix(simgrid_mix(simgrid_mix(seed, (uint64_t)c->family), dbits(c->gap)), dbits(c->pa)),
			      dbits(c->pb)),
			dbits(v->outlier_lo + 7 * v->walk_sd + 3 * v->drift_per_run + 11 * v->run_cv +
			      13 * v->run_tail_df + 17 * v->three_states));
	memset(out, 0, sizeof(*out));
	out->trials = trials;
	for (long t = 0; t < trials; t++) {
		uint64_t base = simgrid_mix(cs, (uint64_t)t);
		struct stats_rng order, walk, r;
		double a[ABSEQ_MAX_PAIRS], b[ABSEQ_MAX_PAIRS], w[2 * ABSEQ_MAX_PAIRS];
		double l[LAUNCHES];
		int bf[ABSEQ_MAX_PAIRS];
		struct abseq_result res;
		stats_rng_seed(&order, simgrid_mix(base, 0x6f72646572ULL));
		stats_rng_seed(&walk, simgrid_mix(base, 0x77616c6bULL));
		w[0] = 0;
		for (size_t k = 1; k < 2 * p->max_pairs; k++)
			w[k] = w[k - 1] + (v->walk_sd > 0 ? v->walk_sd * stats_rng_normal(&walk) : 0.0);
		res.reason = ABSEQ_CONTINUE;
		res.verdict = AB_INCONCLUSIVE;
		size_t i = 0;
		while (i < p->max_pairs) {
			bf[i] = (int)(stats_rng_next(&order) >> 63);
			for (int x = 0; x < 2; x++) {
				int second = x == 0 ? bf[i] : !bf[i];
				long run = (long)(2 * i) + second;
				stats_rng_seed(&r, simgrid_mix(simgrid_mix(base, i), (uint64_t)x));
				synth_run(x ? &B : &A, &r, run, second, l, LAUNCHES);
				double m = simgrid_median_run(l) * exp(w[run]);
				if (x)
					b[i] = m;
				else
					a[i] = m;
			}
			i++;
			if (i < p->min_pairs)
				continue;
			if (abseq_decide(a, b, bf, i, p, NULL, NULL, &res) != 0) {
				res.reason = ABSEQ_BUDGET;
				res.verdict = AB_INCONCLUSIVE;
				break;
			}
			if (res.reason != ABSEQ_CONTINUE)
				break;
		}
		out->count[res.verdict]++;
		out->pairs_sum += (double)i;
		out->by8 += i <= 8;
		if ((long)i > out->pairs_max)
			out->pairs_max = (long)i;
	}
}

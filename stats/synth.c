/* synth.c: seeded synthetic msprof runs (see synth.h). */
#include "stats/synth.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t stats_rng_next(struct stats_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double stats_rng_u01(struct stats_rng *r)
{
	return (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
}

double stats_rng_normal(struct stats_rng *r)
{
	double u1 = stats_rng_u01(r), u2 = stats_rng_u01(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* A standard draw of the run factor: N(0, 1), or Student t with df
 * degrees of freedom scaled to unit sd (a normal over the root of a
 * chi-square: df normals squared, df rounded to an integer). */
static double run_noise(struct stats_rng *r, double df)
{
	double z = stats_rng_normal(r);
	if (!(df > 2.0))
		return z;
	int k = (int)(df + 0.5);
	double c = 0;
	for (int i = 0; i < k; i++) {
		double x = stats_rng_normal(r);
		c += x * x;
	}
	return z / sqrt(c / k) * sqrt((k - 2.0) / k);
}

int synth_run(const struct synth_arm *a, struct stats_rng *r, long run_index,
	      int is_second, double *launches, size_t n)
{
	double u = stats_rng_u01(r);
	int state = a->three_states ? (u < 1.0 / 3 ? 0 : u < 2.0 / 3 ? 3 : 1) : u < a->p_slow ? 1 : 0;
	double fast = a->mean_us * (1.0 - a->half_gap), slow = a->mean_us * (1.0 + a->half_gap);
	if (a->gap_jitter > 0.0)
		slow = fast + (slow - fast) * fmax(0.0, 1.0 + a->gap_jitter * stats_rng_normal(r));
	double level = state == 3 ? 0.5 * (fast + slow) : state ? slow : fast;
	if (state == 3)
		state = 1; /* reported as slow */
	double ref = a->outlier_ref ? slow : level;
	double scale = (1.0 + a->drift_per_run * (double)run_index) *
		       (is_second ? 1.0 + a->second_penalty : 1.0);
	if (a->outlier_p > 0.0 && stats_rng_u01(r) < a->outlier_p) {
		level = ref * (1.0 + a->outlier_lo + (a->outlier_hi - a->outlier_lo) * stats_rng_u01(r));
		state = 2;
	}
	level *= scale;
	if (a->run_cv > 0.0)
		level *= exp(a->run_cv * run_noise(r, a->run_tail_df));
	for (size_t i = 0; i < n; i++) {
		double v = level * (1.0 + a->launch_noise * stats_rng_normal(r));
		launches[i] = v > 0.0 ? v : level * 1e-3;
	}
	return state;
}

const char *const synth_scenario_names[] = {
	"quiet", "bimodal4", "bimodal8", "drift", "outliers", "stateshift", "steady1", "steady2", NULL
};

int synth_scenario(const char *name, double effect, double mean_us,
		   struct synth_arm *a, struct synth_arm *b)
{
	struct synth_arm base = {
		.mean_us = mean_us, .half_gap = 0.02, .p_slow = 0.5,
		.launch_noise = 0.01,
	};
	struct synth_arm bb;
	if (strcmp(name, "quiet") == 0) {
		base.half_gap = 0.0;
	} else if (strcmp(name, "bimodal4") == 0) {
		/* the defaults */
	} else if (strcmp(name, "bimodal8") == 0) {
		base.half_gap = 0.04;
	} else if (strcmp(name, "drift") == 0) {
		base.drift_per_run = 0.003;
		base.second_penalty = 0.005;
	} else if (strcmp(name, "outliers") == 0) {
		base.outlier_p = 0.05;
		base.outlier_lo = 0.10;
		base.outlier_hi = 0.30;
	} else if (strcmp(name, "stateshift") == 0) {
		base.p_slow = 0.2;
	} else if (strcmp(name, "steady1") == 0 || strcmp(name, "steady2") == 0) {
		base.half_gap = 0.0; /* one state, the runs' own spread */
		base.run_cv = name[6] == '1' ? 0.014 : 0.02;
	} else {
		return -1;
	}
	bb = base;
	bb.mean_us = mean_us * (1.0 - effect);
	if (strcmp(name, "stateshift") == 0)
		bb.p_slow = 0.8;
	*a = base;
	*b = bb;
	return 0;
}

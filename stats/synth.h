/* synth.h: the synthetic run generator shared by the fake kernel
 * (scripts/fake-kernel) and `tlperf sim`, so the simulation and the
 * end-to-end tests measure the same kind of noise.
 *
 * Model of one msprof run (one process): the process lands in a fast or a
 * slow state (run-level bimodality, BP_run_state_bimodality); every launch
 * is then the state's level times (1 + launch noise). Optional drift per
 * run, a penalty for the arm that runs second in a pair, and rare outlier
 * runs.
 */
#ifndef TLPERF_SYNTH_H
#define TLPERF_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** state; seed with stats_rng_seed. Pure and reproducible. */
struct stats_rng {
	uint64_t s[4]; /* generator state */
};

void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
/* Uniform in [0,1). */
double stats_rng_u01(struct stats_rng *r);
/* Standard normal (Box-Muller, no cached second value). */
double stats_rng_normal(struct stats_rng *r);

/* Parameters of one arm. */
struct synth_arm {
	double mean_us;        /* level of a run halfway between the states */
	double half_gap;       /* fast = mean*(1-half_gap), slow = mean*(1+half_gap) */
	double p_slow;         /* probability that a run lands in the slow state */
	double launch_noise;   /* relative sd of a single launch */
	double drift_per_run;  /* relative slowdown added per global run index */
	double second_penalty; /* relative penalty when the arm runs second in its pair */
	double outlier_p;      /* probability that a run is an outlier */
	double outlier_lo;     /* outlier runs are slower by U(lo, hi), relative */
	double outlier_hi;
	int outlier_ref;       /* 0: an outlier is U(lo, hi) above its run's state level;
				  1: above the slow level, whatever the state (near the slow cluster) */
	double gap_jitter;     /* relative sd of the gap from run to run (0: fixed gap) */
	double run_cv;         /* run-to-run noise: log sd of a factor on the whole run (0: none) */
	double run_tail_df;    /* 0: that factor Gaussian; > 2: Student t with these degrees of
				  freedom, scaled to the same sd (heavy tails) */
	int three_states;      /* 1: a third state halfway between fast and slow, each of the
				  three with probability 1/3 (p_slow unused) */
};

/* One run: fills launches[0..n-1] with durations in us and returns its
 * state (0 fast, 1 slow, 2 outlier). run_index counts all runs of the
 * session from 0 (drift); is_second is 1 when this arm ran second in its
 * pair. */
int synth_run(const struct synth_arm *a, struct stats_rng *r, long run_index,
	      int is_second, double *launches, size_t n);

/* A named scenario of the decision-quality issues: quiet, bimodal4,
 * bimodal8, drift, outliers, stateshift, and the steady kernels steady1
 * and steady2 (one state, runs of 1.4% and 2% CV). effect is B's true relative gain
 * (0.05 = B 5% faster, -0.04 = B 4% slower). Fills *a and *b for the two
 * arms around mean_us. Returns 0, or -1 when the name is unknown. */
int synth_scenario(const char *name, double effect, double mean_us,
		   struct synth_arm *a, struct synth_arm *b);

/* NULL-terminated list of scenario names, in table order. */
extern const char *const synth_scenario_names[];

#endif

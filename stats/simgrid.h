/* simgrid.h: the scenario grids of `tlperf sim --grid`: cells over the
 * run-state gap G, the slow-state probabilities pA and pB, outlier runs
 * (rate, size, near the slow cluster or far above their own state), linear
 * and random-walk drift, a gap that jitters from run to run and a
 * second-run penalty, each with B's MEAN duration set relative to A's.
 *
 * Two grids that share no cell: `calibration` (the constants of
 * stats/abseq.c were tuned on it) and `evaluation` (the one reported; its
 * null cells are the decision-quality issue's grid: G in {2,4,6,8,10}%,
 * pA, pB in {0.1 .. 0.9}). Cells belong to families, one per target:
 *   null      B's mean equals A's (every B_better is a false adoption)
 *   slower    B's mean 4% slower
 *   gain5_g4  a 5% mean gain at G = 4%      gain5_g8  the same at G = 8%
 *   gain3_g4  a 3% mean gain at G = 4%      pairs8    an 8% mean gain
 * and those of the runs users have (issue 36):
 *   identical B = A under other noise shapes (Gaussian and heavy-tailed
 *             run noise, three states, drift, outliers)
 *   slower2   B 2% slower under those shapes and two states
 *   steady0, steady5, steady3, steady_m3: one state, runs of 0.8-2% CV,
 *             B equal, 5% faster, 3% faster, 3% slower
 *   noisy     B = A with runs of 8-14% CV (the budget cannot resolve 1%)
 * Pure: no I/O; simgrid_run_cell is deterministic in (cell, trials, seed).
 */
#ifndef TLPERF_SIMGRID_H
#define TLPERF_SIMGRID_H

#include <stddef.h>
#include <stdint.h>

#include "stats/abseq.h"

enum simgrid_family {
	SIMGRID_NULL = 0,
	SIMGRID_SLOWER,
	SIMGRID_GAIN5_G4,
	SIMGRID_GAIN5_G8,
	SIMGRID_GAIN3_G4,
	SIMGRID_PAIRS8,
	SIMGRID_IDENT,      /* B identical to A under other noise shapes (one state with
			       Gaussian or heavy-tailed run noise, three states, drift, outliers) */
	SIMGRID_SLOWER2,    /* B 2% slower: those shapes and two run states at equal frequencies */
	SIMGRID_STEADY0,    /* a steady kernel (one state, runs of 0.8-2% CV), B = A */
	SIMGRID_STEADY5,    /* the same, B 5% faster */
	SIMGRID_STEADY3,    /* the same, B 3% faster */
	SIMGRID_STEADYM3,   /* the same, B 3% slower */
	SIMGRID_NOISY,      /* runs of 8-14% CV, B = A: noise that cannot resolve 1% in 16 pairs */
	SIMGRID_NFAMILIES
};

/* "null", "slower", "gain5_g4", "gain5_g8", "gain3_g4", "pairs8", "identical",
 * "slower2", "steady0", "steady5", "steady3", "steady_m3", "noisy". */
const char *simgrid_family_name(int f);

/* Noise besides the two states, shared by both arms. */
struct simgrid_variant {
	const char *name;
	double outlier_p;      /* probability that a run is an outlier */
	int outlier_ref;       /* 0: above its own state level; 1: above the slow level */
	double outlier_lo, outlier_hi; /* outlier size U(lo, hi), relative */
	double drift_per_run;  /* linear drift, relative per run */
	double walk_sd;        /* random-walk drift: log step sd per run */
	double gap_jitter;     /* relative sd of the gap from run to run */
	double second_penalty; /* relative penalty of the arm that runs second */
	double run_cv;         /* run-to-run noise, log sd (stats/synth.h) */
	double run_tail_df;    /* 0 Gaussian, else Student t with these degrees of freedom */
	int three_states;      /* 1: a third state halfway, the three equally likely */
};

struct simgrid_cell {
	int family;            /* enum simgrid_family */
	double gap;            /* relative gap: slow = fast * (1 + gap) */
	double pa, pb;         /* P(slow) of A and B */
	double gain;           /* B's mean gain, 1 - E[B]/E[A] (0: equal means) */
	const struct simgrid_variant *variant;
};

enum simgrid_grid { SIMGRID_CALIBRATION = 0, SIMGRID_EVALUATION = 1 };

/* "calibration", "evaluation"; simgrid_grid_parse returns -1 when unknown. */
const char *simgrid_grid_name(int g);
int simgrid_grid_parse(const char *s);

/* Number of cells of grid g, and the cells themselves: writes at most cap
 * cells to out and returns the total (call with cap 0 to size). */
size_t simgrid_cells(int g, struct simgrid_cell *out, size_t cap);

/* Outcome of one cell. */
struct simgrid_result {
	long trials;
	long by8;              /* sessions that ended within 8 pairs */
	long count[4];         /* per enum ab_verdict */
	double pairs_sum;
	long pairs_max;
};

/* Runs `trials` seeded sequential A/B sessions of the cell with params p
 * (15 launches per run, the run median as its value, a seeded coin for
 * the order within each pair). seed selects the random streams; the cell's
 * own parameters are mixed in so that no two cells share noise. */
void simgrid_run_cell(const struct simgrid_cell *c, long trials, uint64_t seed,
		      const struct abseq_params *p, struct simgrid_result *out);

/* Wilson score interval (95%) of k successes in n. */
void simgrid_wilson95(long k, long n, double *lo, double *hi);

/* Seeds derived from a parent seed and a value: one mixing step
 * (splitmix-style), the one the simulators share so a run is a pure
 * function of (seed, cell, trial, pair, arm). */
uint64_t simgrid_mix(uint64_t h, uint64_t v);

/* The median of one synthetic run's 15 launch durations, x[0..15) (sorted
 * in place). */
double simgrid_median_run(double *x);

#endif

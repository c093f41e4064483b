/* final.h: the final figure of a kernel on one workload. One definition,
 * shared by `tlperf loop` (status, finish, report), `tlperf speedup`,
 * `tlperf audit`, `tlperf explain` and the gate (S4-PERF-RECORDS-RECON):
 * the figure the gate accepts is the figure every command prints and the
 * loop writes.
 *
 * The runs: the valid measurements (l0_pass, measured) of the delivered
 * kernel on the workload, never the round-0 baseline, in file order: the
 * round(s) that measured it, then its final confirmation run(s) (the loop
 * writes them as the kernel's id in the round after the last decided one,
 * v2 as phase "final"). Which records are the kernel's is the caller's
 * reading: `tlperf speedup` takes the final candidate's own records; the
 * gate also counts re-measurements under another id that the log
 * announces (gates/s4.h, s4_repeats_of).
 *
 * The final figure is the MEDIAN of the runs (the mean of the middle two
 * when their number is even): never the best run (a best-of-N is a figure
 * the kernel does not hold) nor the latest (run-to-run drift of 2-4% is
 * normal on the NPU, and the final confirmation is one more run of it).
 *
 * Settled: one run, or the last run repeats an earlier one within the
 * noise threshold (|last - earlier| <= noise * earlier). An unsettled
 * final confirmation disagrees with every earlier run beyond the noise:
 * the figure of two such runs is their midpoint, which neither run
 * supports, so the loop asks for one more run (`finish --remeasure`) or
 * for both runs to be reported (`finish --report-both`).
 */
#ifndef TLPERF_FINAL_H
#define TLPERF_FINAL_H

#include <stddef.h>

struct stats_final {
	double figure;  /* median of the runs; NAN when n == 0 */
	double last;    /* the last run; NAN when n == 0 */
	double nearest; /* the earlier run closest to last; NAN when n < 2 */
	double drift;   /* (last - nearest) / nearest; 0 when n < 2 */
	size_t n;       /* runs */
	int settled;    /* see above; 0 when n == 0 */
};

/* The final figure of runs[0..n) (file order) at the noise threshold
 * noise (a fraction, e.g. 0.03) into *out. Returns 0; -1 with *out empty
 * (figure NAN) when n == 0 or a run is not a positive finite number.
 * Never modifies runs. */
int stats_final_figure(const double *runs, size_t n, double noise, struct stats_final *out);

/* How a claimed final figure stands against the runs (the median policy):
 *   FIGURE   within tol (relative) of the final figure: it is the figure;
 *   CAUTIOUS within tol of the median of the final confirmation runs, and
 *            not better than the figure by more than tol (a cautious
 *            report of the confirmation: accepted);
 *   CONFIRM  within tol of the final confirmation run, the only one of
 *            its round, and within the noise threshold of the figure: the
 *            latest of two readings of one kernel, not a pick among the
 *            runs of one round (a warning: the figure is the median);
 *   PICKED   within tol of one run but none of the above: a best-of-N,
 *            or a run outside the noise of the figure (an error);
 *   NONE     within tol of no run and not the figure.
 * confirm[i] is 1 when runs[i] is a final confirmation run (NULL: none
 * is); *hit (may be NULL) receives the index of the run the claim
 * matches, (size_t)-1 for FIGURE and NONE. */
enum stats_final_claim {
	STATS_CLAIM_FIGURE = 0,
	STATS_CLAIM_CAUTIOUS,
	STATS_CLAIM_CONFIRM,
	STATS_CLAIM_PICKED,
	STATS_CLAIM_NONE
};
enum stats_final_claim stats_final_claim(const double *runs, const unsigned char *confirm, size_t n,
					 double claimed, double tol, double noise, size_t *hit);

#endif

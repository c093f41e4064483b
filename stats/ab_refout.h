/* ab_refout.h: the numbers the reference ab_test.py prints, exactly.
 *
 * tlab is a drop-in for ab_test.py: scripts written for it read
 * `b_rel_change` (NEGATIVE when B is faster: the relative change of B's
 * time), the merged medians and the pair differences rounded to 3
 * decimals, and `sign_test_p` rounded to 4, all with Python's round()
 * (stats/pyround.h). This module turns the unrounded figures of the
 * reference rule (stats/ab.h) into those values. Pure.
 */
#ifndef TLPERF_AB_REFOUT_H
#define TLPERF_AB_REFOUT_H

#include <stddef.h>

#include "stats/ab.h"

/* The protocol label ab_test.py prints in its "protocol" field. */
#define AB_REF_PROTOCOL_LABEL "interleaved A/B multi-run (BP_run_state_bimodality)"

struct ab_ref_out {
	double a_merged_median_us;  /* round(medA, 3) */
	double b_merged_median_us;  /* round(medB, 3) */
	double b_rel_change;        /* round(-(medA - medB) / medA, 4): < 0 when B is faster */
	double sign_test_p;         /* round(p, 4) */
	/* unrounded, same meaning and sign as the reference's fields */
	double b_rel_change_exact;  /* -(medA - medB) / medA */
};

/* Fills *out from the reference rule's result r (stats_ab_ref). */
void stats_ab_ref_out(const struct ab_ref_result *r, struct ab_ref_out *out);

/* One pair's difference as ab_test.py prints it: round(b - a, 3). */
double stats_ab_ref_pair_diff(double a, double b);

#endif

/* ab_refout.c: ab_test.py's rounding of its JSON fields (see ab_refout.h). */
#include "stats/ab_refout.h"

#include "stats/pyround.h"

void stats_ab_ref_out(const struct ab_ref_result *r, struct ab_ref_out *out)
{
	/* ab_test.py: rel = (med_a - med_b) / med_a; "b_rel_change": round(-rel, 4).
	 * Negating a double is exact, so -rel is the reference's value bit for bit. */
	double neg = -r->b_rel_change;
	out->a_merged_median_us = stats_pyround(r->a_merged_median_us, 3);
	out->b_merged_median_us = stats_pyround(r->b_merged_median_us, 3);
	out->b_rel_change = stats_pyround(neg, 4);
	out->sign_test_p = stats_pyround(r->sign_test_p, 4);
	out->b_rel_change_exact = neg;
}

double stats_ab_ref_pair_diff(double a, double b)
{
	return stats_pyround(b - a, 3);
}

/* test_final.c: the final figure of a kernel (stats/final.h) and the
 * median policy every command and the gate share. */
#include "testlib.h"
#include "stats/final.h"

#include <math.h>

/* The drift both ways: a round run and a final confirmation run
 * 3% apart are settled, 7% apart are not; the figure is their median. */
static void test_figure_and_drift(void **state)
{
	(void)state;
	struct stats_final f;
	const double slower[] = { 8.967, 9.236 };   /* +3.0% */
	const double faster[] = { 8.967, 8.369 };   /* -6.7% */
	const double faster3[] = { 8.967, 8.700 };  /* -3.0% */
	assert_int_equal(stats_final_figure(slower, 2, 0.03, &f), 0);
	assert_close(f.figure, (8.967 + 9.236) / 2, 1e-12);
	assert_true(f.settled);
	assert_close(f.drift, 9.236 / 8.967 - 1, 1e-12);
	assert_int_equal(stats_final_figure(faster3, 2, 0.03, &f), 0);
	assert_true(f.settled);
	assert_int_equal(stats_final_figure(faster, 2, 0.03, &f), 0);
	assert_close(f.figure, 8.668, 1e-12);
	assert_false(f.settled);
	assert_close(f.last, 8.369, 0);
	assert_close(f.nearest, 8.967, 0);
	/* one more run that repeats either reading settles it, at the median of three */
	const double again[] = { 8.967, 8.369, 8.42 };
	assert_int_equal(stats_final_figure(again, 3, 0.03, &f), 0);
	assert_true(f.settled);
	assert_close(f.figure, 8.42, 0);
	/* one run is its own figure */
	assert_int_equal(stats_final_figure(slower, 1, 0.03, &f), 0);
	assert_true(f.settled);
	assert_close(f.figure, 8.967, 0);
	/* nothing, or a run that is no duration: no figure */
	assert_int_equal(stats_final_figure(slower, 0, 0.03, &f), -1);
	assert_true(isnan(f.figure));
	const double bad[] = { 8.0, NAN };
	assert_int_equal(stats_final_figure(bad, 2, 0.03, &f), -1);
	const double neg[] = { 8.0, -1 };
	assert_int_equal(stats_final_figure(neg, 2, 0.03, &f), -1);
}

/* The median policy: the figure passes; the final confirmation run (the
 * only one, within noise of the figure) is a warning; a pick among the
 * runs of a round, or a confirmation outside the noise, is an error. */
static void test_claim_policy(void **state)
{
	(void)state;
	size_t hit;
	/* the real case: runs 32.04 and 30.75 (the confirmation), median 31.395 */
	const double r[] = { 32.04, 30.75 };
	const unsigned char cf[] = { 0, 1 };
	assert_int_equal(stats_final_claim(r, cf, 2, 31.4, 0.01, 0.03, &hit), STATS_CLAIM_FIGURE);
	assert_int_equal(hit, (size_t)-1);
	assert_int_equal(stats_final_claim(r, cf, 2, 30.75, 0.01, 0.03, &hit), STATS_CLAIM_CONFIRM);
	assert_int_equal(hit, 1);
	/* the same figure with a 2% noise threshold: outside it, an error */
	assert_int_equal(stats_final_claim(r, cf, 2, 30.75, 0.01, 0.02, &hit), STATS_CLAIM_PICKED);
	/* the round's run, not the confirmation: a pick */
	assert_int_equal(stats_final_claim(r, cf, 2, 32.04, 0.01, 0.03, &hit), STATS_CLAIM_PICKED);
	assert_int_equal(hit, 0);
	/* no confirmation run: the latest of two is a pick too */
	assert_int_equal(stats_final_claim(r, NULL, 2, 30.75, 0.01, 0.03, &hit), STATS_CLAIM_PICKED);
	/* best-of-N in one round (64, 66, 58, 67: median 65) stays an error */
	const double four[] = { 64, 66, 58, 67 };
	const unsigned char none[] = { 0, 0, 0, 0 };
	assert_int_equal(stats_final_claim(four, none, 4, 58, 0.01, 0.03, &hit), STATS_CLAIM_PICKED);
	assert_int_equal(stats_final_claim(four, none, 4, 64, 0.01, 0.03, &hit), STATS_CLAIM_PICKED);
	assert_int_equal(stats_final_claim(four, none, 4, 65.5, 0.01, 0.03, &hit), STATS_CLAIM_FIGURE);
	/* two confirmation runs: the last of them is a pick among several */
	const unsigned char two[] = { 0, 0, 1, 1 };
	assert_int_equal(stats_final_claim(four, two, 4, 67, 0.01, 0.03, &hit), STATS_CLAIM_PICKED);
	/* a confirmation slower than the figure, reported as such: cautious */
	const double slow[] = { 30.0, 31.0 };
	assert_int_equal(stats_final_claim(slow, cf, 2, 31.0, 0.01, 0.03, &hit), STATS_CLAIM_CAUTIOUS);
	/* a figure no run holds */
	assert_int_equal(stats_final_claim(r, cf, 2, 20.0, 0.01, 0.03, &hit), STATS_CLAIM_NONE);
	assert_int_equal(stats_final_claim(r, cf, 0, 20.0, 0.01, 0.03, &hit), STATS_CLAIM_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure_and_drift),
		cmocka_unit_test(test_claim_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

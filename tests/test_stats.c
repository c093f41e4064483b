/* test_stats.c: descriptive statistics against hand-computed values. */
#include "testlib.h"
#include <math.h>
#include "stats/stats.h"
#include "stats/synth.h"

static void test_median_odd_even(void **state)
{
	(void)state;
	double odd[] = { 3, 1, 2 };
	double even[] = { 4, 1, 3, 2 };
	assert_close(stats_median(odd, 3), 2.0, 0);
	assert_close(stats_median(even, 4), 2.5, 0);
	/* the caller's array is not reordered */
	assert_close(odd[0], 3.0, 0);
	assert_true(isnan(stats_median(odd, 0)));
	double withnan[] = { 1, NAN, 3 };
	assert_true(isnan(stats_median(withnan, 3)));
}

static void test_quantile(void **state)
{
	(void)state;
	double x[] = { 10, 20, 30, 40 };
	/* type 7: h = (n-1)p = 0.75 -> 10 + 0.75*10 */
	assert_close(stats_quantile(x, 4, 0.25), 17.5, 1e-12);
	assert_close(stats_quantile(x, 4, 0.0), 10, 0);
	assert_close(stats_quantile(x, 4, 1.0), 40, 0);
	assert_true(isnan(stats_quantile(x, 4, 1.5)));
}

static void test_mad(void **state)
{
	(void)state;
	/* median 3; |dev| = 2,1,0,1,6 -> median 1 */
	double x[] = { 1, 2, 3, 4, 9 };
	assert_close(stats_mad(x, 5), 1.0, 0);
}

static void test_geomean(void **state)
{
	(void)state;
	double x[] = { 2, 8 };
	assert_close(stats_geomean(x, 2), 4.0, 1e-12);
	double bad[] = { 2, 0 };
	assert_true(isnan(stats_geomean(bad, 2)));
	double x3[] = { 1, 10, 100 };
	assert_close(stats_geomean(x3, 3), 10.0, 1e-12);
}

static void test_min_max_mean(void **state)
{
	(void)state;
	double x[] = { 5, -1, 7.5 };
	assert_close(stats_min(x, 3), -1, 0);
	assert_close(stats_max(x, 3), 7.5, 0);
	assert_close(stats_mean(x, 3), 11.5 / 3, 1e-12);
}

static void test_rng_reproducible(void **state)
{
	(void)state;
	struct stats_rng a, b;
	stats_rng_seed(&a, 42);
	stats_rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		assert_int_equal(stats_rng_next(&a), stats_rng_next(&b));
	/* u01 stays in [0,1) and has mean ~0.5 */
	double s = 0;
	for (int i = 0; i < 100000; i++) {
		double u = stats_rng_u01(&a);
		assert_true(u >= 0 && u < 1);
		s += u;
	}
	assert_close(s / 100000, 0.5, 0.01);
}

static void test_synth_states(void **state)
{
	(void)state;
	struct synth_arm a, b;
	assert_int_equal(synth_scenario("bimodal4", 0.05, 10.0, &a, &b), 0);
	assert_close(b.mean_us, 9.5, 1e-12);
	assert_int_equal(synth_scenario("nope", 0, 10.0, &a, &b), -1);
	struct stats_rng r;
	stats_rng_seed(&r, 7);
	double l[15];
	int slow = 0;
	for (int i = 0; i < 2000; i++) {
		int st = synth_run(&a, &r, i, 0, l, 15);
		double m = stats_median(l, 15);
		/* each run sits near its state's level: 9.8 or 10.2 */
		assert_close(m, st ? 10.2 : 9.8, 0.15);
		slow += st;
	}
	assert_in_range(slow, 900, 1100);
	/* stateshift: B lands slow 80% of the time */
	assert_int_equal(synth_scenario("stateshift", 0, 10.0, &a, &b), 0);
	assert_close(a.p_slow, 0.2, 0);
	assert_close(b.p_slow, 0.8, 0);
}

/* The run-level noise shapes of issue 36: steady2 spreads its runs by 2%
 * (log sd), a Student t factor with 3 degrees of freedom has the same sd
 * and heavier tails, and three states land at three levels equally often. */
static void test_synth_run_noise(void **state)
{
	(void)state;
	struct synth_arm a, b;
	assert_int_equal(synth_scenario("steady2", 0.0, 10.0, &a, &b), 0);
	assert_close(a.run_cv, 0.02, 0);
	assert_close(a.half_gap, 0.0, 0);
	assert_int_equal(synth_scenario("steady1", 0.0, 10.0, &a, &b), 0);
	assert_close(a.run_cv, 0.014, 0);
	struct stats_rng r;
	double l[15];
	for (int tails = 0; tails < 2; tails++) {
		a.run_cv = 0.02;
		a.run_tail_df = tails ? 3 : 0;
		stats_rng_seed(&r, 11);
		double s = 0, ss = 0, s4 = 0;
		int n = 20000;
		for (int i = 0; i < n; i++) {
			synth_run(&a, &r, i, 0, l, 15);
			double y = log(stats_median(l, 15) / 10.0);
			s += y;
			ss += y * y;
			s4 += y * y * y * y;
		}
		double v = ss / n - (s / n) * (s / n), kurt = s4 / n / (v * v);
		print_message("run noise %s: sd %.4f, kurtosis %.1f\n", tails ? "t3" : "gauss", sqrt(v), kurt);
		assert_close(sqrt(v), 0.0201, 0.001); /* 2% and the launches' 0.26% */
		assert_true(tails ? kurt > 5 : kurt < 3.3);
	}
	a.run_cv = 0.0;
	a.run_tail_df = 0;
	a.half_gap = 0.05;
	a.three_states = 1;
	int at[3] = { 0, 0, 0 };
	stats_rng_seed(&r, 12);
	for (int i = 0; i < 3000; i++) {
		synth_run(&a, &r, i, 0, l, 15);
		double m = stats_median(l, 15);
		at[m < 9.75 ? 0 : m < 10.25 ? 1 : 2]++;
	}
	for (int k = 0; k < 3; k++)
		assert_in_range(at[k], 900, 1100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_min_max_mean),
		cmocka_unit_test(test_rng_reproducible),
		cmocka_unit_test(test_synth_states),
		cmocka_unit_test(test_synth_run_noise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ab.c: the reference A/B rule, the sign test and the paired CI,
 * against values computed by hand (binomial tables). */
#include "testlib.h"
#include "stats/ab.h"
#include "stats/abseq.h"
#include "stats/ab_ci.h"

static void test_sign_test(void **state)
{
	(void)state;
	/* n=3, all positive: 2 * (1/8) */
	assert_close(stats_sign_test_p(3, 3), 0.25, 0);
	assert_close(stats_sign_test_p(3, 0), 0.25, 1e-15);
	/* n=10, 9 positive: 2 * (1 + 10) / 1024 */
	assert_close(stats_sign_test_p(10, 9), 0.021484375, 0);
	assert_close(stats_sign_test_p(10, 1), 0.021484375, 1e-15);
	/* n=5, 1 positive: 2 * (1 + 5) / 32 */
	assert_close(stats_sign_test_p(5, 1), 0.375, 1e-15);
	/* n=5, all one side: 2/32, the smallest p five pairs can give */
	assert_close(stats_sign_test_p(5, 5), 0.0625, 1e-15);
	/* balanced: 2 * 11/16 > 1 is capped */
	assert_close(stats_sign_test_p(4, 2), 1.0, 0);
	assert_close(stats_sign_test_p(0, 0), 1.0, 0);
	/* large n goes through gsl_cdf_binomial_P: n=60, k=20 against the
	 * exact tail 2 * sum_{i<=20} C(60,i) / 2^60 = 0.0134893 */
	assert_close(stats_sign_test_p(60, 20), 0.01348929373, 1e-9);
	/* k > n is not a count of positives */
	assert_close(stats_sign_test_p(3, 4), 1.0, 0);
}

static void test_verdict_names(void **state)
{
	(void)state;
	assert_string_equal(ab_verdict_name(AB_TIE), "tie");
	assert_string_equal(ab_verdict_name(AB_B_BETTER), "B_better");
	assert_string_equal(ab_verdict_name(AB_A_BETTER), "A_better");
	assert_string_equal(ab_verdict_name(AB_INCONCLUSIVE), "inconclusive");
}

static void test_ref_b_better(void **state)
{
	(void)state;
	double a[] = { 10.0, 10.2, 9.8 }, b[] = { 9.0, 9.1, 8.9 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	assert_close(r.a_merged_median_us, 10.0, 0);
	assert_close(r.b_merged_median_us, 9.0, 0);
	assert_close(r.b_rel_change, 0.1, 1e-12);
	assert_close(r.sign_test_p, 0.25, 1e-15);
	assert_int_equal(r.direction_consistent, 1);
	/* fewer than 5 pairs: consistency alone is significant */
	assert_int_equal(r.significant, 1);
	assert_int_equal(r.verdict, AB_B_BETTER);
}

static void test_ref_a_better(void **state)
{
	(void)state;
	double a[] = { 10.0, 10.0, 10.0 }, b[] = { 11.0, 11.5, 10.9 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	/* (10 - 11) / 10 */
	assert_close(r.b_rel_change, -0.1, 1e-12);
	assert_int_equal(r.direction_consistent, 1);
	assert_int_equal(r.verdict, AB_A_BETTER);
}

static void test_ref_tie_wins_over_significance(void **state)
{
	(void)state;
	/* consistent and significant, but |rel| = 2% < 3% */
	double a[] = { 10.0, 10.0, 10.0 }, b[] = { 9.8, 9.8, 9.8 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	assert_close(r.b_rel_change, 0.02, 1e-12);
	assert_int_equal(r.significant, 1);
	assert_int_equal(r.verdict, AB_TIE);
	/* the same data with a 1% margin is a win */
	assert_int_equal(stats_ab_ref(a, b, 3, 0.01, &r), 0);
	assert_int_equal(r.verdict, AB_B_BETTER);
}

static void test_ref_inconclusive_mixed_signs(void **state)
{
	(void)state;
	/* diffs -1, -1, +0.5: B's merged median 9 is 10% better, not consistent */
	double a[] = { 10.0, 10.0, 10.0 }, b[] = { 9.0, 9.0, 10.5 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	assert_close(r.b_rel_change, 0.1, 1e-12);
	assert_int_equal(r.direction_consistent, 0);
	/* n=3, k=1 positive: 2 * 4/8 = 1 */
	assert_close(r.sign_test_p, 1.0, 0);
	assert_int_equal(r.significant, 0);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
}

static void test_ref_zero_difference_is_not_consistent(void **state)
{
	(void)state;
	/* diffs -1, -1, 0: the zero breaks consistency and leaves the sign
	 * test with n=2, k=0: 2 * 1/4 */
	double a[] = { 10.0, 10.0, 10.0 }, b[] = { 9.0, 9.0, 10.0 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	assert_int_equal(r.direction_consistent, 0);
	assert_close(r.sign_test_p, 0.5, 1e-15);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
}

static void test_ref_five_pairs_needs_p(void **state)
{
	(void)state;
	/* 5 consistent pairs: p = 0.0625 < 0.1 */
	double a[] = { 10, 10, 10, 10, 10 }, b[] = { 9, 9, 9, 9, 9.5 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 5, 0.03, &r), 0);
	assert_close(r.sign_test_p, 0.0625, 1e-15);
	assert_int_equal(r.significant, 1);
	assert_int_equal(r.verdict, AB_B_BETTER);
	/* 6 pairs, one against: not consistent; p = 2 * 7/64 = 0.21875 */
	double a6[] = { 10, 10, 10, 10, 10, 10 }, b6[] = { 9, 9, 9, 9, 9, 10.1 };
	assert_int_equal(stats_ab_ref(a6, b6, 6, 0.03, &r), 0);
	assert_close(r.sign_test_p, 0.21875, 1e-15);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
}

static void test_ref_even_pairs_merged_median(void **state)
{
	(void)state;
	/* medians of 4 values are the mean of the middle two */
	double a[] = { 10, 12, 11, 13 }, b[] = { 9, 11, 10, 12 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, b, 4, 0.03, &r), 0);
	assert_close(r.a_merged_median_us, 11.5, 0);
	assert_close(r.b_merged_median_us, 10.5, 0);
	assert_close(r.b_rel_change, 1.0 / 11.5, 1e-12);
	assert_close(r.sign_test_p, 0.125, 1e-15);
	assert_int_equal(r.verdict, AB_B_BETTER);
}

static void test_ref_bad_input(void **state)
{
	(void)state;
	double a[] = { 10, 10, 10 }, b[] = { 9, NAN, 9 }, z[] = { 9, 0, 9 };
	struct ab_ref_result r;
	assert_int_equal(stats_ab_ref(a, a, 0, 0.03, &r), -1);
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), -1);
	assert_int_equal(stats_ab_ref(a, z, 3, 0.03, &r), -1);
	assert_int_equal(stats_ab_ref(a, a, 3, NAN, &r), -1);
}

/* Medians of 1.7e308: the merged medians of two pairs overflow to inf and
 * the change is NaN. The reference says inconclusive; a NaN never becomes
 * a verdict (it used to come out A_better for a faster B). */
static void test_ref_nan_change_is_inconclusive(void **state)
{
	(void)state;
	struct ab_ref_result r;
	double a[] = { 1.7e308, 1.7e308 }, b[] = { 1.6e308, 1.6e308 };
	assert_int_equal(stats_ab_ref(a, b, 2, 0.03, &r), 0);
	assert_true(isinf(r.a_merged_median_us));
	assert_true(isnan(r.b_rel_change));
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
	/* the sequential rule works on logs: no overflow, and B is faster */
	struct abseq_params p;
	struct abseq_result q;
	abseq_params_default(&p, ABSEQ_RULE_SEQ);
	double a4[] = { 1.7e308, 1.7e308, 1.7e308, 1.7e308 };
	double b4[] = { 1.6e308, 1.6e308, 1.6e308, 1.6e308 };
	assert_int_equal(abseq_decide(a4, b4, NULL, 4, &p, NULL, NULL, &q), 0);
	assert_true(isfinite(q.gain) && q.gain > 0.05);
	assert_int_not_equal(q.verdict, AB_A_BETTER);
}

static void test_median_ci(void **state)
{
	(void)state;
	struct stats_ci ci;
	/* n=3: even [min, max] only covers 1 - 2/8 = 75% */
	double x3[] = { 0.1, 0.05, 0.2 };
	assert_int_equal(stats_median_ci(x3, 3, 0.90, &ci), 0);
	assert_close(ci.lo, 0.05, 0);
	assert_close(ci.hi, 0.2, 0);
	assert_close(ci.estimate, 0.1, 0);
	assert_close(ci.level, 0.75, 0);
	assert_close(ci.requested, 0.90, 0);
	assert_int_equal(ci.k, 1);
	/* n=10, 90%: k=2 covers 1 - 2*11/1024; k=3 only 1 - 2*56/1024 = 0.89 */
	double x10[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	assert_int_equal(stats_median_ci(x10, 10, 0.90, &ci), 0);
	assert_int_equal(ci.k, 2);
	assert_close(ci.lo, 2, 0);
	assert_close(ci.hi, 9, 0);
	assert_close(ci.level, 0.978515625, 0);
	assert_close(ci.estimate, 5.5, 0);
	/* n=20, 95%: P(X<=5) = 21700/2^20, P(X<=6) = 60460/2^20 -> k=6 */
	double x20[20];
	for (int i = 0; i < 20; i++)
		x20[i] = i + 1;
	assert_int_equal(stats_median_ci(x20, 20, 0.95, &ci), 0);
	assert_int_equal(ci.k, 6);
	assert_close(ci.lo, 6, 0);
	assert_close(ci.hi, 15, 0);
	assert_close(ci.level, 1.0 - 43400.0 / 1048576.0, 1e-12);
	/* errors */
	assert_int_equal(stats_median_ci(x3, 0, 0.9, &ci), -1);
	assert_int_equal(stats_median_ci(x3, 3, 1.0, &ci), -1);
	double bad[] = { 1, INFINITY };
	assert_int_equal(stats_median_ci(bad, 2, 0.9, &ci), -1);
}

static void test_ab_rel_ci(void **state)
{
	(void)state;
	struct stats_ci ci;
	double a[] = { 10, 10, 10 }, b[] = { 9, 9.5, 8 };
	/* r = 0.1, 0.05, 0.2 */
	assert_int_equal(stats_ab_rel_ci(a, b, 3, 0.9, &ci), 0);
	assert_close(ci.lo, 0.05, 1e-12);
	assert_close(ci.hi, 0.2, 1e-12);
	assert_close(ci.estimate, 0.1, 1e-12);
	double z[] = { 10, 0, 10 };
	assert_int_equal(stats_ab_rel_ci(a, z, 3, 0.9, &ci), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_test),
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_ref_b_better),
		cmocka_unit_test(test_ref_a_better),
		cmocka_unit_test(test_ref_tie_wins_over_significance),
		cmocka_unit_test(test_ref_inconclusive_mixed_signs),
		cmocka_unit_test(test_ref_zero_difference_is_not_consistent),
		cmocka_unit_test(test_ref_five_pairs_needs_p),
		cmocka_unit_test(test_ref_even_pairs_merged_median),
		cmocka_unit_test(test_ref_bad_input),
		cmocka_unit_test(test_ref_nan_change_is_inconclusive),
		cmocka_unit_test(test_median_ci),
		cmocka_unit_test(test_ab_rel_ci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_pyround.c: Python's round() (stats/pyround.h) and the reference
 * fields of ab_test.py (stats/ab_refout.h). Expected values are what
 * CPython 3 prints for round(x, n); the tie cases are exact binary values
 * ending in 5 at the cut, which go to the even digit. */
#include "testlib.h"
#include "stats/ab.h"
#include "stats/ab_refout.h"
#include "stats/pyround.h"

struct rcase {
	double x;
	int nd;
	double want;
};

/* Equal as doubles, and the same sign for zeros. */
static void assert_same(double got, double want, double x, int nd)
{
	if (got == want && signbit(got) == signbit(want))
		return;
	print_error("round(%.17g, %d) = %.17g, Python gives %.17g\n", x, nd, got, want);
	fail();
}

static void test_ties_go_to_even(void **state)
{
	(void)state;
	static const struct rcase c[] = {
		{ 0.125, 2, 0.12 },        /* exact tie: 2 is even */
		{ 0.375, 2, 0.38 },        /* exact tie: 8 is even */
		{ 2.5, 0, 2.0 },
		{ 3.5, 0, 4.0 },
		{ 0.5, 0, 0.0 },
		{ -2.5, 0, -2.0 },
		{ -0.03125, 4, -0.0312 },
		{ 10.0625, 3, 10.062 },
		{ -1.0625, 3, -1.062 },
		{ -875.15625, 4, -875.1562 },
		{ 10090.5625, 3, 10090.562 },
		{ -5755.59375, 3, -5755.594 },
		{ -5341.53125, 3, -5341.531 },
		{ -2022.90625, 4, -2022.9062 },
		{ -6022.21875, 3, -6022.219 },
		{ -2384.03125, 3, -2384.031 },
		{ 12373.3125, 4, 12373.3125 }, /* already short enough */
		{ 8636.25, 3, 8636.25 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_same(stats_pyround(c[i].x, c[i].nd), c[i].want, c[i].x, c[i].nd);
}

static void test_binary_value_decides(void **state)
{
	(void)state;
	/* Decimal ties that are not binary ties: the stored double decides. */
	static const struct rcase c[] = {
		{ 2.675, 2, 2.67 },    /* 2.67499999999999982236431605997495353221893310546875 */
		{ 1.0005, 3, 1.0 },    /* just below the half */
		{ 0.00005, 4, 0.0001 },/* 5.000000000000000240e-05: just above */
		{ 0.04165, 4, 0.0416 },
		{ 8.4125, 3, 8.412 },
		{ 0.12345, 4, 0.1235 },
		{ 0.12500000000000003, 2, 0.13 }, /* one ulp above the tie */
		{ -0.00001, 4, -0.0 },  /* a zero keeps its sign, like Python */
		{ -0.17094965082868932, 4, -0.1709 },
		{ 92.69959974350522, 3, 92.7 },
		{ -0.013352660285731816, 4, -0.0134 },
		{ 175.2002850722623, 3, 175.2 },
		{ -0.04247615105653829, 4, -0.0425 },
		{ 182.24002441829379, 3, 182.24 },
		{ 174.80870865870492, 3, 174.809 },
		{ 162.53090501411597, 3, 162.531 },
		{ 0.006507480590652065, 4, 0.0065 },
		{ 36.404845099969734, 3, 36.405 },
		{ 0.06617282528876978, 4, 0.0662 },
		{ 58.6893516195186, 3, 58.689 },
		{ 18.637674145327036, 3, 18.638 },
		{ 171.5454210766398, 3, 171.545 },
		{ 118.74063531409473, 3, 118.741 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_same(stats_pyround(c[i].x, c[i].nd), c[i].want, c[i].x, c[i].nd);
}

static void test_specials(void **state)
{
	(void)state;
	assert_true(isnan(stats_pyround(NAN, 3)));
	assert_true(isinf(stats_pyround(INFINITY, 3)) && stats_pyround(INFINITY, 3) > 0);
	assert_true(isinf(stats_pyround(-INFINITY, 4)) && stats_pyround(-INFINITY, 4) < 0);
	/* huge values are integers already */
	assert_same(stats_pyround(1.7976931348623157e308, 3), 1.7976931348623157e308, 0, 3);
	/* out of the supported range: unchanged */
	assert_same(stats_pyround(0.123456, -1), 0.123456, 0.123456, -1);
	assert_same(stats_pyround(0.123456, 18), 0.123456, 0.123456, 18);
}

/* ab_test.py's fields for run medians where every rounding matters:
 * A = [10.0625, 10.1875, 9.9375] -> medA = 10.0625 (prints 10.062),
 * B = [9.5, 9.8125, 9.6875]      -> medB = 9.6875 (prints 9.688),
 * rel = (10.0625 - 9.6875) / 10.0625 = 0.037267080745341616,
 * b_rel_change = round(-rel, 4) = -0.0373 (NEGATIVE: B is faster),
 * diffs B - A = [-0.5625, -0.375, -0.25] print [-0.562, -0.375, -0.25],
 * sign_test_p = round(0.25, 4) = 0.25. (Values from CPython.) */
static void test_reference_fields(void **state)
{
	(void)state;
	const double a[] = { 10.0625, 10.1875, 9.9375 }, b[] = { 9.5, 9.8125, 9.6875 };
	struct ab_ref_result r;
	struct ab_ref_out o;
	assert_int_equal(stats_ab_ref(a, b, 3, 0.03, &r), 0);
	stats_ab_ref_out(&r, &o);
	assert_same(o.a_merged_median_us, 10.062, 10.0625, 3);
	assert_same(o.b_merged_median_us, 9.688, 9.6875, 3);
	assert_same(o.b_rel_change, -0.0373, -r.b_rel_change, 4);
	assert_same(o.b_rel_change_exact, -0.037267080745341616, -r.b_rel_change, 17);
	assert_same(o.sign_test_p, 0.25, r.sign_test_p, 4);
	assert_same(stats_ab_ref_pair_diff(a[0], b[0]), -0.562, -0.5625, 3);
	assert_same(stats_ab_ref_pair_diff(a[1], b[1]), -0.375, -0.375, 3);
	assert_same(stats_ab_ref_pair_diff(a[2], b[2]), -0.25, -0.25, 3);
	assert_int_equal(r.verdict, AB_B_BETTER);
	/* B slower: b_rel_change is positive */
	assert_int_equal(stats_ab_ref(b, a, 3, 0.03, &r), 0);
	stats_ab_ref_out(&r, &o);
	assert_true(o.b_rel_change > 0);
	assert_same(o.b_rel_change, 0.0387, -r.b_rel_change, 4);
	assert_int_equal(r.verdict, AB_A_BETTER);
	/* five pairs, one against: p = 2 * 6/32 = 0.375 exactly */
	const double a5[] = { 10, 10, 10, 10, 10 }, b5[] = { 9, 9, 9, 9, 11 };
	assert_int_equal(stats_ab_ref(a5, b5, 5, 0.03, &r), 0);
	stats_ab_ref_out(&r, &o);
	assert_same(o.sign_test_p, 0.375, r.sign_test_p, 4);
	/* seven pairs all one way: 2/128 = 0.015625 prints 0.0156 (tie to even) */
	const double a7[] = { 10, 10, 10, 10, 10, 10, 10 }, b7[] = { 9, 9, 9, 9, 9, 9, 9 };
	assert_int_equal(stats_ab_ref(a7, b7, 7, 0.03, &r), 0);
	stats_ab_ref_out(&r, &o);
	assert_same(o.sign_test_p, 0.0156, r.sign_test_p, 4);
}

/* ab_test.py with --pairs 1 and 2: no sign test below 5 pairs, so the
 * direction of the differences decides once |rel| >= noise. */
static void test_one_and_two_pairs(void **state)
{
	(void)state;
	struct ab_ref_result r;
	const double a1[] = { 10.0 }, b1[] = { 9.5 };
	assert_int_equal(stats_ab_ref(a1, b1, 1, 0.03, &r), 0);
	assert_true(r.direction_consistent);
	assert_close(r.sign_test_p, 1.0, 0);
	assert_int_equal(r.verdict, AB_B_BETTER);
	const double b1s[] = { 9.9 };
	assert_int_equal(stats_ab_ref(a1, b1s, 1, 0.03, &r), 0);
	assert_int_equal(r.verdict, AB_TIE);
	const double a2[] = { 10.0, 10.0 }, b2[] = { 10.6, 9.9 };
	assert_int_equal(stats_ab_ref(a2, b2, 2, 0.03, &r), 0);
	/* medB = 10.25: rel = -0.025 -> tie */
	assert_int_equal(r.verdict, AB_TIE);
	const double b2m[] = { 10.8, 9.9 };
	assert_int_equal(stats_ab_ref(a2, b2m, 2, 0.03, &r), 0);
	/* medB = 10.35: rel = -0.035, mixed directions -> inconclusive */
	assert_false(r.direction_consistent);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
	const double b2a[] = { 10.8, 10.5 };
	assert_int_equal(stats_ab_ref(a2, b2a, 2, 0.03, &r), 0);
	assert_int_equal(r.verdict, AB_A_BETTER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_go_to_even),
		cmocka_unit_test(test_binary_value_decides),
		cmocka_unit_test(test_specials),
		cmocka_unit_test(test_reference_fields),
		cmocka_unit_test(test_one_and_two_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_abseq.c: `--protocol seq-v2`, the error-spending t rule of stats/abseq.h:
 * every constant against what it is for (the error bound, the spending,
 * the state guard's bound, futility), the guarantee itself by simulation of
 * its model, and decisions on small constructed inputs. */
#include "testlib.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>

#include "stats/abseq.h"
#include "stats/synth.h"

/* seq-v2's settings: the defaults with its rule and first look. */
static void params(struct abseq_params *p)
{
	abseq_params_default(p);
	p->rule = ABSEQ_RULE_V2;
	p->min_pairs = ABSEQ_V2_MIN_PAIRS;
}

/* The defaults that other modules and the docs rely on. */
static void test_defaults(void **state)
{
	(void)state;
	struct abseq_params p;
	params(&p);
	assert_int_equal(p.rule, ABSEQ_RULE_V2);
	assert_true(p.noise == ABSEQ_TIE_MARGIN && p.noise == 0.03);
	assert_true(p.min_gain == 0.01);
	assert_int_equal(p.min_pairs, 3);
	assert_int_equal(p.max_pairs, 16);
	assert_true(p.alpha == 0.025);
	assert_true(p.gap_max == 0.105);
	assert_true(p.spend_power == 2.0);
	assert_int_equal(abseq_params_check(&p, NULL), 0);
}

/* ALPHA and SPEND_POWER: the looks' shares sum to alpha, grow as n^2, and
 * each look's multiplier is Student's quantile at its share. */
static void test_spending(void **state)
{
	(void)state;
	struct abseq_params p;
	params(&p);
	double sum = 0;
	for (size_t n = p.min_pairs; n <= p.max_pairs; n++)
		sum += abseq_look_alpha(n, &p);
	assert_close(sum, 0.025, 1e-15);
	/* sum of k^2 for k = 3..16 is 1491 */
	assert_close(abseq_look_alpha(16, &p), 0.025 * 256.0 / 1491.0, 1e-15);
	assert_close(abseq_look_alpha(16, &p) / abseq_look_alpha(8, &p), 4.0, 1e-12);
	assert_true(abseq_look_alpha(2, &p) == 0.0);
	assert_true(abseq_look_alpha(17, &p) == 0.0);
	assert_close(abseq_look_t(10, &p),
		     gsl_cdf_tdist_Qinv(0.025 * 100.0 / 1491.0, 9.0), 1e-12);
	assert_true(isinf(abseq_look_t(2, &p)));
	/* another schedule renormalises */
	p.min_pairs = 4;
	p.max_pairs = 6;
	assert_close(abseq_look_alpha(5, &p), 0.025 * 25.0 / 77.0, 1e-15);
}

/* The guarantee under its model: Gaussian log-ratios with mean 0 (B not
 * faster) and any sd; over 4,000 sessions of up to 16 looks, the share
 * that ever adopts B stays under alpha (0.65%: the union bound over the
 * looks is conservative), and grows with alpha (so alpha is what binds). */
static double false_adoption(double alpha, double mu, long sessions)
{
	struct stats_rng r;
	struct abseq_params p;
	params(&p);
	p.alpha = alpha;
	p.min_gain = 0.0;
	p.gap_max = 1e-9; /* the guard off (any gain exceeds 2 gap_max): the t part alone */
	stats_rng_seed(&r, 20261203);
	long adopted = 0;
	for (long s = 0; s < sessions; s++) {
		double a[16], b[16], sd = 0.005 + 0.05 * stats_rng_u01(&r);
		struct abseq_result res;
		for (size_t n = 1; n <= 16; n++) {
			a[n - 1] = 10.0;
			b[n - 1] = 10.0 * exp(-(mu + sd * stats_rng_normal(&r)));
			if (n < p.min_pairs)
				continue;
			assert_int_equal(abseq_decide(a, b, NULL, n, &p, NULL, NULL, &res), 0);
			if (res.reason != ABSEQ_CONTINUE)
				break;
		}
		adopted += res.verdict == AB_B_BETTER;
	}
	return (double)adopted / (double)sessions;
}

static void test_guarantee_under_the_model(void **state)
{
	(void)state;
	double fa = false_adoption(0.025, 0.0, 4000);
	assert_true(fa <= 0.025);
	assert_true(fa > 0.002);                                /* the test sees errors */
	assert_true(false_adoption(0.025, -0.01, 4000) <= fa); /* B slower: rarer */
	assert_true(false_adoption(0.10, 0.0, 4000) > 2 * fa);  /* alpha is what binds */
}

/* GAP_MAX: the state guard's bound is the largest chance, over two-state
 * arms with B not faster, that a pair lands in one (A state, B state)
 * cell whose log-ratio is c: a brute-force search over both slow
 * probabilities and the level difference reaches (1 - c/(2G))^2 and never
 * exceeds it. */
static void test_guard_bound_is_the_two_state_maximum(void **state)
{
	(void)state;
	const double G = 0.105;
	const double cs[] = { 0.02, 0.0513, 0.08 };
	for (size_t k = 0; k < 3; k++) {
		double c = cs[k], best = 0;
		for (int i = 0; i <= 200; i++)
			for (int j = 0; j <= 200; j++) {
				double pa = i / 200.0, pb = j / 200.0;
				/* cells (sA, sB): log-ratio delta + G (sA - sB); mean
				 * delta + G (pa - pb) <= 0, so delta <= -G (pa - pb) */
				double delta = -G * (pa - pb);
				double q[2][2] = { { (1 - pa) * (1 - pb), (1 - pa) * pb },
						   { pa * (1 - pb), pa * pb } };
				for (int sa = 0; sa < 2; sa++)
					for (int sb = 0; sb < 2; sb++)
						if (delta + G * (sa - sb) >= c - 1e-12 && q[sa][sb] > best)
							best = q[sa][sb];
			}
		double bound = pow(1 - c / (2 * G), 2);
		assert_true(best <= bound + 1e-12);
		assert_true(best >= bound - 0.01);
	}
	/* the fewest pairs: 0.7557^(2n) <= 0.025 from n = 7 for a 5% gain */
	assert_int_equal(abseq_guard_pairs(0.0513, G, 0.025), 7);
	assert_int_equal(abseq_guard_pairs(0.0834, G, 0.025), 4);
	assert_int_equal(abseq_guard_pairs(0.0980, G, 0.025), 3);
	assert_int_equal(abseq_guard_pairs(0.25, G, 0.025), 0);
	assert_true(abseq_guard_pairs(0.0, G, 0.025) == SIZE_MAX);
	assert_true(abseq_guard_pairs(-0.03, G, 0.025) == SIZE_MAX);
}

/* n pairs of a steady kernel: A at 10 us, B with log-ratio mu + a small
 * alternating wiggle (sd about w). */
static void steady(double mu, double w, size_t n, double *a, double *b)
{
	for (size_t i = 0; i < n; i++) {
		double e = (i % 2 ? w : -w) * (1.0 + 0.1 * (double)(i % 3));
		a[i] = 10.0;
		b[i] = 10.0 * exp(-(mu + e));
	}
}

static struct abseq_result first_verdict(const double *a, const double *b,
					 const struct abseq_params *p)
{
	struct abseq_result r;
	for (size_t n = p->min_pairs; n <= p->max_pairs; n++) {
		assert_int_equal(abseq_decide(a, b, NULL, n, p, NULL, NULL, &r), 0);
		if (r.reason != ABSEQ_CONTINUE)
			break;
	}
	return r;
}

/* A steady 5% gain is clear to the t part at 3 pairs, but the state guard
 * holds it to 7 (GAP_MAX); an 8% gain passes the guard at 4 pairs. */
static void test_steady_gain_waits_for_the_guard(void **state)
{
	(void)state;
	struct abseq_params p;
	double a[16], b[16];
	params(&p);
	steady(0.0513, 0.003, 16, a, b);
	struct abseq_result r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_GAIN);
	assert_int_equal(r.verdict, AB_B_BETTER);
	assert_int_equal(r.pairs, 7);
	assert_true(r.gain_lo > 0.03 && r.gain > 0.045 && r.gain < 0.055);
	steady(0.0834, 0.003, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_GAIN);
	assert_int_equal(r.pairs, 4);
	/* a loss waits as long as a gain */
	steady(-0.0513, 0.003, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_LOSS);
	assert_int_equal(r.verdict, AB_A_BETTER);
	assert_int_equal(r.pairs, 7);
}

/* Ties: A = B on a steady kernel is a tie as soon as the interval fits in
 * +-3%; a 1.5% difference is inside the margin too; min_gain keeps a clear
 * but small difference from being adopted. */
static void test_ties_and_min_gain(void **state)
{
	(void)state;
	struct abseq_params p;
	double a[16], b[16];
	params(&p);
	steady(0.0, 0.004, 16, a, b);
	struct abseq_result r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_TIE);
	assert_int_equal(r.verdict, AB_TIE);
	assert_true(r.pairs <= 5);
	assert_true(r.gain_lo > -0.03 && r.gain_hi < 0.03);
	/* 2.5%, clearly above 0: a tie (inside the margin) unless the margin
	 * is narrowed, and then not adopted while the guard holds (12 pairs
	 * for 2.5% at the default budget) */
	steady(0.025, 0.0005, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_TIE);
	p.noise = 0.02;
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_B_BETTER);
	assert_int_equal(r.pairs, abseq_guard_pairs(0.025, p.gap_max, p.alpha));
	/* min_gain: the same clear 2.5% is not adopted when 3% is required */
	p.noise = 0.04;
	p.min_gain = 0.03;
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_TIE);
}

/* Futility (FUTILITY_SE): runs too noisy for the budget stop with
 * pairs_needed > max_pairs; the same runs go on with the budget raised. */
static void test_futility(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	double a[10], b[10];
	for (size_t i = 0; i < 10; i++) {
		a[i] = 10;
		b[i] = 10 * exp(i % 2 ? 0.30 : -0.30); /* +-30%, no trend */
	}
	assert_int_equal(abseq_decide(a, b, NULL, 10, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_FUTILE);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
	assert_true(r.pairs_needed > 16);
	size_t need = r.pairs_needed;
	p.max_pairs = 128;
	assert_int_equal(abseq_decide(a, b, NULL, 10, &p, NULL, NULL, &r), 0);
	if (need <= 128)
		assert_int_equal(r.reason, ABSEQ_CONTINUE);
}

/* The allowance is two standard errors: A = B seen through 6% noise after 6
 * pairs goes on (a mean two standard errors up could still be adopted by
 * pair 16), where one standard error would have stopped it. */
static void test_futility_allowance(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	double a[6], b[6], x = 0.06 * sqrt(5.0 / 6.0); /* sd exactly 6% */
	for (size_t i = 0; i < 6; i++) {
		a[i] = 10;
		b[i] = 10 * exp(i % 2 ? x : -x);
	}
	assert_int_equal(abseq_decide(a, b, NULL, 6, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_CONTINUE);
	assert_true(r.pairs_needed > 6 && r.pairs_needed <= 16);
	double se = 0.06 / sqrt(6.0);
	int one_se = 0, two_se = 0;
	for (size_t n = 6; n <= 16; n++) {
		double w = abseq_look_t(n, &p) * 0.06 / sqrt((double)n);
		one_se |= w < se && n >= abseq_guard_pairs(se, p.gap_max, p.alpha);
		two_se |= w < 2 * se && n >= abseq_guard_pairs(2 * se, p.gap_max, p.alpha);
		assert_true(w >= log(1.03)); /* no tie reachable either */
	}
	assert_false(one_se);
	assert_true(two_se);
}

/* pairs_needed says how many pairs a verdict would take (beyond the
 * budget at the last look's level; 0 beyond 1,024). */
static void test_pairs_needed_horizon(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	double a[12], b[12];
	for (size_t i = 0; i < 12; i++) {
		a[i] = 10;
		b[i] = 10 * exp(i % 2 ? 0.5 : -0.5);
	}
	assert_int_equal(abseq_decide(a, b, NULL, 12, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_FUTILE);
	assert_true(r.pairs_needed > 16 && r.pairs_needed <= 1024);
	double b3[] = { 10.4, 9.7, 10.3 };
	assert_int_equal(abseq_decide(a, b3, NULL, 3, &p, NULL, NULL, &r), 0);
	assert_true(r.pairs_needed >= 3 && r.pairs_needed <= 1024);
}

static void test_budget_and_errors(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	const char *why = NULL;
	params(&p);
	p.max_pairs = 4;
	double a[] = { 10, 10, 10, 10 }, b[] = { 10.3, 9.6, 10.4, 9.8 };
	assert_int_equal(abseq_decide(a, b, NULL, 4, &p, NULL, NULL, &r), 0);
	assert_true(r.reason == ABSEQ_BUDGET || r.reason == ABSEQ_TIE);
	double a5[] = { 1, 1, 1, 1, 1 };
	assert_int_equal(abseq_decide(a5, a5, NULL, 5, &p, NULL, NULL, &r), -1);
	double neg[] = { 1, -1, 1, 1 };
	assert_int_equal(abseq_decide(neg, a, NULL, 4, &p, NULL, NULL, &r), -1);
	/* below min_pairs: numbers but no verdict */
	params(&p);
	assert_int_equal(abseq_decide(a, b, NULL, 2, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_CONTINUE);
	p.alpha = 0.5;
	assert_int_equal(abseq_params_check(&p, &why), -1);
	params(&p);
	p.gap_max = 0;
	assert_int_equal(abseq_params_check(&p, &why), -1);
	params(&p);
	p.min_pairs = 2;
	assert_int_equal(abseq_params_check(&p, &why), -1);
	assert_non_null(why);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(abseq_reason_name(ABSEQ_FUTILE), "futile");
	assert_string_equal(abseq_reason_name(ABSEQ_BUDGET), "budget");
	assert_string_equal(abseq_reason_name(ABSEQ_GAIN), "gain");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_spending),
		cmocka_unit_test(test_guarantee_under_the_model),
		cmocka_unit_test(test_guard_bound_is_the_two_state_maximum),
		cmocka_unit_test(test_steady_gain_waits_for_the_guard),
		cmocka_unit_test(test_ties_and_min_gain),
		cmocka_unit_test(test_futility),
		cmocka_unit_test(test_futility_allowance),
		cmocka_unit_test(test_pairs_needed_horizon),
		cmocka_unit_test(test_budget_and_errors),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

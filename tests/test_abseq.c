/* test_abseq.c: `--protocol seq`, the error-spending t rule of stats/abseq.h:
 * every constant against what it is for (the error bound, the spending,
 * the state guard's bound, futility), the guarantee itself by simulation of
 * its model, and decisions on small constructed inputs. */
#include "testlib.h"
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "stats/abseq.h"
#include "stats/synth.h"
#include "stats/twostate.h"

/* seq's settings: its defaults. */
static void params(struct abseq_params *p)
{
	abseq_params_default(p, ABSEQ_RULE_SEQ);
}

/* The defaults that other modules and the docs rely on. */
static void test_defaults(void **state)
{
	(void)state;
	struct abseq_params p;
	params(&p);
	assert_int_equal(p.rule, ABSEQ_RULE_SEQ);
	assert_true(p.noise == ABSEQ_TIE_MARGIN && p.noise == 0.03);
	assert_true(p.min_gain == 0.01);
	assert_int_equal(p.min_pairs, 3);
	assert_int_equal(p.max_pairs, 16);
	assert_true(p.alpha == 0.025);
	assert_true(p.gap_max == 0.105);
	assert_true(p.spend_power == 2.0);
	assert_int_equal(abseq_params_check(&p, NULL), 0);
	/* seq's bars stop at 24 pairs; seq-v1's budget does not */
	const char *why = NULL;
	p.max_pairs = 25;
	assert_int_equal(abseq_params_check(&p, &why), -1);
	assert_string_equal(why, "seq: max-pairs must be at most 24");
	/* switching the rule takes the rule's own first look, unless given */
	abseq_params_set_rule(&p, ABSEQ_RULE_V1, 0);
	assert_int_equal(p.rule, ABSEQ_RULE_V1);
	assert_int_equal(p.min_pairs, 4);
	assert_int_equal(p.max_pairs, 25);
	assert_int_equal(abseq_params_check(&p, NULL), 0);
	p.min_pairs = 6;
	abseq_params_set_rule(&p, ABSEQ_RULE_SEQ, 1);
	assert_int_equal(p.min_pairs, 6);
	abseq_params_set_rule(&p, ABSEQ_RULE_SEQ, 0);
	assert_int_equal(p.min_pairs, 3);
	struct abseq_params v1;
	abseq_params_default(&v1, ABSEQ_RULE_V1);
	assert_int_equal(v1.rule, ABSEQ_RULE_V1);
	assert_int_equal(v1.min_pairs, 4);
	assert_true(v1.noise == p.noise && v1.min_gain == p.min_gain && v1.max_pairs == 16);
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
		     gsl_cdf_tdist_Qinv(0.052 * 100.0 / 1491.0, 9.0), 1e-12); /* GAUSS_SCALE */
	assert_true(isinf(abseq_look_t(2, &p)));
	/* another schedule renormalises */
	p.min_pairs = 4;
	p.max_pairs = 6;
	assert_close(abseq_look_alpha(5, &p), 0.025 * 25.0 / 77.0, 1e-15);
}

/* GAUSS_SCALE: the studentized mean is pivotal, so with Gaussian
 * log-ratios of mean 0 the chance that some look's T reaches abseq_look_t
 * is one number whatever the sd: for the default schedule 1.97% (computed
 * with 2,000,000 sessions; here 400,000, standard error 0.02%), about
 * twice what the sum of the levels would give; any other schedule scales
 * the levels by BAR_SHARE and their sum bounds it by 2.0%. */
static double gauss_crossing(const struct abseq_params *p, long sessions)
{
	struct stats_rng r;
	stats_rng_seed(&r, 5);
	long hit = 0;
	for (long s = 0; s < sessions; s++) {
		double sx = 0, sxx = 0;
		for (size_t n = 1; n <= p->max_pairs; n++) {
			double x = stats_rng_normal(&r);
			sx += x;
			sxx += x * x;
			if (n < p->min_pairs)
				continue;
			double m = sx / (double)n, v = (sxx - (double)n * m * m) / ((double)n - 1);
			if (m / sqrt(v / (double)n) >= abseq_look_t(n, p)) {
				hit++;
				break;
			}
		}
	}
	return (double)hit / (double)sessions;
}

static void test_gauss_scale(void **state)
{
	(void)state;
	struct abseq_params p;
	params(&p);
	double c = gauss_crossing(&p, 400000);
	print_message("default schedule: P(some look crosses) = %.5f\n", c);
	assert_true(c <= 0.0205 && c >= 0.019);
	assert_close(abseq_look_level(16, &p), 0.052 / 0.025 * abseq_look_alpha(16, &p), 1e-15);
	p.max_pairs = 10; /* not the calibrated schedule: the levels' sum */
	assert_close(abseq_look_level(10, &p), 0.8 * abseq_look_alpha(10, &p), 1e-15);
	assert_true(gauss_crossing(&p, 100000) <= 0.02);
}

/* The bound tlab prints (false_adoption_bound) is the share of alpha the
 * theorems hold: 0.02 exactly for seq and fast (so the JSON reads 0.02),
 * none for seq-v1; outside the calibrated schedule the Gaussian levels'
 * sum stays within it. */
static void test_false_adoption_bound(void **state)
{
	(void)state;
	struct abseq_params p;
	params(&p);
	assert_true(abseq_false_adoption_bound(&p) == 0.02);
	assert_true(abseq_false_adoption_bound(&p) < p.alpha);
	abseq_params_default(&p, ABSEQ_RULE_FAST);
	assert_true(abseq_false_adoption_bound(&p) == 0.02);
	abseq_params_default(&p, ABSEQ_RULE_V1);
	assert_true(isnan(abseq_false_adoption_bound(&p)));
	params(&p);
	p.max_pairs = 10;
	double sum = 0;
	for (size_t n = p.min_pairs; n <= p.max_pairs; n++)
		sum += abseq_look_level(n, &p);
	assert_true(sum <= abseq_false_adoption_bound(&p) + 1e-15);
}

/* The whole rule on Gaussian log-ratios with mean 0 (B not faster) and an
 * sd large enough that the two-state bar rarely binds (10-30% per pair):
 * a session adopts only where some look's T reached its quantile (the
 * event test_gauss_scale holds under alpha), its share is of that size,
 * and a B 1% slower is adopted less often. */
static double false_adoption(double mu, long sessions, double *crossed)
{
	struct stats_rng r;
	struct abseq_params p;
	params(&p);
	stats_rng_seed(&r, 20261203);
	long adopted = 0, cross = 0;
	for (long s = 0; s < sessions; s++) {
		double a[16], b[16], sd = 0.10 + 0.20 * stats_rng_u01(&r), sx = 0, sxx = 0;
		struct abseq_result res;
		int decided = 0, hit = 0;
		for (size_t n = 1; n <= 16; n++) {
			double d = mu + sd * stats_rng_normal(&r);
			a[n - 1] = 10.0;
			b[n - 1] = 10.0 * exp(-d);
			sx += d;
			sxx += d * d;
			if (n < p.min_pairs)
				continue;
			double m = sx / (double)n, v = (sxx - (double)n * m * m) / ((double)n - 1);
			hit |= m / sqrt(v / (double)n) >= abseq_look_t(n, &p) * (1 - 1e-9);
			if (decided)
				continue;
			assert_int_equal(abseq_decide(a, b, NULL, n, &p, NULL, NULL, &res), 0);
			decided = res.reason != ABSEQ_CONTINUE;
			if (res.verdict == AB_B_BETTER && decided)
				assert_true(hit);
		}
		adopted += decided && res.verdict == AB_B_BETTER;
		cross += hit;
	}
	if (crossed)
		*crossed = (double)cross / (double)sessions;
	return (double)adopted / (double)sessions;
}

static void test_guarantee_under_the_model(void **state)
{
	(void)state;
	double crossed;
	double fa = false_adoption(0.0, 20000, &crossed);
	print_message("Gaussian null: false adoption %.4f, some T over its quantile %.4f\n", fa, crossed);
	assert_true(fa <= crossed);
	assert_true(crossed < 0.0235); /* 0.0197 + 3 standard errors of 20,000 sessions */
	assert_true(fa > 0.01);        /* the bar rarely binds at this noise */
	assert_true(false_adoption(-0.01, 20000, NULL) <= fa);
}

/* The bars kept in stats/abseq_bars.inc are what abseq_compute_bars
 * computes (make bars prints them); over the two-state family the chance
 * of adopting by look n stays within BAR_SHARE (0.8) of the levels of the
 * looks so far, every t is at least Student's, and a wider gap than
 * GAP_MAX needs higher bars. */
static void test_bars(void **state)
{
	(void)state;
	struct abseq_params p;
	struct twostate_bar fresh[TWOSTATE_MAX_N + 1], kept[TWOSTATE_MAX_N + 1];
	params(&p);
	assert_int_equal(abseq_compute_bars(&p, fresh), 0);
	double spent = 0;
	for (size_t n = p.min_pairs; n <= p.max_pairs; n++) {
		assert_int_equal(abseq_look_bar(n, &p, &kept[n]), 0);
		assert_close(kept[n].m, fresh[n].m, 1e-12);
		assert_close(kept[n].t, fresh[n].t, 1e-12);
		assert_close(kept[n].m2, fresh[n].m2, 1e-12);
		assert_close(kept[n].t2, fresh[n].t2, 1e-12);
		assert_true(kept[n].t >= abseq_look_t(n, &p));
		assert_close(kept[n].t2, abseq_look_t(n, &p) + 0.5, 1e-12); /* SECOND_T */
		assert_true(kept[n].m > 0 && kept[n].m2 >= kept[n].m);
		spent += abseq_look_alpha(n, &p);
		if (n % 4 != 0)
			continue; /* the search takes a while: every fourth look */
		double w = twostate_worst(p.min_pairs, n, p.gap_max, kept);
		assert_true(w <= 0.8 * spent * (1 + 1e-9));
		assert_true(w >= 0.5 * spent || n < 8); /* the error is used, not wasted */
	}
	/* the values docs/tlab.md tabulates */
	assert_close(kept[10].m, 0.049, 0.0005);
	assert_close(kept[16].m, 0.0341, 0.0005);
	assert_int_equal(abseq_look_bar(2, &p, &kept[2]), -1); /* not a look */
	p.gap_max = 0.2;
	p.max_pairs = 8;
	assert_int_equal(abseq_compute_bars(&p, fresh), 0);
	params(&p);
	p.max_pairs = 8;
	assert_int_equal(abseq_compute_bars(&p, kept), 0);
	assert_true(fresh[8].m > 1.5 * kept[8].m);
}

/* The worst case the bars are held to, against an independent count: at
 * one (pA, pB) every one of the 3^n sequences of cells is followed look by
 * look (mean and sd of its log-ratios so far) until it clears a bar; the
 * family's worst case is at least that sum at every point of a grid, and
 * the grid's best comes within 40% of it (the maximum is a narrow peak). */
static double direct_prob(size_t first, size_t n, double pa, double pb, double g,
			  const struct twostate_bar *bar)
{
	double pp = pa * (1 - pb), pm = pb * (1 - pa), p0 = 1 - pp - pm, total = 0;
	double delta = g * (pb - pa);
	size_t count = 1;
	for (size_t i = 0; i < n; i++)
		count *= 3;
	for (size_t code = 0; code < count; code++) {
		double pr = 1, sum = 0, sq = 0;
		size_t c = code;
		for (size_t k = 0; k < n; k++, c /= 3) { /* the whole sequence's chance */
			int x = (int)(c % 3) - 1;
			pr *= x > 0 ? pp : x < 0 ? pm : p0;
		}
		c = code;
		for (size_t k = 1; k <= n; k++, c /= 3) {
			int x = (int)(c % 3) - 1;
			double d = delta + g * x;
			sum += d;
			sq += d * d;
			if (k < first)
				continue;
			double mean = sum / (double)k;
			double var = fmax((sq - (double)k * mean * mean) / ((double)k - 1), 0.0);
			double sd = sqrt(var);
			double z = sd > 1e-9 * g ? mean / sd * sqrt((double)k) : mean > 0 ? INFINITY : 0;
			if (twostate_clears(&bar[k], mean, z)) {
				total += pr;
				break;
			}
		}
	}
	return total;
}

static void test_twostate_worst_is_the_maximum(void **state)
{
	(void)state;
	const double G = 0.105;
	struct abseq_params p;
	struct twostate_bar bar[TWOSTATE_MAX_N + 1];
	params(&p);
	for (size_t n = p.min_pairs; n <= 16; n++)
		assert_int_equal(abseq_look_bar(n, &p, &bar[n]), 0);
	const size_t last[] = { 6, 8, 9 };
	for (size_t k = 0; k < 3; k++) {
		double w = twostate_worst(3, last[k], G, bar), best = 0;
		assert_true(w > 0 && w < 1);
		for (int i = 0; i <= 24; i++)
			for (int j = 0; j <= 24; j++) {
				double v = direct_prob(3, last[k], i / 24.0, j / 24.0, G, bar);
				assert_true(v <= w * (1 + 1e-9) + 1e-15);
				best = fmax(best, v);
			}
		print_message("looks 3..%zu: worst %g, grid %g\n", last[k], w, best);
		assert_true(best >= 0.6 * w);
	}
	/* a smaller gap can only lower it; bars no mean reaches adopt nothing */
	assert_true(twostate_worst(3, 9, 0.05, bar) <= twostate_worst(3, 9, G, bar));
	struct twostate_bar high[10];
	for (size_t n = 0; n < 10; n++)
		high[n] = (struct twostate_bar){ 2 * G, 0.0, 2 * G, 0.0 };
	assert_true(twostate_worst(3, 9, G, high) == 0.0);
	assert_true(isnan(twostate_worst(1, 9, G, bar)));
}

/* The family's hardest case, end to end: A slow 76% of the time, B 24%,
 * an 11% gap, B's mean equal to A's: 58% of pairs show a clean 5% "gain".
 * Over 20,000 sessions (no noise within a state, then 1% of it) the rule
 * adopts B in at most alpha of them; a clean 5% sample is first adopted
 * at the look whose bar it clears (10), where Student's t alone, with no
 * spread to see, would have adopted it at the first look. */
static double two_state_false_adoption(double noise, long sessions)
{
	struct stats_rng r;
	struct abseq_params p;
	params(&p);
	stats_rng_seed(&r, 27);
	long adopted = 0;
	for (long s = 0; s < sessions; s++) {
		double a[16], b[16];
		struct abseq_result res;
		for (size_t n = 1; n <= 16; n++) {
			double ga = stats_rng_u01(&r) < 0.76 ? 0.105 : 0.0;
			double gb = stats_rng_u01(&r) < 0.24 ? 0.105 : 0.0;
			a[n - 1] = exp(ga + noise * stats_rng_normal(&r));
			b[n - 1] = exp(0.105 * (0.76 - 0.24) + gb + noise * stats_rng_normal(&r));
			assert_int_equal(abseq_decide(a, b, NULL, n, &p, NULL, NULL, &res), 0);
			if (res.reason != ABSEQ_CONTINUE)
				break;
		}
		adopted += res.verdict == AB_B_BETTER;
	}
	return (double)adopted / (double)sessions;
}

static void test_state_shift_is_not_adopted(void **state)
{
	(void)state;
	double f0 = two_state_false_adoption(0.0, 20000), f1 = two_state_false_adoption(0.01, 20000);
	print_message("state shift: false adoption %.4f (no noise), %.4f (1%% noise)\n", f0, f1);
	assert_true(f0 <= 0.025 && f1 <= 0.025);
	struct abseq_params p;
	params(&p);
	double a[16], b[16];
	struct twostate_bar bar;
	for (size_t i = 0; i < 16; i++) {
		a[i] = 10.0 * exp(0.05);
		b[i] = 10.0;
	}
	size_t first = 0;
	for (size_t n = p.min_pairs; n <= 16 && !first; n++)
		if (abseq_look_bar(n, &p, &bar) == 0 && twostate_clears(&bar, 0.05, INFINITY))
			first = n;
	struct abseq_result r;
	for (size_t n = p.min_pairs; n <= 16; n++) {
		assert_int_equal(abseq_decide(a, b, NULL, n, &p, NULL, NULL, &r), 0);
		if (r.reason != ABSEQ_CONTINUE)
			break;
	}
	assert_int_equal(r.verdict, AB_B_BETTER);
	assert_int_equal(r.pairs, first);
	assert_int_equal(first, 10);
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

/* A steady 5% gain is clear to the t part at 3 pairs, but the two-state
 * bar holds it to 10 (GAP_MAX); an 8% gain clears it at 7. A loss is not
 * an adoption: it needs the interval alone. */
static void test_steady_gain_waits_for_the_region(void **state)
{
	(void)state;
	struct abseq_params p;
	double a[16], b[16];
	params(&p);
	steady(0.0513, 0.003, 16, a, b);
	struct abseq_result r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_GAIN);
	assert_int_equal(r.verdict, AB_B_BETTER);
	assert_int_equal(r.pairs, 10);
	assert_true(r.gain_lo > 0.03 && r.gain > 0.045 && r.gain < 0.055);
	steady(0.0834, 0.003, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_GAIN);
	assert_int_equal(r.pairs, 7);
	steady(-0.0513, 0.003, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.reason, ABSEQ_LOSS);
	assert_int_equal(r.verdict, AB_A_BETTER);
	assert_int_equal(r.pairs, 4); /* at 3 pairs Student's quantile is 57.5 */
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
	 * is narrowed, and then not adopted: within 16 pairs no look's bar is
	 * that low (a state shift fakes a clean 2.5% too often), so the
	 * session stops as futile */
	steady(0.025, 0.0005, 16, a, b);
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_TIE);
	p.noise = 0.02;
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
	assert_int_equal(r.reason, ABSEQ_FUTILE);
	assert_true(r.pairs_needed == 0 || r.pairs_needed > 16);
	/* min_gain: the same clear 2.5% is not adopted when 3% is required */
	p.noise = 0.04;
	p.min_gain = 0.03;
	r = first_verdict(a, b, &p);
	assert_int_equal(r.verdict, AB_TIE);
}

/* Futility (FUTILITY_SE): runs too noisy for the budget stop with
 * pairs_needed > max_pairs. */
static void futile_runs(double a[10], double b[10])
{
	for (size_t i = 0; i < 10; i++) {
		a[i] = 10;
		b[i] = 10 * exp(i % 2 ? 0.30 : -0.30); /* +-30%, no trend */
	}
}

static void test_futility(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	double a[10], b[10];
	futile_runs(a, b);
	assert_int_equal(abseq_decide(a, b, NULL, 10, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_FUTILE);
	assert_int_equal(r.verdict, AB_INCONCLUSIVE);
	assert_true(r.pairs_needed > 16);
	p.max_pairs = 41; /* beyond the exact search */
	assert_int_equal(abseq_params_check(&p, NULL), -1);
}

/* The same runs with the budget raised to 24: they go on when the pairs
 * needed fit in it, and stay futile when they do not. The bars of a
 * budget other than 16 are computed by the exact search (10 s of CPU on
 * the 2-core test machine, 3 times that under ASan): registered only
 * under TLPERF_TEST_LONG=1 (make test-long); make test leaves it out and
 * says so (main). Not a skip(): under CI=true a skip is a failure. */
static void test_futility_raised_budget(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	double a[10], b[10];
	futile_runs(a, b);
	p.max_pairs = 24;
	assert_int_equal(abseq_decide(a, b, NULL, 10, &p, NULL, NULL, &r), 0);
	if (r.pairs_needed != 0 && r.pairs_needed <= 24)
		assert_int_equal(r.reason, ABSEQ_CONTINUE);
	else
		assert_int_equal(r.reason, ABSEQ_FUTILE);
}

/* The allowance is two standard errors: a 1.2% estimate seen through 5%
 * noise after 6 pairs goes on (an estimate two standard errors up could
 * still be adopted by pair 16), where one standard error would have
 * stopped it; no tie is reachable at that noise either way. */
static void test_futility_allowance(void **state)
{
	(void)state;
	struct abseq_params p;
	struct abseq_result r;
	params(&p);
	const double mu = 0.012, sd = 0.05;
	double a[6], b[6], x = sd * sqrt(5.0 / 6.0); /* sd exactly 5% */
	for (size_t i = 0; i < 6; i++) {
		a[i] = 10;
		b[i] = 10 * exp(-(mu + (i % 2 ? x : -x)));
	}
	assert_int_equal(abseq_decide(a, b, NULL, 6, &p, NULL, NULL, &r), 0);
	assert_int_equal(r.reason, ABSEQ_CONTINUE);
	assert_true(r.pairs_needed > 6 && r.pairs_needed <= 16);
	double se = sd / sqrt(6.0);
	int one_se = 0, two_se = 0;
	for (size_t n = 6; n <= 16; n++) {
		double w = abseq_look_t(n, &p) * sd / sqrt((double)n), rn = sqrt((double)n);
		double c1 = mu + se, c2 = mu + 2 * se;
		struct twostate_bar bar;
		assert_int_equal(abseq_look_bar(n, &p, &bar), 0);
		one_se |= twostate_clears(&bar, c1, c1 * rn / sd);
		two_se |= twostate_clears(&bar, c2, c2 * rn / sd);
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


/* ---- fast: the rule for the runs users have ---------------------------- */

static void fast_params(struct abseq_params *p)
{
	abseq_params_default(p, ABSEQ_RULE_FAST);
}

/* FAST_WEIGHT and FAST_GAUSS_SCALE: the looks' shares sum to alpha in the
 * weights' proportions, and the Gaussian looks together cross with chance
 * 2.0% (1.99% with 1,000,000 sessions; here 400,000). */
static void test_fast_spending(void **state)
{
	(void)state;
	struct abseq_params p;
	fast_params(&p);
	assert_int_equal(p.rule, ABSEQ_RULE_FAST);
	assert_int_equal(abseq_params_check(&p, NULL), 0);
	assert_int_equal(p.min_pairs, 3);
	assert_int_equal(p.max_pairs, 16);
	double sum = 0;
	for (size_t n = p.min_pairs; n <= p.max_pairs; n++)
		sum += abseq_look_alpha(n, &p);
	assert_close(sum, 0.025, 1e-15);
	/* weights 0.1, 2, 3, 3, 2, 2, then 1: 20.1 in all */
	assert_close(abseq_look_alpha(5, &p), 0.025 * 3.0 / 20.1, 1e-15);
	assert_close(abseq_look_alpha(16, &p), 0.025 * 1.0 / 20.1, 1e-15);
	assert_close(abseq_look_level(6, &p), 1.85 * abseq_look_alpha(6, &p), 1e-15);
	double c = gauss_crossing(&p, 400000);
	print_message("fast: P(some look crosses) = %.5f\n", c);
	assert_true(c <= 0.0205 && c >= 0.019);
	/* switching rules keeps the caller's settings but the rule's first look */
	abseq_params_set_rule(&p, ABSEQ_RULE_SEQ, 0);
	assert_int_equal(p.rule, ABSEQ_RULE_SEQ);
	assert_close(abseq_look_alpha(16, &p), 0.025 * 256.0 / 1491.0, 1e-15);
}

/* fast's bars, kept in stats/abseq_fast_bars.inc as they are computed,
 * hold its family (equal frequencies up to an 11% gap, shifts
 * of at most 0.3 up to 8%) within 0.8 alpha, computed exactly; the wide
 * family of seq is not held by them (the narrowing is what buys the early
 * looks), and the narrow family's worst case never exceeds the wide one's. */
static void test_fast_family(void **state)
{
	(void)state;
	struct abseq_params p;
	fast_params(&p);
	struct twostate_bar bar[TWOSTATE_MAX_N + 1], kept;
	assert_int_equal(abseq_compute_bars(&p, bar), 0);
	/* the bars kept in stats/abseq_fast_bars.inc (make bars) are these */
	for (size_t n = p.min_pairs; n <= p.max_pairs; n++) {
		assert_int_equal(abseq_look_bar(n, &p, &kept), 0);
		assert_close(kept.m, bar[n].m, 1e-12);
		assert_close(kept.t, bar[n].t, 1e-12);
		assert_close(kept.m2, bar[n].m2, 1e-12);
		assert_close(kept.t2, bar[n].t2, 1e-12);
	}
	struct twostate_family narrow = { 0.105, log(1.08), 0.3 }, wide;
	twostate_family_wide(&wide, 0.105);
	double wn = twostate_worst_in(3, 16, &narrow, bar), ww = twostate_worst_in(3, 16, &wide, bar);
	print_message("fast bars: narrow family %.5f, wide %.5f\n", wn, ww);
	assert_true(wn <= 0.8 * 0.025 + 1e-12);
	assert_true(ww > 0.025);
	assert_true(ww == twostate_worst(3, 16, 0.105, bar));
	/* a clean 5.4% pattern, 42% of pairs at gap 8% and shift 0.3, cannot
	 * be adopted at look 5 (0.42^5 = 1.3% is more than the error spent) */
	assert_false(twostate_clears(&bar[5], 0.054, INFINITY));
	assert_true(twostate_clears(&bar[6], 0.05, INFINITY));
}

/* Runs of B faster by exp(l) with a small spread; the first pair count at
 * which fast decides, and its reason. */
static size_t fast_first(const double *d, size_t nmax, enum abseq_reason *why)
{
	struct abseq_params p;
	fast_params(&p);
	double a[16], b[16];
	struct abseq_result r;
	for (size_t i = 0; i < nmax; i++) {
		a[i] = 10.0 * exp(d[i]);
		b[i] = 10.0;
	}
	for (size_t n = 1; n <= nmax; n++) {
		assert_int_equal(abseq_decide(a, b, NULL, n, &p, NULL, NULL, &r), 0);
		if (r.reason != ABSEQ_CONTINUE) {
			*why = r.reason;
			return n;
		}
	}
	*why = ABSEQ_CONTINUE;
	return 0;
}

/* fast on steady kernels: a steady 5% gain at pair 6, 8% at 5; B = A a
 * tie at pair 3, also when the pairs spread by +-2% (FAST_TIE_LEVEL 0.20:
 * 0.10 waited for pair 4); a 3% gain with little spread is no tie
 * (FAST_TIE_CENTRE) and is adopted, nor is a 1.3% gain (centre 0.4 of
 * the 3% margin: 0.5 called it a tie at pair 3); a 4% loss is A_better
 * at pair 3 (FAST_LOSS_LEVEL). */
static void test_fast_steady(void **state)
{
	(void)state;
	double d[16];
	enum abseq_reason why;
	for (size_t i = 0; i < 16; i++)
		d[i] = log(1 / 0.95) + (i % 2 ? 0.002 : -0.002);
	assert_int_equal(fast_first(d, 16, &why), 6);
	assert_int_equal(why, ABSEQ_GAIN);
	for (size_t i = 0; i < 16; i++)
		d[i] = log(1 / 0.92) + (i % 2 ? 0.002 : -0.002);
	assert_int_equal(fast_first(d, 16, &why), 5);
	assert_int_equal(why, ABSEQ_GAIN);
	for (size_t i = 0; i < 16; i++)
		d[i] = i % 2 ? 0.005 : -0.005;
	assert_int_equal(fast_first(d, 16, &why), 3);
	assert_int_equal(why, ABSEQ_TIE);
	for (size_t i = 0; i < 16; i++)
		d[i] = i % 2 ? 0.02 : -0.02;
	assert_int_equal(fast_first(d, 16, &why), 3);
	assert_int_equal(why, ABSEQ_TIE);
	for (size_t i = 0; i < 16; i++)
		d[i] = 0.013 + (i % 2 ? 0.002 : -0.002);
	assert_true(fast_first(d, 16, &why) > 3 || why != ABSEQ_TIE);
	for (size_t i = 0; i < 16; i++)
		d[i] = log(1 / 0.97) + (i % 2 ? 0.002 : -0.002);
	size_t n = fast_first(d, 16, &why);
	assert_int_equal(why, ABSEQ_GAIN);
	assert_true(n >= 6 && n <= 8);
	for (size_t i = 0; i < 16; i++)
		d[i] = log(0.96) + (i % 2 ? 0.002 : -0.002);
	assert_int_equal(fast_first(d, 16, &why), 3);
	assert_int_equal(why, ABSEQ_LOSS);
}

/* fast adopts only when B's run was faster in most pairs: 8 of 16 pairs
 * 20% faster and 8 equal clear the interval and the bar, but B is not
 * typically faster; 9 of 16 is adopted. */
static void test_fast_typical(void **state)
{
	(void)state;
	struct abseq_params p;
	fast_params(&p);
	double a[16], b[16];
	struct abseq_result r;
	for (int k = 8; k <= 9; k++) {
		for (int i = 0; i < 16; i++) {
			a[i] = 10.0 * (i < k ? 1.25 : 1.0);
			b[i] = 10.0 * (i < k ? 1.0 : 1.000001);
		}
		assert_int_equal(abseq_decide(a, b, NULL, 16, &p, NULL, NULL, &r), 0);
		print_message("%d of 16 faster: %s, T %.2f\n", k, abseq_reason_name(r.reason),
			      r.log_gain / r.log_se);
		assert_true(r.log_gain / r.log_se > abseq_look_t(16, &p));
		assert_int_equal(r.reason, k == 8 ? ABSEQ_BUDGET : ABSEQ_GAIN);
	}
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
		cmocka_unit_test(test_false_adoption_bound),
		cmocka_unit_test(test_guarantee_under_the_model),
		cmocka_unit_test(test_gauss_scale),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_twostate_worst_is_the_maximum),
		cmocka_unit_test(test_state_shift_is_not_adopted),
		cmocka_unit_test(test_steady_gain_waits_for_the_region),
		cmocka_unit_test(test_ties_and_min_gain),
		cmocka_unit_test(test_futility),
		cmocka_unit_test(test_futility_allowance),
		cmocka_unit_test(test_pairs_needed_horizon),
		cmocka_unit_test(test_budget_and_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fast_spending),
		cmocka_unit_test(test_fast_family),
		cmocka_unit_test(test_fast_steady),
		cmocka_unit_test(test_fast_typical),
		/* last: left out below unless TLPERF_TEST_LONG is set */
		cmocka_unit_test(test_futility_raised_budget),
	};
	size_t n = sizeof tests / sizeof tests[0];
	if (!getenv("TLPERF_TEST_LONG")) {
		print_message("test_futility_raised_budget left out: the budget-24 bars take "
			      "seconds (make test-long runs it, TLPERF_TEST_LONG=1)\n");
		n--;
	}
	return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}

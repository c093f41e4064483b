/* test_plateau.c: per-round improvement and plateau detection on
 * hand-computed records. */
#include "testlib.h"
#include "recbuild.h"
#include "stats/plateau.h"

#include <errno.h>

#define K "t_kernel::main"

static void compute(struct rb *b, double noise, long window, struct records *rs,
		    struct stats_plateau *p)
{
	rb_load(b, rs);
	assert_int_equal(stats_plateau_compute(rs, noise, window, p), 0);
}

/* 100 -> 80 (20% gain) then flat rounds: plateau exactly at the third. */
static void test_plateau_after_three_flat_rounds(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v1(&b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&b, 1, "v1", K, "w1", 80.0, 1);
	rb_v1(&b, 2, "v2", K, "w1", 79.0, 1);  /* 1.25% over 80 */
	rb_v1(&b, 3, "v3", K, "w1", 80.5, 1);  /* slower */
	compute(&b, 0.03, 3, &rs, &p);
	assert_int_equal(p.nrounds, 3);
	assert_true(p.rounds[0].improved);
	assert_close(p.rounds[0].improvement, 0.20, 1e-12);
	assert_false(p.rounds[1].improved);
	assert_close(p.rounds[1].keys[0].incumbent_us, 80.0, 0);
	assert_close(p.rounds[1].improvement, 1.0 / 80.0, 1e-12);
	/* round 3's incumbent is the best so far (79, from round 2) */
	assert_close(p.rounds[2].keys[0].incumbent_us, 79.0, 0);
	assert_string_equal(p.rounds[2].keys[0].incumbent_id, "v2");
	assert_int_equal(p.consecutive_no_improvement, 2);
	assert_int_equal(p.last_improvement, 1);
	assert_false(p.plateau);
	stats_plateau_release(&p);
	records_release(&rs);

	rb_v1(&b, 4, "v4", K, "w1", 78.5, 1);  /* 0.63% over 79 */
	compute(&b, 0.03, 3, &rs, &p);
	assert_int_equal(p.nrounds, 4);
	assert_int_equal(p.consecutive_no_improvement, 3);
	assert_int_equal(p.last_improvement, 1);
	assert_true(p.plateau);
	stats_plateau_release(&p);
	records_release(&rs);
}

static int improved_at(double us, double noise)
{
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v1(&b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&b, 1, "c", K, "w1", us, 1);
	compute(&b, noise, 3, &rs, &p);
	assert_int_equal(p.nrounds, 1);
	int imp = p.rounds[0].improved;
	assert_int_equal(p.last_improvement, imp ? 1 : -1);
	stats_plateau_release(&p);
	records_release(&rs);
	return imp;
}

static void test_noise_threshold_is_strict(void **state)
{
	(void)state;
	assert_false(improved_at(97.1, 0.03)); /* 2.9% */
	assert_true(improved_at(96.9, 0.03));  /* 3.1% */
	assert_false(improved_at(97.0, 0.03)); /* exactly 3%: not beyond */
	assert_true(improved_at(97.1, 0.02));  /* the threshold is honoured */
	assert_false(improved_at(120.0, 0.0)); /* a slowdown is never a gain */
}

/* Invalid records never count: neither as incumbent nor as a gain. */
static void test_invalid_records_and_blocked_rounds(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v1(&b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&b, 0, "baseline", K, "w2", 10.0, 1);
	rb_v1(&b, 1, "fast_but_wrong", K, "w1", 50.0, 0);
	rb_v1(&b, 1, "also_wrong", K, "w2", 5.0, 0);
	rb_v1(&b, 2, "ok", K, "w1", 90.0, 1);  /* 10% over 100, not over 50 */
	rb_v1(&b, 2, "ok", K, "w2", 10.2, 1);  /* -2% on w2 */
	compute(&b, 0.03, 2, &rs, &p);
	assert_int_equal(p.nrounds, 2);
	assert_true(p.rounds[0].blocked);
	assert_false(p.rounds[0].improved);
	assert_int_equal(p.rounds[0].nrecords, 2);
	assert_int_equal(p.rounds[0].nvalid, 0);
	assert_true(isnan(p.rounds[0].improvement));
	assert_false(p.rounds[1].blocked);
	assert_true(p.rounds[1].improved);
	/* the round's improvement is the best key's gain, w1 */
	assert_close(p.rounds[1].improvement, 0.10, 1e-12);
	assert_int_equal(p.rounds[1].improvement_key, 0);
	assert_int_equal(p.rounds[1].nkeys, 2);
	assert_close(p.rounds[1].keys[1].gain, -0.02, 1e-12);
	assert_int_equal(p.consecutive_no_improvement, 0);
	assert_int_equal(p.last_improvement, 2);
	stats_plateau_release(&p);
	records_release(&rs);

	/* a trailing blocked round counts as no improvement */
	rb_v1(&b, 3, "broken", K, "w1", 1.0, 0);
	compute(&b, 0.03, 1, &rs, &p);
	assert_int_equal(p.consecutive_no_improvement, 1);
	assert_true(p.plateau);
	assert_true(p.rounds[2].blocked);
	stats_plateau_release(&p);
	records_release(&rs);
}

/* v2: final records are not branches; a new key has no incumbent. */
static void test_v2_final_and_new_keys(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v2(&b, 0, "baseline", "k.py::main", "a", "baseline", 120.0, 1, NAN, NAN);
	rb_v2(&b, 1, "c1", "k.py::main", "a", "candidate", 118.0, 1, NAN, NAN);
	rb_v2(&b, 1, "c1", "k.py::main", "b", "candidate", 10.0, 1, NAN, NAN);
	rb_v2(&b, 2, "c1", "k.py::main", "a", "final", 60.0, 1, NAN, NAN);
	compute(&b, 0.03, 3, &rs, &p);
	assert_int_equal(p.nrounds, 1); /* round 2 holds only a final record */
	assert_int_equal(p.rounds[0].nkeys, 2);
	assert_true(isnan(p.rounds[0].keys[1].incumbent_us));
	assert_true(isnan(p.rounds[0].keys[1].gain));
	assert_close(p.rounds[0].improvement, 2.0 / 120.0, 1e-12);
	assert_false(p.rounds[0].improved);
	stats_plateau_release(&p);
	records_release(&rs);
}

static void test_empty_and_bad_arguments(void **state)
{
	(void)state;
	struct records rs;
	struct stats_plateau p;
	records_init(&rs);
	assert_int_equal(stats_plateau_compute(&rs, 0.03, 3, &p), 0);
	assert_int_equal(p.nrounds, 0);
	assert_int_equal(p.last_improvement, -1);
	assert_false(p.plateau);
	stats_plateau_release(&p);
	errno = 0;
	assert_int_equal(stats_plateau_compute(&rs, -0.1, 3, &p), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(stats_plateau_compute(&rs, NAN, 3, &p), -1);
	assert_int_equal(stats_plateau_compute(&rs, 0.03, 0, &p), -1);
	stats_plateau_release(&p);
	records_release(&rs);
}

/* Rounds out of file order are sorted; later lines of an earlier round
 * still count before the later round. */
static void test_round_order(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v1(&b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&b, 2, "late", K, "w1", 70.0, 1);
	rb_v1(&b, 1, "early", K, "w1", 80.0, 1);
	compute(&b, 0.03, 3, &rs, &p);
	assert_int_equal(p.nrounds, 2);
	assert_int_equal(p.rounds[0].round, 1);
	assert_int_equal(p.rounds[1].round, 2);
	assert_close(p.rounds[1].keys[0].incumbent_us, 80.0, 0);
	assert_close(p.rounds[1].improvement, 0.125, 1e-12);
	stats_plateau_release(&p);
	records_release(&rs);
}

/* A round improves only when it passes the winner rule's non-regression
 * check: one key 20% faster while another is 10% slower is no
 * improvement (winner: defer); the same gain without the regression is. */
static void test_gain_with_regression_is_not_improvement(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_plateau p;
	rb_v1(&b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&b, 0, "baseline", K, "w2", 100.0, 1);
	rb_v1(&b, 1, "mixed", K, "w1", 80.0, 1);   /* -20% */
	rb_v1(&b, 1, "mixed", K, "w2", 110.0, 1);  /* +10%: regression */
	rb_v1(&b, 2, "clean", K, "w1", 78.0, 1);   /* 2.5% over 80: within noise */
	rb_v1(&b, 2, "clean", K, "w2", 95.0, 1);   /* 5% over 100 */
	compute(&b, 0.03, 3, &rs, &p);
	assert_int_equal(p.nrounds, 2);
	assert_close(p.rounds[0].improvement, 0.20, 1e-12); /* still reported */
	assert_false(p.rounds[0].improved);
	assert_int_equal(p.rounds[0].winner_decision, 3 /* STATS_WINNER_DEFER */);
	assert_null(p.rounds[0].winner_id);
	/* round 2: incumbents are the per-key bests (80 and 100); "clean" has
	 * no regression and gains 5% on w2 */
	assert_true(p.rounds[1].improved);
	assert_string_equal(p.rounds[1].winner_id, "clean");
	assert_int_equal(p.last_improvement, 2);
	assert_int_equal(p.consecutive_no_improvement, 0);
	stats_plateau_release(&p);
	records_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plateau_after_three_flat_rounds),
		cmocka_unit_test(test_noise_threshold_is_strict),
		cmocka_unit_test(test_invalid_records_and_blocked_rounds),
		cmocka_unit_test(test_v2_final_and_new_keys),
		cmocka_unit_test(test_empty_and_bad_arguments),
		cmocka_unit_test(test_round_order),
		cmocka_unit_test(test_gain_with_regression_is_not_improvement),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

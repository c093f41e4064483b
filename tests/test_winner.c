/* test_winner.c: winner selection, non-regression, A/B and tie rules on
 * hand-computed records. */
#include "testlib.h"
#include "recbuild.h"
#include "stats/winner.h"

#include <errno.h>

#define K "t_kernel::main"

struct fx {
	struct rb b;
	struct records rs;
	struct stats_winner w;
};

/* Baseline: w1 = 100 us, w2 = 50 us (both large kernels). */
static void base(struct fx *f)
{
	f->b.n = 0;
	rb_v1(&f->b, 0, "baseline", K, "w1", 100.0, 1);
	rb_v1(&f->b, 0, "baseline", K, "w2", 50.0, 1);
}

static enum stats_winner_decision decide(struct fx *f, long round, const char *const *req,
					 size_t nreq)
{
	struct stats_winner_opts o;
	char err[256];
	stats_winner_opts_init(&o);
	o.required = req;
	o.nrequired = nreq;
	rb_load(&f->b, &f->rs);
	int rc = stats_winner_choose(&f->rs, round, &o, &f->w, err, sizeof(err));
	if (rc != 0)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	return f->w.decision;
}

static void done(struct fx *f)
{
	stats_winner_release(&f->w);
	records_release(&f->rs);
}

static const char *chosen(const struct fx *f)
{
	return f->w.chosen == STATS_NOKEY ? "(none)" : f->w.cands[f->w.chosen].candidate_id;
}

static void test_adopt(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	rb_v1(&f.b, 1, "fast", K, "w1", 80.0, 1);
	rb_v1(&f.b, 1, "fast", K, "w2", 40.0, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ADOPT);
	assert_string_equal(chosen(&f), "fast");
	assert_close(f.w.cands[0].gain, 0.25, 1e-12); /* 100/80 = 50/40 = 1.25 */
	assert_int_equal(f.w.nrequired, 2);
	assert_string_equal(stats_winner_decision_name(f.w.decision), "adopt");
	done(&f);
}

/* The case: a regression on one required key blocks adoption. */
static void test_regression_on_required_key_blocks_adoption(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	rb_v1(&f.b, 1, "mixed", K, "w1", 70.0, 1);  /* -30% */
	rb_v1(&f.b, 1, "mixed", K, "w2", 55.0, 1);  /* +10%: regression */
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_DEFER);
	assert_string_equal(chosen(&f), "mixed");
	assert_int_equal(f.w.cands[0].nregressions, 1);
	assert_int_equal(f.w.cands[0].keys[1].state, STATS_WK_REGRESSION);
	assert_non_null(strstr(f.w.reason, "w2 (+10.0%)"));
	assert_null(strstr(f.w.reason, "w1"));
	done(&f);

	/* not required -> the regression does not block */
	base(&f);
	rb_v1(&f.b, 1, "mixed", K, "w1", 70.0, 1);
	rb_v1(&f.b, 1, "mixed", K, "w2", 55.0, 1);
	const char *req[] = { "w1" };
	assert_int_equal(decide(&f, 1, req, 1), STATS_WINNER_ADOPT);
	done(&f);

	/* a regression without a gain anywhere is a rollback */
	base(&f);
	rb_v1(&f.b, 1, "slow", K, "w1", 101.0, 1);
	rb_v1(&f.b, 1, "slow", K, "w2", 60.0, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ROLLBACK);
	assert_non_null(strstr(f.w.reason, "w2 (+20.0%)"));
	done(&f);
}

/* A faster candidate that regresses is passed over for a clean one. */
static void test_clean_candidate_preferred(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	rb_v1(&f.b, 1, "greedy", K, "w1", 50.0, 1); /* x2 */
	rb_v1(&f.b, 1, "greedy", K, "w2", 60.0, 1); /* +20% */
	rb_v1(&f.b, 1, "steady", K, "w1", 80.0, 1);
	rb_v1(&f.b, 1, "steady", K, "w2", 45.0, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ADOPT);
	assert_string_equal(chosen(&f), "steady");
	assert_non_null(strstr(f.w.reason, "greedy was faster overall but regresses: w2"));
	done(&f);
}

static void test_needs_ab_small_kernel_and_small_gain(void **state)
{
	(void)state;
	struct fx f;
	/* small key (10 us): 4% gain needs A/B although the other key gains 20% */
	f.b.n = 0;
	rb_v1(&f.b, 0, "baseline", K, "big", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", K, "small", 10.0, 1);
	rb_v1(&f.b, 1, "c1", K, "big", 80.0, 1);
	rb_v1(&f.b, 1, "c1", K, "small", 9.6, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NEEDS_AB);
	assert_false(f.w.cands[0].keys[0].needs_ab);
	assert_true(f.w.cands[0].keys[1].needs_ab);
	char *cmd = stats_winner_ab_command(&f.w, 0, 1, NULL, NULL);
	assert_non_null(cmd);
	assert_string_equal(cmd, "tlab --a-cmd '<bench command: baseline on " K "/small>' "
				 "--b-cmd '<bench command: c1 on " K "/small>' "
				 "--workdir perf_opt/ab_r1_c1");
	free(cmd);
	cmd = stats_winner_ab_command(&f.w, 0, 1,
				      "python bench.py --impl {impl} --workload {workload} "
				      "--tag 'r{round}'", "small");
	assert_non_null(cmd);
	assert_string_equal(cmd, "tlab --a-cmd 'python bench.py --impl baseline --workload small "
				 "--tag '\\''r0'\\''' --b-cmd 'python bench.py --impl c1 --workload "
				 "small --tag '\\''r1'\\''' --workdir perf_opt/ab_r1_c1/small");
	free(cmd);
	done(&f);

	/* a small key with a +4% (soft) regression goes to A/B, not rollback */
	f.b.n = 0;
	rb_v1(&f.b, 0, "baseline", K, "big", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", K, "small", 10.0, 1);
	rb_v1(&f.b, 1, "c1", K, "big", 80.0, 1);
	rb_v1(&f.b, 1, "c1", K, "small", 10.4, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NEEDS_AB);
	assert_int_equal(f.w.cands[0].keys[1].state, STATS_WK_SOFT_REGRESSION);
	assert_true(f.w.cands[0].keys[1].needs_ab);
	done(&f);

	/* large kernels, 3.5% gains: beyond noise, under the A/B threshold */
	base(&f);
	rb_v1(&f.b, 1, "meh", K, "w1", 96.5, 1);
	rb_v1(&f.b, 1, "meh", K, "w2", 48.25, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NEEDS_AB);
	assert_true(f.w.cands[0].keys[0].needs_ab);
	assert_true(f.w.cands[0].keys[1].needs_ab);
	done(&f);

	/* a 10% gain on one key of four (2.4% geomean) is not diluted by the
	 * flat keys: adopted, nothing to arbitrate */
	f.b.n = 0;
	rb_v1(&f.b, 0, "baseline", K, "a", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", K, "b", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", K, "c", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", K, "tiny", 5.0, 1);
	rb_v1(&f.b, 1, "one", K, "a", 90.0, 1);
	rb_v1(&f.b, 1, "one", K, "b", 100.5, 1);
	rb_v1(&f.b, 1, "one", K, "c", 99.0, 1);
	rb_v1(&f.b, 1, "one", K, "tiny", 4.95, 1); /* -1%: same, even on a small key */
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ADOPT);
	assert_int_equal(f.w.cands[0].keys[3].state, STATS_WK_SAME);
	done(&f);

	/* gains within noise only (2%, 1%): the whole case is unresolved */
	base(&f);
	rb_v1(&f.b, 1, "flat", K, "w1", 98.0, 1);
	rb_v1(&f.b, 1, "flat", K, "w2", 50.5, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NEEDS_AB);
	assert_true(f.w.cands[0].keys[0].needs_ab);
	assert_false(f.w.cands[0].keys[1].needs_ab); /* slower: nothing to confirm */
	done(&f);

	/* the same gain with a smaller threshold is adopted */
	base(&f);
	rb_v1(&f.b, 1, "meh", K, "w1", 96.5, 1);
	rb_v1(&f.b, 1, "meh", K, "w2", 48.25, 1);
	rb_load(&f.b, &f.rs);
	struct stats_winner_opts o;
	char err[128];
	stats_winner_opts_init(&o);
	o.ab_threshold = 0.03;
	assert_int_equal(stats_winner_choose(&f.rs, 1, &o, &f.w, err, sizeof(err)), 0);
	assert_int_equal(f.w.decision, STATS_WINNER_ADOPT);
	done(&f);
}

static void test_tie(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	rb_v1(&f.b, 1, "a", K, "w1", 80.0, 1);
	rb_v1(&f.b, 1, "a", K, "w2", 40.0, 1);
	rb_v1(&f.b, 1, "b", K, "w1", 79.0, 1);
	rb_v1(&f.b, 1, "b", K, "w2", 39.8, 1);
	rb_v1(&f.b, 1, "c", K, "w1", 90.0, 1); /* 10% behind: not tied */
	rb_v1(&f.b, 1, "c", K, "w2", 45.0, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_TIE);
	assert_string_equal(chosen(&f), "b");
	assert_int_equal(f.w.ntied, 1);
	assert_string_equal(f.w.cands[f.w.tied[0]].candidate_id, "a");
	assert_non_null(strstr(f.w.reason, "load balance"));
	done(&f);
}

static void test_none(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	rb_v1(&f.b, 1, "wrong", K, "w1", 10.0, 0);
	rb_v1(&f.b, 1, "wrong", K, "w2", 5.0, 0);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NONE);
	assert_int_equal(f.w.chosen, STATS_NOKEY);
	done(&f);

	/* valid on w1 only, L0 failure on w2: incomplete, cannot be checked */
	base(&f);
	rb_v1(&f.b, 1, "half", K, "w1", 10.0, 1);
	rb_v1(&f.b, 1, "half", K, "w2", 5.0, 0);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_NONE);
	assert_false(f.w.cands[0].complete);
	assert_int_equal(f.w.cands[0].keys[1].state, STATS_WK_MISSING);
	done(&f);

	/* no record at all in the round */
	base(&f);
	assert_int_equal(decide(&f, 3, NULL, 0), STATS_WINNER_NONE);
	assert_int_equal(f.w.ncands, 0);
	done(&f);
}

static void test_incumbent_id_and_errors(void **state)
{
	(void)state;
	struct fx f;
	base(&f);
	/* round 1: 'rejected' was fastest on w1 but not adopted */
	rb_v1(&f.b, 1, "rejected", K, "w1", 60.0, 1);
	rb_v1(&f.b, 1, "rejected", K, "w2", 70.0, 1);
	rb_v1(&f.b, 2, "next", K, "w1", 80.0, 1);
	rb_v1(&f.b, 2, "next", K, "w2", 40.0, 1);
	/* per-key best before round 2: w1 = 60 (rejected) -> next regresses */
	assert_int_equal(decide(&f, 2, NULL, 0), STATS_WINNER_DEFER);
	done(&f);
	/* against the adopted version (baseline), next is a clean gain */
	rb_load(&f.b, &f.rs);
	struct stats_winner_opts o;
	char err[256];
	stats_winner_opts_init(&o);
	o.incumbent_id = "baseline";
	assert_int_equal(stats_winner_choose(&f.rs, 2, &o, &f.w, err, sizeof(err)), 0);
	assert_int_equal(f.w.decision, STATS_WINNER_ADOPT);
	assert_close(f.w.cands[0].gain, 0.25, 1e-12);
	stats_winner_release(&f.w);

	const char *typo[] = { "w3" };
	o.required = typo;
	o.nrequired = 1;
	errno = 0;
	assert_int_equal(stats_winner_choose(&f.rs, 2, &o, &f.w, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "'w3'"));
	const char *full[] = { K "/w2" };
	o.required = full;
	assert_int_equal(stats_winner_choose(&f.rs, 2, &o, &f.w, err, sizeof(err)), 0);
	assert_int_equal(f.w.nrequired, 1);
	stats_winner_release(&f.w);
	o.required = NULL;
	o.nrequired = 0;
	assert_int_equal(stats_winner_choose(&f.rs, 0, &o, &f.w, err, sizeof(err)), -1);
	o.noise = -1;
	assert_int_equal(stats_winner_choose(&f.rs, 1, &o, &f.w, err, sizeof(err)), -1);
	records_release(&f.rs);
}

/* v2: baseline-phase records are never candidates; merged ones are. */
static void test_v2_phases(void **state)
{
	(void)state;
	struct fx f;
	f.b.n = 0;
	rb_v2(&f.b, 0, "baseline", "k.py::main", "a", "baseline", 120.0, 1, NAN, NAN);
	rb_v2(&f.b, 1, "m", "k.py::main", "a", "merged", 90.0, 1, NAN, NAN);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ADOPT);
	char *cmd = stats_winner_ab_command(&f.w, 0, 0, "run {artifact} {dispatch}", NULL);
	assert_non_null(cmd);
	assert_non_null(strstr(cmd, "--b-cmd 'run perf_opt/m.py k.py::main'"));
	free(cmd);
	assert_null(stats_winner_ab_command(&f.w, 1, 0, NULL, NULL));
	done(&f);
}

/* Same workload name under two dispatches: named with the dispatch. */
static void test_shared_workload_names(void **state)
{
	(void)state;
	struct fx f;
	f.b.n = 0;
	rb_v1(&f.b, 0, "baseline", "k::a", "w", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", "k::b", "w", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", "k::b", "solo", 100.0, 1);
	rb_v1(&f.b, 1, "c", "k::a", "w", 120.0, 1);
	rb_v1(&f.b, 1, "c", "k::b", "w", 110.0, 1);
	rb_v1(&f.b, 1, "c", "k::b", "solo", 120.0, 1);
	assert_int_equal(decide(&f, 1, NULL, 0), STATS_WINNER_ROLLBACK);
	assert_non_null(strstr(f.w.reason, "k::a/w (+20.0%), k::b/w (+10.0%), solo (+20.0%)"));
	assert_string_equal(stats_winner_key_label(&f.w, 0), "k::a/w");
	assert_string_equal(stats_winner_key_label(&f.w, 2), "solo");
	assert_null(stats_winner_key_label(&f.w, 3));
	/* "w" alone names both keys; the full form one of them */
	done(&f);
	f.b.n = 0;
	rb_v1(&f.b, 0, "baseline", "k::a", "w", 100.0, 1);
	rb_v1(&f.b, 0, "baseline", "k::b", "w", 100.0, 1);
	rb_v1(&f.b, 1, "c", "k::a", "w", 80.0, 1);
	rb_v1(&f.b, 1, "c", "k::b", "w", 80.0, 1);
	const char *one[] = { "w" };
	assert_int_equal(decide(&f, 1, one, 1), STATS_WINNER_ADOPT);
	assert_int_equal(f.w.nrequired, 2);
	done(&f);
	const char *full[] = { "k::b/w" };
	assert_int_equal(decide(&f, 1, full, 1), STATS_WINNER_ADOPT);
	assert_int_equal(f.w.nrequired, 1);
	assert_string_equal(stats_winner_key_label(&f.w, 0), "w");
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adopt),
		cmocka_unit_test(test_regression_on_required_key_blocks_adoption),
		cmocka_unit_test(test_clean_candidate_preferred),
		cmocka_unit_test(test_needs_ab_small_kernel_and_small_gain),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_incumbent_id_and_errors),
		cmocka_unit_test(test_v2_phases),
		cmocka_unit_test(test_shared_workload_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

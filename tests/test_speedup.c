/* test_speedup.c: baseline-to-final speedups and geometric means on
 * hand-computed records. */
#include "testlib.h"
#include "recbuild.h"
#include "stats/speedup.h"

#include <errno.h>

static void compute(struct rb *b, const char *final, struct records *rs, struct stats_speedup *s)
{
	rb_load(b, rs);
	assert_int_equal(stats_speedup_compute(rs, final, s), 0);
}

/* The case: speedups 2 and 8 have a geometric mean of 4. */
static void test_geomean_of_2_and_8_is_4(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1(&b, 0, "baseline", "k::a", "w1", 100.0, 1);
	rb_v1(&b, 0, "baseline", "k::b", "w2", 80.0, 1);
	rb_v1(&b, 1, "c", "k::a", "w1", 50.0, 1); /* x2 */
	rb_v1(&b, 1, "c", "k::b", "w2", 10.0, 1); /* x8 */
	compute(&b, "c", &rs, &s);
	assert_int_equal(s.nkeys, 2);
	assert_close(s.keys[0].speedup, 2.0, 1e-12);
	assert_close(s.keys[1].speedup, 8.0, 1e-12);
	assert_close(s.geomean_speedup, 4.0, 1e-12);
	assert_close(s.geomean_change, -0.75, 1e-12); /* sqrt(1/2 * 1/8) - 1 */
	assert_close(s.keys[0].change, -0.5, 1e-12);
	assert_int_equal(s.ngroups, 2);
	assert_string_equal(s.groups[0].dispatch, "k::a");
	assert_close(s.groups[0].geomean_speedup, 2.0, 1e-12);
	assert_close(s.groups[1].geomean_speedup, 8.0, 1e-12);
	assert_int_equal(s.nregressions, 0);
	assert_int_equal(s.keys[0].source, STATS_FINAL_NAMED);
	stats_speedup_release(&s);
	records_release(&rs);
}

/* Dispatch groups and a regression that is shown, not hidden. */
static void test_groups_and_regression(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1(&b, 0, "baseline", "k::x", "w1", 90.0, 1);
	rb_v1(&b, 0, "baseline", "k::y", "w2", 10.0, 1);
	rb_v1(&b, 0, "baseline", "k::x", "w3", 40.0, 1);
	rb_v1(&b, 2, "v2", "k::x", "w1", 10.0, 1);  /* x9 */
	rb_v1(&b, 2, "v2", "k::y", "w2", 12.5, 1);  /* x0.8: regression */
	rb_v1(&b, 2, "v2", "k::x", "w3", 40.0, 1);  /* x1 */
	compute(&b, "v2", &rs, &s);
	assert_int_equal(s.ngroups, 2);
	assert_string_equal(s.groups[0].dispatch, "k::x"); /* first appearance order */
	assert_int_equal(s.groups[0].nkeys, 2);
	assert_close(s.groups[0].geomean_speedup, 3.0, 1e-12); /* sqrt(9 * 1) */
	assert_close(s.groups[1].geomean_speedup, 0.8, 1e-12);
	assert_int_equal(s.groups[1].nregressions, 1);
	assert_true(s.keys[1].regression);
	assert_close(s.keys[1].change, 0.25, 1e-12);
	assert_int_equal(s.nregressions, 1);
	assert_close(s.geomean_speedup, cbrt(9.0 * 0.8), 1e-12);
	assert_int_equal(s.keys[0].source, STATS_FINAL_NAMED);
	stats_speedup_release(&s);
	records_release(&rs);
}

/* Which record is the final one. */
static void test_final_selection(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v2(&b, 0, "baseline", "k.py::main", "a", "baseline", 120.0, 1, NAN, NAN);
	rb_v2(&b, 0, "baseline", "k.py::main", "b", "baseline", 60.0, 1, NAN, NAN);
	rb_v2(&b, 1, "fast", "k.py::main", "a", "candidate", 40.0, 1, NAN, NAN);
	rb_v2(&b, 1, "fast", "k.py::main", "b", "candidate", 20.0, 0, NAN, NAN); /* L0 fail */
	rb_v2(&b, 2, "merged", "k.py::main", "a", "final", 60.0, 1, NAN, NAN);
	/* v2: the final record wins over a faster candidate */
	compute(&b, NULL, &rs, &s);
	assert_int_equal(s.keys[0].source, STATS_FINAL_PHASE);
	assert_close(s.keys[0].speedup, 2.0, 1e-12);
	/* no final record for b: no final (never the best of some other
	 * candidate; the failed 20 us would not count anyway) */
	assert_int_equal(s.keys[1].source, STATS_FINAL_NONE);
	assert_true(isnan(s.keys[1].speedup));
	assert_int_equal(s.nused, 1);
	stats_speedup_release(&s);
	/* a named final overrides the final phase; keys it lacks are missing */
	assert_int_equal(stats_speedup_compute(&rs, "fast", &s), 0);
	assert_close(s.keys[0].speedup, 3.0, 1e-12);
	assert_int_equal(s.keys[1].source, STATS_FINAL_NONE);
	assert_true(isnan(s.keys[1].speedup));
	assert_int_equal(s.nused, 1);
	assert_close(s.geomean_speedup, 3.0, 1e-12);
	stats_speedup_release(&s);
	/* an unknown candidate is an error, not an empty table */
	errno = 0;
	assert_int_equal(stats_speedup_compute(&rs, "nope", &s), -1);
	assert_int_equal(errno, ENOENT);
	stats_speedup_release(&s);
	records_release(&rs);
}

/* The final figure is the median of the final candidate's runs (its
 * round and its final confirmation), never the latest record alone: the
 * gate reconciles with the median, so speedup prints it. */
static void test_final_is_median_of_runs(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1(&b, 0, "baseline", "k::a", "w1", 12.0, 1);
	rb_v1(&b, 1, "tile", "k::a", "w1", 8.967, 1);
	rb_v1(&b, 1, "wide", "k::a", "w1", 8.0, 1);
	rb_v1(&b, 2, "tile", "k::a", "w1", 8.369, 1); /* the final confirmation, 6.7% faster */
	rb_v1(&b, 2, "tile", "k::a", "w1", 4.0, 0);   /* L0 fail: no run */
	compute(&b, "tile", &rs, &s);
	assert_close(s.keys[0].final_us, 8.668, 1e-12);
	assert_int_equal(s.keys[0].nruns, 2);
	assert_close(s.keys[0].speedup, 12.0 / 8.668, 1e-12);
	assert_int_equal(s.keys[0].final->round, 2);
	stats_speedup_release(&s);
	records_release(&rs);
	/* v2: the phase final record's candidate, all its runs */
	b.n = 0;
	rb_v2(&b, 0, "baseline", "k.py::main", "a", "baseline", 120.0, 1, NAN, NAN);
	rb_v2(&b, 1, "fast", "k.py::main", "a", "candidate", 40.0, 1, NAN, NAN);
	rb_v2(&b, 2, "fast", "k.py::main", "a", "final", 42.0, 1, NAN, NAN);
	compute(&b, NULL, &rs, &s);
	assert_int_equal(s.keys[0].source, STATS_FINAL_PHASE);
	assert_close(s.keys[0].final_us, 41.0, 1e-12);
	assert_int_equal(s.keys[0].nruns, 2);
	stats_speedup_release(&s);
	records_release(&rs);
}

static void test_missing_baseline_and_empty(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1(&b, 0, "baseline", "k", "w1", 100.0, 0); /* failed baseline */
	rb_v1(&b, 1, "c", "k", "w1", 50.0, 1);
	rb_v1(&b, 1, "c", "k", "new", 5.0, 1);         /* never had a baseline */
	compute(&b, "c", &rs, &s);
	assert_int_equal(s.nused, 0);
	assert_null(s.keys[0].baseline);
	assert_true(isnan(s.geomean_speedup));
	stats_speedup_release(&s);
	records_release(&rs);

	records_init(&rs);
	assert_int_equal(stats_speedup_compute(&rs, NULL, &s), 0);
	assert_int_equal(s.nkeys, 0);
	assert_true(isnan(s.geomean_speedup));
	stats_speedup_release(&s);
	records_release(&rs);
}

/* Without --final: the candidate the lineage shows adopted last, never
 * the per-workload minimum over different candidates. */
static void test_final_is_last_adopted(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1p(&b, 0, "baseline", NULL, "k", "w1", 100.0, 1);
	rb_v1p(&b, 0, "baseline", NULL, "k", "w2", 100.0, 1);
	/* round 1: "fastw1" is great on w1 but 20% slower on w2; "even" gains 10% on both */
	rb_v1p(&b, 1, "fastw1", "baseline", "k", "w1", 50.0, 1);
	rb_v1p(&b, 1, "fastw1", "baseline", "k", "w2", 120.0, 1);
	rb_v1p(&b, 1, "even", "baseline", "k", "w1", 90.0, 1);
	rb_v1p(&b, 1, "even", "baseline", "k", "w2", 90.0, 1);
	/* round 2 builds on "even": it was adopted; its child fails L0 */
	rb_v1p(&b, 2, "even2", "even", "k", "w1", 80.0, 0);
	rb_v1p(&b, 2, "even2", "even", "k", "w2", 80.0, 0);
	rb_load(&b, &rs);
	assert_string_equal(stats_last_adopted(&rs), "even");
	assert_int_equal(stats_speedup_compute(&rs, NULL, &s), 0);
	assert_string_equal(s.final_candidate, "even");
	assert_int_equal(s.keys[0].source, STATS_FINAL_ADOPTED);
	assert_string_equal(s.keys[0].final->candidate_id, "even");
	/* 100/90 on both: geomean 1.111..., not sqrt(100/50 * 100/90) = 1.49 */
	assert_close(s.geomean_speedup, 100.0 / 90.0, 1e-12);
	stats_speedup_release(&s);
	records_release(&rs);
}

/* No final record, no lineage: cannot be told (ESRCH), the caller must
 * ask for --final. A parent that never had a valid record is no adoption. */
static void test_final_cannot_be_told(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	rb_v1p(&b, 0, "baseline", NULL, "k", "w1", 100.0, 1);
	rb_v1p(&b, 1, "a", NULL, "k", "w1", 50.0, 1);
	rb_v1p(&b, 1, "b", "ghost", "k", "w1", 40.0, 1);
	rb_v1p(&b, 2, "c", "c", "k", "w1", 30.0, 1); /* its own parent: no adoption */
	rb_load(&b, &rs);
	assert_null(stats_last_adopted(&rs));
	errno = 0;
	assert_int_equal(stats_speedup_compute(&rs, NULL, &s), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(s.nkeys, 0);
	stats_speedup_release(&s);
	/* named, it works */
	assert_int_equal(stats_speedup_compute(&rs, "a", &s), 0);
	assert_close(s.geomean_speedup, 2.0, 1e-12);
	stats_speedup_release(&s);
	records_release(&rs);
}

/* A Final Summary's name resolved against the candidates: exactly, by a
 * prefix cut at a non-alphanumeric byte, and never by reading past a name
 * shorter than a candidate id (the ASan run of make test checks that). */
static void test_final_hint(void **state)
{
	(void)state;
	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_speedup s;
	struct stats_speedup_acc a;
	rb_v1p(&b, 0, "baseline", NULL, "k", "w1", 100.0, 1);
	rb_v1p(&b, 1, "v2_tile_long_name", "baseline", "k", "w1", 50.0, 1);
	rb_v1p(&b, 1, "v2", "baseline", "k", "w1", 80.0, 1);
	rb_load(&b, &rs);
	const char *hints[] = { "v2", "v2_c-reorder.py", "v2x", "v2_tile_long_name" };
	const int how[] = { 1, 2, -1, 1 };
	const double speedup[] = { 100.0 / 80.0, 100.0 / 80.0, NAN, 2.0 };
	for (int h = 0; h < 4; h++) {
		stats_speedup_begin(&a, NULL);
		a.final_hint = hints[h];
		for (size_t i = 0; i < rs.n; i++)
			assert_int_equal(stats_speedup_add(&a, &rs.v[i]), 0);
		int rc = stats_speedup_finish(&a, &s);
		assert_int_equal(s.hint, how[h]);
		if (how[h] > 0) {
			assert_int_equal(rc, 0);
			assert_close(s.geomean_speedup, speedup[h], 1e-12);
		}
		stats_speedup_release(&s);
	}
	records_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geomean_of_2_and_8_is_4),
		cmocka_unit_test(test_groups_and_regression),
		cmocka_unit_test(test_final_selection),
		cmocka_unit_test(test_final_is_median_of_runs),
		cmocka_unit_test(test_missing_baseline_and_empty),
		cmocka_unit_test(test_final_is_last_adopted),
		cmocka_unit_test(test_final_cannot_be_told),
		cmocka_unit_test(test_final_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

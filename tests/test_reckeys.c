/* test_reckeys.c: the key set (hash lookups), key texts, incumbents and
 * baselines shared by the records statistics. */
#include "testlib.h"
#include "recbuild.h"
#include "stats/reckeys.h"

static void test_keyset_many_keys(void **state)
{
	(void)state;
	static struct rb b;
	struct records rs;
	struct stats_keyset ks;
	char d[32], w[32];
	b.n = 0;
	/* 300 keys, each twice, over 7 dispatches */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 300; i++) {
			snprintf(d, sizeof(d), "k%d::main", i % 7);
			snprintf(w, sizeof(w), "w%d", i);
			rb_v1(&b, pass, pass ? "c" : "baseline", d, w, 10.0 + i, 1);
		}
	rb_load(&b, &rs);
	assert_int_equal(stats_keyset_build(&rs, &ks), 0);
	assert_int_equal(ks.n, 300);
	for (int i = 0; i < 300; i++) {
		snprintf(d, sizeof(d), "k%d::main", i % 7);
		snprintf(w, sizeof(w), "w%d", i);
		assert_int_equal(stats_keyset_find(&ks, d, w), (size_t)i);
		assert_int_equal(ks.of[i], (size_t)i);
		assert_int_equal(ks.of[300 + i], (size_t)i);
	}
	assert_int_equal(stats_keyset_find(&ks, "k1::main", "w0"), STATS_NOKEY);
	/* the separator keeps ("ab", "c") and ("a", "bc") apart */
	assert_int_equal(stats_keyset_find(&ks, "k0::mainw", "0"), STATS_NOKEY);
	stats_keyset_release(&ks);
	records_release(&rs);
}

static void test_key_text_and_best(void **state)
{
	(void)state;
	struct stats_key k = { "kernels/mish.py::main", "smoke/fp16" };
	assert_true(stats_key_matches(&k, "smoke/fp16"));
	assert_true(stats_key_matches(&k, "kernels/mish.py::main/smoke/fp16"));
	assert_false(stats_key_matches(&k, "fp16"));
	assert_false(stats_key_matches(&k, "kernels/mish.py::main"));
	assert_false(stats_key_matches(&k, "kernels/mish.py::mainXsmoke/fp16"));

	struct rb b = { .n = 0 };
	struct records rs;
	struct stats_keyset ks;
	const struct record *best[1], *base[1];
	rb_v2(&b, 0, "baseline", "k", "w", "baseline", 100.0, 1, NAN, NAN);
	rb_v2(&b, 1, "a", "k", "w", "candidate", 80.0, 1, NAN, NAN);
	rb_v2(&b, 1, "x", "k", "w", "candidate", 10.0, 0, NAN, NAN);
	rb_v2(&b, 2, "a", "k", "w", "candidate", 85.0, 1, NAN, NAN);
	rb_v2(&b, 3, "b", "k", "w", "candidate", 70.0, 1, NAN, NAN);
	rb_load(&b, &rs);
	assert_int_equal(stats_keyset_build(&rs, &ks), 0);
	stats_best_before(&rs, &ks, 3, NULL, best);
	assert_close(best[0]->duration_us, 80.0, 0); /* invalid 10 never counts */
	stats_best_before(&rs, &ks, 3, "a", best);
	assert_close(best[0]->duration_us, 85.0, 0); /* a's most recent, not its best */
	stats_best_before(&rs, &ks, 1, NULL, best);
	assert_string_equal(best[0]->candidate_id, "baseline");
	stats_best_before(&rs, &ks, 0, NULL, best);
	assert_null(best[0]);
	stats_baseline(&rs, &ks, base);
	assert_close(base[0]->duration_us, 100.0, 0);
	assert_close(stats_rel_change(90.0, 100.0), -0.1, 1e-15);
	assert_true(isnan(stats_rel_change(1.0, 0.0)));
	stats_keyset_release(&ks);
	records_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyset_many_keys),
		cmocka_unit_test(test_key_text_and_best),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

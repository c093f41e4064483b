/* test_ptrules.c: the helpers the PT-* rules share (gates/pt_common.c):
 * reading a perf_log figure, the improvement of an attempt, adopted / N/A
 * words. */
#include "testlib.h"
#include "gates/pt_rules.h"

static void meas(struct ptperf_meas *m, char *b, char *c, char *i, char *a)
{
	memset(m, 0, sizeof(*m));
	m->base.value = b;
	m->cand.value = c;
	m->impr.value = i;
	m->adopted.value = a;
}

static void test_figure(void **state)
{
	(void)state;
	double v;
	int kind;
	const char *s = "avg_speedup=0.2431 (run1), 0.2385 (run2); avg=0.2408";
	assert_true(pt_figure(s, strlen(s), &v, &kind));
	assert_close(v, 0.2408, 0);
	assert_int_equal(kind, 1);
	s = "0.2147 ms (bench fp16 1024×8192)";
	assert_true(pt_figure(s, strlen(s), &v, &kind));
	assert_close(v, 0.2147, 0);
	assert_int_equal(kind, -1);
	s = "N/A (iter0 single-block)";
	assert_false(pt_figure(s, strlen(s), &v, &kind));
	s = "avg ours_us varies by case";
	assert_false(pt_figure(s, strlen(s), &v, &kind));
}

static void test_eval(void **state)
{
	(void)state;
	struct ptperf_meas m;
	struct pt_eval e;
	char b[] = "0.2147 ms (bench) / 71.9 us (msprof)", c[] = "0.2153 ms (bench) / 53.6 us (msprof)",
	     i[] = "+0.3% (noise) / -25.5% (msprof)", a[] = "yes";
	meas(&m, b, c, i, a);
	pt_eval_meas(&m, &e);
	assert_int_equal(e.npairs, 2);
	assert_true(e.attempt);
	assert_close(e.stated[1], -25.5, 0);
	assert_int_equal(e.kind[1], -1);
	/* a time that falls is the gain */
	assert_close(e.gain, (71.9 - 53.6) / 71.9 * 100, 1e-9);

	char b2[] = "avg_speedup=0.1713 (iter1)", c2[] = "avg_speedup=0.1360", i2[] = "-20.7% (REGRESSION)";
	meas(&m, b2, c2, i2, NULL);
	pt_eval_meas(&m, &e);
	assert_int_equal(e.npairs, 1);
	assert_close(e.gain, (0.1360 - 0.1713) / 0.1713 * 100, 1e-9);

	/* times in different units compare */
	char b4[] = "0.120 ms", c4[] = "90 us", i4[] = "-25%";
	meas(&m, b4, c4, i4, NULL);
	pt_eval_meas(&m, &e);
	assert_close(e.base[0], 120, 1e-9);
	assert_close(e.gain, 25, 1e-9);

	char b3[] = "N/A (correctness fix)", c3[] = "N/A", i3[] = "0% (correctness fix)";
	meas(&m, b3, c3, i3, NULL);
	pt_eval_meas(&m, &e);
	assert_false(e.attempt);
	assert_true(isnan(e.gain));
	assert_close(e.stated[0], 0, 0);
}

static void test_words(void **state)
{
	(void)state;
	assert_int_equal(pt_adopted("yes (kept for code simplification)"), 1);
	assert_int_equal(pt_adopted("no"), 0);
	assert_int_equal(pt_adopted("否"), 0);
	assert_int_equal(pt_adopted("采纳"), 1);
	assert_int_equal(pt_adopted("maybe"), -1);
	assert_true(pt_is_na("N/A", 3));
	assert_true(pt_is_na(" N/A (first iter)", 17));
	assert_true(pt_is_na("无", strlen("无")));
	assert_false(pt_is_na("无变化", strlen("无变化")));
	assert_false(pt_is_na("-20.7%", 6));
	assert_false(pt_is_na("None of the attempts helped", 27));
	assert_true(pt_is_na("none", 4));
	assert_true(pt_is_na("无（首轮）", strlen("无（首轮）")));
	assert_true(pt_close(0.2095, 0.20947142118979545, 0.001));
	assert_false(pt_close(0.2095, 0.2486, 0.01));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

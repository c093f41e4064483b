/* test_svg.c: the plots are well-formed XML with one mark per run / bar. */
#include "testlib.h"
#include "xmlwf.h"

#include "report/svg.h"
#include "util/utf8.h"

struct marks {
	size_t runs, runs_a, runs_b, slow, fast, outlier, one;
	size_t pairs, bars, failing, geomean, estimate, interval, tie, svg, legend;
	double bar_y[64]; /* y of each bar in document order */
	double bar_w[64];
};

static int has_class(const struct xmlwf_tag *t, const char *word)
{
	size_t len;
	const char *v = xmlwf_attr(t, "class", &len);
	size_t wl = strlen(word);
	for (size_t i = 0; v && i + wl <= len; i++)
		if ((i == 0 || v[i - 1] == ' ') && memcmp(v + i, word, wl) == 0 &&
		    (i + wl == len || v[i + wl] == ' '))
			return 1;
	return 0;
}

static double num_attr(const struct xmlwf_tag *t, const char *name)
{
	size_t len;
	const char *v = xmlwf_attr(t, name, &len);
	char buf[64];
	if (!v || len >= sizeof(buf))
		return NAN;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return strtod(buf, NULL);
}

static void on_start(const struct xmlwf_tag *t, void *ctx)
{
	struct marks *m = ctx;
	if (strcmp(t->name, "svg") == 0)
		m->svg++;
	if (has_class(t, "run")) {
		m->runs++;
		m->runs_a += has_class(t, "arm-a");
		m->runs_b += has_class(t, "arm-b");
		m->slow += has_class(t, "state-slow");
		m->fast += has_class(t, "state-fast");
		m->outlier += has_class(t, "state-outlier");
		m->one += has_class(t, "state-one");
	}
	m->legend += has_class(t, "legend-mark");
	m->pairs += has_class(t, "pair");
	if (has_class(t, "bar")) {
		if (m->bars < 64) {
			m->bar_y[m->bars] = num_attr(t, "y");
			m->bar_w[m->bars] = num_attr(t, "width");
		}
		m->bars++;
	}
	m->failing += has_class(t, "failing");
	m->geomean += has_class(t, "geomean");
	m->estimate += has_class(t, "estimate");
	m->interval += has_class(t, "interval");
	m->tie += has_class(t, "tie-band");
}

static char *render_ab(const struct svg_ab *p, struct marks *m)
{
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(svg_write_ab(f, p), 0);
	assert_int_equal(fclose(f), 0);
	memset(m, 0, sizeof(*m));
	if (xmlwf_check(buf, len, on_start, m, err, sizeof(err)) != 0) {
		print_error("SVG not well-formed: %s\n%s\n", err, buf);
		fail();
	}
	assert_true(utf8_invalid_at(buf, len) == (size_t)-1);
	assert_int_equal(m->svg, 1);
	return buf;
}

static char *render_bars(const struct svg_bars *p, struct marks *m)
{
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(svg_write_bars(f, p), 0);
	assert_int_equal(fclose(f), 0);
	memset(m, 0, sizeof(*m));
	if (xmlwf_check(buf, len, on_start, m, err, sizeof(err)) != 0) {
		print_error("SVG not well-formed: %s\n%s\n", err, buf);
		fail();
	}
	assert_true(utf8_invalid_at(buf, len) == (size_t)-1);
	assert_int_equal(m->svg, 1);
	return buf;
}

static void test_ab_marks(void **state)
{
	(void)state;
	/* bimodal: fast ~100/95, slow ~110/104 */
	double a[] = { 100.1, 110.3, 99.8, 100.4, 110.9, 100.0, 99.7, 110.2 };
	double b[] = { 95.2, 95.0, 104.8, 95.3, 95.1, 104.5, 94.9, 95.4 };
	struct svg_ab p = { "tlab: B_better <&> \"x\"", a, b, 8, NULL, NULL, 100.05, 95.25,
			    0.048, 0.02, 0.07, 0.9296875, 0.03 };
	struct marks m;
	char *svg = render_ab(&p, &m);
	assert_int_equal(m.runs, 16);
	assert_int_equal(m.runs_a, 8);
	assert_int_equal(m.runs_b, 8);
	assert_int_equal(m.pairs, 8);
	assert_int_equal(m.slow, 3 + 2); /* split at the largest gap per arm */
	assert_int_equal(m.fast, 5 + 6);
	assert_int_equal(m.estimate, 1);
	assert_int_equal(m.interval, 1);
	assert_int_equal(m.tie, 1);
	assert_true(m.legend >= 4);
	assert_non_null(strstr(svg, "tlab: B_better &lt;&amp;&gt; \"x\""));
	assert_non_null(strstr(svg, ">+4.8%<"));
	assert_non_null(strstr(svg, ">+2% to +7%<"));
	assert_non_null(strstr(svg, "92.97% interval"));
	free(svg);
}

static void test_ab_caller_states_and_gaps(void **state)
{
	(void)state;
	double a[] = { 10, NAN, 10.1, 10.2 };
	double b[] = { 9, 9.1, -1, 9.05 };
	int sa[] = { SVG_STATE_FAST, SVG_STATE_FAST, SVG_STATE_OUTLIER, SVG_STATE_SLOW };
	int sb[] = { SVG_STATE_FAST, SVG_STATE_SLOW, SVG_STATE_FAST, SVG_STATE_FAST };
	struct svg_ab p = { "t", a, b, 4, sa, sb, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
	struct marks m;
	char *svg = render_ab(&p, &m);
	/* unusable medians (NaN, negative) get no mark and break their pair */
	assert_int_equal(m.runs, 6);
	assert_int_equal(m.pairs, 2);
	assert_int_equal(m.outlier, 1);
	assert_int_equal(m.slow, 2);
	assert_int_equal(m.estimate, 0);
	assert_int_equal(m.interval, 0);
	assert_int_equal(m.tie, 0);
	free(svg);

	/* quiet runs: one state, no fast/slow split */
	double qa[] = { 10, 10.1, 10.05 }, qb[] = { 9.9, 9.95, 9.92 };
	struct svg_ab q = { "quiet", qa, qb, 3, NULL, NULL, NAN, NAN, -0.01, -0.02, 0.0, NAN, 0.03 };
	svg = render_ab(&q, &m);
	assert_int_equal(m.runs, 6);
	assert_int_equal(m.one, 6);
	free(svg);

	/* no pairs is an error, not an empty plot */
	struct svg_ab z = { "z", qa, qb, 0, NULL, NULL, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(svg_write_ab(f, &z), -1);
	fclose(f);
}

static void test_ab_many_runs(void **state)
{
	(void)state;
	double a[200], b[200];
	for (int i = 0; i < 200; i++) {
		a[i] = 50 + (i % 7 == 0 ? 5 : 0) + 0.01 * i;
		b[i] = 48 + (i % 5 == 0 ? 5 : 0);
	}
	struct svg_ab p = { "many", a, b, 200, NULL, NULL, 50, 48, 0.04, 0.03, 0.05, 0.95, 0.03 };
	struct marks m;
	char *svg = render_ab(&p, &m);
	assert_int_equal(m.runs, 400);
	assert_int_equal(m.pairs, 200);
	free(svg);
}

static void test_split_states(void **state)
{
	(void)state;
	double x[] = { 10, 11, 10.1, NAN, 10.05, 11.2 };
	int s[6];
	svg_split_states(x, 6, s);
	int want[] = { SVG_STATE_FAST, SVG_STATE_SLOW, SVG_STATE_FAST, SVG_STATE_ONE,
		       SVG_STATE_FAST, SVG_STATE_SLOW };
	for (int i = 0; i < 6; i++)
		assert_int_equal(s[i], want[i]);
	double q[] = { 10, 10.2, 10.1 };
	svg_split_states(q, 3, s);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s[i], SVG_STATE_ONE);
}

static void test_bars(void **state)
{
	(void)state;
	const char *labels[] = { "w1", "w2 <b>", "a-very-long-workload-name-that-goes-on-and-on-forever",
				 "\xe6\x9c\xaa\xe5\x91\xbd\xe5\x90\x8d", "bad\xff", "w6" };
	double v[] = { 1.5, 0.8, 3.2, 1.0, NAN, 2.0 };
	int failing[] = { 0, 1, 0, 0, 0, 0 };
	struct svg_bars p = { "speedup", "speedup (baseline / final)", labels, v, failing, 6, 1.52, 1 };
	struct marks m;
	char *svg = render_bars(&p, &m);
	assert_int_equal(m.bars, 5); /* the NaN row says n/a */
	assert_int_equal(m.failing, 1);
	assert_int_equal(m.geomean, 1);
	assert_non_null(strstr(svg, "n/a"));
	assert_non_null(strstr(svg, "w2 &lt;b&gt;"));
	assert_non_null(strstr(svg, "\xe2\x80\xa6")); /* the long label is cut with an ellipsis */
	assert_non_null(strstr(svg, "geomean 1.52"));
	/* sorted largest first: 3.2, 2.0, 1.5, 1.0, 0.8 — rows go down the page,
	 * and on a log scale 3.2 is the longest bar */
	for (size_t i = 1; i < 5; i++)
		assert_true(m.bar_y[i] > m.bar_y[i - 1]);
	assert_true(m.bar_w[0] > m.bar_w[1] && m.bar_w[1] > m.bar_w[2]);
	free(svg);

	/* unsorted keeps input order; no geomean line when NaN */
	p.sort_desc = 0;
	p.geomean = NAN;
	p.failing = NULL;
	svg = render_bars(&p, &m);
	assert_int_equal(m.bars, 5);
	assert_int_equal(m.failing, 0);
	assert_int_equal(m.geomean, 0);
	assert_true(m.bar_w[2] > m.bar_w[0]); /* w3 (3.2x) after w1 (1.5x) */
	free(svg);

	/* empty and single-value charts are still valid */
	struct svg_bars e = { "none", NULL, NULL, NULL, NULL, 0, NAN, 1 };
	svg = render_bars(&e, &m);
	assert_int_equal(m.bars, 0);
	assert_non_null(strstr(svg, "no data"));
	free(svg);
	double one[] = { 1.01 };
	const char *l1[] = { NULL };
	struct svg_bars s1 = { "one", NULL, l1, one, NULL, 1, 1.01, 0 };
	svg = render_bars(&s1, &m);
	assert_int_equal(m.bars, 1);
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ab_marks),    cmocka_unit_test(test_ab_caller_states_and_gaps),
		cmocka_unit_test(test_ab_many_runs), cmocka_unit_test(test_split_states),
		cmocka_unit_test(test_bars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

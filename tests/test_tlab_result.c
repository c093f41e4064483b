/* test_tlab_result.c: the one reader of tlab's JSON verdict (the loop's
 * view of an A/B result), and the summary pasted into opt_log.md. */
#include "testlib.h"

#include "model/records.h"
#include "run/tlab_result.h"

static char dir[] = "/tmp/tlab_result_XXXXXX";

/* path of a fresh file in dir holding text (256 bytes). */
static const char *file_with(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static const char SEQ[] =
	"{\"schema\":\"tlperf/tlab/v1\",\"protocol\":\"seq\",\"pairs\":5,\"a_merged_median_us\":10.184,"
	"\"b_merged_median_us\":9.885,\"b_rel_change\":-0.0294,\"verdict\":\"B_better\","
	"\"tlab_protocol\":\"seq\",\"exact\":{\"a_merged_median_us\":10.1842,"
	"\"b_merged_median_us\":9.884588,\"b_rel_change\":-0.0294193},\"significant\":true,"
	"\"gain\":0.0385,\"gain_interval\":[0.0014,0.0638],"
	"\"ref\":{\"verdict\":\"tie\",\"significant\":false,\"sign_test_p\":0.375},"
	"\"runs\":[{\"arm\":\"A\",\"pair\":1}]}";

static const char REF[] =
	"{\"schema\":\"tlperf/tlab/v1\",\"protocol\":\"interleaved\",\"pairs\":3,"
	"\"a_merged_median_us\":10.062,\"b_merged_median_us\":9.688,\"b_rel_change\":-0.0373,"
	"\"sign_test_p\":0.25,\"verdict\":\"B_better\",\"tlab_protocol\":\"ref\",\"gain\":0.0373,"
	"\"exact\":{\"a_merged_median_us\":10.0625,\"b_merged_median_us\":9.6875,"
	"\"sign_test_p\":0.25},\"runs\":[]}";

/* seq: verdict, gain and its interval; the reference rule's p is not the
 * decision's (it sits in "ref") and is not read as one */
static void test_seq(void **state)
{
	(void)state;
	struct tlab_result r;
	char err[256];
	assert_int_equal(tlab_result_read(file_with("seq.json", SEQ), &r, err, sizeof(err)), 0);
	assert_string_equal(r.verdict, "B_better");
	assert_string_equal(r.protocol, "seq");
	assert_close(r.gain, 0.0385, 0);
	assert_close(r.gain_lo, 0.0014, 0);
	assert_close(r.gain_hi, 0.0638, 0);
	assert_true(isnan(r.p));
	assert_close(r.a_us, 10.1842, 0); /* the unrounded medians */
	assert_close(r.b_us, 9.884588, 0);
	assert_int_equal(r.pairs, 5);
}

/* ref: the unrounded sign test, no interval */
static void test_ref(void **state)
{
	(void)state;
	struct tlab_result r;
	assert_int_equal(tlab_result_read(file_with("ref.json", REF), &r, NULL, 0), 0);
	assert_string_equal(r.protocol, "ref");
	assert_close(r.gain, 0.0373, 0);
	assert_close(r.p, 0.25, 0);
	assert_true(isnan(r.gain_lo) && isnan(r.gain_hi));
	assert_close(r.a_us, 10.0625, 0);
}

/* no verdict to read: an older tlab's JSON without gain (read no longer,
 * whatever its b_rel_change says), an error object, not JSON, no file */
static void test_refused(void **state)
{
	(void)state;
	struct tlab_result r;
	char err[256];
	assert_int_equal(tlab_result_read(file_with("old.json",
						    "{\"protocol\":\"ref\",\"verdict\":\"B_better\","
						    "\"b_rel_change\":0.04}"),
					  &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no gain"));
	assert_int_equal(tlab_result_read(file_with("err.json",
						    "{\"schema\":\"tlperf/tlab/v1\",\"error\":\"run 1A "
						    "failed\",\"verdict\":\"tie\"}"),
					  &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "run 1A failed"));
	assert_int_equal(tlab_result_read(file_with("junk.json", "verdict: B_better\n"), &r, err,
					  sizeof(err)),
			 -1);
	assert_int_equal(tlab_result_read(file_with("arr.json", "[1,2]"), &r, err, sizeof(err)), -1);
	assert_int_equal(tlab_result_read("/nonexistent/x.json", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
}

/* the summary pasted into the log: the whole object but its runs */
static void test_summary(void **state)
{
	(void)state;
	char *s = tlab_result_summary(file_with("seq2.json", SEQ));
	assert_non_null(s);
	assert_null(strstr(s, "\"runs\""));
	assert_non_null(strstr(s, "\"verdict\":\t\"B_better\""));
	assert_non_null(strstr(s, "\"ref\":"));
	assert_non_null(strstr(s, "\"gain_interval\":"));
	free(s);
	assert_null(tlab_result_summary(file_with("e2.json", "{\"error\":\"x\"}")));
}

/* a record that says measured:false is never valid for arbitration, L0
 * passed or not (a failed bench or an L0 failure: its duration is the
 * parent's placeholder) */
static void test_not_measured_invalid(void **state)
{
	(void)state;
	struct record r;
	memset(&r, 0, sizeof(r));
	r.duration_us = 8.0;
	r.l0_pass = 1;
	assert_true(record_valid(&r));
	r.not_measured = 1;
	assert_false(record_valid(&r));
	r.l0_pass = 0;
	assert_false(record_valid(&r));
	r.not_measured = 0;
	assert_false(record_valid(&r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_ref),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_not_measured_invalid),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

/* test_loop_state.c: the loop's state comes from records and log markers. */
#include "testlib.h"

#include "run/loop.h"

static void test_markers(void **state)
{
	(void)state;
	struct loop_state st;
	loop_state_init(&st);
	assert_string_equal(st.best, "baseline");
	assert_int_equal(loop_state_marker(&st, "## Round 1"), 0);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=baseline -->"), 1);
	assert_true(st.baseline_logged);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=round round=1 "
						"decision=adopt best=tile state=continue -->"),
			 1);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=round round=2 "
						"decision=rollback best=tile state=plateau -->"),
			 1);
	assert_int_equal(st.last_decided, 2);
	assert_string_equal(st.best, "tile");
	assert_string_equal(st.rounds[1].decision, "rollback");
	assert_string_equal(st.stop_reason, "plateau");
	/* malformed markers change nothing */
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=round round=x best=y -->"), 0);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=round round=3 best=z"), 0);
	assert_int_equal(st.last_decided, 2);
	assert_false(st.finishing);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=finishing round=3 best=tile -->"), 1);
	assert_true(st.finishing);
	assert_false(st.finished);
	assert_int_equal(loop_state_marker(&st, "<!-- tlperf-loop: kind=final round=3 best=tile stop=plateau -->"), 1);
	assert_true(st.finished);
	assert_int_equal(st.final_round, 3);
	loop_state_release(&st);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define R(round, id, wl, d, l0)                                                                \
	"{\"round\":" #round ",\"candidate_id\":\"" id "\",\"parent_id\":null,"                    \
	"\"dispatch_path\":\"k\",\"workload\":\"" wl "\",\"duration_us\":" #d ",\"l0_pass\":" l0 \
	",\"msprof_raw_path\":null,\"timestamp\":\"2026-01-01T00:00:00Z\"}\n"

/* A fresh directory dir (a mkdtemp template) and the paths of its
 * records rec and log (256 bytes each). */
static void state_files(char *dir, char *rec, char *log)
{
	assert_non_null(mkdtemp(dir));
	snprintf(rec, 256, "%s/perf_records.jsonl", dir);
	snprintf(log, 256, "%s/opt_log.md", dir);
}

/* Branches used, the record that counts, a torn line ignored. */
static void test_load(void **state)
{
	(void)state;
	char dir[] = "/tmp/loopstate.XXXXXX", rec[256], log[256];
	state_files(dir, rec, log);
	write_file(rec, R(0, "baseline", "w", 10, "true") R(1, "a", "w", 8, "true")
				R(1, "b", "w", 9, "false") R(2, "c", "w", 7.5, "true")
				R(2, "c", "w", 7.0, "true") "{\"round\":3,\"cand");
	write_file(log, "# log\n<!-- tlperf-loop: kind=baseline -->\n"
			"<!-- tlperf-loop: kind=round round=1 decision=adopt best=a state=continue -->\n");
	struct loop_state st;
	char err[256];
	loop_state_init(&st);
	assert_int_equal(loop_state_load(&st, rec, log, err, sizeof(err)), 0);
	assert_int_equal(st.rs.n, 5);
	assert_int_equal(st.bad_lines, 1);
	assert_int_equal(st.experiments, 3); /* a, b, c; baseline not counted */
	assert_int_equal(st.last_decided, 1);
	assert_string_equal(st.best, "a");
	struct loop_workload w = { "w", "k", 1, NAN };
	const struct record *r = loop_state_find(&st, NULL, "c", &w, 2);
	assert_non_null(r);
	assert_close(r->duration_us, 7.0, 0);
	assert_null(loop_state_find(&st, NULL, "c", &w, 1));
	assert_true(loop_state_has_candidate(&st, "b", 1));
	assert_false(loop_state_has_candidate(&st, "b", 2));
	loop_state_release(&st);

	/* missing files: an empty state, not an error */
	loop_state_init(&st);
	assert_int_equal(loop_state_load(&st, "/nonexistent/r", "/nonexistent/l", err, sizeof(err)), 0);
	assert_int_equal(st.rs.n, 0);
	loop_state_release(&st);
	unlink(rec);
	unlink(log);
	rmdir(dir);
}

/* Branches used count each candidate once, over rounds >= 1 only: the
 * baseline, a "final" phase record and the finishing round's records (the
 * best measured once more) are not branches. */
static void test_experiments(void **state)
{
#define SHA "2b3934349653c820423adf0c823c536b1948373018cc8ef424c8792ff3a4991c"
	(void)state;
	char dir[] = "/tmp/loopstate.XXXXXX", rec[256], log[256];
	state_files(dir, rec, log);
	write_file(rec, R(0, "baseline", "w", 10, "true") R(1, "a", "w", 8, "true")
				R(1, "a", "v", 8, "true") R(2, "a", "w", 7.9, "true")
				R(2, "b", "w", 9, "true") R(3, "z", "w", 8.8, "true")
				"{\"round\":4,\"candidate_id\":\"f\",\"parent_id\":null,"
				"\"kernel_id\":\"k\",\"workload_id\":\"w\",\"phase\":\"final\","
				"\"artifact_path\":\"k.py\",\"artifact_sha256\":\"" SHA "\","
				"\"duration_us\":7,\"l0_pass\":true,\"msprof_raw_path\":null,"
				"\"timestamp\":\"2026-01-01T00:00:00Z\"}\n");
	static const struct {
		const char *log;
		long experiments;
	} cases[] = {
		/* not finishing: a, b, z (f is a final record) */
		{ "<!-- tlperf-loop: kind=baseline -->\n", 3 },
		/* finishing in round 3: z's record is the final measurement */
		{ "<!-- tlperf-loop: kind=baseline -->\n"
		  "<!-- tlperf-loop: kind=finishing round=3 best=z -->\n", 2 },
		/* finishing in round 2: b is gone, a still has round 1 */
		{ "<!-- tlperf-loop: kind=baseline -->\n"
		  "<!-- tlperf-loop: kind=finishing round=2 best=a -->\n", 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct loop_state st;
		char err[256];
		write_file(log, cases[i].log);
		loop_state_init(&st);
		assert_int_equal(loop_state_load(&st, rec, log, err, sizeof(err)), 0);
		assert_int_equal(st.rs.n, 7);
		assert_int_equal(st.experiments, cases[i].experiments);
		loop_state_release(&st);
	}
	unlink(rec);
	unlink(log);
	rmdir(dir);
#undef SHA
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_experiments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_s4_time.c: S4-PERF-RECORDS-TIME and -TIME-DUP as pure rules over
 * records, with the commit of each line given (as git blame would) or not. */
#include "testlib.h"
#include "io/records.h"
#include "gates/s4.h"

#include <string.h>

/* A v1 record line: candidate, parent (NULL: null), workload, duration,
 * stamp. */
static void rec(char *buf, size_t n, const char *cand, const char *parent, const char *w, double us,
		const char *ts)
{
	char par[64];
	if (parent)
		snprintf(par, sizeof(par), "\"%s\"", parent);
	else
		snprintf(par, sizeof(par), "null");
	snprintf(buf, n,
		 "{\"round\": %d, \"candidate_id\": \"%s\", \"parent_id\": %s, \"dispatch_path\": \"k::main\", "
		 "\"workload\": \"%s\", \"duration_us\": %g, \"l0_pass\": true, \"msprof_raw_path\": null, "
		 "\"timestamp\": \"%s\"}\n",
		 parent ? 1 : 0, cand, par, w, us, ts);
}

struct fixture {
	struct records rs;
	struct records_problems ps;
	struct s4_input in;
	struct gate_findings fs;
	char text[8192];
};

static void start(struct fixture *x)
{
	memset(x, 0, sizeof(*x));
	records_init(&x->rs);
	records_problems_init(&x->ps);
	gate_findings_init(&x->fs);
}

static void add(struct fixture *x, const char *cand, const char *parent, const char *w, double us,
		const char *ts)
{
	size_t l = strlen(x->text);
	rec(x->text + l, sizeof(x->text) - l, cand, parent, w, us, ts);
}

/* Runs the rule; now is the time of the check (0: none). */
static void run(struct fixture *x, long long now, const struct s4_line_commits *c)
{
	assert_int_equal(records_load_buffer(x->text, strlen(x->text), &x->rs, &x->ps), 0);
	assert_int_equal(x->ps.n, 0);
	x->in.recs = &x->rs;
	x->in.rprobs = &x->ps;
	x->in.records_file = "perf_records.jsonl";
	x->in.now = now;
	x->in.commits = c;
	assert_int_equal(s4_rule_time(&x->in, &x->fs), 0);
}

/* The number of findings of rule with severity at line (0: any line). */
static size_t count(const struct fixture *x, const char *rule, enum gate_severity sev, long line)
{
	size_t n = 0;
	for (size_t i = 0; i < x->fs.n; i++)
		n += strcmp(x->fs.v[i].rule, rule) == 0 && x->fs.v[i].severity == sev &&
		     (!line || x->fs.v[i].line == line);
	return n;
}

static void finish(struct fixture *x)
{
	records_release(&x->rs);
	records_problems_release(&x->ps);
	gate_findings_release(&x->fs);
}

#define T0 1790841600LL /* 2026-10-01T08:00:00Z */

/* Without git: against now, with the clock-skew allowance. */
static void test_future_now(void **state)
{
	(void)state;
	struct fixture x;
	start(&x);
	add(&x, "baseline", NULL, "w", 10, "2026-10-01T08:00:00Z");
	add(&x, "c1", "baseline", "w", 9, "2026-10-01T08:10:00Z");
	add(&x, "c2", "baseline", "w", 9, "2026-10-01T08:05:01Z");
	add(&x, "c3", "baseline", "w", 9, "2026-10-01T18:00:00");       /* no zone: 10 h ahead */
	add(&x, "c4", "baseline", "w", 9, "2026-10-01T18:00:00+00:00");
	add(&x, "c5", "baseline", "w", 9, "2026-10-01");                 /* today, in some zone */
	add(&x, "c6", "baseline", "w", 9, "2026-10-02");                 /* tomorrow even at UTC+14 */
	run(&x, T0, NULL);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 2), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 3), 1); /* 1 s past the skew */
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 4), 0);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 5), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 6), 0);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 7), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 1), 0);
	finish(&x);
	/* now unknown: nothing to compare with */
	start(&x);
	add(&x, "baseline", NULL, "w", 10, "2999-01-01T00:00:00Z");
	run(&x, 0, NULL);
	assert_int_equal(x.fs.n, 0);
	finish(&x);
}

/* With git: each line against the commit that added it; a line not
 * committed yet against now. */
static void test_future_commit(void **state)
{
	(void)state;
	struct fixture x;
	struct s4_commit v[2] = { { "aaaaaaaaaaaa", T0 }, { "bbbbbbbbbbbb", T0 + 86400 } };
	int of_line[5] = { -1, 0, 1, 0, -1 };
	struct s4_line_commits c = { of_line, 4, v, 2 };
	start(&x);
	add(&x, "baseline", NULL, "w", 10, "2026-10-01T07:00:00Z");  /* before commit a */
	add(&x, "c1", "baseline", "w", 9, "2026-10-01T20:00:00Z");   /* before commit b */
	add(&x, "c2", "baseline", "w", 9, "2026-10-01T20:00:00.5Z"); /* after commit a */
	add(&x, "c3", "baseline", "w", 9, "2026-10-05T00:00:00Z");   /* not committed: now */
	run(&x, T0 + 10 * 86400, &c);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 0), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 3), 1);
	assert_non_null(strstr(x.fs.v[0].message, "after commit aaaaaaaaaaaa"));
	assert_non_null(strstr(x.fs.v[0].message, "committed 2026-10-01T08:00:00Z"));
	finish(&x);
}

/* A child before its parent's first record; later records of the parent
 * do not matter; zones and precision decide only when certain. */
static void test_parent(void **state)
{
	(void)state;
	struct fixture x;
	start(&x);
	add(&x, "baseline", NULL, "w", 10, "2026-10-01T08:00:00Z");
	add(&x, "c1", "baseline", "w", 9, "2026-10-01T07:59:59Z");       /* 1 s early */
	add(&x, "c2", "baseline", "w", 9, "2026-10-01T15:59:00+08:00");  /* 07:59Z */
	add(&x, "c3", "baseline", "w", 9, "2026-10-01T16:00:00+08:00");  /* the same instant */
	add(&x, "c4", "baseline", "w", 9, "2026-10-01T07:00:00");        /* no zone: unknown */
	add(&x, "c5", "baseline", "w", 9, "2026-10-01T08:00Z");          /* its minute */
	add(&x, "baseline", NULL, "w2", 11, "2026-10-01T12:00:00Z");     /* parent re-measured */
	add(&x, "c6", "baseline", "w2", 9, "2026-10-01T09:00:00Z");
	run(&x, 0, NULL);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 2), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 3), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 0), 2);
	finish(&x);
}

/* Different measurements with one instant: one warning per instant. */
static void test_duplicates(void **state)
{
	(void)state;
	struct fixture x;
	start(&x);
	add(&x, "baseline", NULL, "w", 10, "2026-10-01T08:00:00Z");
	add(&x, "baseline", NULL, "w", 10, "2026-10-01T08:00:00Z");      /* the same measurement */
	add(&x, "baseline", NULL, "w2", 12, "2026-10-01T16:00:00+08:00"); /* one run, its other workload */
	add(&x, "c1", "baseline", "w", 9, "2026-10-01T08:00:00Z");         /* another candidate */
	add(&x, "c1", "baseline", "w2", 11, "2026-10-01T08:00:00Z");
	add(&x, "c2", "baseline", "w", 9, "2026-10-01T09:00Z");           /* no seconds */
	add(&x, "c3", "baseline", "w", 8, "2026-10-01T09:00Z");
	add(&x, "c4", "baseline", "w", 8, "2026-10-01T10:00:00.100Z");
	add(&x, "c5", "baseline", "w", 8, "2026-10-01T10:00:00.200Z");
	run(&x, 0, NULL);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME-DUP", GATE_WARNING, 0), 1);
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME-DUP", GATE_WARNING, 3), 0); /* same candidate */
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME-DUP", GATE_WARNING, 4), 1);
	assert_non_null(strstr(x.fs.v[0].message, "at line 1"));
	assert_int_equal(count(&x, "S4-PERF-RECORDS-TIME", GATE_ERROR, 0), 0);
	finish(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_future_now),
		cmocka_unit_test(test_future_commit),
		cmocka_unit_test(test_parent),
		cmocka_unit_test(test_duplicates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

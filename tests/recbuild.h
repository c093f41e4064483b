/* recbuild.h: builds perf_records.jsonl text in memory for the records
 * statistics tests (test_plateau, test_speedup, test_winner, test_cmptable).
 * Each helper appends one line; rb_load parses the buffer with the real
 * reader so the tests exercise what the commands see. */
#ifndef TLPERF_RECBUILD_H
#define TLPERF_RECBUILD_H

#include "testlib.h"
#include "io/records.h"

struct rb {
	char buf[262144];
	size_t n;
};

/* v1 line with an explicit parent_id (NULL: JSON null). */
static inline void rb_v1p(struct rb *b, long round, const char *cand, const char *parent,
			  const char *disp, const char *wl, double us, int pass)
{
	char par[128];
	snprintf(par, sizeof(par), parent ? "\"%s\"" : "null", parent ? parent : "");
	int n = snprintf(b->buf + b->n, sizeof(b->buf) - b->n,
			 "{\"round\": %ld, \"candidate_id\": \"%s\", \"parent_id\": %s, "
			 "\"dispatch_path\": \"%s\", \"workload\": \"%s\", \"duration_us\": %.17g, "
			 "\"l0_pass\": %s, \"msprof_raw_path\": \"p/\", "
			 "\"timestamp\": \"2026-09-06T00:00:00Z\"}\n",
			 round, cand, par, disp, wl, us, pass ? "true" : "false");
	assert_true(n > 0 && (size_t)n < sizeof(b->buf) - b->n);
	b->n += (size_t)n;
}

/* v1 line: round, candidate, dispatch_path, workload, duration, l0_pass
 * (parent: null in round 0, "baseline" after). */
static inline void rb_v1(struct rb *b, long round, const char *cand, const char *disp,
			 const char *wl, double us, int pass)
{
	rb_v1p(b, round, cand, round == 0 ? NULL : "baseline", disp, wl, us, pass);
}

static inline void rb_v2(struct rb *b, long round, const char *cand, const char *kid,
			 const char *wid, const char *phase, double us, int pass, double util,
			 double bw)
{
	char extra[128] = "";
	size_t e = 0;
	if (!isnan(util))
		e += (size_t)snprintf(extra + e, sizeof(extra) - e, ", \"aicore_util\": %.17g", util);
	if (!isnan(bw))
		snprintf(extra + e, sizeof(extra) - e, ", \"mem_bw_gbps\": %.17g", bw);
	int n = snprintf(b->buf + b->n, sizeof(b->buf) - b->n,
			 "{\"round\": %ld, \"candidate_id\": \"%s\", \"parent_id\": %s, "
			 "\"kernel_id\": \"%s\", \"workload_id\": \"%s\", \"phase\": \"%s\", "
			 "\"artifact_path\": \"perf_opt/%s.py\", \"artifact_sha256\": \"00\", "
			 "\"duration_us\": %.17g, \"l0_pass\": %s, \"msprof_raw_path\": \"p/\", "
			 "\"timestamp\": \"2026-09-20T00:00:00Z\"%s}\n",
			 round, cand, round == 0 ? "null" : "\"baseline\"", kid, wid, phase, cand,
			 us, pass ? "true" : "false", extra);
	assert_true(n > 0 && (size_t)n < sizeof(b->buf) - b->n);
	b->n += (size_t)n;
}

/* Parses the buffer; every line must be valid. */
static inline void rb_load(struct rb *b, struct records *rs)
{
	struct records_problems ps;
	records_init(rs);
	records_problems_init(&ps);
	assert_int_equal(records_load_buffer(b->buf, b->n, rs, &ps), 0);
	if (ps.n)
		print_error("line %ld: %s\n", ps.v[0].line, ps.v[0].message);
	assert_int_equal(ps.n, 0);
	records_problems_release(&ps);
}

#endif

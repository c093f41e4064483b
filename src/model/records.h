/* records.h: perf_records.jsonl, one JSON object per experiment branch and
 * workload, append-only.
 *
 * Two contracts exist (see README "Record contracts"):
 *   v1: round, candidate_id, parent_id, dispatch_path, workload,
 *       duration_us, l0_pass, msprof_raw_path, timestamp
 *   v2: round, candidate_id, parent_id, kernel_id, workload_id, phase
 *       (baseline|candidate|merged|final), artifact_path, artifact_sha256,
 *       duration_us, l0_pass, msprof_raw_path, timestamp
 * Optional in both: aicore_util (fraction), mem_bw_gbps (GB/s).
 * A record's key is (dispatch, workload): dispatch_path/workload in v1,
 * kernel_id/workload_id in v2.
 */
#ifndef TLPERF_RECORDS_H
#define TLPERF_RECORDS_H

#include <stddef.h>

enum records_contract {
	RECORDS_UNKNOWN = 0, /* no valid record to tell from */
	RECORDS_V1 = 1,
	RECORDS_V2 = 2
};

struct record {
	long line;              /* 1-based line in the file */
	enum records_contract contract; /* contract this line follows */
	long round;             /* >= 0 */
	char *candidate_id;     /* never NULL */
	char *parent_id;        /* NULL when JSON null or absent */
	char *dispatch;         /* v1 dispatch_path, v2 kernel_id */
	char *workload;         /* v1 workload, v2 workload_id */
	char *phase;            /* v2 phase, NULL in v1 */
	char *artifact_path;    /* v2; optional in v1 (NULL when absent) */
	char *artifact_sha256;  /* v2, may be NULL */
	char *msprof_raw_path;  /* may be NULL */
	char *timestamp;        /* ISO 8601 text */
	double duration_us;     /* finite, > 0 */
	int l0_pass;            /* 0 or 1 */
	double aicore_util;     /* NAN when absent */
	double mem_bw_gbps;     /* NAN when absent */
	int not_measured;       /* 1 when the line says "measured": false (no profile
				   behind duration_us, e.g. an L0 failure); else 0 */
};

struct records {
	struct record *v;       /* valid records in file order */
	size_t n, cap;
	enum records_contract contract; /* the file's contract: majority of valid lines */
};

/* One problem found while reading (a schema finding for the gate). */
struct records_problem {
	long line;              /* 1-based; 0 for the file as a whole */
	char *message;          /* malloc'd, lowercase, no trailing period */
};

struct records_problems {
	struct records_problem *v;
	size_t n, cap;
};

void record_release(struct record *r);
/* Deep copy; returns 0 or -1 on allocation failure. */
int record_copy(struct record *dst, const struct record *src);

/* 1 when r is valid for arbitration: l0_pass true and a duration > 0. */
int record_valid(const struct record *r);
/* 1 when a and b have the same key (dispatch, workload). */
int record_same_key(const struct record *a, const struct record *b);

void records_init(struct records *rs);
void records_release(struct records *rs);
/* Appends a deep copy of r. Returns 0 or -1 on allocation failure. */
int records_push(struct records *rs, const struct record *r);

void records_problems_init(struct records_problems *ps);
void records_problems_release(struct records_problems *ps);
int records_problems_add(struct records_problems *ps, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

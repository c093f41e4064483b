/* model/records.h: perf_records.jsonl records, one JSON object per
 * experiment branch and workload, append-only. The reader is io/records.h;
 * this header is the model that stats/ and gates/ consume (no I/O).
 *
 * Two contracts exist (see README "Record contracts"):
 *   v1: round, candidate_id, parent_id, dispatch_path, workload,
 *       duration_us, l0_pass, msprof_raw_path, timestamp
 *   v2: round, candidate_id, parent_id, kernel_id, workload_id, phase
 *       (baseline|candidate|merged|final), artifact_path, artifact_sha256,
 *       duration_us, l0_pass, msprof_raw_path, timestamp
 * Optional in both: aicore_util (fraction), mem_bw_gbps (GB/s), measured.
 * A record's key is (dispatch, workload): dispatch_path/workload in v1,
 * kernel_id/workload_id in v2.
 *
 * Strings: a record never owns its strings. In a struct records they live
 * in the set's pool, and the ids (candidate_id, parent_id, dispatch,
 * workload, phase) are interned there: two records of one set with equal
 * ids hold the same pointer (compare with ==). A record handed out by the
 * reader (io/records.h) has its ids in the reader's pool and its other
 * strings in the reader's line buffer, valid until the next line.
 */
#ifndef TLPERF_MODEL_RECORDS_H
#define TLPERF_MODEL_RECORDS_H

#include <stddef.h>

#include "util/strpool.h"

enum records_contract {
	RECORDS_UNKNOWN = 0, /* no valid record to tell from */
	RECORDS_V1 = 1,
	RECORDS_V2 = 2
};

struct record {
	long line;              /* 1-based line in the file */
	enum records_contract contract; /* contract this line follows */
	long round;             /* >= 0 */
	const char *candidate_id;    /* interned, never NULL */
	const char *parent_id;       /* interned, NULL when JSON null or absent */
	const char *dispatch;        /* interned: v1 dispatch_path, v2 kernel_id */
	const char *workload;        /* interned: v1 workload, v2 workload_id */
	const char *phase;           /* interned: v2 phase, NULL in v1 */
	const char *artifact_path;   /* v2; optional in v1 (NULL when absent) */
	const char *artifact_sha256; /* v2, may be NULL */
	const char *msprof_raw_path; /* may be NULL */
	const char *timestamp;       /* ISO 8601 text (a copy, not interned) */
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
	struct strpool pool;    /* owns every string of v[]; ids interned */
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

/* 1 when r is valid for arbitration: l0_pass true, measured (not
 * "measured": false: an L0 failure or a failed bench, whose duration is a
 * placeholder) and a duration > 0. */
int record_valid(const struct record *r);
/* 1 when a and b have the same key (dispatch, workload). */
int record_same_key(const struct record *a, const struct record *b);
/* 1 for phase "final" (v2 closing re-measurement). */
int record_is_final(const struct record *r);

void records_init(struct records *rs);
void records_release(struct records *rs);
/* Appends a copy of r whose strings go to rs's pool (ids interned).
 * Returns 0 or -1 on allocation failure. */
int records_push(struct records *rs, const struct record *r);
/* Same, when r's ids are already interned in rs->pool (a reader given
 * &rs->pool made them): only the other strings are copied. */
int records_push_interned(struct records *rs, const struct record *r);

void records_problems_init(struct records_problems *ps);
void records_problems_release(struct records_problems *ps);
int records_problems_add(struct records_problems *ps, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* 1 when s is an ISO 8601 date-time: YYYY-MM-DD[T ]hh:mm[:ss[.frac]][Z|+hh:mm|-hh:mm],
 * or a date alone. */
int records_is_iso8601(const char *s);

/* An ISO 8601 time stamp as an interval of seconds since 1970-01-01: the
 * stamp's precision makes [lo, hi] (a date alone covers its day, hh:mm its
 * minute). zoned: 1 when the stamp carries Z or an offset (lo/hi are UTC),
 * 0 when it does not (lo/hi read the wall-clock time as if it were UTC:
 * comparable with other unzoned stamps of the same writer only). */
struct records_time {
	long long lo, hi;
	int zoned;
	int precise;  /* 1 when the stamp has seconds (or a fraction) */
	long frac_ns; /* the fraction, in nanoseconds (0 when none) */
};

/* The widest offset from UTC a wall-clock time can carry (UTC+14). */
#define RECORDS_MAX_ZONE_OFFSET (14 * 3600)

/* Parses s (records_is_iso8601 syntax) into *t. Returns 0, -1 when s is
 * not such a stamp. */
int records_time_parse(const char *s, struct records_time *t);

/* The interval of t in UTC: [*lo, *hi], widened by the widest zone offset
 * when t carries no zone. */
void records_time_utc(const struct records_time *t, long long *lo, long long *hi);

/* 1 when a is certainly earlier than b: a's latest possible instant is
 * before b's earliest (two unzoned stamps compare as wall-clock times of one
 * writer; an unzoned one against a zoned one is widened by 14 hours). */
int records_time_before(const struct records_time *a, const struct records_time *b);

#endif

/* stage_result.h: the `## Stage Result` block a Stage 4 tuning agent returns
 * to its conductor (the seed's delivery report), as plain data: no I/O.
 *
 * The block is a list of `key: value` lines in a fixed field order
 * (stage_result_fields[]). baseline_latency, final_latency and improvement
 * may appear once per workload (`- WORKLOAD: final_latency: 7.1 us`, as the
 * Final Summary writes them) when an operator has several workloads; an
 * unlabelled improvement is the geometric mean over the workloads.
 *
 * The same struct serves both directions: src/io/stage_result.c reads a
 * block written by anyone into it (every line number kept, problems of
 * form noted for the gate), and the loop fills one from its records for
 * src/report/stage_result.c to print.
 */
#ifndef TLPERF_MODEL_STAGE_RESULT_H
#define TLPERF_MODEL_STAGE_RESULT_H

/* The noise threshold of a Stage Result's plateau check when neither the
 * Stage Result nor the opt_log states one (3%, the seeds' threshold). */
#define STAGE_RESULT_NOISE_DEFAULT 0.03

#include <stddef.h>

/* The seed's fields, in the seed's order. */
enum sr_field {
	SR_STAGE = 0,
	SR_PROJECT,
	SR_OPERATOR,
	SR_OUTPUT,
	SR_LOG,
	SR_SUMMARY_DOC,
	SR_VERDICT,
	SR_DESIGN_LIMIT_SIGNAL,
	SR_PERF_FEEDBACK,
	SR_ITERATIONS,
	SR_PRIMARY_METRIC,
	SR_BASELINE_LATENCY,
	SR_FINAL_LATENCY,
	SR_IMPROVEMENT,
	SR_STOP_REASON,
	SR_SKILL_RETROSPECTIVE,
	SR_VALUE_POINT_PROPOSALS,
	SR_SKILLS_CONSULTED,
	SR_SUMMARY,
	SR_ISSUES,
	SR_NFIELDS,
	SR_UNKNOWN = -1
};

/* Field names as written in the block ("stage", "baseline_latency"...). */
extern const char *const stage_result_fields[SR_NFIELDS];

/* The field named by key (exact, lowercase ASCII); SR_UNKNOWN when none. */
enum sr_field stage_result_field(const char *key);

/* 1 for the fields that may be given once per workload. */
int stage_result_per_workload(enum sr_field f);

/* The literal a field must hold ("4", "TUNING_COMPLETED",
 * "msprof_task_duration"), NULL for the others. */
const char *stage_result_literal(enum sr_field f);

/* How a value's unit was written. */
enum sr_unit {
	SR_UNIT_NONE = 0,  /* a bare number */
	SR_UNIT_US,        /* us, µs, μs */
	SR_UNIT_MS,        /* ms (number is converted to us) */
	SR_UNIT_NS,        /* ns (number is converted to us) */
	SR_UNIT_PCT,       /* % or ％ */
	SR_UNIT_X,         /* x (a speedup) */
	SR_UNIT_OTHER      /* any other word after the number */
};

/* One `key: value` line of the block. */
struct sr_entry {
	long line;             /* 1-based line in the text it came from (0: built) */
	enum sr_field field;   /* SR_UNKNOWN for a key the seed does not have */
	char *key;             /* the key as written (trimmed, decoration removed), malloc'd */
	char *workload;        /* per-workload label, NULL when none; malloc'd */
	char *value;           /* the value as written (trimmed), malloc'd, never NULL */
	char *raw;             /* the whole line as written, malloc'd (for quoting) */
	double number;         /* leading number of the value (us for latencies), NAN none */
	int decimals;          /* digits after the point in the number as written */
	enum sr_unit unit;     /* unit after the number */
	int fullwidth;         /* the line uses full-width punctuation (：％，) */
	int extra;             /* the value shows another figure after the one read,
				* which the reader could not attribute (a warning) */
};

/* A problem of form met while reading (the gate turns them into
 * S4-STAGE-RESULT-FORMAT findings). */
struct sr_problem {
	long line;
	int error;             /* 1: certain (error); 0: an assumption was made (warning) */
	char *message;         /* malloc'd, lowercase, no trailing period */
};

struct stage_result {
	long heading_line;     /* `## Stage Result` of the block read, 0 when none */
	long end_line;         /* last line of the block */
	long nblocks;          /* Stage Result headings seen */
	long other_heading;    /* heading line of another block (first one), 0 none */
	struct sr_entry *v;    /* in the order written */
	size_t n, cap;
	struct sr_problem *probs;
	size_t nprobs, capprobs;
};

void stage_result_init(struct stage_result *sr);
void stage_result_release(struct stage_result *sr);

/* Appends an entry (strings copied; workload may be NULL; raw NULL means
 * "key: value" is composed). Returns the entry, NULL on allocation failure. */
struct sr_entry *stage_result_add(struct stage_result *sr, long line, enum sr_field f,
				  const char *key, const char *workload, const char *value,
				  const char *raw);

/* Appends a problem (printf-formatted). Returns 0, -1 on allocation failure. */
int stage_result_problem(struct stage_result *sr, long line, int error, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The first entry of field f (with workload label w, or any label when w is
 * NULL and any_label is set; only unlabelled entries when w is NULL and
 * any_label is 0). NULL when none. */
const struct sr_entry *stage_result_get(const struct stage_result *sr, enum sr_field f,
					const char *w, int any_label);

/* Number of entries of field f. */
size_t stage_result_count(const struct stage_result *sr, enum sr_field f);

/* 1 when a value means "nothing": none, n/a, -, 无, empty. */
int stage_result_is_none(const char *value);

#endif

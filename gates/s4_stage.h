/* s4_stage.h: S4-STAGE-RESULT-*, a `## Stage Result` block (the seed's
 * delivery report, model/stage_result.h) reconciled against the perf_opt/
 * directory it reports on. Pure: everything read from the tree comes in
 * through struct s4_input (records, opt_log.md, perf_feedback.md), the
 * gate's reconciliation rows (S4-PERF-RECORDS-RECON) and struct
 * s4_stage_ctx (loop.json, the loop's markers, and a callback that tells
 * whether a file exists under the operator directory).
 *
 * Rules (rules.c has their text):
 *   S4-STAGE-RESULT-FORMAT       block, fields, units, punctuation
 *   S4-STAGE-RESULT-LITERAL      stage 4, verdict, primary_metric, operator
 *   S4-STAGE-RESULT-PATHS        output/log/summary_doc/perf_feedback exist
 *                                under the operator directory
 *   S4-STAGE-RESULT-LATENCY      baseline/final_latency vs the records (1%)
 *   S4-STAGE-RESULT-IMPROVEMENT  improvement vs the records and vs the
 *                                block's own latencies (0.1 point)
 *   S4-STAGE-RESULT-ITERATIONS   iterations vs the rounds recorded
 *   S4-STAGE-RESULT-STOP         stop_reason vs records, loop.json targets,
 *                                the loop state and the Final Summary
 *   S4-STAGE-RESULT-DESIGN-LIMIT design_limit_signal / perf_feedback vs
 *                                perf_feedback.md's presence
 */
#ifndef TLPERF_S4_STAGE_H
#define TLPERF_S4_STAGE_H

#include <stddef.h>

#include "gates/s4.h"
#include "model/stage_result.h"

/* Improvement tolerance, in percentage points. */
#define S4_STAGE_IMPROVEMENT_POINTS 0.1

struct s4_stage_target {
	const char *workload;   /* plan workload id */
	const char *dispatch;   /* its dispatch path */
	double target_us;       /* target latency */
	int required;           /* 0: optional workload */
};

/* One claim of the block next to what the records say (for `tlperf
 * audit`). */
struct s4_stage_claim {
	long line;              /* of the claim in the block */
	enum sr_field field;
	char *workload;         /* label, NULL when none; malloc'd */
	char *claimed;          /* the value as written; malloc'd */
	char *recorded;         /* what the records / tree say; malloc'd */
};

struct s4_stage_claims {
	struct s4_stage_claim *v;
	size_t n, cap;
};

void s4_stage_claims_init(struct s4_stage_claims *c);
void s4_stage_claims_release(struct s4_stage_claims *c);

struct s4_stage_ctx {
	struct s4_stage_claims *claims; /* filled when not NULL */
	const struct stage_result *sr;
	const char *file;           /* the block's file as shown ("<stdin>" for -) */
	const char *op_dir;         /* absolute operator directory (perf_opt's parent) */
	int have_plan;              /* perf_opt/loop.json was read */
	const char *plan_op;        /* its op, NULL without a plan */
	const struct s4_stage_target *targets; /* workloads with a target */
	size_t ntargets;
	double noise;               /* fraction; NAN: the log's, else 3% */
	long max_rounds;            /* -1: the log's, else 10 */
	long max_experiments;       /* -1: the log's, else 30 */
	int loop_finished;          /* the loop's final marker is in opt_log.md */
	long loop_final_round;      /* its round (iterations = round - 1) */
	const char *loop_stop;      /* its stop reason, NULL/"" when none */
	/* 1 when rel (relative, no "..") is a regular file under op_dir, 0 when
	 * missing, -1 when it is something else or leaves the tree */
	int (*op_file)(const char *rel, void *ctx);
	void *op_ctx;
};

/* Appends the findings of every S4-STAGE-RESULT-* rule. rc: the RECON rows
 * of the same input (s4_rule_recon). Returns 0, -1 on allocation failure. */
int s4_rule_stage_result(const struct s4_input *in, const struct s4_recon *rc,
			 const struct s4_stage_ctx *sc, struct gate_findings *fs);

/* Where a path written in a Stage Result lies under the operator directory
 * op_dir (absolute): writes the path relative to op_dir into rel. Returns
 * 0 when certain (absolute under op_dir, or relative with a prefix that is
 * the tail of op_dir, or starting at op_dir's content), 1 when assumed
 * (relative with a prefix naming another directory: read from its
 * perf_opt/ component on; why in note), -1 when it lies outside (absolute
 * elsewhere, "..", empty). */
int s4_stage_locate(const char *op_dir, const char *path, char *rel, size_t rellen,
		    char *note, size_t notelen);

#endif

/* loop_steps.h: what the step files of the loop driver share (loop.c the
 * context, loop_measure.c the measurements and records, loop_ab.c the tlab
 * runs, loop_baseline.c, loop_round.c, loop_status.c, loop_finish.c and
 * loop_report.c one command each). Internal to src/run/loop*.c; the
 * commands themselves are declared in run/loop.h.
 *
 * loop_out.c says what a step ends with (state, next action, a round's
 * decisions), the same in prose and JSON (schema tlperf/loop/v1).
 *
 * Dependencies run one way: loop.c <- loop_measure.c, loop_ab.c,
 * loop_out.c <- loop_report.c <- loop_baseline.c, loop_round.c,
 * loop_status.c, loop_finish.c. */
#ifndef TLPERF_LOOP_STEPS_H
#define TLPERF_LOOP_STEPS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "run/loop.h"
#include "run/tlab_result.h"
#include "stats/final.h"
#include "stats/winner.h"
#include "util/strbuf.h"

/* What every command loads: the plan, the state derived from the files,
 * and the loop lock when the command writes. */
struct loop_ctx {
	struct loop_plan plan;
	struct loop_state st;
	int lockfd;  /* -1 when not locked */
};

/* Loads the plan (and, with lock, checks the profiler and takes the loop
 * lock, waiting for another loop command) and the state. Returns a CLI
 * code with the message printed; c is to be released either way. */
int loop_ctx_load(struct loop_ctx *c, int lock);

/* Frees what c holds and drops the lock. */
void loop_ctx_release(struct loop_ctx *c);

/* Reloads the state from the files after appends (the state is derived,
 * never kept in step by hand). 0, or -1 with the message printed. */
int loop_reload(struct loop_ctx *c);

/* Appends b to opt_log.md in one locked write. 0, or -1 with the message
 * printed (also when b ran out of memory). */
int loop_log_append(const struct strbuf *b);

/* A record's artifact_path as a path from the operator directory (v1
 * records hold it so, v2 records relative to perf_opt/). Returns a rotating
 * static buffer (4 live at a time) or r's own string; NULL when none. */
const char *loop_record_file(const struct loop_ctx *c, const struct record *r);

/* The kernel file of candidate id: the plan's baseline, else its records'
 * artifact_path; NULL when it has none. */
const char *loop_candidate_file(const struct loop_ctx *c, const char *id);

/* 1 when every workload has a valid round-0 baseline record. */
int loop_baseline_complete(const struct loop_ctx *c);

/* The record of workload w of candidate best in round fr (the last one),
 * or NULL. */
const struct record *loop_final_record(const struct loop_ctx *c, long fr, const char *best,
				       const struct loop_workload *w);

/* The final figure of candidate best on workload w (stats/final.h, the
 * definition every command and the gate share): its runs are its valid
 * records of the key outside round 0, in file order (the rounds that
 * measured it, then the final confirmation runs), at the plan's noise. */
#define LOOP_FINAL_SHOWN 16
struct loop_final {
	struct stats_final f;       /* figure NAN when no run */
	const struct record *run[LOOP_FINAL_SHOWN]; /* the first runs (the last one
					 replaces the 16th when there are more) */
	size_t nshown;
};
/* Fills *lf; 0, -1 when best has no run on w (or memory ran out). */
int loop_final_of(const struct loop_ctx *c, const char *best, const struct loop_workload *w,
		  struct loop_final *lf);

/* While finishing, once every workload has its final confirmation: how
 * many workloads' confirmation disagrees with every earlier run of the
 * best beyond the noise (stats_final settled 0); the first one described
 * in what ("n1024: the final confirmation 8.369 us is 6.7% faster than
 * round 1's 8.967 us"), "" when none. 0 when not finishing. */
size_t loop_unsettled(const struct loop_ctx *c, char *what, size_t len);

/* The bench log of a round's branch id on workload w:
 * perf_opt/logs/round<N>/<id>.<workload>.bench.log, into buf. */
void loop_bench_log(long round, const char *id, const struct loop_workload *w, char *buf,
		    size_t len);

/* Runs one argv (no shell; argv NULL: the shell line `line`), output to
 * log (and stdout to out when not NULL), within timeout seconds (0: none).
 * Returns 0 ok, 1 failed (why in err), 2 could not start, 128+N
 * interrupted by signal N. */
int loop_run_one(const char *line, char *const *argv, const char *log, const char *out,
		 double timeout, char *err, size_t errlen);

/* Appends table t as Markdown (report/table.h) to b; t is released. */
struct table;
void loop_put_table(struct strbuf *b, struct table *t);

/* The plan's workload with this (dispatch, workload) key, or NULL. */
const struct loop_workload *loop_plan_key(const struct loop_plan *p, const char *dispatch,
					  const char *workload);

/* The winner rule (stats/winner.h) on round n with the plan's noise,
 * thresholds and required workloads, incumbent the current best before
 * the round, into *w (stats_winner_release). 0, or -1 with the message
 * printed. */
int loop_winner(const struct loop_ctx *c, long n, const char *incumbent, struct stats_winner *w);

/* L0 of impl, its output in log. Returns 0 pass, 1 fail (a note printed),
 * 2 could not start, 128+N. */
int loop_run_l0(const struct loop_ctx *c, const char *impl, const char *log);

/* Measures every workload of candidate id (file impl, parent parent, v2
 * phase) that has no record in `round` yet, appending one record each (l0:
 * run L0 first, when no record of the round says how it went). Returns a
 * CLI code; a failed measurement returns 1 (the message printed). */
int loop_measure_candidate(struct loop_ctx *c, long round, const char *id, const char *parent,
			   const char *impl, const char *phase, int l0);

/* One more final confirmation run of candidate id (file impl, v2 phase) on
 * w in the final round, its profile and log under perf_opt/profiles/final<k>
 * and perf_opt/logs/final<k> (k: the run's number in the round). Returns a
 * CLI code. */
int loop_measure_again(struct loop_ctx *c, long round, const char *id, const char *impl,
		       const char *phase, const struct loop_workload *w);

/* One A/B run of the loop: where its JSON is kept and what it says. */
struct loop_ab {
	struct tlab_result r;
	char json[1200];  /* perf_opt/ab_r<N>_<ID>/<workload>.json */
	char log[1200];   /* tlab's stderr beside it */
};

/* Runs tlab (this binary, `ab`, no shell) on workload w of round n: the
 * incumbent's bench line (a_impl) as A, candidate id's (b_impl) as B. Its
 * JSON is kept in perf_opt/ab_r<N>_<ID>/<workload>.json, its work directory
 * (runs.jsonl) beside it in perf_opt/ab_r<N>_<ID>/<workload>/; a verdict
 * already there is reused, a partial work directory resumed. Returns a CLI
 * code (1 when tlab gave no verdict, the message printed). */
int loop_ab_run(const struct loop_ctx *c, const struct loop_opts *o, long n, const char *id,
		const char *a_impl, const char *b_impl, const struct loop_workload *w,
		struct loop_ab *ab);

/* The Stage Result of a finished loop: printed as Markdown, or (into not
 * NULL) added to into as "stage_result" (typed: numbers as numbers, none as
 * null) and "stage_result_file". Either way a Markdown copy is kept in
 * perf_opt/logs/stage_result.md: written when absent, left alone when it
 * holds the same text or was edited since. 0, or -1 with the message
 * printed. */
int loop_stage_result_emit(const struct loop_ctx *c, cJSON *into);

/* ---- loop_out.c ---- */

/* The loop's state (docs/loop.md): no_baseline, continue, success,
 * budget_exhausted, plateau, blocked (from the last round's marker),
 * finishing (finish started, final measurement not complete), finished. */
const char *loop_state_name(const struct loop_ctx *c);

/* The next action, as data and as the prose 'next:' line. */
struct loop_next {
	const char *action;  /* "baseline", "round", "finish" or "done" */
	long round;          /* "round": the round to run; else 0 */
	int resume;          /* the same command again completes an interrupted one */
	char command[256];   /* the command to run */
	char text[1024];     /* the same in words */
};

/* Fills *nx from the state. */
void loop_next(const struct loop_ctx *c, struct loop_next *nx);

/* Prints "next: <text>" on stdout. */
void loop_print_next(const struct loop_ctx *c);

/* The current best before round n: the best after the last decided round
 * before it, "baseline" when none. Points into c. */
const char *loop_incumbent(const struct loop_ctx *c, long n);

/* A failed measurement of branch id in round n, from its record's
 * "failure" and "bench_log": 1 with why and log filled, 0 when none. */
int loop_branch_failure(long n, const char *id, char *why, size_t whylen, char *log,
			size_t loglen);

/* 1 when record i of c's records is in round n and the first of its
 * candidate there. */
int loop_first_in_round(const struct loop_ctx *c, size_t i, long n);

/* The object every `loop STEP --json` prints (schema tlperf/loop/v1):
 * step, outcome, op, contract, state, counters, current_best, next. The
 * caller adds the step's own members, then loop_json_print. NULL when out
 * of memory. */
cJSON *loop_json_begin(const struct loop_ctx *c, const char *step, const char *outcome);

/* Decided round n: decision, best, state, the winner rule's decision and
 * reason, and per branch its status (adopted, not_adopted, failed,
 * l0_failed), failure, per-workload change and its A/B verdicts. */
cJSON *loop_json_round(const struct loop_ctx *c, long n);

/* Rounds in a row without a gain above noise (tlperf plateau's
 * consecutive_no_improvement) over the rounds before the final one: the
 * final confirmation is no round. */
long loop_flat_rounds(const struct loop_ctx *c);

/* Prints j on stdout and frees it. 0, or -1 (out of memory, j NULL). */
int loop_json_print(cJSON *j);

#endif

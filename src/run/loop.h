/* loop.h: the Stage 4 tuning-loop driver behind `tlperf loop`.
 *
 * Everything the loop knows is derived from three files under perf_opt/:
 * loop.json (the plan), perf_records.jsonl (measurements, append-only) and
 * opt_log.md (the log, append-only). The log carries one invisible marker
 * line per step the driver completed:
 *
 *   <!-- tlperf-loop: kind=baseline -->
 *   <!-- tlperf-loop: kind=round round=2 decision=adopt best=c2 state=continue -->
 *   <!-- tlperf-loop: kind=finishing round=4 best=c2 -->
 *   <!-- tlperf-loop: kind=final round=4 best=c2 stop=plateau -->
 *
 * so a crash anywhere leaves a state from which re-running the same command
 * does only what is missing: measurements with no record yet, a decision
 * with no marker yet.
 *
 * All paths are relative to the operator directory (the one holding
 * perf_opt/); the command changes into it first.
 */
#ifndef TLPERF_LOOP_H
#define TLPERF_LOOP_H

#include <stddef.h>

#include "io/loopplan.h"
#include "model/records.h"

#define LOOP_DIR "perf_opt"
#define LOOP_PLAN LOOP_DIR "/loop.json"
#define LOOP_RECORDS LOOP_DIR "/perf_records.jsonl"
#define LOOP_LOG LOOP_DIR "/opt_log.md"
#define LOOP_MARKER "<!-- tlperf-loop: "

/* One decided round, from its marker. */
struct loop_round {
	long round;          /* >= 1 */
	char decision[32];   /* adopt, rollback, defer, tie, none, keep */
	char best[128];      /* current best after the round */
	char state[32];      /* continue, success, budget_exhausted, plateau, blocked */
};

struct loop_state {
	struct records rs;        /* every valid line of perf_records.jsonl */
	size_t bad_lines;         /* lines that are not valid records */
	int baseline_logged;      /* the baseline marker is in opt_log.md */
	struct loop_round *rounds;/* decided rounds in log order */
	size_t nrounds;
	long last_decided;        /* highest decided round, 0 when none */
	char best[128];           /* current best candidate ("baseline" at first) */
	int finishing;            /* finish started (marker written) */
	int finished;             /* Final Summary written */
	long final_round;         /* round of the final records, when finishing */
	char stop_reason[32];     /* from the final marker, or the last state */
	long experiments;         /* branches measured in rounds >= 1 (final excluded) */
};

void loop_state_init(struct loop_state *st);
void loop_state_release(struct loop_state *st);

/* Parses one opt_log.md line; when it is a driver marker, updates *st and
 * returns 1; returns 0 for any other line. Unknown kinds are ignored. */
int loop_state_marker(struct loop_state *st, const char *line);

/* Loads records_path (missing file = no records) and the markers of
 * log_path (missing file = none), then derives the counters. Returns 0, or
 * -1 with a message in err when a file exists but cannot be read. */
int loop_state_load(struct loop_state *st, const char *records_path, const char *log_path,
		    char *err, size_t errlen);

/* The record of candidate `id` for workload w that counts: its last valid
 * record in rounds <= max_round, else its last record of any validity;
 * NULL when none. */
const struct record *loop_state_find(const struct loop_state *st, const struct loop_plan *p,
				     const char *id, const struct loop_workload *w,
				     long max_round);

/* 1 when candidate id has any record in round `round` */
int loop_state_has_candidate(const struct loop_state *st, const char *id, long round);

/* Options of the driver commands (filled by cmd_loop.c). */
struct loop_branch {
	char *id;      /* candidate id */
	char *file;    /* kernel file */
	char *parent;  /* NULL: the current best */
};

struct loop_opts {
	const char *self;          /* absolute path of the tlperf binary (for tlab, gate) */
	int json;                  /* --json: one tlperf/loop/v1 object on stdout */
	int no_gate;               /* finish: skip the gate (tests of finish itself) */
	int remeasure;             /* finish: one more final confirmation run where it
				      disagrees with the round beyond noise */
	int report_both;           /* finish: write the Final Summary even so (the median,
				      both runs shown, the disagreement stated) */
	long round;                /* round N */
	struct loop_branch *branches;
	size_t nbranches;
};

/* The commands. Each returns a CLI exit code and prints its own messages.
 * The current directory must be the operator directory. */
int loop_cmd_baseline(const struct loop_opts *o);
int loop_cmd_round(const struct loop_opts *o);
int loop_cmd_status(const struct loop_opts *o);
/* What `loop init` wrote (called once the plan is written): the plan's
 * file and workloads and the next action, as prose or (o->json) the
 * tlperf/loop/v1 object. Returns a CLI code (stdout not yet checked). */
int loop_cmd_init_report(const struct loop_opts *o);
/* The state and the next action only (o->json: the tlperf/loop/v1 object). */
int loop_cmd_next(const struct loop_opts *o);
int loop_cmd_finish(const struct loop_opts *o);
/* Prints the Stage Result of a finished loop (o->json: as JSON) and keeps
 * a copy in perf_opt/logs/stage_result.md (never replaced once written). */
int loop_cmd_report(const struct loop_opts *o);

/* --json and the command failed (rc != 0) without printing its object:
 * prints {"schema": "tlperf/loop/v1", "step", "outcome": "error",
 * "exit_code", "error": the last error message} on stdout. Returns rc (or
 * CLI_USAGE when stdout cannot be written). */
int loop_json_error(const char *step, int rc);

#endif

/* s4.h: the gate 4 rules over one parsed perf_opt directory.
 *
 * src/gatecheck.c reads the files (opt_log.md, perf_records.jsonl,
 * workload_inventory.json, perf_feedback.md, the tuned kernel's sha256,
 * git for --base) into a struct s4_input; every rule below is a pure
 * function of it that appends findings with the rule's default severity
 * (cmd_gate applies --strict, .tlgate.json and suppressions afterwards).
 * Rules never print, exit or touch files. One file per rule family:
 * s4_optlog.c, s4_records.c, s4_recon.c, s4_coverage.c, s4_feedback.c,
 * s4_claims.c (speedup, stop reason), s4_layout.c.
 */
#ifndef TLPERF_S4_H
#define TLPERF_S4_H

#include <stddef.h>

#include "model/finding.h"
#include "model/optlog.h"
#include "model/records.h"
#include "model/inventory.h"


enum s4_file_state {
	S4_FILE_MISSING = 0,  /* not there */
	S4_FILE_OK = 1,       /* read */
	S4_FILE_EMPTY = 2,    /* only whitespace */
	S4_FILE_UNREADABLE = 3 /* exists but could not be read (or too large) */
};

/* --base: the records file as it was at REF compared with now. */
struct s4_append {
	int checked;          /* 1 when --base was given and the file existed at REF */
	int prefix;           /* 1 when the old bytes are a prefix of the new file */
	long first_changed;   /* 1-based line of the first changed or removed line */
	const char *ref;      /* the REF, for messages */
};

/* A record whose msprof_raw_path does not exist (found by src/). */
struct s4_missing_path {
	long line;
	const char *path;
};

/* A path the gate refused to open (found by src/run): it leads out of the
 * checked tree, or is a device, FIFO or oversized file. */
struct s4_refused {
	const char *file;     /* shown file the path was found in (or is) */
	long line;            /* its line, 0 for the file itself */
	const char *what;     /* "opt_log.md", "msprof_raw_path '../x'" */
	const char *why;      /* "leads outside the checked tree (not read)" */
};

struct s4_input {
	const char *dir;              /* the perf_opt directory as shown */
	const char *optlog_file;      /* shown paths of the files */
	const char *records_file;
	const char *inventory_file;
	const char *feedback_file;

	enum s4_file_state optlog_state;
	const struct optlog *log;     /* never NULL (empty when missing) */
	const char *optlog_error;     /* unreadable: why, when known, or NULL */

	enum s4_file_state records_state;
	enum records_contract contract; /* of the directory (inventory or records) */
	const struct records *recs;   /* valid records, never NULL */
	const struct records_problems *rprobs; /* invalid lines, never NULL */
	long records_dropped;         /* valid records beyond the memory cap */

	enum s4_file_state inventory_state;
	const struct inventory *inventory; /* parsed, NULL when missing or invalid */
	const char *inventory_error;  /* why it could not be parsed, or NULL */

	enum s4_file_state feedback_state;
	const char *feedback;         /* text of perf_feedback.md, NUL-terminated, or NULL */
	size_t feedback_len;
	/* 1 when a repo-relative path cited in perf_feedback.md exists */
	int (*path_exists)(const char *relpath, void *ctx);
	void *path_ctx;

	/* sha256 of the file a final record's artifact_path names; fills hex
	 * and returns 0, -1 when the file cannot be read (*why then says why:
	 * "does not exist", "leads outside the checked tree (not read)"...). */
	int (*artifact_sha256)(const char *artifact_path, char hex[65], const char **why, void *ctx);
	void *artifact_ctx;

	struct s4_append append;

	const char *const *top_files; /* names of regular files at the top of perf_opt/ */
	size_t n_top_files;
	const struct s4_missing_path *missing_paths; /* records naming missing profiles */
	size_t n_missing_paths;
	const struct s4_refused *refused; /* paths not read, each a TLGATE-PATH error */
	size_t n_refused;
	size_t n_refused_more;        /* refusals beyond the list, counted only */
};

/* Per workload reconciliation (for `tlperf audit`). */
struct s4_recon_row {
	char *dispatch;          /* dispatch_path or kernel_id; malloc'd */
	char *workload;          /* malloc'd */
	enum records_contract contract;
	double baseline_us;      /* round-0 / phase baseline record, NAN none */
	double claimed_us;       /* claimed final (final_latency or Final table), NAN none */
	long claim_line;         /* line of the claim in opt_log.md, 0 none */
	char *winner;            /* candidate_id of the winner record used, malloc'd or NULL */
	double winner_us;        /* its duration_us, NAN none */
	long winner_line;        /* its line in perf_records.jsonl, 0 none */
	double deviation;        /* |claimed - winner| / winner, NAN when either is missing */
	int ok;                  /* 1 when reconciled within 1% */
};

struct s4_recon {
	struct s4_recon_row *v;
	size_t n, cap;
	const char *stop_reason; /* static text: "plateau", ..., "" when none */
	double claimed_geomean;  /* NAN none */
	double records_geomean;  /* NAN when not computable */
};

void s4_recon_init(struct s4_recon *rc);
void s4_recon_release(struct s4_recon *rc);

/* Tolerance of every claimed-vs-recorded comparison. */
#define S4_TOLERANCE 0.01

/* Each appends findings to fs; returns 0, or -1 on allocation failure. */
int s4_rule_optlog(const struct s4_input *in, struct gate_findings *fs);     /* S4-OPTLOG */
int s4_rule_comptable(const struct s4_input *in, struct gate_findings *fs);  /* S4-OPTLOG-COMPTABLE */
int s4_rule_records(const struct s4_input *in, struct gate_findings *fs);    /* S4-PERF-RECORDS, -SCHEMA */
int s4_rule_order(const struct s4_input *in, struct gate_findings *fs);      /* S4-PERF-RECORDS-ORDER */
int s4_rule_append(const struct s4_input *in, struct gate_findings *fs);     /* S4-PERF-RECORDS-APPEND */
/* S4-PERF-RECORDS-RECON; rc (may be NULL) receives one row per workload. */
int s4_rule_recon(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc);
int s4_rule_coverage(const struct s4_input *in, struct gate_findings *fs);   /* -COVERAGE, S4-WORKLOAD-INVENTORY */
int s4_rule_feedback(const struct s4_input *in, struct gate_findings *fs);   /* S4-PERF-FEEDBACK-* */
/* S4-SPEEDUP; uses the reconciliation rows to know each workload's final. */
int s4_rule_speedup(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs);
int s4_rule_stop(const struct s4_input *in, struct gate_findings *fs);       /* S4-STOP-REASON */
int s4_rule_layout(const struct s4_input *in, struct gate_findings *fs);     /* S4-LAYOUT */

/* Runs all of the above in order. */
int s4_run_all(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc);

/* Shared helpers (s4_util.c). */
/* 1 when a record is a round-0 baseline (round 0, or candidate "baseline", or v2 phase baseline). */
int s4_is_baseline(const struct record *r);
/* Index of the first record of the records' last run: when the log holds
 * several appended runs, a round-0 baseline record after records of later
 * rounds starts the records of a new run; else 0. */
size_t s4_records_from(const struct s4_input *in);
/* Normalised workload name equality (optlog_norm_name). */
int s4_same_workload(const char *a, const char *b);
/* Relative deviation |a-b|/b. */
double s4_deviation(double claimed, double recorded);

#endif

/* s4.h: the gate 4 rules over one parsed perf_opt directory.
 *
 * src/run/gate_perf_opt.c reads the files (opt_log.md, perf_records.jsonl,
 * workload_inventory.json, perf_feedback.md, the tuned kernel's sha256,
 * git for --base) into a struct s4_input; every rule below is a pure
 * function of it that appends findings with the rule's default severity
 * (run/gate_config.h applies --strict, .tlgate.json and suppressions
 * afterwards).
 * Rules never print, exit or touch files. One file per rule family:
 * s4_optlog.c, s4_records.c, s4_recon.c, s4_coverage.c, s4_feedback.c,
 * s4_claims.c (geometric-mean speedup, stop reason), s4_ratio.c (speedups
 * and % changes), s4_layout.c.
 */
#ifndef TLPERF_S4_H
#define TLPERF_S4_H

#include <stddef.h>

#include "model/finding.h"
#include "model/optlog.h"
#include "model/records.h"
#include "model/inventory.h"
#include "model/abjournal.h"
#include "stats/final.h"


enum s4_file_state {
	S4_FILE_MISSING = 0,  /* not there */
	S4_FILE_OK = 1,       /* read */
	S4_FILE_EMPTY = 2,    /* only whitespace */
	S4_FILE_UNREADABLE = 3 /* exists but could not be read (or too large) */
};

/* --base: the records file as it was at REF compared with now. The base
 * is the same path at REF, else the file git's rename or copy detection
 * matches it with, else a records file of REF sharing one of its lines. */
struct s4_append {
	int checked;          /* 1 when --base was given and a base file was found */
	int prefix;           /* 1 when the old bytes are a prefix of the new file */
	long first_changed;   /* 1-based line of the first changed or removed line */
	const char *ref;      /* the REF, for messages */
	const char *base_path;/* repository path of the base file when it is not the
				 same path (moved, copied, or sharing lines), else NULL */
	const char *how;      /* how base_path was matched: "renamed from",
				 "copied from", "shares lines with"; NULL with it */
};

/* --base: the commit that introduced each line of the records file (git
 * blame), for S4-PERF-RECORDS-TIME. */
struct s4_commit {
	char sha[13];         /* abbreviated */
	long long time;       /* committer date, seconds since 1970 (UTC) */
};

struct s4_line_commits {
	const int *of_line;   /* [line] index into v, -1 when not committed yet;
				 lines 1..n_lines */
	long n_lines;
	const struct s4_commit *v;
	size_t n;
};

/* Allowance for clocks that disagree (the measuring machine, the one that
 * commits, the one running the gate): a stamp at most this far after its
 * limit is accepted. */
#define S4_CLOCK_SKEW 300

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
	const struct s4_line_commits *commits; /* --base: who added each line, or NULL */
	long long now;                /* seconds since 1970 when checked; 0: the
					 future-time check without git is skipped */

	const char *const *top_files; /* names of regular files at the top of perf_opt/ */
	size_t n_top_files;
	const struct s4_missing_path *missing_paths; /* records naming missing profiles */
	size_t n_missing_paths;
	const struct abjournals *ab;  /* A/B journals of perf_opt/ab_* (S4-AB); NULL none */
	double ab_threshold;          /* gains under it need an A/B verdict (S4-AB); <= 0: 5% */
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
	int from_log;            /* no records: winner_us is the log's own figure, at
				  * winner_line of opt_log.md (s4_recon_from_log) */
	int self;                /* from_log, and that figure is the claim's own line
				  * (the log states it once: nothing else to check) */
};

struct s4_recon {
	struct s4_recon_row *v;
	size_t n, cap;
	const char *stop_reason; /* static text: "plateau", ..., "" when none */
	double claimed_geomean;  /* NAN none */
	double records_geomean;  /* NAN when not computable */
	int best_known;          /* v1: the summary's best is a recorded candidate, the
				  * finals are its records only (S4-SPEEDUP too) */
	char evidence[160];      /* what the rows are checked against: "the records",
				  * or the log's own figures (struct s4_evidence's what);
				  * "" when there are no rows */
	size_t log_claims;       /* claims the log makes about the final result: final
				  * latencies, speedups and % changes, geometric means */
};

void s4_recon_init(struct s4_recon *rc);
void s4_recon_release(struct s4_recon *rc);
/* The row of (dispatch, workload) of rc, added (figures NAN) when absent;
 * NULL when out of memory (s4_recon.c). */
struct s4_recon_row *s4_recon_row_of(struct s4_recon *rc, const char *dispatch, const char *workload,
				     enum records_contract c);
/* Without records (none valid), the rows of rc from the log itself: one
 * per final-latency claim (the v2 Final table's rows, else the last
 * Final Summary's claim lines, else the table it takes as its claims),
 * each against the log's own figure for its workload (s4_evidence_log),
 * from_log set; rc->evidence names that evidence, rc->log_claims counts
 * the claims. Run after the rules (they read rc as the records' rows).
 * With records, or rows already there, only fills rc->evidence and
 * rc->log_claims. 0, -1 when out of memory (s4_evidence.c). */
int s4_recon_from_log(const struct s4_input *in, struct s4_recon *rc);

/* The figures a claim about the final result is checked against: per
 * workload a baseline and a final, from the records (the RECON rows'
 * baseline and winner) or from the log itself (its v2 Final table; else
 * its claim lines when every one states its baseline; else its last table
 * with a baseline and a final column). A claim is checked against each
 * evidence the folder holds; findings name the evidence in what. */
struct s4_fig {
	const char *label;       /* workload as written there (borrowed) */
	double base_us, final_us;/* both > 0 */
	long line;               /* line it is read from (opt_log.md or perf_records.jsonl) */
};
struct s4_evidence {
	struct s4_fig *v;        /* malloc'd */
	size_t n;
	char what[160];          /* "the records", "the log's own figures (its Final
				  * Performance Test Data table, lines 183-187)"; "" when n == 0 */
};
/* Fill ev (0, -1 on allocation failure); release with s4_evidence_release. */
int s4_evidence_records(const struct s4_recon *rc, struct s4_evidence *ev);
int s4_evidence_log(const struct optlog *lg, struct s4_evidence *ev);
void s4_evidence_release(struct s4_evidence *ev);

/* Tolerance of every claimed-vs-recorded comparison. */
#define S4_TOLERANCE 0.01

/* Each appends findings to fs; returns 0, or -1 on allocation failure. */
int s4_rule_optlog(const struct s4_input *in, struct gate_findings *fs);     /* S4-OPTLOG */
int s4_rule_comptable(const struct s4_input *in, struct gate_findings *fs);  /* S4-OPTLOG-COMPTABLE */
int s4_rule_unseen(const struct s4_input *in, struct gate_findings *fs);     /* S4-OPTLOG-UNSEEN */
int s4_rule_table_recon(const struct s4_input *in, struct gate_findings *fs); /* S4-COMPTABLE-RECON */
int s4_rule_records(const struct s4_input *in, struct gate_findings *fs);    /* S4-PERF-RECORDS, -SCHEMA */
int s4_rule_order(const struct s4_input *in, struct gate_findings *fs);      /* S4-PERF-RECORDS-ORDER */
int s4_rule_append(const struct s4_input *in, struct gate_findings *fs);     /* S4-PERF-RECORDS-APPEND */
int s4_rule_time(const struct s4_input *in, struct gate_findings *fs);       /* S4-PERF-RECORDS-TIME, -TIME-DUP */
/* S4-PERF-RECORDS-RECON; rc (may be NULL) receives one row per workload. */
int s4_rule_recon(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc);
int s4_rule_coverage(const struct s4_input *in, struct gate_findings *fs);   /* -COVERAGE, S4-WORKLOAD-INVENTORY */
/* S4-PERF-RECORDS-COVERAGE, v1: every key the winner was measured on has
 * a claim in the last Final Summary (an omitted regression beyond the
 * noise threshold against the baseline: error; else warning). */
int s4_rule_claim_coverage(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs);
int s4_rule_feedback(const struct s4_input *in, struct gate_findings *fs);   /* S4-PERF-FEEDBACK-* */
/* S4-SPEEDUP; uses the reconciliation rows to know each workload's final. */
int s4_rule_speedup(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs);
/* S4-SPEEDUP for speedups and % changes, per workload and overall. */
int s4_rule_ratios(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs);
int s4_rule_stop(const struct s4_input *in, struct gate_findings *fs);       /* S4-STOP-REASON */
/* S4-PERF-RECORDS-RECON without records: a final-latency claim that the
 * log's own figure for its workload (another line) contradicts, a warning
 * (s4_evidence.c). */
int s4_rule_log_finals(const struct s4_input *in, struct gate_findings *fs);
/* S4-FINAL-RESTATED: a superseded Final Summary's claims against the last one's. */
int s4_rule_restated(const struct s4_input *in, struct gate_findings *fs);
int s4_rule_layout(const struct s4_input *in, struct gate_findings *fs);     /* S4-LAYOUT */
/* S4-AB: the winner's gains under the A/B threshold carry a B_better
 * verdict; every A/B summary agrees with the runs of its journal. */
int s4_rule_ab(const struct s4_input *in, struct gate_findings *fs);

/* Runs all of the above in order. */
int s4_run_all(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc);

/* Shared helpers (s4_util.c). */
/* 1 when a record is a round-0 baseline (round 0, or candidate "baseline", or v2 phase baseline). */
int s4_is_baseline(const struct record *r);
/* Index of the first record of the records' last run: when the log holds
 * several appended runs, a round-0 baseline record after records of later
 * rounds starts the records of a new run; else 0. */
size_t s4_records_from(const struct s4_input *in);
/* Name equality in identity form (uname_same: NFKC, invisible code
 * points dropped, case and separators folded). */
int s4_same_workload(const char *a, const char *b);
/* A name of the log that looks like a recorded one (one confusables
 * skeleton, uname_confusable) without being it: an error at file:line,
 * "<what> 'name' is not the recorded 'recorded' but looks like it (U+0430
 * CYRILLIC SMALL LETTER A where the record has U+0061 LATIN SMALL LETTER
 * A)". Returns 1 when added, 0 when the names do not look alike, -1 on
 * allocation failure. */
int s4_lookalike(struct gate_findings *fs, const char *rule, const char *file, long line, const char *what,
		 const char *name, const char *recorded);
/* 1 when candidate_id cand is name, or name's file stem
 * (perf_opt/mish.py names mish) (s4_recon.c). */
int s4_names_candidate(const char *cand, const char *name);
/* The interned candidate_id (of a non-baseline record from index from
 * on) that the last Final Summary's best names, NULL none (s4_recon.c). */
const char *s4_best_candidate(const struct s4_input *in, size_t from);
/* The one candidate every reconciled claim of rc names as winner, NULL
 * when they name several (or none) (s4_recon.c). */
const char *s4_common_winner(const struct s4_recon *rc);
/* The log's stated noise threshold as a fraction, else
 * OPTLOG_NOISE_DEFAULT_PCT's (s4_util.c). */
double s4_noise(const struct optlog *lg);
/* 1 when text holds a number that is us as written to its decimals (at
 * least 2: 32.04 for 32.0412, 32 for 32.0), units aside (s4_util.c). */
int s4_text_has_figure(const char *text, double us);
/* Relative deviation |a-b|/b. */
double s4_deviation(double claimed, double recorded);
/* How round r (of the checked run) is a final confirmation round, which
 * re-measures the adopted kernel and needs no comparison table: 1 its own
 * section says so (`## Final Confirmation（round 5）`, `## Round 9（final
 * 全配置复采）`), 2 the last Final Summary cites the records of round r as
 * its source, 3 an unnumbered confirmation section (`### Final 全组合验证`),
 * assumed to be this round because r has no section and comes after every
 * round the log numbers (*line gets the heading); 0 none (s4_optlog.c). */
int s4_confirm_round(const struct optlog *lg, long r, long *line);
/* The same for many rounds: the log's confirmation sections found once
 * (s4_confirms_build: 0, -1 on allocation failure), then
 * s4_confirms_kind answers as s4_confirm_round does. */
struct s4_confirms {
	long *entry;            /* indexes into lg->rounds of numbered confirmation sections */
	size_t n, cap;
	long loose;             /* line of the first unnumbered one, 0 none */
	long maxr;              /* highest round of the other sections, -1 none */
};
int s4_confirms_build(const struct optlog *lg, struct s4_confirms *c);
int s4_confirms_kind(const struct optlog *lg, const struct s4_confirms *c, long r, long *line);
void s4_confirms_release(struct s4_confirms *c);

/* The valid, non-baseline records (from index from on) of one key that
 * measure the kernel final_id (an interned candidate_id of in->recs;
 * dispatch and workload interned too). Its own records (v2: with its
 * artifact_sha256 when both state one), and records under another id that
 * the log says measure it again, as the key's only candidate of the round:
 * v1, in a final confirmation round (s4_confirm_round 1 or 2); in a later
 * round whose section says it re-measures (复测, re-measure), derived from
 * F or one of F's parents. Ambiguous (amb): such a record in a round
 * holding several candidates of the key; one derived from one of F's
 * parents (not the round-0 baseline, which every candidate may share) in
 * a later round about which the log says nothing; one in an assumed
 * unnumbered confirmation. Never F's: another candidate of F's first round
 * (a sibling), a different artifact_sha256. An equal sha256 alone does not
 * make two ids one kernel (a kernel file edited in place keeps its name,
 * and records often carry the delivered file's hash). The confirmation
 * records are v1's confirmation rounds, v2's phase final (s4_repeats.c). */
struct s4_repeats {
	const struct record **v;    /* F's measurements, file order; malloc'd */
	size_t n;
	const struct record **amb;  /* maybe F's under another id; malloc'd */
	size_t namb;
	unsigned char *confirm;     /* [i]: v[i] is in a final confirmation round; malloc'd */
	size_t nconfirm;            /* of v, those in a final confirmation round */
	double median;              /* of v, NAN when n == 0 */
	double median_all;          /* of v and amb */
	double confirm_median;      /* of v's confirmation-round records, NAN none */
};
/* Fills *rp; 0, or -1 on allocation failure (rp released). */
int s4_repeats_of(const struct s4_input *in, size_t from, const char *final_id, const char *dispatch,
		  const char *workload, struct s4_repeats *rp);
void s4_repeats_release(struct s4_repeats *rp);
/* How claimed stands against the repeats as runs of stats/final.h (the
 * one median policy; with_ambiguous: amb counted as F's, never as
 * confirmation runs), at S4_TOLERANCE and the noise threshold noise;
 * *hit (may be NULL) the index into v (then amb) of the run it matches. */
enum stats_final_claim s4_repeats_judge(const struct s4_repeats *rp, double claimed, int with_ambiguous,
					double noise, size_t *hit);
/* 1 when claimed reconciles with the repeats: STATS_CLAIM_FIGURE or
 * STATS_CLAIM_CAUTIOUS of s4_repeats_judge. */
int s4_repeats_accepts(const struct s4_repeats *rp, double claimed, int with_ambiguous);

#endif

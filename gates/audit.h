/* audit.h: `tlperf audit`'s model and its reconciliation: every perf_opt/
 * directory (and first-generation perf_tuning/ folder) found under the
 * roots, its claims next to the records (the gate's struct s4_recon), its
 * Stage Result claims, and the totals. run/audit_check.c fills it (reading
 * the directories through the gate); report/audit_*.c render it. The
 * functions here are pure: no I/O.
 *
 * A workload reconciles when its claim is within 1% of the winner's
 * recorded measurement; an operator reconciles when all its workloads do
 * (and it has one) and its Stage Result has no error. Without records the
 * rows are the log's claims against its own figures (s4_recon_from_log):
 * an operator reconciles when they agree and the gate, which checks the
 * log's other claims against the same figures, finds no error. A perf_tuning/
 * folder has no claimed-vs-recorded pair: it reconciles when the gate
 * finds no error and its latest bench JSON has a speedup.
 */
#ifndef TLPERF_GATES_AUDIT_H
#define TLPERF_GATES_AUDIT_H

#include <stddef.h>

#include "gates/s4.h"
#include "gates/s4_stage.h"
#include "model/finding.h"
#include "model/ptune.h"
#include "model/records.h"

struct audit_op {
	char *perf_opt;               /* the perf_opt (or perf_tuning) directory as found */
	char *name;                   /* operator directory: perf_opt's parent as shown */
	enum records_contract contract;
	struct s4_recon recon;        /* per workload: claim, winner record, verdict */
	size_t errors, warnings;      /* gate findings after config and suppressions */
	double geomean;               /* of the rows' speedups, NAN when none */
	int reconciled;               /* every row ok (and there is one) */
	int failed_to_read;           /* the gate could not read it */
	int ptune;                    /* a perf_tuning/ folder (perf_opt holds its path) */
	struct ptune_speedups sp;     /* ptune only: per-case speedups */
	int has_sp;                   /* ptune only: sp was read */
	int has_sr;                   /* perf_opt/logs/stage_result.md was checked */
	char *sr_file;                /* its path, malloc'd */
	struct s4_stage_claims sr_claims; /* its claims next to the records, by line */
	struct gate_findings sr_fs;   /* its S4-STAGE-RESULT-* findings (after config) */
};

struct audit {
	struct audit_op *v;
	size_t n, cap;
	size_t reconciled, unreconcilable, without_claims;
	size_t log_only;              /* operators with rows but no records: checked
				       * against the log's own figures */
	double geomean;               /* over all rows with a speedup */
	size_t nspeedups;
};

/* Appends an operator for the directory path (ptune: a perf_tuning/
 * folder), its name being path without the final perf_opt (perf_tuning)
 * component and a leading "./". Returns 0, -1 when out of memory. */
int audit_add_op(struct audit *a, const char *path, int ptune);
/* Frees everything a owns; a is empty afterwards. */
void audit_release(struct audit *a);

/* baseline_us / winner_us of a row, NAN when either is missing. */
double audit_row_speedup(const struct s4_recon_row *r);
/* Signed deviation of the claim from the winner's record, in %, or NAN. */
double audit_row_deviation_pct(const struct s4_recon_row *r);

/* A perf_opt/ operator's verdict from its rows: reconciled when every row
 * is (and there is one), geomean over the rows' speedups. Returns 0, -1
 * when out of memory. */
int audit_settle_rows(struct audit_op *op);
/* The totals over every operator. Returns 0, -1 when out of memory. */
int audit_totals(struct audit *a);

/* The row is drawn red / counted unreconcilable. */
int audit_op_failing(const struct audit_op *op);
/* 1 when some operator has a Stage Result to show. */
int audit_any_stage_result(const struct audit *a);

/* Texts every format shares. */
const char *audit_contract_name(enum records_contract c);      /* "v1", "v2", "?" */
const char *audit_pt_status(const struct audit_op *op);        /* perf_tuning row status */
const char *audit_row_status(const struct s4_recon_row *r);    /* "reconciled", "MISMATCH"... */
/* What the row's claim was checked against, in buf: "records", "opt_log.md
 * line N" (the log's own figure, no records), "opt_log.md line N (the
 * claim itself)" when that figure is the claim's own line, "" none. */
const char *audit_row_evidence(char *buf, size_t n, const struct s4_recon_row *r);
/* Why a row does not reconcile, in buf ("" when it does): the claim and
 * the record with their lines and the deviation against the 1% bound, or
 * what is missing. Figures as written (decimal_format_shortest). */
const char *audit_row_reason(char *buf, size_t n, const struct s4_recon_row *r);
const char *audit_stop_text(const struct audit_op *op);        /* the stop reason or "" */
/* "pass", "pass (N warnings)", "fail (N errors[, warnings])", "unreadable". */
const char *audit_verdict(char *buf, size_t n, const struct audit_op *op);
/* The worst finding on a line of the Stage Result: "ok", or its severity,
 * rule and message in buf. */
const char *audit_claim_status(const struct audit_op *op, long line, char *buf, size_t n);

#endif

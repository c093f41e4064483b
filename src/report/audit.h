/* report/audit.h: `tlperf audit`'s report (gates/audit.h) in every format:
 * one renderer per format, listed once in report_audit_formats. Adding a
 * format is a new report/audit_<fmt>.c and one line in that list. */
#ifndef TLPERF_REPORT_AUDIT_H
#define TLPERF_REPORT_AUDIT_H

#include <stdio.h>

#include "gates/audit.h"
#include "model/table.h"

/* Writes the report of a to f; version names the tool in the output.
 * Returns 0, -1 when out of memory (write errors are left for ferror). */
typedef int (*report_audit_fn)(FILE *f, const struct audit *a, const char *version);

struct report_audit_format {
	const char *name;        /* --format NAME */
	report_audit_fn render;
};

/* Every format, ended by { NULL, NULL }: markdown (also "md"), csv, json,
 * html. */
extern const struct report_audit_format report_audit_formats[];

/* The format named name, or NULL. */
const struct report_audit_format *report_audit_format_named(const char *name);

int report_audit_markdown(FILE *f, const struct audit *a, const char *version);
int report_audit_csv(FILE *f, const struct audit *a, const char *version);
int report_audit_json(FILE *f, const struct audit *a, const char *version);
int report_audit_html(FILE *f, const struct audit *a, const char *version);

/* ---- the rows every format shares (report/audit_rows.c) ---- */

/* Columns of the main table, in order. */
enum report_audit_col {
	AUDIT_COL_OPERATOR, AUDIT_COL_CONTRACT, AUDIT_COL_WORKLOAD, AUDIT_COL_BASELINE,
	AUDIT_COL_CLAIMED, AUDIT_COL_WINNER, AUDIT_COL_WINNER_US, AUDIT_COL_DEVIATION,
	AUDIT_COL_SPEEDUP, AUDIT_COL_GEOMEAN, AUDIT_COL_STOP, AUDIT_COL_STATUS, AUDIT_COL_VERDICT,
	AUDIT_COL_EVIDENCE, /* what the claim was checked against: records, or the
			     * log's own figure at an opt_log.md line */
	AUDIT_NCOLS
};

/* How a format writes the numbers and the status of a row. */
struct report_audit_style {
	const char *us, *deviation, *speedup; /* printf formats; us NULL: each figure
					       * as written (decimal_format_shortest) */
	int yes;                              /* a reconciled row says "yes" */
};

/* One row as text cells (borrowed or in buf). */
struct report_audit_row {
	const char *cell[AUDIT_NCOLS];
	int fail;                  /* drawn as failing */
	const char *claim_line;    /* the claim's line in opt_log.md, "" none */
	const char *winner_line;   /* the winner record's line in perf_records.jsonl, "" none */
	const char *reason;        /* why the row does not reconcile (audit_row_reason), "" */
	char buf[6][64], wl[320], v[96], lines[2][24], why[512], ev[64];
};

/* Calls each for every row of the main table in style st: one per
 * perf_tuning/ folder, one per workload of a perf_opt/ directory (one
 * without claims when it has none). */
void report_audit_rows(const struct audit *a, const struct report_audit_style *st,
		       void (*each)(void *ctx, const struct audit_op *op,
				    const struct report_audit_row *r),
		       void *ctx);

/* Columns of the Stage Result table: operator, line, field, workload,
 * claimed, records, status. */
#define AUDIT_NCLAIM_COLS 7

/* Calls each for every Stage Result claim of every operator that has one
 * (ok: its status is "ok"), then after (when not NULL) once per such
 * operator. */
void report_audit_stage_rows(const struct audit *a,
			     void (*each)(void *ctx, const char *const *cell, int ok),
			     void (*after)(void *ctx, const struct audit_op *op), void *ctx);

/* "%.4g"-style number or "" for NAN, in buf; fmt NULL: v as written
 * (decimal_format_shortest). */
const char *report_audit_num(char *buf, size_t n, double v, const char *fmt);

#endif

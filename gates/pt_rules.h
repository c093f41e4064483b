/* pt_rules.h: gate rules for first-generation perf_tuning/ folders.
 *
 * src/run/gate_perf_tuning.c reads a folder into a struct pt_folder (every
 * file parsed, nothing else touched) and calls each rule; a rule looks at the parsed
 * folder and appends findings (rule ids PT-*, default severities from
 * gates/rules.c: errors for inconsistencies, warnings when the rule cannot
 * find what it needs). Rules never read files, print or exit.
 *
 * Conventions the rules share (documented in README, "tlgate on
 * perf_tuning/ folders"):
 *   - improvement = (candidate - baseline) / baseline * 100 of the quantity
 *     quoted, the convention both public folders follow: for a time,
 *     negative is faster; for a speedup, positive is better. A folder
 *     whose figures consistently use the opposite sign is read with it.
 *   - the noise threshold is 3% unless the folder states another
 *     ("noise_threshold_pct", "噪声阈值: 5%", "5% noise threshold").
 */
#ifndef TLPERF_PT_RULES_H
#define TLPERF_PT_RULES_H

#include <stddef.h>

#include "model/finding.h"
#include "model/ptjson.h"
#include "model/ptlog.h"

struct pt_jsonfile {
	char *name;          /* file name inside the folder */
	char *shown;         /* path used in findings */
	struct ptjson j;     /* parsed (j.root NULL when it did not parse) */
	int unreadable;      /* 1 when the file could not be read */
	int empty;           /* 1 when the file has no content */
};

struct pt_logfile {
	char *shown;         /* path used in findings */
	struct ptlog log;
};

struct pt_folder {
	char *shown;                 /* the folder as the user sees it */
	struct pt_jsonfile *json;    /* sorted by file name */
	size_t njson;
	struct pt_logfile *logs;     /* optimization_log.md, optimization_log_*.md */
	size_t nlogs;
	int has_perf;
	char *perf_shown;
	struct ptperf perf;          /* perf_log.md */
	int has_report;
	char *report_shown;
	struct ptlog_text report;    /* final_report.md / perf_report.md */
	double noise_pct;            /* noise threshold in percent */
};

/* Each rule appends its findings; returns 0, -1 on allocation failure. */
int pt_rule_json(const struct pt_folder *f, struct gate_findings *fs);      /* PT-JSON */
int pt_rule_plan(const struct pt_folder *f, struct gate_findings *fs);      /* PT-PLAN */
int pt_rule_sequence(const struct pt_folder *f, struct gate_findings *fs);  /* PT-SEQUENCE */
int pt_rule_precision(const struct pt_folder *f, struct gate_findings *fs); /* PT-PRECISION */
int pt_rule_result(const struct pt_folder *f, struct gate_findings *fs);    /* PT-RESULT */
int pt_rule_iteration(const struct pt_folder *f, struct gate_findings *fs); /* PT-ITERATION */
int pt_rule_stop(const struct pt_folder *f, struct gate_findings *fs);      /* PT-STOP */
int pt_rule_db(const struct pt_folder *f, struct gate_findings *fs);        /* PT-DB */
int pt_rule_report(const struct pt_folder *f, struct gate_findings *fs);    /* PT-REPORT */

/* ---- shared by the rules (gates/pt_common.c) ------------------------ */

/* What one baseline/candidate/improvement group says, pair by pair (a
 * field may hold several figures separated by " / ", e.g. a bench time
 * and an msprof time). */
#define PT_MAXPAIRS 4
#define PT_MAXALT 4
struct pt_eval {
	size_t npairs;
	double base[PT_MAXPAIRS], cand[PT_MAXPAIRS]; /* NAN when not stated (N/A); times in us */
	double base_raw[PT_MAXPAIRS], cand_raw[PT_MAXPAIRS]; /* as written, in their own unit */
	double stated[PT_MAXPAIRS];                  /* stated improvement %, NAN if none */
	double alt[PT_MAXPAIRS][PT_MAXALT];          /* the other signed % its improvement states
						      * ("-13.0% on large shapes, -4.4% overall") */
	size_t nalt[PT_MAXPAIRS];
	int kind[PT_MAXPAIRS];                       /* -1 lower is better (time), +1 higher (speedup), 0 unknown */
	double gain;       /* best improvement in the better direction, %, NAN if none computable */
	int attempt;       /* 1 when baseline and candidate figures exist */
};

void pt_eval_meas(const struct ptperf_meas *m, struct pt_eval *e);

/* Primary figure of a field value: the number after "avg=" when several
 * are given, else the first; returns 0 when the value is N/A or has no
 * number. *kind as in pt_eval. */
int pt_figure(const char *s, size_t len, double *v, int *kind);

/* The sign convention of the folder's perf_log: +1 when improvement =
 * (candidate - baseline) / baseline (the default), -1 when its figures
 * use the opposite sign throughout. */
int pt_convention(const struct pt_folder *f);

/* The signed percentages of v (len bytes) that are not thresholds
 * ("< 3% 噪声阈值", "3% noise threshold") into out; returns how many (at
 * most max). A comparison or improvement stating a subset's change and the
 * overall one gives both. */
size_t pt_signed_pcts(const char *v, size_t len, double *out, size_t max);

/* 1 when s[a..b) joins a figure to the next as before -> after: only an
 * arrow (→, ->, =>, ⇒) or a word saying so (to, 至, 降至, 提升至, 到),
 * blanks and emphasis marks. */
int pt_arrow_between(const char *s, size_t a, size_t b);

/* For a finding on a line stating several figures v[0..n), of which it
 * names v[pick]: " (nor its other figure -4.4%)" (pct: as signed
 * percentages), "" when there is no other; returns buf. */
const char *pt_other_figures(const double *v, size_t n, size_t pick, int pct, char *buf, size_t len);

/* 1 when a, b agree within rel (relative, e.g. 0.005). */
int pt_close(double a, double b, double rel);

/* Index of the JSON holding the folder's adopted results (what a report
 * and the audit reconcile): when most result files carry their own time
 * stamp ("timestamp": ...), the newest by it; else the one matching the
 * candidate figure (or the result its improvement reaches, `0.6737 →
 * 0.7168`) of the latest perf_log iteration that has one and was not
 * rolled back (*iter gets that iteration, else -1); else the last by name
 * order (baseline < iterN < roundR_dirX < roundR_final). A JSON holding,
 * as an aggregate, the result of a rolled-back iteration is never picked
 * by stamp or name. -1 when no JSON has rows. */
long pt_latest_json(const struct pt_folder *f, long *iter);

/* 1 when s (len bytes) starts with N/A, none, 无, '-' or '—'. */
int pt_is_na(const char *s, size_t len);

/* The cells of a Markdown table row into out (at most max, 95 bytes
 * each, blanks, emphasis and code marks trimmed); returns how many. */
size_t pt_table_cells(const char *line, char out[][96], size_t max);
/* The columns the table checks read of a row (the rest are not read). */
#define PT_TABLE_COLS 24

/* The rows of the table whose header is line hl (its rows up to end) of
 * a before / after / change table (| 指标 | before | after | 变化 |, |
 * Baseline | Final | 提升 |, | baseline speedup | final speedup | delta
 * |): each row's change must be (after - before) / before, for times
 * before / after - 1, or either unsigned, within 1 point; an error under
 * rule otherwise. A change against another reference (`Δ vs torch`) is
 * not read. 0, -1 on allocation failure. */
int pt_check_change_rows(const struct ptlog_text *r, size_t hl, size_t end, const char *shown, const char *rule,
			 struct gate_findings *fs);
/* The next table of t from line *from on (a row of cells over a
 * delimiter row `|---|:--:|`): its header line in *hl, the end of its
 * rows (exclusive) in *end, *from moved past it. 0 when there is none. */
int pt_next_table(const struct ptlog_text *t, size_t *from, size_t *hl, size_t *end);

/* pt_check_change_rows over every table of t. */
int pt_check_change_tables(const struct ptlog_text *t, const char *shown, const char *rule,
			   struct gate_findings *fs);

/* PT rule `rule` on the tables of a log (shown in findings): a row whose
 * first cell labels an aggregate (`bf16 mean`, `AVG`, `all-17 mean`,
 * `geomean`, `合计`) holds, in each column of figures, the mean (sum,
 * geometric mean) of the data rows above it, since the previous
 * aggregate row or of the whole table, to the digits printed (or 0.5%);
 * an error names both. Cells in another unit, percentages and columns
 * with fewer than two figures above are not compared. 0, -1 on
 * allocation failure. */
int pt_check_agg_rows(const struct ptlog_text *t, const char *shown, const char *rule,
		      struct gate_findings *fs);

/* 1 when a line of prose, a table row or a heading labels what it holds
 * rolled back (回滚, 已回滚，仅记录, rolled back, reverted): a record of
 * an attempt, not a claim about the result. */
int pt_rolled_back_text(const char *s);

/* Significant digits of the figure n of line (0.0373 has 3). */
int pt_sig_digits(const char *line, const struct prose_num *n);

/* Microseconds per unit of a figure (ms, us, ns, s), 0 when it is not a
 * time. */
double pt_us_per(enum prose_unit u);

/* 3 geometric mean, 1 mean, 2 sum, 0 none: the first cell c of a table
 * row labels an aggregate (`**bf16 mean**`, `AVG`, `all-17 mean`,
 * `geomean`, `合计`). */
int pt_agg_label(const char *c);

/* Rule `rule` on the totals (and, in the report, the means) of times that
 * the lines of t state (`sum kernel_ms (20 cases) | 8.03ms | 7.66ms`,
 * `总耗时 8.6 ms → 7.27 ms`, `sum kernel_ms=8.03ms across 20 cases`; not
 * `total speedup`, `平均加速比`): each figure is reconciled, to its
 * printed digits, with the sum (mean) of a time column (a key ending in
 * _us or _ms) of the JSON it summarises. That JSON is known when the
 * line cites it by name (in the report, also a line above it in its
 * section), or when another figure of the same state identifies it: on
 * the same line of prose (`mean_speedup=0.3733x (sum kernel_ms=...)`; two
 * in order for `a → b`), or in the same column of the same table (a `|
 * mean_speedup | 0.3733x | 0.3916x |` row), being an aggregate of exactly
 * that JSON (a number beside its rows, or the mean of its speedups).
 * An identified total that the JSON contradicts is an error naming the
 * line, the identifying line and the JSON's file:line when the line names
 * the column or states the JSON's case count, else a warning saying the
 * closest column was assumed. In the report a cited total that does not
 * reconcile is an error, one nothing identifies is compared with the
 * latest results lj and warns. In another log (lj unused) a line counts
 * as a total only when it names a time column or a case count, and one
 * nothing identifies warns when it is the sum of no time column of any
 * JSON. 0, -1 on allocation failure. */
int pt_check_totals(const struct pt_folder *f, const struct ptlog_text *t, const char *shown,
		    const char *rule, long lj, struct gate_findings *fs);

/* Adopted / rolled back as the adopted field says: 1 yes, 0 no, -1 unknown. */
int pt_adopted(const char *s);

#endif

/* report/table.h: tables (model/table.h) rendered, and the views that
 * turn the statistics' results into tables: one place for every table
 * tlperf prints or appends to opt_log.md. */
#ifndef TLPERF_REPORT_TABLE_H
#define TLPERF_REPORT_TABLE_H

#include <stdio.h>

#include "model/ptune.h"
#include "model/table.h"
#include "stats/cmptable.h"
#include "stats/plateau.h"
#include "stats/speedup.h"
#include "stats/winner.h"

/* GitHub-flavoured Markdown: "**caption**" and a blank line when there is
 * a caption, the header row, the alignment row, one line per row; every
 * cell escaped as an id cell (escape.h, MD_CELL_PLAIN), every line ending
 * in '\n'. Returns malloc'd text, NULL on allocation failure or when the
 * table is incomplete (t->oom). */
char *report_table_markdown(const struct table *t);

/* Writes report_table_markdown(t) to f, then releases t. Returns 0, -1
 * when out of memory (nothing written). */
int report_table_put_markdown(FILE *f, struct table *t);

/* CSV (RFC 4180): the column names, then one record per complete row, every
 * field through escape_csv_field (util/escape.h: control characters shown,
 * quoted when needed), records ended by CRLF, no caption. Writes t to f,
 * then releases t. Returns 0, -1 when out of memory (the output may then
 * be partial). */
int report_table_put_csv(FILE *f, struct table *t);

/* Plain text for a terminal: the column names, then one line per complete
 * row, cells separated by a blank and padded to widths[c] bytes (NULL: no
 * padding; as printf pads, never cut), left or right as the column
 * aligns, control characters shown (escape_text). Writes t to f, then
 * releases t. Returns 0, -1 when out of memory. */
int report_table_put_text(FILE *f, struct table *t, const int *widths);

/* The "candidate vs current best" table of one round (stats/cmptable.h
 * says what its rows are), captioned **候选 vs current best 对比表（round
 * N）**, columns candidate, dispatch, workload, Task Duration(us), vs best,
 * AICore util, memory, L0. Pasted under the round's heading of opt_log.md
 * it satisfies S4-OPTLOG-COMPTABLE. */
void report_cmptable_view(const struct stats_cmptable *c, struct table *t);

/* report_cmptable_view rendered as Markdown (malloc'd, NULL on failure). */
char *report_cmptable_markdown(const struct stats_cmptable *c);

/* `tlperf speedup`: per key (dispatch, workload, baseline_us, final_us,
 * final candidate, speedup, change) with a bold overall geomean row
 * (captioned "Multi-dispatch speedup (baseline → final)"), and per
 * dispatch path (workloads, geometric-mean speedup, latency change,
 * regressions). */
void report_speedup_keys_view(const struct stats_speedup *s, struct table *t);
void report_speedup_paths_view(const struct stats_speedup *s, struct table *t);

/* `tlperf winner`: one row per candidate of the round (candidate, "(chosen)"
 * after the winner, valid on all required keys, geomean gain, gains,
 * regressions, soft); and per required key of the chosen candidate (w->chosen
 * must be a candidate): dispatch, workload, current best and its us, the
 * candidate's us (the column named after it), change, check. */
void report_winner_candidates_view(const struct stats_winner *w, struct table *t);
void report_winner_keys_view(const struct stats_winner *w, struct table *t);

/* `tlperf plateau`: one row per round (round, records (valid), best gain,
 * on which key, current best -> round best, improved). */
void report_plateau_view(const struct stats_plateau *p, struct table *t);

/* `tlperf speedup PERF_TUNING_DIR`: one row per case (case, speedup, change,
 * "(regression)" after a speedup < 1), then the bold geomean row. */
void report_ptune_speedups_view(const struct ptune_speedups *p, struct table *t);

#endif

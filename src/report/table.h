/* report/table.h: tables (model/table.h) rendered, and the views that
 * turn the statistics' results into tables: one place for every table
 * tlperf prints or appends to opt_log.md. */
#ifndef TLPERF_REPORT_TABLE_H
#define TLPERF_REPORT_TABLE_H

#include "model/table.h"
#include "stats/cmptable.h"
#include "stats/speedup.h"

/* GitHub-flavoured Markdown: "**caption**" and a blank line when there is
 * a caption, the header row, the alignment row, one line per row; every
 * cell escaped as an id cell (escape.h, MD_CELL_PLAIN), every line ending
 * in '\n'. Returns malloc'd text, NULL on allocation failure or when the
 * table is incomplete (t->oom). */
char *report_table_markdown(const struct table *t);

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

#endif

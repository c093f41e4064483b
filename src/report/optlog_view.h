/* optlog_view.h: what the gate understood from an opt_log.md (`tlperf
 * read`), as text or as JSON ("schema": "tlperf/read/v1",
 * docs/schemas/read.v1.json): runs, rounds, tables, the last Final
 * Summary's claims, suppressions, what was passed over (hidden, code,
 * ambiguous) and the problems met, each with its source line. */
#ifndef TLPERF_REPORT_OPTLOG_VIEW_H
#define TLPERF_REPORT_OPTLOG_VIEW_H
#include <stdio.h>
#include <cjson/cJSON.h>

#include "model/optlog.h"

/* The model as a JSON object (the caller frees it); NULL when memory ran
 * out. file is the path as shown. */
cJSON *report_optlog_json(const char *file, const struct optlog *lg);

/* The same as text, one fact a line: `LINE  kind  ...`. Returns 0, -1 on a
 * write error. */
int report_optlog_text(FILE *f, const char *file, const struct optlog *lg);

#endif

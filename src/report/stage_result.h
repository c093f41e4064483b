/* report/stage_result.h: the Stage Result block (model/stage_result.h)
 * printed for the conductor: Markdown (`## Stage Result` and one
 * `- key: value` line per entry, per-workload entries as
 * `- WORKLOAD: key: value`, in the model's order) or one JSON object with
 * the same keys in the same order (per-workload fields become an object
 * WORKLOAD -> value; values are the same text as in the block, except
 * stage and iterations, which are numbers).
 */
#ifndef TLPERF_REPORT_STAGE_RESULT_H
#define TLPERF_REPORT_STAGE_RESULT_H

#include "model/stage_result.h"

/* Returns malloc'd Markdown text (ends with a newline); NULL on
 * allocation failure. */
char *report_stage_result_markdown(const struct stage_result *sr);

/* Returns malloc'd pretty JSON text (ends with a newline); NULL on
 * allocation failure. */
char *report_stage_result_json(const struct stage_result *sr);

#endif

/* gate_stage_result.h: `tlgate --stage-result FILE DIR`: a Stage Result
 * block (model/stage_result.h) reconciled against one perf_opt/ directory.
 *
 * Reads what the S4-STAGE-RESULT-* rules (gates/s4_stage.h) need besides
 * the gate's own input: perf_opt/loop.json (targets, budgets, noise, op),
 * the loop's markers in opt_log.md (rounds run, stop reason) and whether a
 * path named by the block is a file under the operator directory (the
 * perf_opt directory's parent; nothing outside it is ever opened).
 */
#ifndef TLPERF_RUN_GATE_STAGE_RESULT_H
#define TLPERF_RUN_GATE_STAGE_RESULT_H

#include "model/finding.h"
#include "model/stage_result.h"
#include "gates/s4_stage.h"
#include "run/gate_perf_opt.h"

/* Checks sr (shown as block_file in findings) against the perf_opt
 * directory at path (shown as shown). Only the S4-STAGE-RESULT-* findings
 * are appended to fs; res (may be NULL) receives the gate's summary (the
 * reconciliation rows); claims (may be NULL) each claim of the block next
 * to what the records say. Returns 0, or -1 when the directory cannot be read
 * or memory ran out (errno set). */
int gate_stage_result_check(const char *path, const char *shown, const struct stage_result *sr,
			    const char *block_file, struct gate_findings *fs,
			    struct gatecheck_result *res, struct s4_stage_claims *claims);

#endif

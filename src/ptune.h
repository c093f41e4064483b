/* ptune.h: gate checks for first-generation perf_tuning/ folders
 * (optimization_log.md, perf_log.md, bench JSON, reports).
 * Owned by the perf_tuning issue; called by cmd_gate for every perf_tuning/
 * directory it finds. */
#ifndef TLPERF_PTUNE_H
#define TLPERF_PTUNE_H

#include "finding.h"

/* Checks the perf_tuning directory at path. Findings name files as
 * "<shown>/<file>" (shown is the path as the user should see it) and carry
 * each rule's default severity (PT-* rule ids); cmd_gate applies
 * configuration and suppressions afterwards. Returns 0, or -1 when the
 * directory itself cannot be read (errno set). */
int ptune_check_dir(const char *path, const char *shown, struct gate_findings *fs);

#endif

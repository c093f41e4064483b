/* audit_check.h: `tlperf audit`'s checking: the perf_opt/ and perf_tuning/
 * directories under the roots (as tlgate finds them), each through the
 * gate with its tree's .tlgate.json and inline suppressions, its Stage
 * Result against its records; the results fill gates/audit.h. Problems
 * with one directory are reported on stderr and marked in the model; the
 * audit goes on. */
#ifndef TLPERF_RUN_AUDIT_CHECK_H
#define TLPERF_RUN_AUDIT_CHECK_H

#include "gates/audit.h"
#include "run/gate_tree.h"

/* Adds the nroots roots to set, finds their directories and appends one
 * operator per directory to a (a->v[i] is set->dirs[i]); what the walk
 * could not check is reported (set->tree_findings). Returns 0, -1 (reported)
 * on error. */
int audit_check_discover(struct gate_set *set, char *const *roots, int nroots, int empty_is_error,
			 struct audit *a);

/* Checks every operator of a (found by audit_check_discover over set),
 * strict: --strict severities, then the totals. Shows progress on stderr.
 * Returns 0, -1 (reported) when memory ran out. */
int audit_check_all(const struct gate_set *set, struct audit *a, int strict);

#endif

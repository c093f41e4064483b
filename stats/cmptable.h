/* cmptable.h: the "candidate vs current best" comparison table of one
 * round (seeds, Phase 2 step 3 and 12: Task Duration(us), AICore
 * utilisation, memory metric and L0 result per candidate, the current best
 * first; gate 4 rule S4-OPTLOG-COMPTABLE checks that every candidate round
 * of opt_log.md has one).
 *
 * Rows, for round N (>= 1), key by key in order of first appearance in the
 * round:
 *   1. the incumbent of the key, marked "(current best)": the valid record
 *      with the smallest duration in rounds < N (with incumbent_id: that
 *      candidate's most recent valid record before N). Absent when the key
 *      has none (a workload first measured in round N).
 *   2. every record of round N for the key, in file order (v2 "baseline"
 *      phase records excluded), valid or not: an L0 failure is shown, with
 *      "—" as its "vs best" because it never counts.
 * vs best = (duration - incumbent) / incumbent; negative is faster.
 *
 * The table is rendered in one place: report/table.h
 * (report_cmptable_view, report_cmptable_markdown).
 */
#ifndef TLPERF_CMPTABLE_H
#define TLPERF_CMPTABLE_H

#include <stddef.h>

#include "stats/reckeys.h"
#include "model/records.h"

struct stats_cmprow {
	size_t key;                 /* index into ks.v */
	const struct record *rec;   /* the measurement shown (borrowed) */
	int current_best;           /* 1 for the incumbent row */
	double vs_best;             /* (d - inc) / inc; NAN for the incumbent row, an
				     * invalid record, or a key without incumbent */
};

struct stats_cmptable {
	long round;                 /* N */
	struct stats_keyset ks;     /* owned */
	struct stats_cmprow *rows;  /* owned */
	size_t nrows;
	size_t nround;              /* records of round N shown */
	size_t nmissing_best;       /* keys of round N without a current best */
};

/* Builds the table of round `round` of rs. incumbent_id may be NULL.
 * Returns 0; -1 with errno EINVAL when round < 1 or incumbent_id has no
 * valid record before round N, ENOENT when round N has
 * no record (other than v2 baseline-phase ones), ENOMEM on allocation
 * failure. *t owns its arrays (stats_cmptable_release) and borrows from
 * rs: keep rs alive. On failure *t is empty. */
int stats_cmptable_build(const struct records *rs, long round, const char *incumbent_id,
			 struct stats_cmptable *t);
void stats_cmptable_release(struct stats_cmptable *t);

#endif

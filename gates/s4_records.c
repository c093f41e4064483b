/* s4_records.c: S4-PERF-RECORDS, -SCHEMA, -ORDER and -APPEND (s4.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int s4_rule_records(const struct s4_input *in, struct gate_findings *fs)
{
	const char *f = in->records_file;
	switch (in->records_state) {
	case S4_FILE_MISSING:
		/* v2: the coverage rule reports what is missing */
		if (in->contract == RECORDS_V2)
			return 0;
		return gate_add(fs, "S4-PERF-RECORDS", GATE_WARNING, f, 0,
				"perf_records.jsonl is missing: the final result cannot be reconciled");
	case S4_FILE_EMPTY:
		return gate_add(fs, "S4-PERF-RECORDS", GATE_ERROR, f, 0, "perf_records.jsonl is empty");
	case S4_FILE_UNREADABLE:
		return gate_add(fs, "S4-PERF-RECORDS", GATE_ERROR, f, 0, "perf_records.jsonl cannot be read");
	case S4_FILE_OK:
		break;
	}
	const struct records_problems *ps = in->rprobs;
	for (size_t i = 0; i < ps->n; i++)
		if (gate_add(fs, "S4-PERF-RECORDS-SCHEMA", GATE_ERROR, f, ps->v[i].line, "%s",
			     ps->v[i].message))
			return -1;
	for (size_t i = 0; i < in->recs->n; i++) {
		const struct record *r = &in->recs->v[i];
		if (in->contract != RECORDS_UNKNOWN && r->contract != in->contract &&
		    gate_add(fs, "S4-PERF-RECORDS-SCHEMA", GATE_ERROR, f, r->line,
			     "a v%d record in a v%d directory (fields of the other contract)",
			     (int)r->contract, (int)in->contract))
			return -1;
	}
	if (in->records_dropped > 0 &&
	    gate_add(fs, "S4-PERF-RECORDS", GATE_ERROR, f, 0,
		     "more records than the gate keeps in memory: %ld records were not checked",
		     in->records_dropped))
		return -1;
	return 0;
}

/* 1 when the log's section of round r says it re-measures. */
static int log_remeasures(const struct optlog *lg, long r)
{
	for (size_t i = 0; i < lg->n_rounds; i++)
		if (lg->rounds[i].round == r && lg->rounds[i].remeasure)
			return 1;
	return 0;
}

int s4_rule_order(const struct s4_input *in, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	const char *f = in->records_file;
	/* ids are interned in rs: maps keyed by address (s4_idmap) */
	struct s4_idmap keys, cands, seen;
	int rc = 0;
	s4_idmap_init(&keys);
	s4_idmap_init(&cands);
	s4_idmap_init(&seen);
	if (s4_idmap_reserve(&seen, rs->n) != 0) /* cands grows with the candidates, not the records */
		rc = -1;
	for (size_t i = 0; i < rs->n && rc == 0; i++) {
		const struct record *r = &rs->v[i];
		int created;
		long *last = s4_idmap_put(&keys, r->dispatch, r->workload, NULL, 0, r->round, &created);
		if (!last) {
			rc = -1;
		} else if (created) {
			if (r->round != 0 || r->parent_id)
				rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, f, r->line,
					      "the first record of '%s' / '%s' must be the round-0 baseline with parent_id null (got round %ld, parent_id %s%s%s)",
					      r->dispatch, r->workload, r->round, r->parent_id ? "'" : "",
					      r->parent_id ? r->parent_id : "null", r->parent_id ? "'" : "");
		} else if (r->round < *last && r->round == 0 && s4_is_baseline(r) && !r->parent_id &&
			   (in->log->baseline_remeasure_line || in->log->runs > 1)) {
			/* the baseline measured again (after a restart, or by the
			 * next appended run), as the log says */
			long why = in->log->baseline_remeasure_line;
			if (why)
				rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_NOTE, f, r->line,
					      "round-0 baseline of '%s' / '%s' recorded again after round %ld: read as the re-measured baseline %s line %ld explains",
					      r->dispatch, r->workload, *last, in->optlog_file, why);
			else
				rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_NOTE, f, r->line,
					      "round-0 baseline of '%s' / '%s' recorded again after round %ld: read as the baseline of the next of the %ld tuning runs in %s",
					      r->dispatch, r->workload, *last, in->log->runs, in->optlog_file);
			*last = 0;
		} else if (r->round < *last) {
			rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, f, r->line,
				      "round goes back from %ld to %ld for '%s' / '%s'", *last, r->round,
				      r->dispatch, r->workload);
		} else {
			*last = r->round;
		}
		if (rc == 0 && r->parent_id && !s4_idmap_get(&cands, r->parent_id, NULL, NULL, 0))
			rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, f, r->line,
				      "parent_id '%s' names no candidate recorded earlier", r->parent_id);
		if (rc == 0) {
			long *d = s4_idmap_put(&seen, r->dispatch, r->workload, r->candidate_id, r->round,
					       r->line, &created);
			if (!d)
				rc = -1;
			else if (!created && !log_remeasures(in->log, r->round) &&
				 !(r->round == 0 && s4_is_baseline(r) && in->log->baseline_remeasure_line))
				rc = gate_add(fs, "S4-PERF-RECORDS-ORDER", GATE_WARNING, f, r->line,
					      "round %ld, candidate '%s', '%s' / '%s' was already recorded at line %ld, and the log does not call round %ld a re-measurement",
					      r->round, r->candidate_id, r->dispatch, r->workload, *d, r->round);
		}
		if (rc == 0 && !s4_idmap_put(&cands, r->candidate_id, NULL, NULL, 0, r->round, NULL))
			rc = -1;
	}
	s4_idmap_release(&keys);
	s4_idmap_release(&cands);
	s4_idmap_release(&seen);
	return rc;
}

int s4_rule_append(const struct s4_input *in, struct gate_findings *fs)
{
	const struct s4_append *a = &in->append;
	if (!a->checked || a->prefix)
		return 0;
	return gate_add(fs, "S4-PERF-RECORDS-APPEND", GATE_ERROR, in->records_file, a->first_changed,
			"perf_records.jsonl is append-only, but line %ld was changed or removed since %s",
			a->first_changed, a->ref ? a->ref : "the base revision");
}

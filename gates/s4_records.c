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
	case S4_FILE_MISSING: {
		/* v2 with its inventory: the coverage rule reports what is missing */
		if (in->contract == RECORDS_V2 && in->inventory_state == S4_FILE_OK)
			return 0;
		/* a log that declares v2 (its Final table, a cited inventory) says
		 * the records exist; a v1 log that only mentions them keeps the old
		 * gates' verdict (a pass with this warning, naming the mention) */
		const struct optlog *lg = in->optlog_state == S4_FILE_OK ? in->log : NULL;
		long v2at = lg ? (lg->final_table_line ? lg->final_table_line : lg->cite_inventory_line) : 0;
		if (in->contract == RECORDS_V2)
			return gate_add(fs, "S4-PERF-RECORDS", GATE_ERROR, v2at ? in->optlog_file : f, v2at,
					"perf_records.jsonl is missing, but %s (contract v2): the final result cannot be reconciled with them",
					!v2at ? "the directory holds v2 files"
					: lg->final_table_line ? "the log writes the v2 Final table here"
							       : "the log cites workload_inventory.json here");
		if (lg && lg->cite_records_line)
			return gate_add(fs, "S4-PERF-RECORDS", GATE_WARNING, in->optlog_file, lg->cite_records_line,
					"perf_records.jsonl is missing although the log cites it here: the final result is reconciled with the log's own figures only");
		return gate_add(fs, "S4-PERF-RECORDS", GATE_WARNING, f, 0,
				"perf_records.jsonl is missing: the final result is reconciled with the log's own figures only");
	}
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

/* S4-PERF-RECORDS-ORDER while walking the records; ids are interned in
 * the records: maps keyed by address (s4_idmap). */
struct order_walk {
	const struct s4_input *in;
	const char *f;           /* the records file, for findings */
	struct s4_idmap keys;    /* dispatch/workload -> last round */
	struct s4_idmap cands;   /* candidate ids recorded so far */
	struct s4_idmap seen;    /* dispatch/workload/candidate/round -> first line */
	const char *last_cand;   /* the candidate last put in cands (runs of one candidate) */
	const char *known_parent; /* a parent_id last found in cands (it stays there) */
	long first_bad;          /* the first invalid line (S4-PERF-RECORDS-SCHEMA), 0: none */
	struct gate_findings *fs;
};

/* 1 when an invalid line comes before r: the baseline or parent r seems
 * to lack may be that line, whose corruption is already the error. */
static int after_bad_line(const struct order_walk *w, const struct record *r)
{
	return w->first_bad && w->first_bad < r->line;
}

/* A round-0 baseline recorded again after a later round, as the log
 * allows (a re-measured baseline or the next of several runs): a note;
 * the key starts over. */
static int note_rebaseline(struct order_walk *w, const struct record *r, long *last)
{
	const struct s4_input *in = w->in;
	long why = in->log->baseline_remeasure_line;
	int rc;
	if (why)
		rc = gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_NOTE, w->f, r->line,
			      "round-0 baseline of '%s' / '%s' recorded again after round %ld: read as the re-measured baseline %s line %ld explains",
			      r->dispatch, r->workload, *last, in->optlog_file, why);
	else
		rc = gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_NOTE, w->f, r->line,
			      "round-0 baseline of '%s' / '%s' recorded again after round %ld: read as the baseline of the next of the %ld tuning runs in %s",
			      r->dispatch, r->workload, *last, in->log->runs, in->optlog_file);
	*last = 0;
	return rc;
}

/* The rounds of r's dispatch/workload: a round-0 baseline first, then
 * never going back (unless the log re-measures the baseline). */
static int check_round(struct order_walk *w, const struct record *r)
{
	const struct s4_input *in = w->in;
	int created;
	long *last = s4_idmap_put(&w->keys, r->dispatch, r->workload, NULL, 0, r->round, &created);
	if (!last)
		return -1;
	if (created) {
		if ((r->round != 0 || r->parent_id) && !after_bad_line(w, r))
			return gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, w->f, r->line,
					"the first record of '%s' / '%s' must be the round-0 baseline with parent_id null (got round %ld, parent_id %s%s%s)",
					r->dispatch, r->workload, r->round, r->parent_id ? "'" : "",
					r->parent_id ? r->parent_id : "null", r->parent_id ? "'" : "");
		return 0;
	}
	if (r->round < *last && r->round == 0 && s4_is_baseline(r) && !r->parent_id &&
	    (in->log->baseline_remeasure_line || in->log->runs > 1))
		return note_rebaseline(w, r, last);
	if (r->round < *last)
		return gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, w->f, r->line,
				"round goes back from %ld to %ld for '%s' / '%s'", *last, r->round,
				r->dispatch, r->workload);
	*last = r->round;
	return 0;
}

/* A record measured twice for one round and candidate, where the log does
 * not call that round a re-measurement: a warning. */
static int check_repeat(struct order_walk *w, const struct record *r)
{
	const struct s4_input *in = w->in;
	int created;
	long *d = s4_idmap_put(&w->seen, r->dispatch, r->workload, r->candidate_id, r->round, r->line,
			       &created);
	if (!d)
		return -1;
	if (created || log_remeasures(in->log, r->round) ||
	    (r->round == 0 && s4_is_baseline(r) && in->log->baseline_remeasure_line))
		return 0;
	return gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_WARNING, w->f, r->line,
			"round %ld, candidate '%s', '%s' / '%s' was already recorded at line %ld, and the log does not call round %ld a re-measurement",
			r->round, r->candidate_id, r->dispatch, r->workload, *d, r->round);
}

/* Every check of one record, in order; then its candidate is known. */
static int check_record_order(struct order_walk *w, const struct record *r)
{
	if (check_round(w, r))
		return -1;
	if (r->parent_id && r->parent_id != w->known_parent) {
		if (s4_idmap_get(&w->cands, r->parent_id, NULL, NULL, 0))
			w->known_parent = r->parent_id;
		else if (!after_bad_line(w, r) && gate_add(w->fs, "S4-PERF-RECORDS-ORDER", GATE_ERROR, w->f, r->line,
				  "parent_id '%s' names no candidate recorded earlier", r->parent_id))
			return -1;
	}
	if (check_repeat(w, r))
		return -1;
	if (r->candidate_id != w->last_cand) { /* else it is in cands already */
		if (!s4_idmap_put(&w->cands, r->candidate_id, NULL, NULL, 0, r->round, NULL))
			return -1;
		w->last_cand = r->candidate_id;
	}
	return 0;
}

int s4_rule_order(const struct s4_input *in, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	struct order_walk w = { .in = in, .f = in->records_file, .fs = fs };
	int rc = 0;
	s4_idmap_init(&w.keys);
	s4_idmap_init(&w.cands);
	s4_idmap_init(&w.seen);
	for (size_t i = 0; i < in->rprobs->n; i++)
		if (!w.first_bad || in->rprobs->v[i].line < w.first_bad)
			w.first_bad = in->rprobs->v[i].line;
	if (s4_idmap_reserve(&w.seen, rs->n) != 0) /* cands grows with the candidates, not the records */
		rc = -1;
	for (size_t i = 0; i < rs->n && rc == 0; i++)
		rc = check_record_order(&w, &rs->v[i]);
	s4_idmap_release(&w.keys);
	s4_idmap_release(&w.cands);
	s4_idmap_release(&w.seen);
	return rc;
}

int s4_rule_append(const struct s4_input *in, struct gate_findings *fs)
{
	const struct s4_append *a = &in->append;
	const char *ref = a->ref ? a->ref : "the base revision";
	if (!a->checked || a->prefix)
		return 0;
	if (a->base_path)
		return gate_add(fs, "S4-PERF-RECORDS-APPEND", GATE_ERROR, in->records_file, a->first_changed,
				"perf_records.jsonl is append-only, but this file, %s %s at %s, changes or drops its line %ld: a records file keeps every line of the one it continues",
				a->how, a->base_path, ref, a->first_changed);
	return gate_add(fs, "S4-PERF-RECORDS-APPEND", GATE_ERROR, in->records_file, a->first_changed,
			"perf_records.jsonl is append-only, but line %ld was changed or removed since %s",
			a->first_changed, ref);
}

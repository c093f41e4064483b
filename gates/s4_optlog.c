/* s4_optlog.c: S4-OPTLOG, S4-OPTLOG-UNSEEN and S4-OPTLOG-COMPTABLE (s4.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int s4_rule_optlog(const struct s4_input *in, struct gate_findings *fs)
{
	const char *f = in->optlog_file;
	const struct optlog *lg = in->log;
	switch (in->optlog_state) {
	case S4_FILE_MISSING:
		return gate_add(fs, "S4-OPTLOG", GATE_ERROR, f, 0, "opt_log.md is missing");
	case S4_FILE_EMPTY:
		return gate_add(fs, "S4-OPTLOG", GATE_ERROR, f, 0, "opt_log.md is empty");
	case S4_FILE_UNREADABLE:
		return gate_add(fs, "S4-OPTLOG", GATE_ERROR, f, 0, "opt_log.md cannot be read%s%s",
				in->optlog_error ? ": " : "", in->optlog_error ? in->optlog_error : "");
	case S4_FILE_OK:
		break;
	}
	for (size_t i = 0; i < lg->n_problems; i++) {
		const char *m = lg->problems[i].message;
		enum gate_severity sev = (strncmp(m, "CRLF", 4) == 0 || strstr(m, "byte order mark"))
						 ? GATE_WARNING : GATE_ERROR;
		if (gate_add(fs, "S4-OPTLOG", sev, f, lg->problems[i].line, "%s", m))
			return -1;
	}
	if (lg->retrospective_line == 0 &&
	    gate_add(fs, "S4-OPTLOG", GATE_WARNING, f, 0, "no 'Skill Retrospective' heading"))
		return -1;
	return 0;
}

int s4_rule_unseen(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK)
		return 0;
	for (size_t i = 0; i < lg->n_notes; i++) {
		const struct optlog_note *n = &lg->notes[i];
		if (n->kind == OPTLOG_NOTE_PROSE)
			continue; /* reconciled by s4_rule_ratios */
		int rc = n->kind == OPTLOG_NOTE_AMBIGUOUS
			? gate_add(fs, "S4-CLAIM-READ", GATE_WARNING, in->optlog_file, n->line,
				   "the claim line shows more time figures than the gate can attribute to its key; read %g %s: '%s'",
				   n->value, n->unit ? n->unit : "us", n->quote)
			: n->kind == OPTLOG_NOTE_CODE
			? gate_add(fs, "S4-OPTLOG-UNSEEN", GATE_WARNING, in->optlog_file, n->line,
				   "a Final Summary figure shown as code is not read as a claim: '%s'", n->quote)
			: gate_add(fs, "S4-OPTLOG-UNSEEN", GATE_WARNING, in->optlog_file, n->line,
				   "text hidden from the rendered page (%s) reads as a claim and is not read: '%s'",
				   n->why, n->quote);
		if (rc)
			return -1;
	}
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* A table that shows the current best and numbers but names no unit
 * anywhere (`| 候选 vs v5_xband |`, `v5_xband (best)`): a comparison table
 * whose unit is assumed to be the records' (us); it warns once. */
static int unit_assumed(const struct optlog_table *t)
{
	return !t->has_duration && !t->cap_duration && t->has_numeric_row && t->has_incumbent && t->rows > 0;
}

static int is_comparison(const struct optlog_table *t)
{
	return ((t->has_duration || (t->cap_duration && t->has_numeric_row)) && t->has_incumbent && t->rows > 0) ||
	       unit_assumed(t);
}

/* The run of the log the records are checked against: the run holding the
 * last Final Summary when the log has several, else every table (-1). */
static long log_run(const struct optlog *lg)
{
	return lg->runs > 1 ? lg->target_run : -1;
}

/* Rounds r >= 1 in which the records (from index from) hold a candidate
 * experiment. Returns a malloc'd sorted unique array (count in *n), NULL
 * with *n = 0 when none; -1 in *n on allocation failure. */
static long *candidate_rounds(const struct s4_input *in, size_t from, size_t *n)
{
	const struct records *rs = in->recs;
	struct s4_idmap first; /* candidate_id (interned) -> first round */
	long *v = NULL;
	size_t k = 0;
	*n = 0;
	s4_idmap_init(&first);
	if (in->contract == RECORDS_V2) {
		v = malloc((rs->n + 1) * sizeof(*v));
		if (!v)
			goto fail;
		for (size_t i = from; i < rs->n; i++)
			if (rs->v[i].round >= 1 && rs->v[i].phase && strcmp(rs->v[i].phase, "candidate") == 0)
				v[k++] = rs->v[i].round;
	} else {
		/* v1: the first round each non-baseline candidate was measured in */
		const char *cand = NULL; /* the key of slot, last put (runs of one candidate) */
		long *slot = NULL;
		for (size_t i = from; i < rs->n; i++) {
			const struct record *r = &rs->v[i];
			if (s4_is_baseline(r))
				continue;
			if (r->candidate_id != cand) {
				slot = s4_idmap_put(&first, r->candidate_id, NULL, NULL, 0, r->round, NULL);
				if (!slot)
					goto fail;
				cand = r->candidate_id;
			}
			if (r->round < *slot)
				*slot = r->round;
		}
		v = malloc((first.n + 1) * sizeof(*v));
		if (!v)
			goto fail;
		for (size_t i = 0; i < first.cap; i++) {
			const long *r1 = s4_idmap_at(&first, i);
			if (r1 && *r1 >= 1)
				v[k++] = *r1;
		}
	}
	s4_idmap_release(&first);
	qsort(v, k, sizeof(*v), cmp_long);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*n = u;
	return v;
fail:
	s4_idmap_release(&first);
	free(v);
	*n = (size_t)-1;
	return NULL;
}

/* s4.h */
int s4_confirms_build(const struct optlog *lg, struct s4_confirms *c)
{
	long run = log_run(lg);
	memset(c, 0, sizeof(*c));
	c->maxr = -1;
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if ((run >= 0 && e->run != run) || e->run_label)
			continue;
		if (e->confirm && e->numbered) {
			if (c->n == c->cap) {
				size_t cap = c->cap ? c->cap * 2 : 4;
				long *v = realloc(c->entry, cap * sizeof(*v));
				if (!v)
					return -1;
				c->entry = v;
				c->cap = cap;
			}
			c->entry[c->n++] = (long)i;
		}
		if (e->confirm && !e->numbered && !c->loose)
			c->loose = e->line;
		if (!e->confirm && e->round > c->maxr)
			c->maxr = e->round;
	}
	return 0;
}

void s4_confirms_release(struct s4_confirms *c)
{
	free(c->entry);
	memset(c, 0, sizeof(*c));
}

int s4_confirms_kind(const struct optlog *lg, const struct s4_confirms *c, long r, long *line)
{
	*line = 0;
	for (size_t k = 0; k < c->n; k++)
		if (lg->rounds[c->entry[k]].round == r) {
			*line = lg->rounds[c->entry[k]].line;
			return 1;
		}
	for (size_t i = 0; i < lg->n_summary_rounds; i++)
		if (lg->summary_rounds[i] == r) {
			*line = lg->summary_round_lines[i];
			return 2;
		}
	if (c->loose && r > c->maxr) {
		*line = c->loose;
		return 3;
	}
	return 0;
}

/* s4.h */
int s4_confirm_round(const struct optlog *lg, long r, long *line)
{
	struct s4_confirms c;
	*line = 0;
	if (s4_confirms_build(lg, &c) != 0)
		return 0;
	int k = s4_confirms_kind(lg, &c, r, line);
	s4_confirms_release(&c);
	return k;
}

/* Line of round r's section in the checked run, 0 none. */
static long round_line(const struct optlog *lg, long r)
{
	long run = log_run(lg);
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if ((run < 0 || e->run == run) && !e->run_label && e->round == r)
			return e->line;
	}
	return 0;
}

/* The rounds that need a comparison table and have none. */
struct missing {
	char list[512];          /* "2, 3, ..." */
	size_t len, n;
	long first_round, first_line; /* the first of them and its section's line (0 none) */
	long hint_round, hint_line;   /* a table of theirs with durations but no incumbent */
};

/* 1 when table t is in the checked run (-1: every run). */
static int in_run(const struct optlog_table *t, long run)
{
	return run < 0 || t->run == run;
}

/* 1 when the checked run has a comparison table for round r. */
/* The rounds of run's comparison tables, sorted: has_comptable() looks a
 * round up in them (a log of thousands of rounds is not scanned once per
 * round). NULL when memory ran out; *n their count. */
static long *comptable_rounds(const struct optlog *lg, long run, size_t *n)
{
	long *v = malloc((lg->n_tables ? lg->n_tables : 1) * sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (size_t t = 0; t < lg->n_tables; t++)
		if (is_comparison(&lg->tables[t]) && in_run(&lg->tables[t], run))
			v[(*n)++] = lg->tables[t].round;
	qsort(v, *n, sizeof(*v), cmp_long);
	return v;
}

/* 1 when round r has a comparison table (rounds: comptable_rounds()). */
static int has_comptable(const long *rounds, size_t n, long r)
{
	return bsearch(&r, rounds, n, sizeof(*rounds), cmp_long) != NULL;
}

/* Adds round r to m: its number to the list, its section, the first table
 * of it that has durations but does not show the incumbent. */
static void add_missing(const struct optlog *lg, long run, long r, struct missing *m)
{
	m->n++;
	if (m->first_round < 0)
		m->first_round = r;
	if (m->len < sizeof(m->list) - 32)
		m->len += (size_t)snprintf(m->list + m->len, sizeof(m->list) - m->len, "%s%ld", m->len ? ", " : "", r);
	else if (m->list[m->len - 1] != '.')
		m->len += (size_t)snprintf(m->list + m->len, sizeof(m->list) - m->len, ", ...");
	if (m->first_line == 0)
		m->first_line = round_line(lg, r);
	for (size_t t = 0; t < lg->n_tables && m->hint_round < 0; t++) {
		const struct optlog_table *tb = &lg->tables[t];
		if (tb->round == r && in_run(tb, run) && (tb->has_duration || tb->cap_duration) && !tb->has_incumbent) {
			m->hint_round = r;
			m->hint_line = tb->line;
		}
	}
}

/* The error naming the rounds of m, at the first one's section, else at
 * its first candidate record. */
static int report_missing(const struct s4_input *in, size_t from, long run, const struct missing *m,
			  struct gate_findings *fs)
{
	char runs[96] = "", hint[160] = "", where[160] = "";
	if (run >= 0)
		snprintf(runs, sizeof(runs), " of the log's last tuning run (run %ld of %ld)", run + 1, in->log->runs);
	if (m->hint_round >= 0)
		snprintf(hint, sizeof(hint), "; the table at line %ld (round %ld) has durations but does not show the incumbent",
			 m->hint_line, m->hint_round);
	const char *file = in->optlog_file;
	long line = m->first_line;
	if (line == 0) {
		/* no section for the round: point at its first record */
		for (size_t i = from; i < in->recs->n; i++)
			if (in->recs->v[i].round == m->first_round && !s4_is_baseline(&in->recs->v[i])) {
				file = in->records_file;
				line = in->recs->v[i].line;
				snprintf(where, sizeof(where), "; opt_log.md has no section for round %ld", m->first_round);
				break;
			}
	}
	return gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, file, line,
			"no 'candidate vs current best' table (a duration column and the current best shown) for round%s %s%s, where the records hold candidate experiments%s%s",
			m->n > 1 ? "s" : "", m->list, runs, hint, where);
}

/* No comparison table in the checked run: an error when the records go past
 * round 0 and their last round is no final confirmation. */
static int check_no_table(const struct s4_input *in, size_t from, long run, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	for (size_t i = 0; i < lg->n_tables; i++)
		if (is_comparison(&lg->tables[i]) && in_run(&lg->tables[i], run))
			return 0;
	long maxr = 0, line;
	for (size_t i = from; i < in->recs->n; i++)
		if (in->recs->v[i].round > maxr)
			maxr = in->recs->v[i].round;
	if (maxr >= 1 && s4_confirm_round(lg, maxr, &line) == 0)
		return gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, in->optlog_file, 0,
				"no 'candidate vs current best' table in the log, although the records go up to round %ld",
				maxr);
	return 0;
}

int s4_rule_comptable(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	size_t nr;
	int rc = 0;
	if (in->optlog_state != S4_FILE_OK || in->recs->n == 0)
		return 0;
	size_t from = s4_records_from(in);
	long run = log_run(lg);
	size_t nt;
	long *need = candidate_rounds(in, from, &nr);
	if (nr == (size_t)-1)
		return -1;
	long *have = comptable_rounds(lg, run, &nt);
	if (!have) {
		free(need);
		return -1;
	}
	struct missing m = { .first_round = -1, .hint_round = -1 };
	for (size_t i = 0; i < nr && rc == 0; i++) {
		long r = need[i], cline;
		if (has_comptable(have, nt, r))
			continue;
		int how = s4_confirm_round(lg, r, &cline);
		if (how == 3 && gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_WARNING, in->optlog_file, cline,
					 "round %ld has no 'candidate vs current best' table; assumed it is the final confirmation this unnumbered section describes (it re-measures the adopted kernel and needs none)",
					 r))
			rc = -1;
		else if (!how)
			add_missing(lg, run, r, &m);
	}
	for (size_t t = 0; t < lg->n_tables && rc == 0; t++) {
		const struct optlog_table *tb = &lg->tables[t];
		if (unit_assumed(tb) && in_run(tb, run) && tb->round >= 1 && nr > 0 && has_comptable(need, nr, tb->round) &&
		    gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_WARNING, in->optlog_file, tb->line,
			     "the table of round %ld shows the current best but names no unit: read as the round's comparison table, its numbers assumed to be durations in us",
			     tb->round))
			rc = -1;
	}
	if (rc == 0)
		rc = m.n > 0 ? report_missing(in, from, run, &m, fs) : check_no_table(in, from, run, fs);
	free(need);
	free(have);
	return rc;
}

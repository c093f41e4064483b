/* s4_optlog.c: S4-OPTLOG and S4-OPTLOG-COMPTABLE (s4.h). */
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
		return gate_add(fs, "S4-OPTLOG", GATE_ERROR, f, 0, "opt_log.md cannot be read");
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

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static int is_comparison(const struct optlog_table *t)
{
	return (t->has_duration || (t->cap_duration && t->numeric_rows > 0)) && t->has_incumbent &&
	       t->rows > 0;
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
		for (size_t i = from; i < rs->n; i++) {
			const struct record *r = &rs->v[i];
			if (s4_is_baseline(r))
				continue;
			int created;
			long *slot = s4_idmap_put(&first, r->candidate_id, NULL, NULL, 0, r->round, &created);
			if (!slot)
				goto fail;
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

/* How round r is a final confirmation round, which re-measures the adopted
 * kernel and needs no comparison table: 1 its own section says so
 * (`## Final Confirmation（round 5）`, `## Round 9（final 全配置复采）`), 2 the
 * last Final Summary cites the records of round r as its source, 3 an
 * unnumbered confirmation section (`### Final 全组合验证`), assumed to be
 * this round because r has no section and comes after every round the log
 * numbers (*line gets the heading); 0 none. */
static int confirm_round(const struct optlog *lg, long r, long *line)
{
	long run = log_run(lg);
	long maxr = -1;
	long loose = 0;
	*line = 0;
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if ((run >= 0 && e->run != run) || e->run_label)
			continue;
		if (e->confirm && e->numbered && e->round == r) {
			*line = e->line;
			return 1;
		}
		if (e->confirm && !e->numbered && !loose)
			loose = e->line;
		if (!e->confirm && e->round > maxr)
			maxr = e->round;
	}
	for (size_t i = 0; i < lg->n_summary_rounds; i++)
		if (lg->summary_rounds[i] == r) {
			*line = lg->summary_round_lines[i];
			return 2;
		}
	if (loose && r > maxr) {
		*line = loose;
		return 3;
	}
	return 0;
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

int s4_rule_comptable(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const char *f = in->optlog_file;
	size_t nr;
	int rc = 0;
	if (in->optlog_state != S4_FILE_OK || in->recs->n == 0)
		return 0;
	size_t from = s4_records_from(in);
	long run = log_run(lg);
	long *need = candidate_rounds(in, from, &nr);
	if (nr == (size_t)-1)
		return -1;
	size_t ncomp = 0;
	for (size_t i = 0; i < lg->n_tables; i++)
		if (is_comparison(&lg->tables[i]) && (run < 0 || lg->tables[i].run == run))
			ncomp++;
	char list[512];
	size_t len = 0, nmiss = 0;
	long first_line = 0, hint_line = 0, hint_round = -1, first_round = -1;
	list[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		long r = need[i];
		int ok = 0;
		for (size_t t = 0; t < lg->n_tables && !ok; t++)
			if (lg->tables[t].round == r && is_comparison(&lg->tables[t]) &&
			    (run < 0 || lg->tables[t].run == run))
				ok = 1;
		if (ok)
			continue;
		long cline;
		int how = confirm_round(lg, r, &cline);
		if (how == 3) {
			if (gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_WARNING, f, cline,
				     "round %ld has no 'candidate vs current best' table; assumed it is the final confirmation this unnumbered section describes (it re-measures the adopted kernel and needs none)",
				     r)) {
				free(need);
				return -1;
			}
			continue;
		}
		if (how)
			continue;
		nmiss++;
		if (first_round < 0)
			first_round = r;
		if (len < sizeof(list) - 32)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld", len ? ", " : "", r);
		else if (list[len - 1] != '.')
			len += (size_t)snprintf(list + len, sizeof(list) - len, ", ...");
		if (first_line == 0)
			first_line = round_line(lg, r);
		for (size_t t = 0; t < lg->n_tables && hint_round < 0; t++)
			if (lg->tables[t].round == r && (run < 0 || lg->tables[t].run == run) &&
			    (lg->tables[t].has_duration || lg->tables[t].cap_duration) &&
			    !lg->tables[t].has_incumbent) {
				hint_round = r;
				hint_line = lg->tables[t].line;
			}
	}
	char runs[96] = "";
	if (run >= 0)
		snprintf(runs, sizeof(runs), " of the log's last tuning run (run %ld of %ld)", run + 1, lg->runs);
	if (nmiss > 0) {
		char hint[160] = "";
		if (hint_round >= 0)
			snprintf(hint, sizeof(hint),
				 "; the table at line %ld (round %ld) has durations but does not show the incumbent",
				 hint_line, hint_round);
		const char *file = f;
		long line = first_line;
		char where[160] = "";
		if (line == 0) {
			/* no section for the round: point at its first record */
			for (size_t i = from; i < in->recs->n; i++)
				if (in->recs->v[i].round == first_round && !s4_is_baseline(&in->recs->v[i])) {
					file = in->records_file;
					line = in->recs->v[i].line;
					snprintf(where, sizeof(where), "; opt_log.md has no section for round %ld",
						 first_round);
					break;
				}
		}
		rc = gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, file, line,
			      "no 'candidate vs current best' table (a duration column and the current best shown) for round%s %s%s, where the records hold candidate experiments%s%s",
			      nmiss > 1 ? "s" : "", list, runs, hint, where);
	} else if (ncomp == 0) {
		long maxr = 0;
		for (size_t i = from; i < in->recs->n; i++)
			if (in->recs->v[i].round > maxr)
				maxr = in->recs->v[i].round;
		if (maxr >= 1 && confirm_round(lg, maxr, &hint_line) == 0)
			rc = gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, f, 0,
				      "no 'candidate vs current best' table in the log, although the records go up to round %ld",
				      maxr);
	}
	free(need);
	return rc;
}

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
	return t->has_duration && t->has_incumbent && t->rows > 0;
}

/* Rounds r >= 1 in which the records hold a candidate experiment. Returns a
 * malloc'd sorted unique array (count in *n), NULL with *n = 0 when none;
 * -1 in *n on allocation failure. */
static long *candidate_rounds(const struct s4_input *in, size_t *n)
{
	const struct records *rs = in->recs;
	struct s4_map first;
	long *v = NULL;
	size_t k = 0;
	*n = 0;
	s4_map_init(&first);
	if (in->contract == RECORDS_V2) {
		v = malloc((rs->n + 1) * sizeof(*v));
		if (!v)
			goto fail;
		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].round >= 1 && rs->v[i].phase && strcmp(rs->v[i].phase, "candidate") == 0)
				v[k++] = rs->v[i].round;
	} else {
		/* v1: the first round each non-baseline candidate was measured in */
		for (size_t i = 0; i < rs->n; i++) {
			const struct record *r = &rs->v[i];
			if (s4_is_baseline(r))
				continue;
			int created;
			long *slot = s4_map_put(&first, r->candidate_id, r->round, &created);
			if (!slot)
				goto fail;
			if (r->round < *slot)
				*slot = r->round;
		}
		v = malloc((first.n + 1) * sizeof(*v));
		if (!v)
			goto fail;
		for (size_t i = 0; i < first.cap; i++)
			if (first.keys[i] && first.vals[i] >= 1)
				v[k++] = first.vals[i];
	}
	s4_map_release(&first);
	qsort(v, k, sizeof(*v), cmp_long);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*n = u;
	return v;
fail:
	s4_map_release(&first);
	free(v);
	*n = (size_t)-1;
	return NULL;
}

int s4_rule_comptable(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const char *f = in->optlog_file;
	size_t nr;
	int rc = 0;
	if (in->optlog_state != S4_FILE_OK || in->recs->n == 0)
		return 0;
	long *need = candidate_rounds(in, &nr);
	if (nr == (size_t)-1)
		return -1;
	size_t ncomp = 0;
	for (size_t i = 0; i < lg->n_tables; i++)
		if (is_comparison(&lg->tables[i]))
			ncomp++;
	char list[512];
	size_t len = 0, nmiss = 0;
	long first_line = 0, hint_line = 0, hint_round = -1;
	list[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		long r = need[i];
		int ok = 0;
		for (size_t t = 0; t < lg->n_tables && !ok; t++)
			if (lg->tables[t].round == r && is_comparison(&lg->tables[t]))
				ok = 1;
		if (ok)
			continue;
		nmiss++;
		if (len < sizeof(list) - 32)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld", len ? ", " : "", r);
		else if (list[len - 1] != '.')
			len += (size_t)snprintf(list + len, sizeof(list) - len, ", ...");
		for (size_t h = 0; h < lg->n_rounds && first_line == 0; h++)
			if (lg->rounds[h].round == r)
				first_line = lg->rounds[h].line;
		for (size_t t = 0; t < lg->n_tables && hint_round < 0; t++)
			if (lg->tables[t].round == r && lg->tables[t].has_duration &&
			    !lg->tables[t].has_incumbent) {
				hint_round = r;
				hint_line = lg->tables[t].line;
			}
	}
	if (nmiss > 0) {
		char hint[160] = "";
		if (hint_round >= 0)
			snprintf(hint, sizeof(hint),
				 "; the table at line %ld (round %ld) has durations but does not show the incumbent",
				 hint_line, hint_round);
		rc = gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, f, first_line,
			      "no 'candidate vs current best' table (a duration column and the current best shown) for round%s %s, where the records hold candidate experiments%s",
			      nmiss > 1 ? "s" : "", list, hint);
	} else if (ncomp == 0) {
		long maxr = 0;
		for (size_t i = 0; i < in->recs->n; i++)
			if (in->recs->v[i].round > maxr)
				maxr = in->recs->v[i].round;
		if (maxr >= 1)
			rc = gate_add(fs, "S4-OPTLOG-COMPTABLE", GATE_ERROR, f, 0,
				      "no 'candidate vs current best' table in the log, although the records go up to round %ld",
				      maxr);
	}
	free(need);
	return rc;
}

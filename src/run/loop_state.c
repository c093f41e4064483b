/* loop_state.c: what the loop knows, derived from the records and the
 * markers in opt_log.md (see loop.h). */
#include "run/loop.h"
#include "io/records.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/lineio.h"
#include "io/records.h"

void loop_state_init(struct loop_state *st)
{
	memset(st, 0, sizeof(*st));
	records_init(&st->rs);
	snprintf(st->best, sizeof(st->best), "baseline");
}

void loop_state_release(struct loop_state *st)
{
	records_release(&st->rs);
	free(st->rounds);
	loop_state_init(st);
}

/* Copies the value of `key=` from a marker's tokens into out; 0 when found. */
static int marker_value(const char *body, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key);
	const char *s = body;
	while (*s) {
		while (*s == ' ')
			s++;
		const char *e = s;
		while (*e && *e != ' ')
			e++;
		if ((size_t)(e - s) > kl && strncmp(s, key, kl) == 0 && s[kl] == '=') {
			size_t n = (size_t)(e - s) - kl - 1;
			if (n >= outlen)
				n = outlen - 1;
			memcpy(out, s + kl + 1, n);
			out[n] = '\0';
			return 0;
		}
		s = e;
	}
	return -1;
}

static long marker_long(const char *body, const char *key)
{
	char v[32];
	if (marker_value(body, key, v, sizeof(v)))
		return -1;
	char *end = NULL;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (end == v || *end || errno || n < 0)
		return -1;
	return n;
}

int loop_state_marker(struct loop_state *st, const char *line)
{
	size_t ml = strlen(LOOP_MARKER);
	if (strncmp(line, LOOP_MARKER, ml) != 0)
		return 0;
	char body[512];
	snprintf(body, sizeof(body), "%s", line + ml);
	char *end = strstr(body, "-->");
	if (!end)
		return 0;
	*end = '\0';
	char kind[32];
	if (marker_value(body, "kind", kind, sizeof(kind)))
		return 0;
	if (strcmp(kind, "baseline") == 0) {
		st->baseline_logged = 1;
	} else if (strcmp(kind, "round") == 0) {
		struct loop_round r;
		memset(&r, 0, sizeof(r));
		r.round = marker_long(body, "round");
		if (r.round < 1 || marker_value(body, "best", r.best, sizeof(r.best)))
			return 0;
		if (marker_value(body, "decision", r.decision, sizeof(r.decision)))
			snprintf(r.decision, sizeof(r.decision), "none");
		if (marker_value(body, "state", r.state, sizeof(r.state)))
			snprintf(r.state, sizeof(r.state), "continue");
		struct loop_round *v = realloc(st->rounds, (st->nrounds + 1) * sizeof(*v));
		if (!v)
			return 0;
		st->rounds = v;
		st->rounds[st->nrounds++] = r;
		if (r.round >= st->last_decided) {
			st->last_decided = r.round;
			snprintf(st->best, sizeof(st->best), "%s", r.best);
			snprintf(st->stop_reason, sizeof(st->stop_reason), "%s", r.state);
		}
	} else if (strcmp(kind, "finishing") == 0 || strcmp(kind, "final") == 0) {
		long r = marker_long(body, "round");
		if (r < 1)
			return 0;
		st->finishing = 1;
		st->final_round = r;
		if (strcmp(kind, "final") == 0) {
			st->finished = 1;
			marker_value(body, "stop", st->stop_reason, sizeof(st->stop_reason));
		}
	} else {
		return 0;
	}
	return 1;
}

/* The markers of the log at log_path into st (a missing log has none).
 * 0; -1 with err when it cannot be read. */
static int load_markers(struct loop_state *st, const char *log_path, char *err, size_t errlen)
{
	struct lineio l;
	if (lineio_open(&l, log_path, LINEIO_DEFAULT_LIMIT) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot open '%s': %s", log_path, strerror(errno));
		return -1;
	}
	int rc;
	while ((rc = lineio_next(&l)) == 1)
		loop_state_marker(st, l.buf);
	lineio_close(&l);
	if (rc < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", log_path, strerror(errno));
		return -1;
	}
	return 0;
}

/* 1 when record r is a branch's: round >= 1, not a final measurement
 * (phase final, or the finishing round). */
static int branch_record(const struct loop_state *st, const struct record *r)
{
	if (r->round < 1)
		return 0;
	if (r->phase && strcmp(r->phase, "final") == 0)
		return 0;
	return !(st->finishing && r->round == st->final_round);
}

/* Branches used: distinct candidates of branch records, the baseline
 * excluded. */
static long count_experiments(const struct loop_state *st)
{
	long n = 0;
	for (size_t i = 0; i < st->rs.n; i++) {
		const struct record *r = &st->rs.v[i];
		if (strcmp(r->candidate_id, "baseline") == 0 || !branch_record(st, r))
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			const struct record *q = &st->rs.v[j];
			seen = strcmp(q->candidate_id, r->candidate_id) == 0 && branch_record(st, q);
		}
		n += !seen;
	}
	return n;
}

int loop_state_load(struct loop_state *st, const char *records_path, const char *log_path,
		    char *err, size_t errlen)
{
	struct records_problems ps;
	records_problems_init(&ps);
	if (records_load(records_path, &st->rs, &ps) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "cannot read '%s': %s", records_path, strerror(errno));
		records_problems_release(&ps);
		return -1;
	}
	st->bad_lines = ps.n;
	records_problems_release(&ps);
	if (load_markers(st, log_path, err, errlen) != 0)
		return -1;
	st->experiments = count_experiments(st);
	return 0;
}

const struct record *loop_state_find(const struct loop_state *st, const struct loop_plan *p,
				     const char *id, const struct loop_workload *w,
				     long max_round)
{
	const struct record *valid = NULL, *any = NULL;
	(void)p;
	for (size_t i = 0; i < st->rs.n; i++) {
		const struct record *r = &st->rs.v[i];
		if (r->round > max_round || strcmp(r->candidate_id, id) != 0 ||
		    strcmp(r->workload, w->id) != 0 || strcmp(r->dispatch, w->dispatch) != 0)
			continue;
		if (r->phase && strcmp(r->phase, "final") == 0)
			continue;
		any = r;
		if (record_valid(r))
			valid = r;
	}
	return valid ? valid : any;
}

int loop_state_has_candidate(const struct loop_state *st, const char *id, long round)
{
	for (size_t i = 0; i < st->rs.n; i++)
		if (st->rs.v[i].round == round && strcmp(st->rs.v[i].candidate_id, id) == 0)
			return 1;
	return 0;
}

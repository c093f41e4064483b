/* s4_time.c: S4-PERF-RECORDS-TIME and S4-PERF-RECORDS-TIME-DUP (s4.h):
 * the records' time stamps are plausible.
 *
 * A record cannot be measured after it was committed (with --base: the
 * committer date of the commit git blame names for its line; else the time
 * of the check), nor before the parent candidate it derives from was first
 * measured. Both are errors only when certain: a stamp covers its whole
 * precision (a date its day, hh:mm its minute), a stamp without a zone
 * could be any wall-clock zone (up to 14 hours either way) unless compared
 * with another stamp without a zone, and clocks may disagree by
 * S4_CLOCK_SKEW. Two different measurements with one time stamp (to the
 * second) are a warning: one profile run cannot have produced both. */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* t as "YYYY-MM-DDThh:mm:ssZ" into buf (32 bytes). */
static const char *utc_text(long long t, char buf[32])
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, 32, "%lld", t);
	return buf;
}

/* The commit that added line, or NULL (not committed, or no blame). */
static const struct s4_commit *commit_of(const struct s4_line_commits *c, long line)
{
	if (!c || line < 1 || line > c->n_lines || c->of_line[line] < 0)
		return NULL;
	return &c->v[c->of_line[line]];
}

/* A stamp later than what added its line (or than now). */
static int check_future(const struct s4_input *in, const struct record *r,
			const struct records_time *t, struct gate_findings *fs)
{
	const struct s4_commit *c = commit_of(in->commits, r->line);
	long long limit = c ? c->time : in->now, lo, hi;
	char when[32], lim[32];
	if (limit <= 0)
		return 0;
	records_time_utc(t, &lo, &hi);
	if (lo <= limit + S4_CLOCK_SKEW)
		return 0;
	utc_text(lo, when);
	utc_text(limit, lim);
	if (c)
		return gate_add(fs, "S4-PERF-RECORDS-TIME", GATE_ERROR, in->records_file, r->line,
				"timestamp '%s' (candidate '%s', '%s' / '%s') is after commit %s that added this line (committed %s): a record cannot be measured after it was committed",
				r->timestamp, r->candidate_id, r->dispatch, r->workload, c->sha, lim);
	return gate_add(fs, "S4-PERF-RECORDS-TIME", GATE_ERROR, in->records_file, r->line,
			"timestamp '%s' (candidate '%s', '%s' / '%s') is in the future: it is checked at %s (%d s allowed for clock skew%s)",
			r->timestamp, r->candidate_id, r->dispatch, r->workload, lim, S4_CLOCK_SKEW,
			t->zoned ? "" : "; read in the zone that makes it earliest, UTC+14");
}

/* Earliest parsed record per candidate: index into the records (and
 * times), by candidate address. */
static int first_of_candidates(const struct records *rs, const struct records_time *ts,
			       const char *ok, struct s4_idmap *first)
{
	for (size_t i = 0; i < rs->n; i++) {
		if (!ok[i])
			continue;
		int created;
		long *slot = s4_idmap_put(first, rs->v[i].candidate_id, NULL, NULL, 0, (long)i, &created);
		if (!slot)
			return -1;
		if (!created && records_time_before(&ts[i], &ts[*slot]))
			*slot = (long)i;
	}
	return 0;
}

/* A child measured before its parent's first measurement. */
static int check_parent(const struct s4_input *in, const struct records_time *ts, const char *ok,
			const struct s4_idmap *first, size_t i, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	const struct record *r = &rs->v[i];
	if (!r->parent_id || r->parent_id == r->candidate_id)
		return 0;
	long *p = s4_idmap_get(first, r->parent_id, NULL, NULL, 0);
	if (!p || !ok[i] || !records_time_before(&ts[i], &ts[*p]))
		return 0;
	const struct record *pr = &rs->v[*p];
	return gate_add(fs, "S4-PERF-RECORDS-TIME", GATE_ERROR, in->records_file, r->line,
			"candidate '%s' ('%s' / '%s') is stamped '%s', before its parent '%s' was first measured ('%s', line %ld): a candidate is derived from a measured parent",
			r->candidate_id, r->dispatch, r->workload, r->timestamp, r->parent_id, pr->timestamp,
			pr->line);
}

/* 1 when a and b are different measurements: another candidate, or the
 * same key with another duration. One candidate's keys may share a stamp:
 * one bench run measures every workload of a candidate (tlperf loop stamps
 * them so). */
static int different(const struct record *a, const struct record *b)
{
	return a->candidate_id != b->candidate_id ||
	       (record_same_key(a, b) && a->duration_us != b->duration_us);
}

/* One record's instant, for sorting (the comparator needs no context). */
struct instant {
	long long lo;
	long frac_ns;
	int zoned;
	size_t i;               /* index of the record */
};

static int cmp_instant(const void *x, const void *y)
{
	const struct instant *a = x, *b = y;
	if (a->zoned != b->zoned)
		return a->zoned < b->zoned ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->frac_ns != b->frac_ns)
		return a->frac_ns < b->frac_ns ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int same_instant(const struct instant *a, const struct instant *b)
{
	return a->zoned == b->zoned && a->lo == b->lo && a->frac_ns == b->frac_ns;
}

/* One group of records with one instant, g[0..n) in file order: a
 * warning at the first that measures something else than g[0]. */
static int warn_group(const struct s4_input *in, const struct instant *g, size_t n,
		      struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	const struct record *f = &rs->v[g[0].i], *r = NULL;
	size_t more = 0;
	for (size_t k = 1; k < n; k++)
		if (different(f, &rs->v[g[k].i])) {
			if (r)
				more++;
			else
				r = &rs->v[g[k].i];
		}
	if (!r)
		return 0;
	char extra[64] = "";
	if (more)
		snprintf(extra, sizeof(extra), " (and %zu more line%s after it)", more, more == 1 ? "" : "s");
	return gate_add(fs, "S4-PERF-RECORDS-TIME-DUP", GATE_WARNING, in->records_file, r->line,
			"timestamp '%s' of candidate '%s' ('%s' / '%s') is also the timestamp of a different measurement at line %ld (candidate '%s', '%s' / '%s')%s: one profile run measures one thing; were these stamped by hand or in a batch?",
			r->timestamp, r->candidate_id, r->dispatch, r->workload, f->line, f->candidate_id,
			f->dispatch, f->workload, extra);
}

/* One warning per instant (stamps with seconds or finer; the same instant
 * written in two zones is one) shared by different measurements. The
 * groups are found by sorting: no map of every stamp. */
static int check_duplicates(const struct s4_input *in, const struct records_time *ts, const char *ok,
			    struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	size_t n = 0;
	struct instant *v = malloc(rs->n * sizeof(*v));
	int rc = 0;
	if (!v)
		return -1;
	for (size_t i = 0; i < rs->n; i++)
		if (ok[i] && ts[i].precise)
			v[n++] = (struct instant){ ts[i].lo, ts[i].frac_ns, ts[i].zoned, i };
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_instant);
	for (size_t g = 0, e; g < n && rc == 0; g = e) {
		for (e = g + 1; e < n && same_instant(&v[g], &v[e]); e++)
			;
		if (e - g > 1)
			rc = warn_group(in, v + g, e - g, fs);
	}
	free(v);
	return rc;
}

int s4_rule_time(const struct s4_input *in, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	if (rs->n == 0)
		return 0;
	struct records_time *ts = malloc(rs->n * sizeof(*ts));
	char *ok = malloc(rs->n);
	struct s4_idmap first;
	int rc = -1;
	s4_idmap_init(&first);
	if (!ts || !ok)
		goto out;
	for (size_t i = 0; i < rs->n; i++)
		ok[i] = rs->v[i].timestamp && records_time_parse(rs->v[i].timestamp, &ts[i]) == 0;
	for (size_t i = 0; i < rs->n; i++)
		if (ok[i] && check_future(in, &rs->v[i], &ts[i], fs))
			goto out;
	if (first_of_candidates(rs, ts, ok, &first))
		goto out;
	for (size_t i = 0; i < rs->n; i++)
		if (check_parent(in, ts, ok, &first, i, fs))
			goto out;
	rc = check_duplicates(in, ts, ok, fs);
out:
	s4_idmap_release(&first);
	free(ts);
	free(ok);
	return rc;
}

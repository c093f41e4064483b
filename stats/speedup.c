/* speedup.c: baseline-to-final speedups and their geometric means
 * (speedup.h). */
#include "stats/speedup.h"
#include "stats/stats.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *stats_final_source_name(enum stats_final_source s)
{
	switch (s) {
	case STATS_FINAL_NAMED: return "named";
	case STATS_FINAL_PHASE: return "final";
	case STATS_FINAL_BEST: return "best";
	case STATS_FINAL_NONE: break;
	}
	return "none";
}

void stats_speedup_release(struct stats_speedup *s)
{
	if (!s)
		return;
	free(s->keys);
	free(s->groups);
	stats_keyset_release(&s->ks);
	memset(s, 0, sizeof(*s));
	s->geomean_speedup = NAN;
	s->geomean_change = NAN;
}

/* Geometric mean (through logarithms, stats_geomean) of the speedups of
 * the keys idx[0..n-1]. */
static double geomean_of(const struct stats_speedup *s, const size_t *idx, size_t n, double *buf,
			 size_t *nused, size_t *nreg)
{
	size_t m = 0;
	*nreg = 0;
	for (size_t i = 0; i < n; i++) {
		const struct stats_speedup_key *e = &s->keys[idx[i]];
		if (isnan(e->speedup))
			continue;
		buf[m++] = e->speedup;
		*nreg += (size_t)e->regression;
	}
	*nused = m;
	return m ? stats_geomean(buf, m) : NAN;
}

struct by_d {
	const char *dispatch;   /* sort key */
	size_t k;               /* key index, tie-break */
};

static int by_dispatch(const void *a, const void *b)
{
	const struct by_d *x = a, *y = b;
	int c = strcmp(x->dispatch, y->dispatch);
	return c ? c : (x->k < y->k ? -1 : (x->k > y->k));
}

static int by_first_key(const void *a, const void *b)
{
	const struct stats_speedup_group *x = a, *y = b;
	return x->first < y->first ? -1 : (x->first > y->first);
}

int stats_speedup_compute(const struct records *rs, const char *final_candidate,
			  struct stats_speedup *out)
{
	memset(out, 0, sizeof(*out));
	out->geomean_speedup = NAN;
	out->geomean_change = NAN;
	const struct record **base = NULL, **named = NULL, **phase = NULL, **best = NULL;
	double *buf = NULL;
	size_t *idx = NULL;
	struct by_d *order = NULL;
	int rc = -1;
	errno = ENOMEM;
	if (stats_keyset_build(rs, &out->ks) != 0)
		goto out;
	size_t nk = out->ks.n, cap = nk ? nk : 1;
	base = calloc(cap, sizeof(*base));
	named = calloc(cap, sizeof(*named));
	phase = calloc(cap, sizeof(*phase));
	best = calloc(cap, sizeof(*best));
	buf = malloc(cap * sizeof(*buf));
	idx = malloc(cap * sizeof(*idx));
	order = malloc(cap * sizeof(*order));
	out->keys = calloc(cap, sizeof(*out->keys));
	out->groups = calloc(cap, sizeof(*out->groups));
	if (!base || !named || !phase || !best || !buf || !idx || !order || !out->keys || !out->groups)
		goto out;
	stats_baseline(rs, &out->ks, base);
	stats_best_before(rs, &out->ks, LONG_MAX, NULL, best);
	if (final_candidate) {
		stats_best_before(rs, &out->ks, LONG_MAX, final_candidate, named);
		size_t any = 0;
		for (size_t k = 0; k < nk; k++)
			any += named[k] != NULL;
		if (!any) {
			errno = ENOENT;
			goto out;
		}
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (stats_record_is_final(r) && record_valid(r))
			phase[out->ks.of[i]] = r; /* the last one wins */
	}
	for (size_t k = 0; k < nk; k++) {
		struct stats_speedup_key *e = &out->keys[k];
		e->key = k;
		e->dispatch = out->ks.v[k].dispatch;
		e->workload = out->ks.v[k].workload;
		e->baseline = base[k];
		if (final_candidate) {
			e->final = named[k];
			e->source = named[k] ? STATS_FINAL_NAMED : STATS_FINAL_NONE;
		} else if (phase[k]) {
			e->final = phase[k];
			e->source = STATS_FINAL_PHASE;
		} else {
			e->final = best[k];
			e->source = best[k] ? STATS_FINAL_BEST : STATS_FINAL_NONE;
		}
		e->speedup = NAN;
		e->change = NAN;
		if (e->baseline && e->final) {
			e->speedup = e->baseline->duration_us / e->final->duration_us;
			e->change = stats_rel_change(e->final->duration_us, e->baseline->duration_us);
			e->regression = e->speedup < 1.0;
		}
	}
	out->nkeys = nk;
	/* Groups: keys sorted by dispatch, each run one group, then groups
	 * back in order of first appearance. */
	for (size_t k = 0; k < nk; k++) {
		order[k].dispatch = out->keys[k].dispatch;
		order[k].k = k;
	}
	qsort(order, nk, sizeof(*order), by_dispatch);
	for (size_t k = 0; k < nk; k++)
		idx[k] = order[k].k;
	for (size_t i = 0; i < nk;) {
		size_t j = i;
		while (j < nk && strcmp(out->keys[idx[j]].dispatch, out->keys[idx[i]].dispatch) == 0)
			j++;
		struct stats_speedup_group *x = &out->groups[out->ngroups++];
		x->dispatch = out->keys[idx[i]].dispatch;
		x->first = idx[i];
		x->nkeys = j - i;
		x->geomean_speedup = geomean_of(out, idx + i, j - i, buf, &x->nused, &x->nregressions);
		x->geomean_change = 1.0 / x->geomean_speedup - 1.0;
		i = j;
	}
	qsort(out->groups, out->ngroups, sizeof(*out->groups), by_first_key);
	for (size_t k = 0; k < nk; k++)
		idx[k] = k;
	out->geomean_speedup = geomean_of(out, idx, nk, buf, &out->nused, &out->nregressions);
	out->geomean_change = 1.0 / out->geomean_speedup - 1.0;
	rc = 0;
out:
	free(base);
	free(named);
	free(phase);
	free(best);
	free(buf);
	free(idx);
	free(order);
	if (rc != 0) {
		int e = errno;
		stats_speedup_release(out);
		errno = e;
	}
	return rc;
}

/* cmptable.c: the per-round "candidate vs current best" table
 * (cmptable.h). */
#include "stats/cmptable.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_cmptable_release(struct stats_cmptable *t)
{
	if (!t)
		return;
	free(t->rows);
	stats_keyset_release(&t->ks);
	memset(t, 0, sizeof(*t));
}

static int shown(const struct record *r, long round)
{
	return r->round == round && !(r->phase && strcmp(r->phase, "baseline") == 0);
}

struct member {
	size_t key;     /* sort key: position of the key's first row */
	size_t i;       /* record index, tie-break */
};

static int by_key_then_line(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : (x->i > y->i);
}

/* 1 when INC holds a record for some key of [0, nk). */
static int any_incumbent(const struct record **inc, size_t nk)
{
	for (size_t k = 0; k < nk; k++)
		if (inc[k])
			return 1;
	return 0;
}

/* Fills M with the round's shown records, keyed by the order of their
 * key's first record in the round (ORDER: per key, scratch); returns how
 * many, *NKR the number of keys. */
static size_t round_members(const struct records *rs, long round, const struct stats_cmptable *t,
			    size_t *order, struct member *m, size_t *nkr)
{
	size_t nm = 0;
	*nkr = 0;
	for (size_t k = 0; k < t->ks.n; k++)
		order[k] = STATS_NOKEY;
	for (size_t i = 0; i < rs->n; i++) {
		if (!shown(&rs->v[i], round))
			continue;
		size_t k = t->ks.of[i];
		if (order[k] == STATS_NOKEY)
			order[k] = (*nkr)++;
		m[nm].key = order[k];
		m[nm++].i = i;
	}
	return nm;
}

/* Appends the rows of the sorted members M [0, nm): each key's current
 * best (from INC) first, then the key's records of the round. */
static void fill_rows(const struct records *rs, const struct record **inc,
		      const struct member *m, size_t nm, struct stats_cmptable *t)
{
	for (size_t j = 0; j < nm; j++) {
		const struct record *r = &rs->v[m[j].i];
		size_t k = t->ks.of[m[j].i];
		const struct record *b = inc[k];
		if (j == 0 || m[j].key != m[j - 1].key) {
			if (b) {
				struct stats_cmprow *x = &t->rows[t->nrows++];
				x->key = k;
				x->rec = b;
				x->current_best = 1;
				x->vs_best = NAN;
			} else {
				t->nmissing_best++;
			}
		}
		struct stats_cmprow *x = &t->rows[t->nrows++];
		x->key = k;
		x->rec = r;
		x->current_best = 0;
		x->vs_best = (b && record_valid(r)) ? stats_rel_change(r->duration_us, b->duration_us)
						    : NAN;
	}
}

int stats_cmptable_build(const struct records *rs, long round, const char *incumbent_id,
			 struct stats_cmptable *t)
{
	memset(t, 0, sizeof(*t));
	t->round = round;
	if (round < 1) {
		errno = EINVAL;
		return -1;
	}
	const struct record **inc = NULL;
	size_t *order = NULL;
	struct member *m = NULL;
	int rc = -1;
	errno = ENOMEM;
	if (stats_keyset_build(rs, &t->ks) != 0)
		goto out;
	size_t nk = t->ks.n, n = rs->n;
	inc = calloc(nk ? nk : 1, sizeof(*inc));
	order = malloc((nk ? nk : 1) * sizeof(*order));
	m = malloc((n ? n : 1) * sizeof(*m));
	if (!inc || !order || !m)
		goto out;
	stats_best_before(rs, &t->ks, round, incumbent_id, inc);
	if (incumbent_id && !any_incumbent(inc, nk)) {
		errno = EINVAL;
		goto out;
	}
	size_t nkr, nm = round_members(rs, round, t, order, m, &nkr);
	if (nm == 0) {
		errno = ENOENT;
		goto out;
	}
	qsort(m, nm, sizeof(*m), by_key_then_line);
	t->rows = malloc((nm + nkr) * sizeof(*t->rows));
	if (!t->rows)
		goto out;
	t->nround = nm;
	fill_rows(rs, inc, m, nm, t);
	rc = 0;
out:
	free(inc);
	free(order);
	free(m);
	if (rc != 0) {
		int e = errno;
		stats_cmptable_release(t);
		t->round = round;
		errno = e;
	}
	return rc;
}

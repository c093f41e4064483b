/* plateau.c: per-round improvement and plateau detection (plateau.h). */
#include "stats/plateau.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exact ties (3.0% at noise 3%) must not count as gains because of
 * rounding in (inc - best) / inc. */
#define GAIN_SLACK 1e-12

struct order {
	long round;     /* sort key */
	size_t i;       /* record index, tie-break: file order */
};

static int by_round_then_line(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return x->i < y->i ? -1 : (x->i > y->i);
}

static int by_key(const void *a, const void *b)
{
	const struct stats_plateau_key *x = a, *y = b;
	return x->key < y->key ? -1 : (x->key > y->key);
}

void stats_plateau_release(struct stats_plateau *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrounds; i++)
		free(p->rounds[i].keys);
	free(p->rounds);
	stats_keyset_release(&p->ks);
	memset(p, 0, sizeof(*p));
}

/* Fills one round from the records idx[lo..hi) (all of round r), reading
 * the incumbents inc[] (records of rounds < r). */
static int fill_round(const struct records *rs, const struct stats_keyset *ks,
		      const struct order *idx, size_t lo, size_t hi, const struct record **inc,
		      size_t *slot_of_key, double noise, struct stats_plateau_round *out)
{
	memset(out, 0, sizeof(*out));
	out->round = rs->v[idx[lo].i].round;
	out->improvement = NAN;
	out->improvement_key = STATS_NOKEY;
	out->keys = malloc((hi - lo) * sizeof(*out->keys));
	if (!out->keys)
		return -1;
	for (size_t j = lo; j < hi; j++) {
		const struct record *r = &rs->v[idx[j].i];
		if (stats_record_is_final(r))
			continue;
		size_t k = ks->of[idx[j].i];
		out->nrecords++;
		if (slot_of_key[k] == STATS_NOKEY) {
			struct stats_plateau_key *e = &out->keys[out->nkeys];
			e->key = k;
			e->incumbent_us = inc[k] ? inc[k]->duration_us : NAN;
			e->incumbent_id = inc[k] ? inc[k]->candidate_id : NULL;
			e->best_us = NAN;
			e->best_id = NULL;
			e->gain = NAN;
			slot_of_key[k] = out->nkeys++;
		}
		if (!record_valid(r))
			continue;
		out->nvalid++;
		struct stats_plateau_key *e = &out->keys[slot_of_key[k]];
		if (e->best_id == NULL || r->duration_us < e->best_us) {
			e->best_us = r->duration_us;
			e->best_id = r->candidate_id;
		}
	}
	/* Keys in file order of first appearance make the output stable. */
	qsort(out->keys, out->nkeys, sizeof(*out->keys), by_key);
	for (size_t e = 0; e < out->nkeys; e++) {
		struct stats_plateau_key *x = &out->keys[e];
		slot_of_key[x->key] = STATS_NOKEY;
		if (x->best_id && x->incumbent_id) {
			x->gain = (x->incumbent_us - x->best_us) / x->incumbent_us;
			if (isnan(out->improvement) || x->gain > out->improvement) {
				out->improvement = x->gain;
				out->improvement_key = x->key;
			}
		}
	}
	out->blocked = out->nvalid == 0;
	out->improved = !out->blocked && !isnan(out->improvement) &&
			out->improvement > noise + GAIN_SLACK;
	return 0;
}

int stats_plateau_compute(const struct records *rs, double noise, long window,
			  struct stats_plateau *out)
{
	memset(out, 0, sizeof(*out));
	out->last_improvement = -1;
	if (!isfinite(noise) || noise < 0.0 || window < 1) {
		errno = EINVAL;
		return -1;
	}
	out->noise = noise;
	out->window = window;
	struct order *idx = NULL;
	size_t *slot_of_key = NULL;
	const struct record **inc = NULL;
	int rc = -1;
	if (stats_keyset_build(rs, &out->ks) != 0)
		goto out;
	size_t n = rs->n, nk = out->ks.n;
	idx = malloc((n ? n : 1) * sizeof(*idx));
	slot_of_key = malloc((nk ? nk : 1) * sizeof(*slot_of_key));
	inc = calloc(nk ? nk : 1, sizeof(*inc));
	out->rounds = malloc((n ? n : 1) * sizeof(*out->rounds));
	if (!idx || !slot_of_key || !inc || !out->rounds)
		goto out;
	for (size_t i = 0; i < n; i++) {
		idx[i].round = rs->v[i].round;
		idx[i].i = i;
	}
	for (size_t k = 0; k < nk; k++)
		slot_of_key[k] = STATS_NOKEY;
	qsort(idx, n, sizeof(*idx), by_round_then_line);

	for (size_t lo = 0; lo < n;) {
		size_t hi = lo;
		long r = rs->v[idx[lo].i].round;
		size_t branches = 0;
		while (hi < n && rs->v[idx[hi].i].round == r) {
			branches += !stats_record_is_final(&rs->v[idx[hi].i]);
			hi++;
		}
		if (r >= 1 && branches > 0) {
			if (fill_round(rs, &out->ks, idx, lo, hi, inc, slot_of_key, noise,
				       &out->rounds[out->nrounds]) != 0) {
				free(out->rounds[out->nrounds].keys);
				goto out;
			}
			out->nrounds++;
		}
		/* The round's records become incumbents for later rounds. */
		for (size_t j = lo; j < hi; j++) {
			const struct record *x = &rs->v[idx[j].i];
			size_t k = out->ks.of[idx[j].i];
			if (record_valid(x) && (!inc[k] || x->duration_us < inc[k]->duration_us))
				inc[k] = x;
		}
		lo = hi;
	}
	for (size_t i = 0; i < out->nrounds; i++) {
		if (out->rounds[i].improved) {
			out->last_improvement = out->rounds[i].round;
			out->consecutive_no_improvement = 0;
		} else {
			out->consecutive_no_improvement++;
		}
	}
	out->plateau = out->consecutive_no_improvement >= window;
	rc = 0;
out:
	free(idx);
	free(slot_of_key);
	free(inc);
	if (rc != 0) {
		int e = errno ? errno : ENOMEM;
		stats_plateau_release(out);
		out->last_improvement = -1;
		errno = e;
	}
	return rc;
}

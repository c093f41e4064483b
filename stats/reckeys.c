/* reckeys.c: key set, incumbent and baseline lookups (reckeys.h). */
#include "stats/reckeys.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(const char *d, const char *w)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)d; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ 0xffu) * 1099511628211ULL; /* separator no UTF-8 text holds */
	for (const unsigned char *p = (const unsigned char *)w; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

void stats_keyset_release(struct stats_keyset *ks)
{
	if (!ks)
		return;
	free(ks->v);
	free(ks->of);
	free(ks->slot);
	memset(ks, 0, sizeof(*ks));
}

size_t stats_keyset_find(const struct stats_keyset *ks, const char *dispatch,
			 const char *workload)
{
	if (!ks->nslot)
		return STATS_NOKEY;
	size_t mask = ks->nslot - 1;
	for (size_t i = (size_t)key_hash(dispatch, workload) & mask;; i = (i + 1) & mask) {
		size_t s = ks->slot[i];
		if (s == 0)
			return STATS_NOKEY;
		const struct stats_key *k = &ks->v[s - 1];
		if ((k->dispatch == dispatch || strcmp(k->dispatch, dispatch) == 0) &&
		    (k->workload == workload || strcmp(k->workload, workload) == 0))
			return s - 1;
	}
}

static int keyset_grow(struct stats_keyset *ks)
{
	size_t cap = ks->cap ? ks->cap * 2 : 16, nslot = cap * 2;
	struct stats_key *v = realloc(ks->v, cap * sizeof(*v));
	size_t *slot = calloc(nslot, sizeof(*slot));
	if (v)
		ks->v = v;
	if (!v || !slot) {
		free(slot);
		return -1;
	}
	for (size_t k = 0; k < ks->n; k++) {
		size_t i = (size_t)key_hash(ks->v[k].dispatch, ks->v[k].workload) & (nslot - 1);
		while (slot[i])
			i = (i + 1) & (nslot - 1);
		slot[i] = k + 1;
	}
	free(ks->slot);
	ks->slot = slot;
	ks->nslot = nslot;
	ks->cap = cap;
	return 0;
}

size_t stats_keyset_add(struct stats_keyset *ks, const char *dispatch, const char *workload)
{
	if (ks->n == ks->cap && keyset_grow(ks) != 0)
		return STATS_NOKEY;
	size_t mask = ks->nslot - 1;
	for (size_t i = (size_t)key_hash(dispatch, workload) & mask;; i = (i + 1) & mask) {
		size_t s = ks->slot[i];
		if (s == 0) {
			ks->v[ks->n].dispatch = dispatch;
			ks->v[ks->n].workload = workload;
			ks->slot[i] = ++ks->n;
			return ks->n - 1;
		}
		const struct stats_key *k = &ks->v[s - 1];
		if ((k->dispatch == dispatch || strcmp(k->dispatch, dispatch) == 0) &&
		    (k->workload == workload || strcmp(k->workload, workload) == 0))
			return s - 1;
	}
}

int stats_keyset_build(const struct records *rs, struct stats_keyset *ks)
{
	memset(ks, 0, sizeof(*ks));
	size_t n = rs->n;
	ks->of = malloc((n ? n : 1) * sizeof(*ks->of));
	if (!ks->of)
		return -1;
	for (size_t r = 0; r < n; r++) {
		ks->of[r] = stats_keyset_add(ks, rs->v[r].dispatch, rs->v[r].workload);
		if (ks->of[r] == STATS_NOKEY) {
			stats_keyset_release(ks);
			return -1;
		}
	}
	ks->nrec = n;
	return 0;
}

int stats_key_matches(const struct stats_key *k, const char *text)
{
	if (strcmp(text, k->workload) == 0)
		return 1;
	size_t dl = strlen(k->dispatch);
	return strncmp(text, k->dispatch, dl) == 0 && text[dl] == '/' &&
	       strcmp(text + dl + 1, k->workload) == 0;
}

void stats_best_before(const struct records *rs, const struct stats_keyset *ks, long before,
		       const char *only_candidate, const struct record **best)
{
	for (size_t k = 0; k < ks->n; k++)
		best[k] = NULL;
	for (size_t i = 0; i < rs->n && i < ks->nrec; i++) {
		const struct record *r = &rs->v[i];
		if (r->round >= before || !record_valid(r))
			continue;
		const struct record **b = &best[ks->of[i]];
		if (only_candidate) {
			if (strcmp(r->candidate_id, only_candidate) != 0)
				continue;
			if (!*b || r->round >= (*b)->round)
				*b = r;
		} else if (!*b || r->duration_us < (*b)->duration_us) {
			*b = r;
		}
	}
}

void stats_baseline(const struct records *rs, const struct stats_keyset *ks,
		    const struct record **base)
{
	for (size_t k = 0; k < ks->n; k++)
		base[k] = NULL;
	for (size_t i = 0; i < rs->n && i < ks->nrec; i++) {
		const struct record *r = &rs->v[i];
		if (r->round != 0 || !record_valid(r))
			continue;
		const struct record **b = &base[ks->of[i]];
		int is_base = r->phase && strcmp(r->phase, "baseline") == 0;
		int b_base = *b && (*b)->phase && strcmp((*b)->phase, "baseline") == 0;
		if (!*b || (is_base && !b_base))
			*b = r;
	}
}

int stats_record_is_final(const struct record *r)
{
	return record_is_final(r);
}

double stats_rel_change(double d, double ref)
{
	if (!(d > 0.0) || !(ref > 0.0) || !isfinite(d) || !isfinite(ref))
		return NAN;
	return (d - ref) / ref;
}

/* ---- the round digest ---- */

enum { D_FIRST, D_BEST, D_NAMED, D_N };

/* A record kept past its line: strings other than ids owned here. */
struct kept {
	int has;
	struct record r;
	char *own[4];   /* artifact_path, artifact_sha256, msprof_raw_path, timestamp */
};

struct stats_digest_slot {
	struct kept k[D_N];
};

static void kept_clear(struct kept *k)
{
	for (int i = 0; i < 4; i++)
		free(k->own[i]);
	memset(k, 0, sizeof(*k));
}

static int kept_set(struct kept *k, const struct record *r)
{
	const char *src[4] = { r->artifact_path, r->artifact_sha256, r->msprof_raw_path, r->timestamp };
	char *own[4] = { NULL, NULL, NULL, NULL };
	for (int i = 0; i < 4; i++)
		if (src[i] && !(own[i] = strdup(src[i]))) {
			for (int j = 0; j < i; j++)
				free(own[j]);
			return -1;
		}
	kept_clear(k);
	k->has = 1;
	k->r = *r;
	memcpy(k->own, own, sizeof(own));
	k->r.artifact_path = own[0];
	k->r.artifact_sha256 = own[1];
	k->r.msprof_raw_path = own[2];
	k->r.timestamp = own[3];
	return 0;
}

void stats_digest_begin(struct stats_round_digest *d, long round, const char *incumbent_id)
{
	memset(d, 0, sizeof(*d));
	d->round = round;
	d->incumbent_id = incumbent_id;
	records_init(&d->keep);
}

void stats_digest_release(struct stats_round_digest *d)
{
	for (size_t k = 0; k < d->ks.n && d->slot; k++)
		for (int j = 0; j < D_N; j++)
			kept_clear(&d->slot[k].k[j]);
	free(d->slot);
	stats_keyset_release(&d->ks);
	records_release(&d->keep);
	memset(d, 0, sizeof(*d));
}

static struct stats_digest_slot *digest_slot(struct stats_round_digest *d, const struct record *r)
{
	size_t k = stats_keyset_add(&d->ks, r->dispatch, r->workload);
	if (k == STATS_NOKEY)
		return NULL;
	if (k >= d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct stats_digest_slot *v = realloc(d->slot, cap * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + d->cap, 0, (cap - d->cap) * sizeof(*v));
		d->slot = v;
		d->cap = cap;
	}
	return &d->slot[k];
}

int stats_digest_add(struct stats_round_digest *d, const struct record *r)
{
	struct stats_digest_slot *s = digest_slot(d, r);
	if (!s)
		return -1;
	if (!s->k[D_FIRST].has && kept_set(&s->k[D_FIRST], r) != 0)
		return -1;
	if (r->round == d->round)
		return records_push(&d->keep, r);
	if (r->round > d->round || !record_valid(r))
		return 0;
	/* the same choices as stats_best_before */
	struct kept *b = &s->k[D_BEST], *n = &s->k[D_NAMED];
	if ((!b->has || r->duration_us < b->r.duration_us) && kept_set(b, r) != 0)
		return -1;
	if (d->incumbent_id && strcmp(r->candidate_id, d->incumbent_id) == 0 &&
	    (!n->has || r->round >= n->r.round) && kept_set(n, r) != 0)
		return -1;
	return 0;
}

static int by_line(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	return x->line < y->line ? -1 : (x->line > y->line);
}

int stats_digest_finish(struct stats_round_digest *d, struct records *out)
{
	for (size_t k = 0; k < d->ks.n; k++)
		for (int j = 0; j < D_N; j++) {
			const struct kept *x = &d->slot[k].k[j];
			int dup = 0; /* one record may be first, best and named at once */
			for (int i = 0; i < j; i++)
				dup |= d->slot[k].k[i].has && d->slot[k].k[i].r.line == x->r.line;
			if (x->has && !dup && x->r.round != d->round && records_push(&d->keep, &x->r) != 0)
				return -1;
		}
	if (d->keep.n > 1)
		qsort(d->keep.v, d->keep.n, sizeof(*d->keep.v), by_line);
	size_t v1 = 0, v2 = 0;
	for (size_t i = 0; i < d->keep.n; i++) {
		v1 += d->keep.v[i].contract == RECORDS_V1;
		v2 += d->keep.v[i].contract == RECORDS_V2;
	}
	d->keep.contract = v1 + v2 == 0 ? RECORDS_UNKNOWN : v2 > v1 ? RECORDS_V2 : RECORDS_V1;
	*out = d->keep;
	records_init(&d->keep);
	return 0;
}

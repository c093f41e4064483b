/* speedup.c: baseline-to-final speedups and their geometric means
 * (speedup.h). */
#include "stats/speedup.h"
#include "stats/final.h"
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
	case STATS_FINAL_ADOPTED: return "adopted";
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
	for (size_t k = 0; s->kept && k < s->ks.n; k++)
		free(s->kept[k].runs);
	free(s->kept);
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

/* A record kept past the reader's line: only ids (interned) stay. */
static void keep(struct record *dst, const struct record *r)
{
	*dst = *r;
	dst->artifact_path = dst->artifact_sha256 = dst->msprof_raw_path = dst->timestamp = NULL;
}

/* Appends r's duration to the runs *v (n, cap) when r is a run of the
 * final figure (valid, not round 0: stats/final.h). 0, -1 out of memory. */
static int runs_add(double **v, size_t *n, size_t *cap, const struct record *r)
{
	if (!record_valid(r) || r->round == 0)
		return 0;
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 2;
		double *x = realloc(*v, nc * sizeof(*x));
		if (!x)
			return -1;
		*v = x;
		*cap = nc;
	}
	(*v)[(*n)++] = r->duration_us;
	return 0;
}

void stats_speedup_begin(struct stats_speedup_acc *a, const char *final_candidate)
{
	memset(a, 0, sizeof(*a));
	a->final_candidate = final_candidate;
}

static void free_cands(struct stats_speedup_acc *a)
{
	for (size_t i = 0; i < a->ncands; i++) {
		for (size_t k = 0; k < a->cands[i].n; k++)
			free(a->cands[i].runs[k].v);
		free(a->cands[i].keys);
		free(a->cands[i].rec);
		free(a->cands[i].runs);
	}
	free(a->cands);
	stats_keyset_release(&a->cand_ids);
	a->cands = NULL;
	a->ncands = a->capc = 0;
}

void stats_speedup_abort(struct stats_speedup_acc *a)
{
	for (size_t k = 0; a->kept && k < a->ks.n; k++)
		free(a->kept[k].runs);
	stats_keyset_release(&a->ks);
	free(a->kept);
	free_cands(a);
	memset(a, 0, sizeof(*a));
}

/* The lineage entry of id, created when missing; NULL when memory ran out.
 * Found through a key set of the ids (stats/reckeys.h): a log of thousands
 * of rounds has as many candidates, and a scan per record made the command
 * quadratic. */
static struct stats_speedup_cand *cand_get(struct stats_speedup_acc *a, const char *id)
{
	size_t k = stats_keyset_add(&a->cand_ids, id, "");
	if (k == STATS_NOKEY)
		return NULL;
	if (k < a->ncands)
		return &a->cands[k];
	if (a->ncands == a->capc) {
		size_t cap = a->capc ? a->capc * 2 : 16;
		struct stats_speedup_cand *v = realloc(a->cands, cap * sizeof(*v));
		if (!v)
			return NULL;
		a->cands = v;
		a->capc = cap;
	}
	struct stats_speedup_cand *c = &a->cands[a->ncands++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->min_valid_round = LONG_MAX;
	c->max_child_round = -1;
	return c;
}

static int cand_keep(struct stats_speedup_cand *c, size_t k, const struct record *r)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->keys[i] == k) {
			if (r->round >= c->rec[i].round)
				keep(&c->rec[i], r);
			return runs_add(&c->runs[i].v, &c->runs[i].n, &c->runs[i].cap, r);
		}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4;
		size_t *kv = realloc(c->keys, cap * sizeof(*kv));
		if (!kv)
			return -1;
		c->keys = kv;
		struct record *rv = realloc(c->rec, cap * sizeof(*rv));
		if (!rv)
			return -1;
		c->rec = rv;
		struct stats_speedup_runs *uv = realloc(c->runs, cap * sizeof(*uv));
		if (!uv)
			return -1;
		c->runs = uv;
		c->cap = cap;
	}
	c->keys[c->n] = k;
	keep(&c->rec[c->n], r);
	memset(&c->runs[c->n], 0, sizeof(c->runs[c->n]));
	c->n++;
	return runs_add(&c->runs[c->n - 1].v, &c->runs[c->n - 1].n, &c->runs[c->n - 1].cap, r);
}

/* Lineage bookkeeping of one record (no final candidate given). */
static int lineage_add(struct stats_speedup_acc *a, size_t k, const struct record *r)
{
	struct stats_speedup_cand *c = cand_get(a, r->candidate_id);
	if (!c)
		return -1;
	if (record_valid(r)) {
		if (r->round < c->min_valid_round)
			c->min_valid_round = r->round;
		if (cand_keep(c, k, r) != 0)
			return -1;
	}
	if (r->parent_id && strcmp(r->parent_id, r->candidate_id) != 0) {
		struct stats_speedup_cand *pc = cand_get(a, r->parent_id);
		if (!pc)
			return -1;
		if (r->round >= pc->max_child_round) {
			pc->max_child_round = r->round;
			pc->child_seq = ++a->seq;
		}
	}
	return 0;
}

/* The last path component of NAME; *LEN its length without a ".py". */
static const char *hint_stem(const char *name, size_t *len)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	size_t bn = strlen(b);
	if (bn > 3 && strcmp(b + bn - 3, ".py") == 0)
		bn -= 3;
	*len = bn;
	return b;
}

/* 1 when ID (N bytes) is a prefix of NAME (NL bytes) cut at a
 * non-alphanumeric byte ("v3" of "v3_final.py"); name[n] is read only
 * when the name is longer than the id. */
static int is_cut_prefix(const char *id, size_t n, const char *name, size_t nl)
{
	if (n == 0 || n >= nl || strncmp(id, name, n) != 0)
		return 0;
	unsigned char next = (unsigned char)name[n];
	return !((next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') ||
		 (next >= 'A' && next <= 'Z'));
}

/* The candidate final_hint names (see speedup.h), *how 1 exact or stem,
 * 2 prefix; NULL when none. */
static struct stats_speedup_cand *resolve_hint(const struct stats_speedup_acc *a,
						     const char *name, int *how)
{
	struct stats_speedup_cand *pre = NULL;
	size_t nl = strlen(name), bn;
	const char *b = hint_stem(name, &bn);
	for (size_t i = 0; i < a->ncands; i++) {
		struct stats_speedup_cand *c = &a->cands[i];
		size_t n = strlen(c->id);
		if (c->n == 0)
			continue; /* no valid record */
		if (strcmp(c->id, name) == 0 || (n == bn && strncmp(c->id, b, n) == 0)) {
			*how = 1;
			return c;
		}
		if (is_cut_prefix(c->id, n, name, nl) && (!pre || n > strlen(pre->id)))
			pre = c;
	}
	*how = pre ? 2 : 0;
	return pre;
}

/* The adopted candidate: the parent of the latest round (later line on a
 * tie) that has a valid record in an earlier round; NULL when none. */
static struct stats_speedup_cand *pick_adopted(const struct stats_speedup_acc *a)
{
	struct stats_speedup_cand *best = NULL;
	for (size_t i = 0; i < a->ncands; i++) {
		struct stats_speedup_cand *c = &a->cands[i];
		if (c->max_child_round < 0 || c->min_valid_round >= c->max_child_round)
			continue;
		if (!best || c->max_child_round > best->max_child_round ||
		    (c->max_child_round == best->max_child_round && c->child_seq > best->child_seq))
			best = c;
	}
	return best;
}


static int is_baseline_phase(const struct record *r)
{
	return r->phase && r->phase[0] == 'b' && strcmp(r->phase, "baseline") == 0;
}

int stats_speedup_add(struct stats_speedup_acc *a, const struct record *r)
{
	size_t k = stats_keyset_add(&a->ks, r->dispatch, r->workload);
	if (k == STATS_NOKEY)
		return -1;
	if (k >= a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		struct stats_speedup_kept *v = realloc(a->kept, cap * sizeof(*v));
		if (!v)
			return -1;
		memset(v + a->cap, 0, (cap - a->cap) * sizeof(*v));
		a->kept = v;
		a->cap = cap;
	}
	struct stats_speedup_kept *e = &a->kept[k];
	if (!a->final_candidate && lineage_add(a, k, r) != 0)
		return -1;
	if (!record_valid(r))
		return 0;
	/* baseline: the first valid round-0 record, phase baseline preferred */
	if (r->round == 0 && (!e->has_base || (is_baseline_phase(r) && !is_baseline_phase(&e->base)))) {
		keep(&e->base, r);
		e->has_base = 1;
	}
	if (!e->has_best || r->duration_us < e->best.duration_us) {
		keep(&e->best, r);
		e->has_best = 1;
	}
	if (record_is_final(r)) { /* the last one wins */
		keep(&e->phase, r);
		e->has_phase = 1;
		a->any_phase = 1;
	}
	if (a->final_candidate && strcmp(r->candidate_id, a->final_candidate) == 0) {
		if (!e->has_named || r->round >= e->named.round) {
			keep(&e->named, r);
			e->has_named = 1;
		}
		return runs_add(&e->runs, &e->nruns, &e->capruns, r);
	}
	return 0;
}

/* Groups: keys sorted by dispatch, each run one group, then groups back
 * in order of first appearance; and the overall geometric mean. */
static int group(struct stats_speedup *out)
{
	size_t nk = out->nkeys, cap = nk ? nk : 1;
	double *buf = malloc(cap * sizeof(*buf));
	size_t *idx = malloc(cap * sizeof(*idx));
	struct by_d *order = malloc(cap * sizeof(*order));
	out->groups = calloc(cap, sizeof(*out->groups));
	int rc = -1;
	if (!buf || !idx || !order || !out->groups)
		goto out;
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
	free(buf);
	free(idx);
	free(order);
	return rc;
}

/* One key's final and speedup from what was kept. */
static void settle_key(struct stats_speedup *out, size_t k, int named, enum stats_final_source src)
{
	struct stats_speedup_kept *kp = &out->kept[k];
	struct stats_speedup_key *e = &out->keys[k];
	e->key = k;
	e->dispatch = out->ks.v[k].dispatch;
	e->workload = out->ks.v[k].workload;
	e->baseline = kp->has_base ? &kp->base : NULL;
	if (named) {
		e->final = kp->has_named ? &kp->named : NULL;
		e->source = kp->has_named ? src : STATS_FINAL_NONE;
	} else {
		/* phase "final" records; keys without one have no final */
		e->final = kp->has_phase ? &kp->phase : NULL;
		e->source = kp->has_phase ? STATS_FINAL_PHASE : STATS_FINAL_NONE;
	}
	e->speedup = NAN;
	e->change = NAN;
	e->final_us = NAN;
	e->nruns = 0;
	if (e->final) {
		/* the final figure (stats/final.h): the median of the final
		 * candidate's runs, the final record alone when it is its only one */
		struct stats_final f;
		if (kp->nruns && stats_final_figure(kp->runs, kp->nruns, 0, &f) == 0) {
			e->final_us = f.figure;
			e->nruns = kp->nruns;
		} else {
			e->final_us = e->final->duration_us;
			e->nruns = 1;
		}
	}
	if (e->baseline && e->final) {
		e->speedup = e->baseline->duration_us / e->final_us;
		e->change = stats_rel_change(e->final_us, e->baseline->duration_us);
		e->regression = e->speedup < 1.0;
	}
}

/* Takes candidate C's records as the named finals of OUT. */
static void take_named(struct stats_speedup *out, struct stats_speedup_cand *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct stats_speedup_kept *kp = &out->kept[c->keys[i]];
		kp->named = c->rec[i];
		kp->has_named = 1;
		free(kp->runs);
		kp->runs = c->runs[i].v; /* moved */
		kp->nruns = c->runs[i].n;
		kp->capruns = c->runs[i].cap;
		c->runs[i].v = NULL;
		c->runs[i].n = c->runs[i].cap = 0;
	}
	out->final_candidate = c->id;
}

/* v2 phase "final" finals: each key's runs are those of the candidate of
 * its last final record (moved out of the lineage). */
static void take_phase_runs(struct stats_speedup *out, struct stats_speedup_acc *a)
{
	for (size_t i = 0; i < a->ncands; i++) {
		struct stats_speedup_cand *c = &a->cands[i];
		for (size_t j = 0; j < c->n; j++) {
			struct stats_speedup_kept *kp = &out->kept[c->keys[j]];
			if (!kp->has_phase || kp->phase.candidate_id != c->id)
				continue;
			free(kp->runs);
			kp->runs = c->runs[j].v;
			kp->nruns = c->runs[j].n;
			kp->capruns = c->runs[j].cap;
			c->runs[j].v = NULL;
			c->runs[j].n = c->runs[j].cap = 0;
		}
	}
}

int stats_speedup_finish(struct stats_speedup_acc *a, struct stats_speedup *out)
{
	memset(out, 0, sizeof(*out));
	out->geomean_speedup = NAN;
	out->geomean_change = NAN;
	out->ks = a->ks;
	out->kept = a->kept;
	int named = a->final_candidate != NULL;
	enum stats_final_source src = STATS_FINAL_NAMED;
	size_t nk = out->ks.n;
	if (!named && a->final_hint && nk > 0) {
		int how = 0;
		struct stats_speedup_cand *c = resolve_hint(a, a->final_hint, &how);
		out->hint = c ? how : -1;
		if (c) {
			take_named(out, c);
			named = 1;
		}
	}
	if (!named && !a->any_phase && nk > 0) {
		/* never the per-key minimum over candidates (a kernel no one
		 * has): the candidate the records show adopted last */
		struct stats_speedup_cand *c = pick_adopted(a);
		if (!c) {
			free_cands(a);
			memset(a, 0, sizeof(*a));
			errno = ESRCH;
			goto fail;
		}
		take_named(out, c);
		named = 1;
		src = STATS_FINAL_ADOPTED;
	}
	if (!named)
		take_phase_runs(out, a);
	free_cands(a);
	memset(a, 0, sizeof(*a));
	errno = ENOMEM;
	out->keys = calloc(nk ? nk : 1, sizeof(*out->keys));
	if (!out->keys)
		goto fail;
	size_t any = 0;
	for (size_t k = 0; k < nk; k++)
		any += out->kept[k].has_named;
	if (named && !any) {
		errno = ENOENT;
		goto fail;
	}
	for (size_t k = 0; k < nk; k++)
		settle_key(out, k, named, src);
	out->nkeys = nk;
	if (group(out) != 0)
		goto fail;
	return 0;
fail:;
	int e = errno;
	stats_speedup_release(out);
	errno = e;
	return -1;
}

int stats_speedup_compute(const struct records *rs, const char *final_candidate,
			  struct stats_speedup *out)
{
	struct stats_speedup_acc a;
	stats_speedup_begin(&a, final_candidate);
	for (size_t i = 0; i < rs->n; i++)
		if (stats_speedup_add(&a, &rs->v[i]) != 0) {
			stats_speedup_abort(&a);
			memset(out, 0, sizeof(*out));
			out->geomean_speedup = out->geomean_change = NAN;
			errno = ENOMEM;
			return -1;
		}
	return stats_speedup_finish(&a, out);
}

const char *stats_last_adopted(const struct records *rs)
{
	struct stats_speedup_acc a;
	const char *id = NULL;
	stats_speedup_begin(&a, NULL);
	for (size_t i = 0; i < rs->n; i++)
		if (stats_speedup_add(&a, &rs->v[i]) != 0)
			goto out;
	const struct stats_speedup_cand *c = pick_adopted(&a);
	id = c ? c->id : NULL;
out:
	stats_speedup_abort(&a);
	return id;
}

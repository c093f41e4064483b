/* plateau.c: per-round improvement and plateau detection (plateau.h). */
#include "stats/plateau.h"
#include "stats/winner.h"

#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exact ties (3.0% at noise 3%) must not count as gains because of
 * rounding in (inc - best) / inc. */
#define GAIN_SLACK 1e-12

/* One (round, key) cell while records stream past. */
struct stats_plateau_cell {
	long round;
	size_t key;
	size_t nrecords, nvalid;    /* branch records (phase final excluded) */
	double best_us;             /* smallest valid branch duration, first on ties */
	const char *best_id;
	double min_us;              /* smallest valid duration, final included */
	const char *min_id;
};

/* One (round, key, candidate) branch while records stream past. */
struct stats_plateau_branch {
	long round;
	size_t key;
	const char *cand;           /* interned id */
	size_t seq;                 /* order of first appearance */
	double min_us;              /* smallest valid duration, NAN when none */
	int baseline_phase;         /* a v2 "baseline" record (not a candidate) */
};

static uint64_t cell_hash(long round, size_t key)
{
	uint64_t h = ((uint64_t)round * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)key * 0xC2B2AE3D27D4EB4Full);
	return h ^ (h >> 31);
}

static int cells_grow(struct stats_plateau_acc *a)
{
	size_t cap = a->cap ? a->cap * 2 : 64, nslot = cap * 2;
	struct stats_plateau_cell *v = realloc(a->cells, cap * sizeof(*v));
	size_t *slot = calloc(nslot, sizeof(*slot));
	if (v)
		a->cells = v;
	if (!v || !slot) {
		free(slot);
		return -1;
	}
	for (size_t c = 0; c < a->n; c++) {
		size_t j = (size_t)cell_hash(v[c].round, v[c].key) & (nslot - 1);
		while (slot[j])
			j = (j + 1) & (nslot - 1);
		slot[j] = c + 1;
	}
	free(a->slot);
	a->slot = slot;
	a->nslot = nslot;
	a->cap = cap;
	return 0;
}

/* The cell of (round, key), made when new; NULL when memory ran out. */
static struct stats_plateau_cell *cell_of(struct stats_plateau_acc *a, long round, size_t key)
{
	if (a->n == a->cap && cells_grow(a) != 0)
		return NULL;
	size_t mask = a->nslot - 1;
	for (size_t j = (size_t)cell_hash(round, key) & mask;; j = (j + 1) & mask) {
		size_t s = a->slot[j];
		if (s && a->cells[s - 1].round == round && a->cells[s - 1].key == key)
			return &a->cells[s - 1];
		if (s)
			continue;
		struct stats_plateau_cell *c = &a->cells[a->n];
		memset(c, 0, sizeof(*c));
		c->round = round;
		c->key = key;
		c->best_us = c->min_us = NAN;
		a->slot[j] = ++a->n;
		return c;
	}
}

static uint64_t branch_hash(long round, size_t key, const char *cand)
{
	uint64_t h = cell_hash(round, key);
	for (const unsigned char *p = (const unsigned char *)cand; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static int branches_grow(struct stats_plateau_acc *a)
{
	size_t cap = a->capbr ? a->capbr * 2 : 64, nslot = cap * 2;
	struct stats_plateau_branch *v = realloc(a->br, cap * sizeof(*v));
	size_t *slot = calloc(nslot, sizeof(*slot));
	if (v)
		a->br = v;
	if (!v || !slot) {
		free(slot);
		return -1;
	}
	for (size_t c = 0; c < a->nbr; c++) {
		size_t j = (size_t)branch_hash(v[c].round, v[c].key, v[c].cand) & (nslot - 1);
		while (slot[j])
			j = (j + 1) & (nslot - 1);
		slot[j] = c + 1;
	}
	free(a->bslot);
	a->bslot = slot;
	a->nbslot = nslot;
	a->capbr = cap;
	return 0;
}

static struct stats_plateau_branch *branch_of(struct stats_plateau_acc *a, long round, size_t key,
					       const char *cand)
{
	if (a->nbr == a->capbr && branches_grow(a) != 0)
		return NULL;
	size_t mask = a->nbslot - 1;
	for (size_t j = (size_t)branch_hash(round, key, cand) & mask;; j = (j + 1) & mask) {
		size_t s = a->bslot[j];
		if (s) {
			struct stats_plateau_branch *b = &a->br[s - 1];
			if (b->round == round && b->key == key && strcmp(b->cand, cand) == 0)
				return b;
			continue;
		}
		struct stats_plateau_branch *b = &a->br[a->nbr];
		memset(b, 0, sizeof(*b));
		b->round = round;
		b->key = key;
		b->cand = cand;
		b->seq = a->nbr;
		b->min_us = NAN;
		a->bslot[j] = ++a->nbr;
		return b;
	}
}

void stats_plateau_begin(struct stats_plateau_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void stats_plateau_abort(struct stats_plateau_acc *a)
{
	stats_keyset_release(&a->ks);
	free(a->cells);
	free(a->slot);
	free(a->br);
	free(a->bslot);
	memset(a, 0, sizeof(*a));
}

int stats_plateau_add(struct stats_plateau_acc *a, const struct record *r)
{
	size_t k = stats_keyset_add(&a->ks, r->dispatch, r->workload);
	struct stats_plateau_cell *c = k == STATS_NOKEY ? NULL : cell_of(a, r->round, k);
	if (!c)
		return -1;
	int valid = record_valid(r);
	if (valid && (!c->min_id || r->duration_us < c->min_us)) {
		c->min_us = r->duration_us;
		c->min_id = r->candidate_id;
	}
	if (record_is_final(r))
		return 0;
	if (r->round >= 1) {
		struct stats_plateau_branch *b = branch_of(a, r->round, k, r->candidate_id);
		if (!b)
			return -1;
		if (valid && (isnan(b->min_us) || r->duration_us < b->min_us))
			b->min_us = r->duration_us;
		b->baseline_phase = r->phase && strcmp(r->phase, "baseline") == 0;
	}
	c->nrecords++;
	if (!valid)
		return 0;
	c->nvalid++;
	if (!c->best_id || r->duration_us < c->best_us) {
		c->best_us = r->duration_us;
		c->best_id = r->candidate_id;
	}
	return 0;
}

static int by_round_then_seq(const void *x, const void *y)
{
	const struct stats_plateau_branch *a = x, *b = y;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

/* Appends to MINI a v1 record of ROUND for CAND on key K of KS, with
 * l0_pass 1 and no metrics; returns it. */
static struct record *mini_add(struct records *mini, const struct stats_keyset *ks, size_t k,
			       long round, const char *cand)
{
	struct record *r = &mini->v[mini->n++];
	r->line = (long)mini->n;
	r->contract = RECORDS_V1;
	r->round = round;
	r->candidate_id = (char *)cand;
	r->dispatch = (char *)ks->v[k].dispatch;
	r->workload = (char *)ks->v[k].workload;
	r->l0_pass = 1;
	r->aicore_util = r->mem_bw_gbps = NAN;
	return r;
}

/* Sets X's winner_decision and winner_id from W, and clears improved
 * unless W has a winner that gains beyond noise somewhere. */
static void take_winner(const struct stats_winner *w, struct stats_plateau_round *x)
{
	x->winner_decision = (int)w->decision;
	int has_winner = w->decision == STATS_WINNER_ADOPT ||
			 w->decision == STATS_WINNER_NEEDS_AB || w->decision == STATS_WINNER_TIE;
	if (has_winner && w->chosen != STATS_NOKEY) {
		const struct stats_winner_candidate *c = &w->cands[w->chosen];
		x->winner_id = c->candidate_id;
		if (c->ngains == 0)
			x->improved = 0;
	} else {
		x->improved = 0;
	}
}

/* The winner rule (stats/winner.h, same noise) over round `round`: its
 * branches br[0..n) and the incumbents before it, as a small record set of
 * their own (one record per incumbent, one per branch: its smallest valid
 * duration, or an L0 failure when it has no valid one). Sets the round's
 * winner_decision and winner_id, and clears improved unless a complete
 * candidate without regression gains beyond noise on some key. Returns 0,
 * -1 when memory ran out. */
static int winner_check(const struct stats_keyset *ks, const struct stats_plateau_branch *br,
			size_t n, const double *inc_us, const char *const *inc_id, double noise,
			struct stats_plateau_round *x)
{
	struct records mini;
	memset(&mini, 0, sizeof(mini));
	mini.v = calloc(ks->n + n + 1, sizeof(*mini.v));
	if (!mini.v)
		return -1;
	mini.contract = RECORDS_V1;
	for (size_t k = 0; k < ks->n; k++)
		if (inc_id[k])
			mini_add(&mini, ks, k, x->round - 1, inc_id[k])->duration_us = inc_us[k];
	for (size_t i = 0; i < n; i++) {
		if (br[i].baseline_phase)
			continue;
		struct record *r = mini_add(&mini, ks, br[i].key, x->round, br[i].cand);
		r->l0_pass = !isnan(br[i].min_us);
		r->duration_us = r->l0_pass ? br[i].min_us : 1.0;
	}
	struct stats_winner_opts o;
	struct stats_winner w;
	char err[256];
	stats_winner_opts_init(&o);
	o.noise = noise;
	int rc = 0;
	if (stats_winner_choose(&mini, x->round, &o, &w, err, sizeof(err)) != 0) {
		if (errno == ENOMEM)
			rc = -1;
		x->improved = 0; /* no check possible: not an improvement */
	} else {
		take_winner(&w, x);
		stats_winner_release(&w);
	}
	free(mini.v);
	return rc;
}

static int by_round_then_key(const void *x, const void *y)
{
	const struct stats_plateau_cell *a = x, *b = y;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->key < b->key ? -1 : (a->key > b->key);
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

/* One round from its cells c[0..n) (keys ascending), reading the
 * incumbents (inc_us/inc_id: rounds before this one). */
static int fill_round(const struct stats_plateau_cell *c, size_t n, const double *inc_us,
		      const char *const *inc_id, double noise, struct stats_plateau_round *out)
{
	memset(out, 0, sizeof(*out));
	out->round = c[0].round;
	out->improvement = NAN;
	out->improvement_key = STATS_NOKEY;
	out->keys = malloc(n * sizeof(*out->keys));
	if (!out->keys)
		return -1;
	for (size_t j = 0; j < n; j++) {
		if (c[j].nrecords == 0)
			continue; /* only final records of the key */
		size_t k = c[j].key;
		struct stats_plateau_key *e = &out->keys[out->nkeys++];
		out->nrecords += c[j].nrecords;
		out->nvalid += c[j].nvalid;
		e->key = k;
		e->incumbent_us = inc_id[k] ? inc_us[k] : NAN;
		e->incumbent_id = inc_id[k];
		e->best_us = c[j].best_id ? c[j].best_us : NAN;
		e->best_id = c[j].best_id;
		e->gain = NAN;
		if (e->best_id && e->incumbent_id) {
			e->gain = (e->incumbent_us - e->best_us) / e->incumbent_us;
			if (isnan(out->improvement) || e->gain > out->improvement) {
				out->improvement = e->gain;
				out->improvement_key = k;
			}
		}
	}
	out->blocked = out->nvalid == 0;
	out->improved = !out->blocked && !isnan(out->improvement) &&
			out->improvement > noise + GAIN_SLACK;
	return 0;
}

/* Rounds in order: the state walk_rounds threads through its steps. */
struct walk {
	struct stats_plateau_acc *a;
	struct stats_plateau *out;
	double *inc_us;     /* per key: the incumbent's duration */
	const char **inc_id; /* per key: the incumbent, NULL before any */
	size_t b0;          /* first branch of the current round in a->br */
};

/* Adds the row of the round in cells [lo, hi) and checks its winner;
 * -1 when memory ran out. */
static int walk_row(struct walk *wk, size_t lo, size_t hi)
{
	struct stats_plateau_acc *a = wk->a;
	struct stats_plateau *out = wk->out;
	struct stats_plateau_round *x = &out->rounds[out->nrounds];
	if (fill_round(a->cells + lo, hi - lo, wk->inc_us, wk->inc_id, out->noise, x) != 0)
		return -1;
	out->nrounds++;
	while (wk->b0 < a->nbr && a->br[wk->b0].round < x->round)
		wk->b0++;
	size_t b1 = wk->b0;
	while (b1 < a->nbr && a->br[b1].round == x->round)
		b1++;
	if (!x->blocked && winner_check(&out->ks, a->br + wk->b0, b1 - wk->b0, wk->inc_us,
					wk->inc_id, out->noise, x) != 0)
		return -1;
	return 0;
}

/* The minima of cells [lo, hi) become incumbents where they are faster. */
static void walk_take_minima(struct walk *wk, size_t lo, size_t hi)
{
	for (size_t j = lo; j < hi; j++) {
		const struct stats_plateau_cell *c = &wk->a->cells[j];
		if (c->min_id && (!wk->inc_id[c->key] || c->min_us < wk->inc_us[c->key])) {
			wk->inc_us[c->key] = c->min_us;
			wk->inc_id[c->key] = c->min_id;
		}
	}
}

/* Rounds in order: each becomes a row (when it has branch records and is
 * >= 1), then its minima become incumbents for the rounds after it. */
static int walk_rounds(struct stats_plateau_acc *a, struct stats_plateau *out)
{
	size_t nk = out->ks.n ? out->ks.n : 1;
	struct walk wk = { a, out, malloc(nk * sizeof(double)), calloc(nk, sizeof(char *)), 0 };
	size_t nr = 0;
	for (size_t i = 0; i < a->n; i++)
		nr += i == 0 || a->cells[i].round != a->cells[i - 1].round;
	out->rounds = malloc((nr ? nr : 1) * sizeof(*out->rounds));
	int rc = -1;
	if (!wk.inc_us || !wk.inc_id || !out->rounds)
		goto out;
	for (size_t lo = 0; lo < a->n;) {
		size_t hi = lo, branches = 0;
		while (hi < a->n && a->cells[hi].round == a->cells[lo].round)
			branches += a->cells[hi++].nrecords;
		if (a->cells[lo].round >= 1 && branches > 0 && walk_row(&wk, lo, hi) != 0)
			goto out;
		walk_take_minima(&wk, lo, hi);
		lo = hi;
	}
	rc = 0;
out:
	free(wk.inc_us);
	free(wk.inc_id);
	return rc;
}

int stats_plateau_finish(struct stats_plateau_acc *a, double noise, long window,
			 struct stats_plateau *out)
{
	memset(out, 0, sizeof(*out));
	out->last_improvement = -1;
	if (!isfinite(noise) || noise < 0.0 || window < 1) {
		stats_plateau_abort(a);
		errno = EINVAL;
		return -1;
	}
	out->noise = noise;
	out->window = window;
	out->ks = a->ks;
	memset(&a->ks, 0, sizeof(a->ks));
	if (a->n > 1)
		qsort(a->cells, a->n, sizeof(*a->cells), by_round_then_key);
	if (a->nbr > 1)
		qsort(a->br, a->nbr, sizeof(*a->br), by_round_then_seq);
	int rc = walk_rounds(a, out);
	stats_plateau_abort(a);
	if (rc != 0) {
		stats_plateau_release(out);
		out->last_improvement = -1;
		errno = ENOMEM;
		return -1;
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
	return 0;
}

int stats_plateau_compute(const struct records *rs, double noise, long window,
			  struct stats_plateau *out)
{
	struct stats_plateau_acc a;
	stats_plateau_begin(&a);
	for (size_t i = 0; i < rs->n; i++)
		if (stats_plateau_add(&a, &rs->v[i]) != 0) {
			stats_plateau_abort(&a);
			memset(out, 0, sizeof(*out));
			out->last_improvement = -1;
			errno = ENOMEM;
			return -1;
		}
	return stats_plateau_finish(&a, noise, window, out);
}

/* s4_repeats.c: the records that measure one kernel again (s4.h,
 * s4_repeats_of). A claim about the final kernel reconciles with the
 * median of them, not with the best one. */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "stats/final.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void s4_repeats_release(struct s4_repeats *rp)
{
	free(rp->v);
	free(rp->amb);
	free(rp->confirm);
	memset(rp, 0, sizeof(*rp));
	rp->median = rp->median_all = rp->confirm_median = NAN;
}

/* The rounds whose section (in the checked run) says it measures again
 * (复测, re-measure, ...), sorted: 0, -1 on allocation failure. */
struct remeasures {
	long *v;
	size_t n;
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static int remeasures_build(const struct optlog *lg, struct remeasures *rm)
{
	long run = lg->runs > 1 ? lg->target_run : -1;
	rm->n = 0;
	rm->v = malloc((lg->n_rounds + 1) * sizeof(*rm->v));
	if (!rm->v)
		return -1;
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if (e->remeasure && !e->run_label && (run < 0 || e->run == run))
			rm->v[rm->n++] = e->round;
	}
	if (rm->n > 1)
		qsort(rm->v, rm->n, sizeof(*rm->v), cmp_long);
	return 0;
}

static int round_remeasures(const struct remeasures *rm, long r)
{
	return rm->n && bsearch(&r, rm->v, rm->n, sizeof(*rm->v), cmp_long) != NULL;
}

/* The median of the durations of v[0..n) (NAN when n == 0); only those
 * in a confirmation round when confirm (flags in cf). */
static double median_of(const struct record *const *v, const unsigned char *cf, size_t n, int confirm)
{
	double *d = malloc((n + 1) * sizeof(*d));
	size_t k = 0;
	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!confirm || cf[i])
			d[k++] = v[i]->duration_us;
	double m = k ? stats_median(d, k) : NAN;
	free(d);
	return m;
}

/* What the records of the key say about F: its parents, its first
 * round, its sha256 (v2), and how many candidates each confirmation round
 * holds for the key (0 when r is no confirmation round). */
struct final_facts {
	const char *parents[8];
	size_t nparents;
	long first_round;
	const char *sha;
	const char *base_id;   /* candidate_id of the key's round-0 baseline, NULL none */
};

static void facts_of(const struct records *rs, size_t from, const char *final_id, const char *dispatch,
		     const char *workload, struct final_facts *ff)
{
	memset(ff, 0, sizeof(*ff));
	ff->first_round = -1;
	for (size_t i = from; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->dispatch != dispatch || r->workload != workload)
			continue;
		if (s4_is_baseline(r) && r->round == 0 && !ff->base_id)
			ff->base_id = r->candidate_id;
		if (r->candidate_id != final_id || s4_is_baseline(r))
			continue;
		if (ff->first_round < 0 || r->round < ff->first_round)
			ff->first_round = r->round;
		if (r->artifact_sha256) /* the last one: v2's final record */
			ff->sha = r->artifact_sha256;
		int seen = 0;
		for (size_t k = 0; k < ff->nparents; k++)
			seen |= ff->parents[k] == r->parent_id;
		if (!seen && r->parent_id && ff->nparents < 8)
			ff->parents[ff->nparents++] = r->parent_id;
	}
}

/* 1 when r's parent is F or one of F's parents. */
static int kin(const struct record *r, const char *final_id, const struct final_facts *ff)
{
	if (!r->parent_id)
		return 0;
	if (r->parent_id == final_id)
		return 1;
	for (size_t k = 0; k < ff->nparents; k++)
		if (ff->parents[k] == r->parent_id)
			return 1;
	return 0;
}

/* The only candidate of the key in round r (other than a baseline), or
 * NULL when it holds several or none. */
static const char *only_candidate(const struct records *rs, size_t from, long r, const char *dispatch,
				  const char *workload)
{
	const char *one = NULL;
	for (size_t i = from; i < rs->n; i++) {
		const struct record *x = &rs->v[i];
		if (x->round != r || x->dispatch != dispatch || x->workload != workload || s4_is_baseline(x))
			continue;
		if (one && one != x->candidate_id)
			return NULL;
		one = x->candidate_id;
	}
	return one;
}

enum { NOT_IT = 0, SURE = 1, MAYBE = 2 };

/* only_candidate's last answer: the records of a key come round by round,
 * so one entry spares a scan per record. */
struct only_cache {
	long round;             /* -1: empty */
	int only;
};

/* 1 when r is the only candidate of its key in its round. */
static int only_of(const struct s4_input *in, size_t from, const struct record *r, struct only_cache *oc)
{
	if (oc->round != r->round) {
		oc->round = r->round;
		oc->only = only_candidate(in->recs, from, r->round, r->dispatch, r->workload) != NULL;
	}
	return oc->only;
}

/* How r's round is a final confirmation (s4_confirms_kind); v2 has its
 * own: the phase final (2 for it, else 0). */
static int confirm_kind(const struct s4_input *in, const struct s4_confirms *cs, const struct record *r)
{
	long line;
	if (in->contract == RECORDS_V2)
		return r->phase && strcmp(r->phase, "final") == 0 ? 2 : 0;
	return s4_confirms_kind(in->log, cs, r->round, &line);
}

/* 1 when r's parent is the key's round-0 baseline: every candidate
 * derived from the baseline has it, so it tells nothing about identity. */
static int from_baseline(const struct final_facts *ff, const struct record *r)
{
	return r->parent_id && r->parent_id == ff->base_id;
}

/* Whether r (of the key, valid, not a baseline) measures F again. Its
 * own records do (unless their sha256 differs). In a final confirmation
 * round (v1), or a later round whose section says it re-measures with F
 * or one of F's parents as parent, r does when it is the key's only
 * candidate there, and may (MAYBE) when the round holds several. A
 * candidate of F's first round is a sibling, never F. Another round's
 * record derived from one of F's parents (not the baseline, which every
 * candidate may share), or an assumed unnumbered confirmation, with
 * nothing said, is a MAYBE. A different sha256 is never F. */
static int measures_final(const struct s4_input *in, const struct s4_confirms *cs, const struct remeasures *rm,
			  struct only_cache *oc, size_t from, const struct record *r, const char *final_id,
			  const struct final_facts *ff, const struct s4_idmap *first)
{
	if (ff->sha && r->artifact_sha256 && strcmp(ff->sha, r->artifact_sha256) != 0)
		return NOT_IT;
	if (r->candidate_id == final_id)
		return SURE;
	/* a candidate measured again under its own id (a round after its
	 * first, or its own parent: the loop's final confirmation) measures
	 * itself, whatever section it sits in */
	const long *fr = s4_idmap_get(first, r->candidate_id, NULL, NULL, 0);
	if (r->parent_id == r->candidate_id || (fr && *fr < r->round))
		return NOT_IT;
	int how = confirm_kind(in, cs, r);
	if ((how == 1 || how == 2) && in->contract != RECORDS_V2)
		return only_of(in, from, r, oc) ? SURE : kin(r, final_id, ff) ? MAYBE : NOT_IT;
	if (r->round == ff->first_round)
		return NOT_IT; /* a sibling: the candidates of one round are different kernels */
	if (kin(r, final_id, ff) && round_remeasures(rm, r->round))
		return only_of(in, from, r, oc) ? SURE : MAYBE;
	if (how == 3 || (r->parent_id != final_id && kin(r, final_id, ff) && !from_baseline(ff, r)))
		return MAYBE;
	return NOT_IT;
}

int s4_repeats_of(const struct s4_input *in, size_t from, const char *final_id, const char *dispatch,
		  const char *workload, struct s4_repeats *rp)
{
	const struct records *rs = in->recs;
	struct final_facts ff;
	memset(rp, 0, sizeof(*rp));
	rp->median = rp->median_all = rp->confirm_median = NAN;
	rp->v = malloc((rs->n + 1) * sizeof(*rp->v));
	rp->amb = malloc((rs->n + 1) * sizeof(*rp->amb));
	unsigned char *cf = malloc(rs->n + 1);
	rp->confirm = cf;
	if (!rp->v || !rp->amb || !cf) {
		s4_repeats_release(rp);
		return -1;
	}
	facts_of(rs, from, final_id, dispatch, workload, &ff);
	struct s4_confirms cs;
	struct remeasures rm = { 0 };
	if (s4_confirms_build(in->log, &cs) != 0 || remeasures_build(in->log, &rm) != 0) {
		s4_confirms_release(&cs);
		free(rm.v);
		s4_repeats_release(rp);
		return -1;
	}
	struct only_cache oc = { .round = -1 };
	struct s4_idmap first; /* candidate_id -> its first round on the key */
	s4_idmap_init(&first);
	for (size_t i = from; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->dispatch != dispatch || r->workload != workload || s4_is_baseline(r))
			continue;
		long *k = s4_idmap_put(&first, r->candidate_id, NULL, NULL, 0, r->round, NULL);
		if (!k) {
			s4_idmap_release(&first);
			s4_confirms_release(&cs);
			free(rm.v);
			s4_repeats_release(rp);
			return -1;
		}
		if (r->round < *k)
			*k = r->round;
	}
	for (size_t i = from; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->dispatch != dispatch || r->workload != workload || !record_valid(r) || s4_is_baseline(r))
			continue;
		int how = measures_final(in, &cs, &rm, &oc, from, r, final_id, &ff, &first);
		if (how == SURE) {
			int c = confirm_kind(in, &cs, r);
			cf[rp->n] = c == 1 || c == 2;
			rp->nconfirm += cf[rp->n];
			rp->v[rp->n++] = r;
		} else if (how == MAYBE) {
			rp->amb[rp->namb++] = r;
		}
	}
	s4_idmap_release(&first);
	s4_confirms_release(&cs);
	free(rm.v);
	rp->median = median_of(rp->v, cf, rp->n, 0);
	rp->confirm_median = median_of(rp->v, cf, rp->n, 1);
	if (rp->namb) {
		const struct record **all = malloc((rp->n + rp->namb + 1) * sizeof(*all));
		if (!all) {
			s4_repeats_release(rp);
			return -1;
		}
		memcpy(all, rp->v, rp->n * sizeof(*all));
		memcpy(all + rp->n, rp->amb, rp->namb * sizeof(*all));
		rp->median_all = median_of(all, cf, rp->n + rp->namb, 0);
		free(all);
	} else {
		rp->median_all = rp->median;
	}
	return 0;
}

enum stats_final_claim s4_repeats_judge(const struct s4_repeats *rp, double claimed, int with_ambiguous,
					double noise, size_t *hit)
{
	size_t n = rp->n + (with_ambiguous ? rp->namb : 0);
	double *d = malloc((n + 1) * sizeof(*d));
	unsigned char *cf = calloc(n + 1, 1);
	enum stats_final_claim c = STATS_CLAIM_NONE;
	if (hit)
		*hit = (size_t)-1;
	if (d && cf) {
		for (size_t i = 0; i < n; i++) {
			d[i] = i < rp->n ? rp->v[i]->duration_us : rp->amb[i - rp->n]->duration_us;
			cf[i] = i < rp->n && rp->confirm[i];
		}
		c = stats_final_claim(d, cf, n, claimed, S4_TOLERANCE, noise, hit);
	}
	free(d);
	free(cf);
	return c;
}

int s4_repeats_accepts(const struct s4_repeats *rp, double claimed, int with_ambiguous)
{
	enum stats_final_claim c = s4_repeats_judge(rp, claimed, with_ambiguous, 0, NULL);
	return c == STATS_CLAIM_FIGURE || c == STATS_CLAIM_CAUTIOUS;
}

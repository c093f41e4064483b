/* s4_claims.c: S4-SPEEDUP and S4-STOP-REASON, claims of the Final Summary
 * checked against the records (s4.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The latest valid non-baseline record of (dispatch, workload), NULL none. */
static const struct record *latest_record(const struct records *rs, const char *dispatch,
					  const char *workload)
{
	const struct record *last = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (!record_valid(r) || s4_is_baseline(r) || strcmp(r->dispatch, dispatch) ||
		    strcmp(r->workload, workload))
			continue;
		if (!last || r->round >= last->round)
			last = r;
	}
	return last;
}

static double geo(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += log(v[i]);
	return n ? exp(s / (double)n) : NAN;
}

/* Some k of the n ratios whose geometric mean is within the tolerance of
 * want; the closest mean in *closest. Gives up (returns 0) beyond 2e6
 * subsets. */
static int subset_matches(const double *v, size_t n, size_t k, double want, double *closest)
{
	size_t idx[64];
	double cnt = 1;
	*closest = NAN;
	if (k == 0 || k > n || n > 64)
		return 0;
	for (size_t i = 0; i < k; i++)
		cnt = cnt * (double)(n - i) / (double)(i + 1);
	if (cnt > 2e6)
		return 0;
	for (size_t i = 0; i < k; i++)
		idx[i] = i;
	for (;;) {
		double s = 0;
		for (size_t i = 0; i < k; i++)
			s += log(v[idx[i]]);
		double g = exp(s / (double)k);
		if (isnan(*closest) || fabs(g - want) < fabs(*closest - want))
			*closest = g;
		if (s4_deviation(want, g) <= S4_TOLERANCE)
			return 1;
		size_t i = k;
		while (i > 0 && idx[i - 1] == n - k + i - 1)
			i--;
		if (i == 0)
			return 0;
		idx[i - 1]++;
		for (size_t j = i; j < k; j++)
			idx[j] = idx[j - 1] + 1;
	}
}

int s4_rule_speedup(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK || lg->n_geomeans == 0)
		return 0;
	/* ratios of the workloads whose final is known; the others (no claim,
	 * no named winner) read two ways: kept at the baseline (1x), or at their
	 * latest record */
	size_t n = 0, nu = 0;
	double *known = malloc((rc->n + 1) * sizeof(*known));
	double *alt = malloc((rc->n + 1) * sizeof(*alt));
	if (!known || !alt) {
		free(known);
		free(alt);
		return -1;
	}
	size_t from = s4_records_from(in);
	for (size_t i = 0; i < rc->n; i++) {
		const struct s4_recon_row *r = &rc->v[i];
		if (!(r->baseline_us > 0))
			continue;
		if (from > 0) {
			/* several runs: the workloads of the last one only */
			int mine = 0;
			for (size_t k = from; k < in->recs->n && !mine; k++)
				mine = strcmp(in->recs->v[k].dispatch, r->dispatch) == 0 &&
				       strcmp(in->recs->v[k].workload, r->workload) == 0;
			if (!mine)
				continue;
		}
		if (r->winner_us > 0) {
			known[n++] = r->baseline_us / r->winner_us;
			continue;
		}
		const struct record *l = in->contract == RECORDS_V2 ? NULL :
			latest_record(in->recs, r->dispatch, r->workload);
		if (l && l->duration_us > 0)
			alt[nu++] = r->baseline_us / l->duration_us;
	}
	double g = geo(known, n);
	((struct s4_recon *)rc)->records_geomean = g;
	int err = 0;
	for (size_t i = 0; i < lg->n_geomeans && !err; i++) {
		const struct optlog_number *c = &lg->geomeans[i];
		int rc2 = 0;
		size_t all = n + nu;
		if (n == 0 && nu == 0) {
			rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
				       "claimed geometric-mean speedup %gx, but the records hold no workload with both a baseline and a final measurement",
				       c->value);
		} else if (c->scope > 0 && (size_t)c->scope != n && (size_t)c->scope != all) {
			/* scoped to a subset: some scope of the workloads must give it */
			double *v = malloc((all + 1) * sizeof(*v));
			double closest = NAN;
			if (!v) {
				err = -1;
				break;
			}
			memcpy(v, known, n * sizeof(*v));
			memcpy(v + n, alt, nu * sizeof(*v));
			if ((size_t)c->scope > all)
				rc2 = gate_add(fs, "S4-SPEEDUP", GATE_WARNING, in->optlog_file, c->line,
					       "claimed geometric-mean speedup %gx over %ld workloads, but the records have a baseline and a final for %zu: not checked",
					       c->value, c->scope, all);
			else if (!subset_matches(v, all, (size_t)c->scope, c->value, &closest))
				rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
					       "claimed geometric-mean speedup %gx over %ld workloads, but no %ld of the %zu recorded workloads give it (closest %.3fx; baseline / final, tolerance 1%%)",
					       c->value, c->scope, c->scope, all, closest);
			free(v);
		} else {
			/* all workloads: the unknown ones at 1x, or at their latest record */
			double g1 = g, g2 = g;
			if (nu) {
				double s1 = 0, s2 = 0;
				for (size_t k = 0; k < n; k++)
					s1 += log(known[k]);
				s2 = s1;
				for (size_t k = 0; k < nu; k++)
					s2 += log(alt[k]);
				g1 = exp(s1 / (double)all);
				g2 = exp(s2 / (double)all);
			}
			int ok = (n && s4_deviation(c->value, g) <= S4_TOLERANCE &&
				   (!nu || c->scope < 0 || (size_t)c->scope == n)) ||
				 (nu && (s4_deviation(c->value, g1) <= S4_TOLERANCE ||
					 s4_deviation(c->value, g2) <= S4_TOLERANCE));
			if (!ok && !nu)
				rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
					       "claimed geometric-mean speedup %gx, but the records give %.3fx over %zu workload%s (baseline / final; deviation %.1f%% > 1%%)",
					       c->value, g, n, n > 1 ? "s" : "", s4_deviation(c->value, g) * 100);
			else if (!ok)
				rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
					       "claimed geometric-mean speedup %gx, but the records give %.3fx over the %zu workload%s with a known final, and %.3fx or %.3fx over all %zu (the %zu without a claimed final kept at baseline, or at their latest record; tolerance 1%%)",
					       c->value, g, n, n == 1 ? "" : "s", g1, g2, all, nu);
		}
		if (rc2)
			err = -1;
	}
	free(known);
	free(alt);
	return err;
}

struct idx_ctx {
	const struct record *v;
};
static const struct record *sort_base;

static int by_key_round(const void *a, const void *b)
{
	const struct record *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];
	int c = strcmp(x->dispatch, y->dispatch);
	if (!c)
		c = strcmp(x->workload, y->workload);
	if (!c)
		c = (x->round > y->round) - (x->round < y->round);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	return c;
}

int s4_rule_stop(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const struct records *rs = in->recs;
	const char *f = in->optlog_file;
	if (in->optlog_state != S4_FILE_OK || rs->n == 0)
		return 0;
	/* several runs in the log: the last run's records */
	size_t from = s4_records_from(in);
	long maxr = 0;
	for (size_t i = from; i < rs->n; i++)
		if (rs->v[i].round > maxr)
			maxr = rs->v[i].round;
	if (lg->stop == OPTLOG_STOP_BUDGET) {
		long max_rounds = lg->max_rounds >= 0 ? lg->max_rounds : 10;
		long max_exp = lg->max_experiments >= 0 ? lg->max_experiments : 30;
		struct s4_idmap cands; /* candidate ids are interned: keyed by address */
		s4_idmap_init(&cands);
		for (size_t i = from; i < rs->n; i++)
			if (!s4_is_baseline(&rs->v[i]) &&
			    !s4_idmap_put(&cands, rs->v[i].candidate_id, NULL, NULL, 0, 0, NULL)) {
				s4_idmap_release(&cands);
				return -1;
			}
		long branches = (long)cands.n;
		s4_idmap_release(&cands);
		if (maxr < max_rounds && branches < max_exp)
			return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
					"stop reason budget_exhausted, but the records reach round %ld of max_rounds %ld and %ld of max_experiments %ld branches",
					maxr, max_rounds, branches, max_exp);
		return 0;
	}
	if (lg->stop != OPTLOG_STOP_PLATEAU)
		return 0;
	double noise = (isnan(lg->noise_pct) ? STATS_NOISE_DEFAULT_PCT : lg->noise_pct) / 100.0;
	if (maxr < 3)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
				"stop reason plateau needs 3 rounds without an improvement above the noise threshold, but the records end at round %ld",
				maxr);
	size_t *idx = malloc(rs->n * sizeof(*idx));
	if (!idx)
		return -1;
	size_t k = 0;
	for (size_t i = from; i < rs->n; i++)
		if (record_valid(&rs->v[i]))
			idx[k++] = i;
	sort_base = rs->v;
	qsort(idx, k, sizeof(*idx), by_key_round);
	const struct record *hit = NULL;
	double hit_gain = 0;
	double best_prev = INFINITY, best_cur = INFINITY;
	long cur_round = -1;
	for (size_t j = 0; j < k && !hit; j++) {
		const struct record *r = &rs->v[idx[j]];
		if (j > 0 && record_same_key(r, &rs->v[idx[j - 1]]) == 0) {
			best_prev = best_cur = INFINITY;
			cur_round = -1;
		}
		if (r->round != cur_round) {
			if (best_cur < best_prev)
				best_prev = best_cur;
			cur_round = r->round;
		}
		if (r->round >= maxr - 2 && r->round >= 1 && isfinite(best_prev) &&
		    r->duration_us < best_prev * (1 - noise)) {
			hit = r;
			hit_gain = 1 - r->duration_us / best_prev;
		}
		if (r->duration_us < best_cur)
			best_cur = r->duration_us;
	}
	free(idx);
	if (hit)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
				"stop reason plateau, but round %ld improved '%s' / '%s' by %.1f%% (> noise threshold %g%%; perf_records.jsonl line %ld) within the last 3 rounds",
				hit->round, hit->dispatch, hit->workload, hit_gain * 100, noise * 100, hit->line);
	return 0;
}

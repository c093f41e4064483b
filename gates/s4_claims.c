/* s4_claims.c: S4-SPEEDUP and S4-STOP-REASON, claims of the Final Summary
 * checked against the records (s4.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int s4_rule_speedup(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK || lg->n_geomeans == 0)
		return 0;
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < rc->n; i++) {
		const struct s4_recon_row *r = &rc->v[i];
		if (r->baseline_us > 0 && r->winner_us > 0) {
			sum += log(r->baseline_us / r->winner_us);
			n++;
		}
	}
	double g = n ? exp(sum / (double)n) : NAN;
	((struct s4_recon *)rc)->records_geomean = g;
	for (size_t i = 0; i < lg->n_geomeans; i++) {
		const struct optlog_number *c = &lg->geomeans[i];
		int rc2 = 0;
		if (n == 0)
			rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
				       "claimed geometric-mean speedup %gx, but the records hold no workload with both a baseline and a final measurement",
				       c->value);
		else if (s4_deviation(c->value, g) > S4_TOLERANCE)
			rc2 = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
				       "claimed geometric-mean speedup %gx, but the records give %.3fx over %zu workload%s (baseline / final; deviation %.1f%% > 1%%)",
				       c->value, g, n, n > 1 ? "s" : "", s4_deviation(c->value, g) * 100);
		if (rc2)
			return -1;
	}
	return 0;
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
	long maxr = 0;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].round > maxr)
			maxr = rs->v[i].round;
	if (lg->stop == OPTLOG_STOP_BUDGET) {
		long max_rounds = lg->max_rounds >= 0 ? lg->max_rounds : 10;
		long max_exp = lg->max_experiments >= 0 ? lg->max_experiments : 30;
		struct s4_map cands;
		s4_map_init(&cands);
		for (size_t i = 0; i < rs->n; i++)
			if (!s4_is_baseline(&rs->v[i]) && !s4_map_put(&cands, rs->v[i].candidate_id, 0, NULL)) {
				s4_map_release(&cands);
				return -1;
			}
		long branches = (long)cands.n;
		s4_map_release(&cands);
		if (maxr < max_rounds && branches < max_exp)
			return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
					"stop reason budget_exhausted, but the records reach round %ld of max_rounds %ld and %ld of max_experiments %ld branches",
					maxr, max_rounds, branches, max_exp);
		return 0;
	}
	if (lg->stop != OPTLOG_STOP_PLATEAU)
		return 0;
	double noise = (isnan(lg->noise_pct) ? 3.0 : lg->noise_pct) / 100.0;
	if (maxr < 3)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
				"stop reason plateau needs 3 rounds without an improvement above the noise threshold, but the records end at round %ld",
				maxr);
	size_t *idx = malloc(rs->n * sizeof(*idx));
	if (!idx)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < rs->n; i++)
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

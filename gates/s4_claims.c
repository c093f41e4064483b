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

/* The baseline / final ratios of the workloads: known[] where the final is
 * known; alt[] the others (no claim, no named winner) at their latest
 * record (they read two ways: kept at the baseline, 1x, or there). */
struct ratios {
	double *known, *alt;
	size_t n, nu;
	double g; /* geometric mean of known[] */
};

/* 1 when the records from index from (the last run's) hold r's workload. */
static int in_last_run(const struct s4_input *in, size_t from, const struct s4_recon_row *r)
{
	for (size_t k = from; k < in->recs->n; k++)
		if (strcmp(in->recs->v[k].dispatch, r->dispatch) == 0 &&
		    strcmp(in->recs->v[k].workload, r->workload) == 0)
			return 1;
	return 0;
}

/* Fills ra from the RECON rows (malloc'd arrays, the caller frees them);
 * 0, -1 on allocation failure. */
static int collect_ratios(const struct s4_input *in, const struct s4_recon *rc, struct ratios *ra)
{
	ra->n = ra->nu = 0;
	ra->known = malloc((rc->n + 1) * sizeof(*ra->known));
	ra->alt = malloc((rc->n + 1) * sizeof(*ra->alt));
	if (!ra->known || !ra->alt)
		return -1;
	size_t from = s4_records_from(in);
	for (size_t i = 0; i < rc->n; i++) {
		const struct s4_recon_row *r = &rc->v[i];
		if (!(r->baseline_us > 0))
			continue;
		if (from > 0 && !in_last_run(in, from, r))
			continue; /* several runs: the workloads of the last one only */
		if (r->winner_us > 0) {
			ra->known[ra->n++] = r->baseline_us / r->winner_us;
			continue;
		}
		/* a named best that never measured this workload leaves it at
		 * its baseline: another candidate's record is no final */
		const struct record *l = in->contract == RECORDS_V2 || rc->best_known ? NULL :
			latest_record(in->recs, r->dispatch, r->workload);
		if (l && l->duration_us > 0)
			ra->alt[ra->nu++] = r->baseline_us / l->duration_us;
		else if (rc->best_known && latest_record(in->recs, r->dispatch, r->workload))
			ra->alt[ra->nu++] = 1;
	}
	ra->g = geo(ra->known, ra->n);
	return 0;
}

/* Whether a geometric-mean claim c agrees with the geometric mean g of
 * baseline / final: a speedup within the tolerance; a change in % as the
 * change in time or in speed, within the figure's precision plus 1%. */
static int geo_agrees(const struct optlog_number *c, double g)
{
	if (!c->percent)
		return s4_deviation(c->value, g) <= S4_TOLERANCE;
	double half = 0.5 * pow(10, -c->decimals), v = fabs(c->value);
	const double want[2] = { fabs(1 / g - 1) * 100, fabs(g - 1) * 100 };
	for (int i = 0; i < 2; i++)
		if (fabs(v - want[i]) <= half + 0.01 * want[i] + 1e-12)
			return 1;
	return 0;
}

/* The claim as written: "speedup 2.14x", "change 60%". */
static void claim_text(const struct optlog_number *c, char *buf, size_t len)
{
	snprintf(buf, len, c->percent ? "change %g%%" : "speedup %gx", c->value);
}

/* A claim scoped to fewer workloads than recorded: some scope of them must
 * give it; 0, -1 on allocation failure. */
static int check_scoped_claim(const struct s4_input *in, const struct ratios *ra, const struct optlog_number *c,
			      const char *what, struct gate_findings *fs)
{
	size_t all = ra->n + ra->nu;
	double *v = malloc((all + 1) * sizeof(*v));
	double closest = NAN;
	int rc = 0;
	if (!v)
		return -1;
	memcpy(v, ra->known, ra->n * sizeof(*v));
	memcpy(v + ra->n, ra->alt, ra->nu * sizeof(*v));
	if ((size_t)c->scope > all || c->percent)
		rc = gate_add(fs, "S4-SPEEDUP", GATE_WARNING, in->optlog_file, c->line,
			      "claimed geometric-mean %s%gx over %ld workloads, but %s have a baseline and a final for %zu: not checked",
			      c->percent ? "change " : "speedup ", c->value, c->scope, what, all);
	else if (!subset_matches(v, all, (size_t)c->scope, c->value, &closest))
		rc = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
			      "claimed geometric-mean speedup %gx over %ld workloads, but no %ld of the %zu workloads of %s give it (closest %.3fx; baseline / final, tolerance 1%%)",
			      c->value, c->scope, c->scope, all, what, closest);
	free(v);
	return rc ? -1 : 0;
}

/* A claim over all workloads: the unknown ones at 1x, or at their latest
 * record; 0, -1 on allocation failure. */
static int check_all_claim(const struct s4_input *in, const struct ratios *ra, const struct optlog_number *c,
			   const char *what, struct gate_findings *fs)
{
	size_t n = ra->n, nu = ra->nu, all = n + nu;
	double g = ra->g, g1 = g, g2 = g;
	if (nu) {
		double s1 = 0, s2 = 0;
		for (size_t k = 0; k < n; k++)
			s1 += log(ra->known[k]);
		s2 = s1;
		for (size_t k = 0; k < nu; k++)
			s2 += log(ra->alt[k]);
		g1 = exp(s1 / (double)all);
		g2 = exp(s2 / (double)all);
	}
	int ok = (n && geo_agrees(c, g) && (!nu || c->scope < 0 || (size_t)c->scope == n)) ||
		 (nu && (geo_agrees(c, g1) || geo_agrees(c, g2)));
	int rc = 0;
	char claim[64];
	claim_text(c, claim, sizeof(claim));
	if (!ok && !nu && c->percent)
		rc = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
			      "claimed geometric-mean %s, but %s give %.3fx over %zu workload%s (time -%.2f%%, speed +%.2f%%; precision of the figure plus 1%%)",
			      claim, what, g, n, n > 1 ? "s" : "", fabs(1 / g - 1) * 100, fabs(g - 1) * 100);
	else if (!ok && !nu)
		rc = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
			      "claimed geometric-mean %s, but %s give %.3fx over %zu workload%s (baseline / final; deviation %.1f%% > 1%%)",
			      claim, what, g, n, n > 1 ? "s" : "", s4_deviation(c->value, g) * 100);
	else if (!ok)
		rc = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
			      "claimed geometric-mean %s, but %s give %.3fx over the %zu workload%s with a known final, and %.3fx or %.3fx over all %zu (the %zu without a claimed final kept at baseline, or at their latest record; tolerance 1%%)",
			      claim, what, g, n, n == 1 ? "" : "s", g1, g2, all, nu);
	return rc ? -1 : 0;
}

/* One geometric-mean claim against the ratios of one evidence. */
static int check_geomean(const struct s4_input *in, const struct ratios *ra, const struct optlog_number *c,
			 const char *what, struct gate_findings *fs)
{
	size_t all = ra->n + ra->nu;
	if (c->scope > 0 && (size_t)c->scope != ra->n && (size_t)c->scope != all)
		return check_scoped_claim(in, ra, c, what, fs);
	return check_all_claim(in, ra, c, what, fs);
}

/* The log's own figures as ratios (every final known). */
static int log_ratios(const struct s4_evidence *ev, struct ratios *ra)
{
	ra->n = ra->nu = 0;
	ra->known = malloc((ev->n + 1) * sizeof(*ra->known));
	ra->alt = NULL;
	if (!ra->known)
		return -1;
	for (size_t i = 0; i < ev->n; i++)
		ra->known[ra->n++] = ev->v[i].base_us / ev->v[i].final_us;
	ra->g = geo(ra->known, ra->n);
	return 0;
}

/* A geometric-mean claim against the log's own figures. The figures may
 * leave out workloads the claim counts (`2.04×（smoke 保持 baseline）`):
 * unless the claim states its scope as their number, it agrees when it is
 * their geometric mean with k further workloads kept at 1x (k = 0..n), it
 * is an error only when it overstates them (above their geometric mean:
 * no workload left out can raise it), a warning otherwise. */
static int check_log_geomean(const struct s4_input *in, const struct ratios *la, const struct optlog_number *c,
			     const char *what, struct gate_findings *fs)
{
	if ((c->scope > 0 && (size_t)c->scope == la->n) || c->percent)
		return check_geomean(in, la, c, what, fs);
	if (c->scope > 0)
		return check_scoped_claim(in, la, c, what, fs);
	double l = log(la->g) * (double)la->n;
	for (size_t k = 0; k <= la->n; k++)
		if (geo_agrees(c, exp(l / (double)(la->n + k))))
			return 0;
	int over = c->value > la->g && !geo_agrees(c, la->g);
	return gate_add(fs, "S4-SPEEDUP", over ? GATE_ERROR : GATE_WARNING, in->optlog_file, c->line,
			"claimed geometric-mean speedup %gx, but %s give %.3fx over %zu workload%s%s",
			c->value, what, la->g, la->n, la->n == 1 ? "" : "s",
			over ? " (baseline / final; no workload left out of them can raise it)"
			     : ", nor that with further workloads kept at 1x: not reconciled") ? -1 : 0;
}

/* Each geometric-mean claim is checked against the log's own figures
 * (s4_evidence_log) and against the records (when the folder has them):
 * the first evidence that contradicts it gives the one finding. */
int s4_rule_speedup(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK || lg->n_geomeans == 0)
		return 0;
	struct ratios ra, la = { 0 };
	struct s4_evidence ev = { 0 };
	int records = in->records_state == S4_FILE_OK || in->recs->n > 0;
	int err = collect_ratios(in, rc, &ra);
	if (err == 0)
		((struct s4_recon *)rc)->records_geomean = ra.g;
	if (err == 0)
		err = s4_evidence_log(lg, &ev) || log_ratios(&ev, &la) ? -1 : 0;
	for (size_t i = 0; i < lg->n_geomeans && !err; i++) {
		const struct optlog_number *c = &lg->geomeans[i];
		size_t all = ra.n + ra.nu, before = fs->n;
		char claim[64];
		claim_text(c, claim, sizeof(claim));
		/* the log's own figures first: a finding then names the lines a
		 * reader can check without the records */
		if (la.n > 0)
			err = check_log_geomean(in, &la, c, ev.what, fs);
		if (err || fs->n != before)
			continue;
		if (records && all == 0 && la.n == 0)
			err = gate_add(fs, "S4-SPEEDUP", GATE_ERROR, in->optlog_file, c->line,
				       "claimed geometric-mean %s, but the records hold no workload with both a baseline and a final measurement",
				       claim) ? -1 : 0;
		else if (records && all > 0)
			err = check_geomean(in, &ra, c, "the records", fs);
	}
	free(ra.known);
	free(ra.alt);
	free(la.known);
	s4_evidence_release(&ev);
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

/* Stop reason budget_exhausted: the records from index from reach
 * max_rounds or max_experiments (the log's, else 10 and 30). */
static int check_budget_stop(const struct s4_input *in, size_t from, long maxr, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const struct records *rs = in->recs;
	long max_rounds = lg->max_rounds >= 0 ? lg->max_rounds : 10;
	long max_exp = lg->max_experiments >= 0 ? lg->max_experiments : 30;
	struct s4_idmap cands; /* candidate ids are interned: keyed by address */
	s4_idmap_init(&cands);
	for (size_t i = from; i < rs->n; i++)
		if (!s4_is_baseline(&rs->v[i]) && !s4_idmap_put(&cands, rs->v[i].candidate_id, NULL, NULL, 0, 0, NULL)) {
			s4_idmap_release(&cands);
			return -1;
		}
	long branches = (long)cands.n;
	s4_idmap_release(&cands);
	if (maxr < max_rounds && branches < max_exp)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, in->optlog_file, lg->stop_line,
				"stop reason budget_exhausted, but the records reach round %ld of max_rounds %ld and %ld of max_experiments %ld branches",
				maxr, max_rounds, branches, max_exp);
	return 0;
}

/* The first valid record (by key, round, line) of the last 3 rounds up to
 * maxr that beats its key's best of the earlier rounds by more than the
 * noise, into *hit with its gain (NULL none); 0, -1 on allocation failure. */
static int late_gain(const struct records *rs, size_t from, long maxr, double noise, const struct record **hit,
		     double *gain)
{
	*hit = NULL;
	size_t *idx = malloc(rs->n * sizeof(*idx));
	if (!idx)
		return -1;
	size_t k = 0;
	for (size_t i = from; i < rs->n; i++)
		if (record_valid(&rs->v[i]))
			idx[k++] = i;
	sort_base = rs->v;
	qsort(idx, k, sizeof(*idx), by_key_round);
	double best_prev = INFINITY, best_cur = INFINITY;
	long cur_round = -1;
	for (size_t j = 0; j < k && !*hit; j++) {
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
			*hit = r;
			*gain = 1 - r->duration_us / best_prev;
		}
		if (r->duration_us < best_cur)
			best_cur = r->duration_us;
	}
	free(idx);
	return 0;
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
	if (lg->stop == OPTLOG_STOP_BUDGET)
		return check_budget_stop(in, from, maxr, fs);
	if (lg->stop != OPTLOG_STOP_PLATEAU)
		return 0;
	double noise = s4_noise(lg);
	if (maxr < 3)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
				"stop reason plateau needs 3 rounds without an improvement above the noise threshold, but the records end at round %ld",
				maxr);
	const struct record *hit;
	double hit_gain = 0;
	if (late_gain(rs, from, maxr, noise, &hit, &hit_gain))
		return -1;
	if (hit)
		return gate_add(fs, "S4-STOP-REASON", GATE_WARNING, f, lg->stop_line,
				"stop reason plateau, but round %ld improved '%s' / '%s' by %.1f%% (> noise threshold %g%%; perf_records.jsonl line %ld) within the last 3 rounds",
				hit->round, hit->dispatch, hit->workload, hit_gain * 100, noise * 100, hit->line);
	return 0;
}

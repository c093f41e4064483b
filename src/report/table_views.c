/* table_views.c: the statistics' results as tables (report/table.h). */
#include "report/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "%+.1f%" of 100 * frac, or "—". */
static void cell_pct(struct table *t, double frac, const char *suffix)
{
	if (isfinite(frac))
		table_cell(t, "%+.1f%%%s", 100.0 * frac, suffix);
	else
		table_cell(t, "—%s", suffix);
}

static void cell_num(struct table *t, const char *fmt, double v, const char *absent)
{
	if (isfinite(v))
		table_cell(t, fmt, v);
	else
		table_cell(t, "%s", absent);
}

static const struct table_col cmp_cols[] = {
	{ "candidate", TABLE_LEFT }, { "dispatch", TABLE_LEFT }, { "workload", TABLE_LEFT },
	{ "Task Duration(us)", TABLE_RIGHT }, { "vs best", TABLE_RIGHT },
	{ "AICore util", TABLE_RIGHT }, { "memory", TABLE_RIGHT }, { "L0", TABLE_LEFT },
};

void report_cmptable_view(const struct stats_cmptable *c, struct table *t)
{
	char caption[96];
	snprintf(caption, sizeof(caption), "候选 vs current best 对比表（round %ld）", c->round);
	table_init(t, caption, cmp_cols, sizeof(cmp_cols) / sizeof(cmp_cols[0]));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct stats_cmprow *x = &c->rows[i];
		const struct record *r = x->rec;
		const struct stats_key *k = &c->ks.v[x->key];
		if (x->current_best)
			table_cell(t, "%s (current best)", r->candidate_id);
		else if (r->phase && strcmp(r->phase, "candidate") != 0)
			table_cell(t, "%s (%s)", r->candidate_id, r->phase);
		else
			table_cell(t, "%s", r->candidate_id);
		table_cell(t, "%s", k->dispatch);
		table_cell(t, "%s", k->workload);
		if (r->not_measured)
			table_cell(t, "— (not measured)");
		else
			table_cell(t, "%.3f", r->duration_us);
		cell_pct(t, x->vs_best, "");
		cell_num(t, "%.1f%%", 100.0 * r->aicore_util, "—");
		cell_num(t, "%.1f GB/s", r->mem_bw_gbps, "—");
		table_cell(t, "%s", r->l0_pass ? "pass" : "fail");
	}
}

char *report_cmptable_markdown(const struct stats_cmptable *c)
{
	struct table t;
	report_cmptable_view(c, &t);
	char *md = report_table_markdown(&t);
	table_release(&t);
	return md;
}

static const struct table_col key_cols[] = {
	{ "dispatch", TABLE_LEFT }, { "workload", TABLE_LEFT }, { "baseline_us", TABLE_RIGHT },
	{ "final_us", TABLE_RIGHT }, { "final candidate", TABLE_LEFT }, { "speedup", TABLE_RIGHT },
	{ "change", TABLE_RIGHT },
};

void report_speedup_keys_view(const struct stats_speedup *s, struct table *t)
{
	table_init(t, "Multi-dispatch speedup (baseline → final)", key_cols,
		   sizeof(key_cols) / sizeof(key_cols[0]));
	for (size_t k = 0; k < s->nkeys; k++) {
		const struct stats_speedup_key *e = &s->keys[k];
		table_cell(t, "%s", e->dispatch);
		table_cell(t, "%s", e->workload);
		cell_num(t, "%.3f", e->baseline ? e->baseline->duration_us : NAN, "—");
		cell_num(t, "%.3f", e->final_us, "—");
		table_cell(t, "%s", e->final ? e->final->candidate_id : "—");
		cell_num(t, "%.2fx", e->speedup, "—");
		cell_pct(t, e->change, e->regression ? " (regression)" : "");
	}
	table_cell(t, "**geomean**");
	table_cell(t, "all (%zu)", s->nused);
	for (int i = 0; i < 3; i++)
		table_cell(t, "%s", "");
	if (isfinite(s->geomean_speedup))
		table_cell(t, "**%.2fx**", s->geomean_speedup);
	else
		table_cell(t, "**—**");
	if (isfinite(s->geomean_change))
		table_cell(t, "**%+.1f%%**", 100.0 * s->geomean_change);
	else
		table_cell(t, "**—**");
}

static const struct table_col path_cols[] = {
	{ "dispatch path", TABLE_LEFT }, { "workloads", TABLE_RIGHT },
	{ "speedup (geometric mean)", TABLE_RIGHT }, { "latency change", TABLE_RIGHT },
	{ "regressions", TABLE_RIGHT },
};

void report_speedup_paths_view(const struct stats_speedup *s, struct table *t)
{
	table_init(t, NULL, path_cols, sizeof(path_cols) / sizeof(path_cols[0]));
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct stats_speedup_group *x = &s->groups[g];
		table_cell(t, "%s", x->dispatch);
		table_cell(t, "%zu", x->nused);
		cell_num(t, "%.2fx", x->geomean_speedup, "—");
		cell_pct(t, x->geomean_change, "");
		table_cell(t, "%zu", x->nregressions);
	}
}

/* s, or "" for NULL. */
static const char *str(const char *s)
{
	return s ? s : "";
}

static const struct table_col winner_cand_cols[] = {
	{ "candidate", TABLE_LEFT }, { "valid on all required keys", TABLE_LEFT },
	{ "geomean gain", TABLE_RIGHT }, { "gains", TABLE_RIGHT }, { "regressions", TABLE_RIGHT },
	{ "soft (A/B)", TABLE_RIGHT },
};

void report_winner_candidates_view(const struct stats_winner *w, struct table *t)
{
	table_init(t, NULL, winner_cand_cols, sizeof(winner_cand_cols) / sizeof(winner_cand_cols[0]));
	for (size_t i = 0; i < w->ncands; i++) {
		const struct stats_winner_candidate *c = &w->cands[i];
		table_cell(t, "%s%s", str(c->candidate_id), i == w->chosen ? " (chosen)" : "");
		table_cell(t, "%s", c->complete ? "yes" : "no");
		cell_pct(t, c->gain, "");
		table_cell(t, "%zu", c->ngains);
		table_cell(t, "%zu", c->nregressions);
		table_cell(t, "%zu", c->nsoft);
	}
}

void report_winner_keys_view(const struct stats_winner *w, struct table *t)
{
	const struct stats_winner_candidate *c = &w->cands[w->chosen];
	char name[512];
	snprintf(name, sizeof(name), "%s (us)", str(c->candidate_id));
	const struct table_col cols[] = {
		{ "dispatch", TABLE_LEFT }, { "workload", TABLE_LEFT }, { "current best", TABLE_LEFT },
		{ "current best (us)", TABLE_RIGHT }, { name, TABLE_RIGHT }, { "change", TABLE_RIGHT },
		{ "check", TABLE_LEFT },
	};
	table_init(t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t j = 0; j < w->nrequired; j++) {
		const struct stats_winner_key *e = &c->keys[j];
		const struct stats_key *k = &w->ks.v[e->key];
		table_cell(t, "%s", str(k->dispatch));
		table_cell(t, "%s", str(k->workload));
		table_cell(t, "%s", e->incumbent ? str(e->incumbent->candidate_id) : "—");
		cell_num(t, "%.3f", e->incumbent ? e->incumbent->duration_us : NAN, "—");
		cell_num(t, "%.3f", e->candidate ? e->candidate->duration_us : NAN, "—");
		cell_pct(t, e->change, "");
		table_cell(t, "%s%s", stats_winner_keystate_name(e->state), e->needs_ab ? ", A/B" : "");
	}
}

static const struct table_col plateau_cols[] = {
	{ "round", TABLE_RIGHT }, { "records (valid)", TABLE_RIGHT }, { "best gain", TABLE_RIGHT },
	{ "on", TABLE_LEFT }, { "current best → round best (us)", TABLE_LEFT },
	{ "improved", TABLE_LEFT },
};

void report_plateau_view(const struct stats_plateau *p, struct table *t)
{
	table_init(t, NULL, plateau_cols, sizeof(plateau_cols) / sizeof(plateau_cols[0]));
	for (size_t i = 0; i < p->nrounds; i++) {
		const struct stats_plateau_round *r = &p->rounds[i];
		table_cell(t, "%ld", r->round);
		table_cell(t, "%zu (%zu)", r->nrecords, r->nvalid);
		cell_pct(t, r->improvement, "");
		const struct stats_plateau_key *e = NULL;
		for (size_t j = 0; r->improvement_key != STATS_NOKEY && j < r->nkeys; j++)
			if (r->keys[j].key == r->improvement_key)
				e = &r->keys[j];
		if (e) {
			const struct stats_key *k = &p->ks.v[r->improvement_key];
			table_cell(t, "%s / %s", str(k->dispatch), str(k->workload));
			table_cell(t, "%.3f (%s) → %.3f (%s)", e->incumbent_us, str(e->incumbent_id),
				   e->best_us, str(e->best_id));
		} else {
			table_cell(t, "—");
			table_cell(t, "—");
		}
		if (r->blocked)
			table_cell(t, "blocked (no valid branch)");
		else if (r->improved)
			table_cell(t, "yes");
		else if (r->improvement > p->noise + 1e-12)
			table_cell(t, "no (winner rule: %s)",
				   stats_winner_decision_name((enum stats_winner_decision)r->winner_decision));
		else
			table_cell(t, "no");
	}
}

static const struct table_col ptune_cols[] = {
	{ "case", TABLE_LEFT }, { "speedup", TABLE_RIGHT }, { "change", TABLE_RIGHT },
};

/* The latency change of a speedup, 1/speedup - 1; NAN when not > 0. */
static double ptune_change(double speedup)
{
	return isfinite(speedup) && speedup > 0 ? 1.0 / speedup - 1.0 : NAN;
}

void report_ptune_speedups_view(const struct ptune_speedups *p, struct table *t)
{
	table_init(t, NULL, ptune_cols, sizeof(ptune_cols) / sizeof(ptune_cols[0]));
	for (size_t i = 0; i < p->n; i++) {
		const struct ptune_case *c = &p->v[i];
		int ok = isfinite(c->speedup) && c->speedup > 0;
		table_cell(t, "%s", str(c->label));
		cell_num(t, "%.2fx", ok ? c->speedup : NAN, "—");
		cell_pct(t, ptune_change(c->speedup), ok && c->speedup < 1.0 ? " (regression)" : "");
	}
	table_cell(t, "**geomean** (all %zu)", p->nvalid);
	if (isfinite(p->geomean))
		table_cell(t, "**%.2fx**", p->geomean);
	else
		table_cell(t, "**—**");
	if (isfinite(ptune_change(p->geomean)))
		table_cell(t, "**%+.1f%%**", 100.0 * ptune_change(p->geomean));
	else
		table_cell(t, "**—**");
}

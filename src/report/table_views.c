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
		cell_num(t, "%.3f", e->final ? e->final->duration_us : NAN, "—");
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

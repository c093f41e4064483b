/* audit_markdown.c: `tlperf audit --format markdown` (report/audit.h): the
 * totals line, the main table and the Stage Result table, both through the
 * table model and its Markdown renderer. Cells are text quoted from the
 * checked trees: control characters shown as escapes (escape_text), then
 * the strict cell escaping (util/escape.h). */
#include "report/audit.h"
#include "report/table.h"
#include "util/escape.h"

#include <math.h>
#include <stdlib.h>

/* One cell of text from the trees, its control characters shown. */
static void text_cell(struct table *t, const char *s)
{
	char *e = escape_text(s, 0);
	if (!e) {
		t->oom = 1;
		return;
	}
	table_cell(t, "%s", e);
	free(e);
}

/* The shared columns, then where the claim and the record are and why a
 * row does not reconcile. */
#define MD_NCOLS (AUDIT_NCOLS + 3)
static const struct table_col main_cols[MD_NCOLS] = {
	{ "operator", TABLE_LEFT }, { "contract", TABLE_LEFT }, { "workload", TABLE_LEFT },
	{ "baseline_us", TABLE_RIGHT }, { "claimed_us", TABLE_RIGHT }, { "winner", TABLE_LEFT },
	{ "winner_us", TABLE_RIGHT }, { "deviation %", TABLE_RIGHT }, { "speedup", TABLE_RIGHT },
	{ "operator geomean", TABLE_RIGHT }, { "stop reason", TABLE_LEFT },
	{ "reconciled", TABLE_LEFT }, { "gate", TABLE_LEFT }, { "evidence", TABLE_LEFT },
	{ "claim line", TABLE_RIGHT }, { "record line", TABLE_RIGHT }, { "why", TABLE_LEFT },
};

static void main_row(void *ctx, const struct audit_op *op, const struct report_audit_row *r)
{
	(void)op;
	for (int i = 0; i < AUDIT_NCOLS; i++)
		text_cell(ctx, r->cell[i]);
	text_cell(ctx, r->claim_line);
	text_cell(ctx, r->winner_line);
	text_cell(ctx, r->reason);
}

static const struct table_col claim_cols[AUDIT_NCLAIM_COLS] = {
	{ "operator", TABLE_LEFT }, { "line", TABLE_RIGHT }, { "field", TABLE_LEFT },
	{ "workload", TABLE_LEFT }, { "claimed", TABLE_LEFT }, { "records", TABLE_LEFT },
	{ "status", TABLE_LEFT },
};

static void claim_row(void *ctx, const char *const *cell, int ok)
{
	(void)ok;
	for (size_t i = 0; i < AUDIT_NCLAIM_COLS; i++)
		text_cell(ctx, cell[i]);
}

/* The Stage Result findings of op on lines without a claim row (format,
 * paths...), as rows of the claims table. */
static void stage_findings(void *ctx, const struct audit_op *op)
{
	struct table *t = ctx;
	for (size_t k = 0; k < op->sr_fs.n; k++) {
		const struct gate_finding *g = &op->sr_fs.v[k];
		int shown = 0;
		for (size_t j = 0; j < op->sr_claims.n && !shown; j++)
			shown = op->sr_claims.v[j].line == g->line;
		if (shown)
			continue;
		char *msg = escape_text(g->message, 0);
		text_cell(t, op->name);
		table_cell(t, "%ld", g->line);
		for (int i = 0; i < 4; i++)
			table_cell(t, "%s", "");
		if (!msg)
			t->oom = 1;
		else
			table_cell(t, "%s: [%s] %s", gate_severity_name(g->severity), g->rule, msg);
		free(msg);
	}
}

int report_audit_markdown(FILE *f, const struct audit *a, const char *version)
{
	static const struct report_audit_style md = { NULL, "%+.2f", "%.3fx", 1 };
	struct table t;
	char b[64];
	(void)version;
	fputs("# tlperf audit\n\n", f);
	fprintf(f, "%zu operator%s checked: %zu reconciled, %zu unreconcilable", a->n,
		a->n == 1 ? "" : "s", a->reconciled, a->unreconcilable);
	if (a->without_claims)
		fprintf(f, ", %zu without claims", a->without_claims);
	if (a->log_only)
		fprintf(f, ", %zu without records (%s checked against %s own figures)", a->log_only,
			a->log_only == 1 ? "its claims" : "their claims", a->log_only == 1 ? "the log's" : "their logs'");
	fprintf(f, "; overall geometric-mean speedup %s%s over %zu workload%s.\n\n",
		isfinite(a->geomean) ? report_audit_num(b, 64, a->geomean, "%.3f") : "n/a",
		isfinite(a->geomean) ? "x" : "", a->nspeedups, a->nspeedups == 1 ? "" : "s");
	table_init(&t, NULL, main_cols, MD_NCOLS);
	t.md = MD_CELL_STRICT;
	report_audit_rows(a, &md, main_row, &t);
	if (report_table_put_markdown(f, &t) != 0)
		return -1;
	if (!audit_any_stage_result(a))
		return 0;
	fputs("\n## Stage Result claims\n\n"
	      "From each perf_opt/logs/stage_result.md, next to what the records say "
	      "(`tlgate --stage-result`).\n\n", f);
	table_init(&t, NULL, claim_cols, AUDIT_NCLAIM_COLS);
	t.md = MD_CELL_STRICT;
	report_audit_stage_rows(a, claim_row, stage_findings, &t);
	return report_table_put_markdown(f, &t);
}

/* audit_csv.c: `tlperf audit --format csv` (report/audit.h): the main
 * table with the gate's error and warning counts, through the table model
 * and its CSV renderer (report/table_csv.c). */
#include "report/audit.h"
#include "report/table.h"

static const struct table_col csv_cols[] = {
	{ "operator", TABLE_LEFT }, { "contract", TABLE_LEFT }, { "workload", TABLE_LEFT },
	{ "baseline_us", TABLE_RIGHT }, { "claimed_us", TABLE_RIGHT }, { "winner", TABLE_LEFT },
	{ "winner_us", TABLE_RIGHT }, { "deviation_pct", TABLE_RIGHT }, { "speedup", TABLE_RIGHT },
	{ "operator_geomean", TABLE_RIGHT }, { "stop_reason", TABLE_LEFT },
	{ "status", TABLE_LEFT }, { "gate_verdict", TABLE_LEFT }, { "gate_errors", TABLE_RIGHT },
	{ "gate_warnings", TABLE_RIGHT }, { "claim_line", TABLE_RIGHT }, { "winner_line", TABLE_RIGHT },
	{ "reason", TABLE_LEFT }, { "evidence", TABLE_LEFT },
};

static void csv_row(void *ctx, const struct audit_op *op, const struct report_audit_row *r)
{
	struct table *t = ctx;
	for (int i = 0; i < AUDIT_NCOLS; i++)
		if (i != AUDIT_COL_EVIDENCE)
			table_cell(t, "%s", r->cell[i]);
	table_cell(t, "%zu", op->errors);
	table_cell(t, "%zu", op->warnings);
	table_cell(t, "%s", r->claim_line);
	table_cell(t, "%s", r->winner_line);
	table_cell(t, "%s", r->reason);
	table_cell(t, "%s", r->cell[AUDIT_COL_EVIDENCE]); /* last: a column added after the others */
}

int report_audit_csv(FILE *f, const struct audit *a, const char *version)
{
	static const struct report_audit_style csv = { NULL, "%.4f", "%.6g", 0 };
	struct table t;
	(void)version;
	table_init(&t, NULL, csv_cols, sizeof(csv_cols) / sizeof(csv_cols[0]));
	report_audit_rows(a, &csv, csv_row, &t);
	return report_table_put_csv(f, &t);
}

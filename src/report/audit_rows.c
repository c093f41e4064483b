/* audit_rows.c: the rows every `tlperf audit` format shares (report/audit.h). */
#include "report/audit.h"
#include "model/stage_result.h"
#include "util/decimal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *report_audit_num(char *buf, size_t n, double v, const char *fmt)
{
	if (!isfinite(v))
		snprintf(buf, n, "%s", "");
	else if (!fmt)
		decimal_format_shortest(buf, n, v);
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

/* perf_tuning rows: the workload cell names the cases and the JSON read. */
static const char *pt_workload(char *buf, size_t n, const struct audit_op *op)
{
	if (op->has_sp)
		snprintf(buf, n, "%zu case%s (%s)", op->sp.nvalid, op->sp.nvalid == 1 ? "" : "s",
			 op->sp.json);
	else
		snprintf(buf, n, "%s", "");
	return buf;
}

/* Fills r with the row of operator op for workload w (NULL: its one row
 * without claims; ignored for a perf_tuning/ folder) in style st. */
static void fill_row(const struct audit_op *op, const struct s4_recon_row *w,
		     const struct report_audit_style *st, struct report_audit_row *r)
{
	for (int i = 0; i < AUDIT_NCOLS; i++)
		r->cell[i] = "";
	r->claim_line = r->winner_line = r->reason = "";
	r->cell[AUDIT_COL_OPERATOR] = op->name;
	r->cell[AUDIT_COL_VERDICT] = audit_verdict(r->v, sizeof(r->v), op);
	r->cell[AUDIT_COL_GEOMEAN] = report_audit_num(r->buf[5], 64, op->geomean, st->speedup);
	if (op->ptune) {
		r->cell[AUDIT_COL_CONTRACT] = "perf_tuning";
		r->cell[AUDIT_COL_WORKLOAD] = pt_workload(r->wl, sizeof(r->wl), op);
		r->cell[AUDIT_COL_SPEEDUP] = report_audit_num(r->buf[4], 64, op->geomean, st->speedup);
		r->cell[AUDIT_COL_STATUS] = st->yes && op->reconciled ? "yes" : audit_pt_status(op);
		r->fail = audit_op_failing(op);
		return;
	}
	r->cell[AUDIT_COL_CONTRACT] = audit_contract_name(op->contract);
	r->cell[AUDIT_COL_STOP] = audit_stop_text(op);
	r->cell[AUDIT_COL_STATUS] = "no claims";
	r->fail = op->failed_to_read;
	if (!w)
		return;
	r->cell[AUDIT_COL_WORKLOAD] = w->workload ? w->workload : "";
	r->cell[AUDIT_COL_BASELINE] = report_audit_num(r->buf[0], 64, w->baseline_us, st->us);
	r->cell[AUDIT_COL_CLAIMED] = report_audit_num(r->buf[1], 64, w->claimed_us, st->us);
	r->cell[AUDIT_COL_WINNER] = w->winner ? w->winner : "";
	r->cell[AUDIT_COL_WINNER_US] = report_audit_num(r->buf[2], 64, w->winner_us, st->us);
	r->cell[AUDIT_COL_DEVIATION] =
		report_audit_num(r->buf[3], 64, audit_row_deviation_pct(w), st->deviation);
	r->cell[AUDIT_COL_SPEEDUP] = report_audit_num(r->buf[4], 64, audit_row_speedup(w), st->speedup);
	r->cell[AUDIT_COL_STATUS] = st->yes && w->ok && !w->self ? "yes" : audit_row_status(w);
	r->cell[AUDIT_COL_EVIDENCE] = audit_row_evidence(r->ev, sizeof(r->ev), w);
	r->fail = !w->ok;
	if (w->claim_line)
		snprintf(r->lines[0], sizeof(r->lines[0]), "%ld", w->claim_line);
	else
		r->lines[0][0] = '\0';
	if (w->winner_line && !w->from_log)
		snprintf(r->lines[1], sizeof(r->lines[1]), "%ld", w->winner_line);
	else
		r->lines[1][0] = '\0';
	r->claim_line = r->lines[0];
	r->winner_line = r->lines[1];
	r->reason = audit_row_reason(r->why, sizeof(r->why), w);
}

void report_audit_rows(const struct audit *a, const struct report_audit_style *st,
		       void (*each)(void *ctx, const struct audit_op *op,
				    const struct report_audit_row *r),
		       void *ctx)
{
	struct report_audit_row r;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		const struct s4_recon *rc = &op->recon;
		size_t nrows = op->ptune || rc->n == 0 ? 1 : rc->n;
		for (size_t j = 0; j < nrows; j++) {
			fill_row(op, op->ptune || rc->n == 0 ? NULL : &rc->v[j], st, &r);
			each(ctx, op, &r);
		}
	}
}

void report_audit_stage_rows(const struct audit *a,
			     void (*each)(void *ctx, const char *const *cell, int ok),
			     void (*after)(void *ctx, const struct audit_op *op), void *ctx)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		if (!op->has_sr)
			continue;
		for (size_t j = 0; j < op->sr_claims.n; j++) {
			const struct s4_stage_claim *c = &op->sr_claims.v[j];
			char st[1400], ln[32];
			const char *status = audit_claim_status(op, c->line, st, sizeof(st));
			snprintf(ln, sizeof(ln), "%ld", c->line);
			const char *cell[AUDIT_NCLAIM_COLS] = { op->name, ln, stage_result_fields[c->field],
								c->workload ? c->workload : "", c->claimed,
								c->recorded, status };
			each(ctx, cell, strcmp(status, "ok") == 0);
		}
		if (after)
			after(ctx, op);
	}
}

/* audit_json.c: `tlperf audit --format json` (report/audit.h): schema
 * tlperf/audit/v1, one object per operator, then the totals. Strings are
 * made valid UTF-8 first (cJSON writes bytes as they are). */
#include "report/audit.h"
#include "model/stage_result.h"
#include "util/utf8.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

/* Adds a number, or null when not finite. */
static int json_num(cJSON *o, const char *k, double v)
{
	return (isfinite(v) ? cJSON_AddNumberToObject(o, k, v) : cJSON_AddNullToObject(o, k)) ? 0
													      : -1;
}

/* Adds a string sanitised to valid UTF-8 (cJSON writes bytes as they are),
 * or null for NULL. */
static int json_str(cJSON *o, const char *k, const char *s)
{
	if (!s)
		return cJSON_AddNullToObject(o, k) ? 0 : -1;
	char *buf = utf8_sanitized(s);
	if (!buf)
		return -1;
	int rc = cJSON_AddStringToObject(o, k, buf) ? 0 : -1;
	free(buf);
	return rc;
}

/* A new object appended to ARR; NULL when out of memory. */
static cJSON *json_new_in(cJSON *arr)
{
	cJSON *x = cJSON_CreateObject();
	if (!x || !cJSON_AddItemToArray(arr, x)) {
		cJSON_Delete(x);
		return NULL;
	}
	return x;
}

/* The fields of a perf_tuning/ folder OP in O, with its cases; nonzero
 * when out of memory. */
static int json_ptune(cJSON *o, const struct audit_op *op)
{
	char v[96];
	int bad = json_str(o, "perf_tuning", op->perf_opt);
	bad |= json_str(o, "contract", "perf_tuning");
	bad |= json_num(o, "geomean_speedup", op->geomean);
	bad |= json_num(o, "mean_speedup", op->sp.mean);
	bad |= json_num(o, "stated_mean_speedup", op->sp.stated_mean);
	bad |= json_str(o, "json", op->has_sp ? op->sp.json : NULL);
	bad |= !cJSON_AddBoolToObject(o, "reconciled", op->reconciled);
	bad |= json_str(o, "status", audit_pt_status(op));
	bad |= json_str(o, "gate_verdict", audit_verdict(v, sizeof(v), op));
	bad |= json_num(o, "gate_errors", (double)op->errors);
	bad |= json_num(o, "gate_warnings", (double)op->warnings);
	cJSON *rows = cJSON_AddArrayToObject(o, "cases");
	bad |= !rows;
	for (size_t j = 0; rows && j < op->sp.n && !bad; j++) {
		cJSON *x = json_new_in(rows);
		if (!x)
			return 1;
		bad |= json_str(x, "case", op->sp.v[j].label);
		bad |= json_num(x, "speedup", op->sp.v[j].speedup);
	}
	return bad;
}

/* OP's "stage_result": the file, its counts, its claims and findings;
 * nonzero when out of memory. */
static int json_stage_result(cJSON *o, const struct audit_op *op)
{
	cJSON *so = cJSON_AddObjectToObject(o, "stage_result");
	cJSON *cl = so ? cJSON_AddArrayToObject(so, "claims") : NULL;
	cJSON *fl = so ? cJSON_AddArrayToObject(so, "findings") : NULL;
	int bad = !cl || !fl;
	if (so) {
		bad |= json_str(so, "file", op->sr_file);
		bad |= json_num(so, "errors", (double)gate_count(&op->sr_fs, GATE_ERROR));
		bad |= json_num(so, "warnings", (double)gate_count(&op->sr_fs, GATE_WARNING));
	}
	for (size_t j = 0; cl && j < op->sr_claims.n && !bad; j++) {
		const struct s4_stage_claim *c = &op->sr_claims.v[j];
		char st[1400];
		cJSON *x = json_new_in(cl);
		if (!x)
			return 1;
		bad |= json_num(x, "line", (double)c->line);
		bad |= json_str(x, "field", stage_result_fields[c->field]);
		bad |= json_str(x, "workload", c->workload);
		bad |= json_str(x, "claimed", c->claimed);
		bad |= json_str(x, "records", c->recorded);
		bad |= json_str(x, "status", audit_claim_status(op, c->line, st, sizeof(st)));
	}
	for (size_t j = 0; fl && j < op->sr_fs.n && !bad; j++) {
		const struct gate_finding *g = &op->sr_fs.v[j];
		cJSON *x = json_new_in(fl);
		if (!x)
			return 1;
		bad |= json_str(x, "rule", g->rule);
		bad |= json_str(x, "severity", gate_severity_name(g->severity));
		bad |= json_num(x, "line", (double)g->line);
		bad |= json_str(x, "message", g->message);
	}
	return bad;
}

/* One reconciliation row W as an object of ROWS; nonzero when out of
 * memory. */
static int json_workload(cJSON *rows, const struct s4_recon_row *w)
{
	cJSON *x = json_new_in(rows);
	if (!x)
		return 1;
	int bad = json_str(x, "kernel", w->dispatch);
	bad |= json_str(x, "workload", w->workload);
	bad |= json_num(x, "baseline_us", w->baseline_us);
	bad |= json_num(x, "claimed_us", w->claimed_us);
	bad |= json_num(x, "claim_line", w->claim_line ? (double)w->claim_line : NAN);
	bad |= json_str(x, "winner", w->winner);
	bad |= json_num(x, "winner_us", w->winner_us);
	bad |= json_num(x, "winner_line", w->winner_line && !w->from_log ? (double)w->winner_line : NAN);
	bad |= json_num(x, "deviation_pct", audit_row_deviation_pct(w));
	bad |= json_num(x, "speedup", audit_row_speedup(w));
	bad |= !cJSON_AddBoolToObject(x, "reconciled", w->ok);
	bad |= json_str(x, "status", audit_row_status(w));
	bad |= json_str(x, "evidence", w->from_log ? "log" : isfinite(w->winner_us) ? "records" : NULL);
	bad |= json_num(x, "evidence_line", w->from_log && w->winner_line ? (double)w->winner_line : NAN);
	return bad;
}

/* The fields of a perf_opt/ directory OP in O, its Stage Result and its
 * workloads; nonzero when out of memory. */
static int json_perf_opt(cJSON *o, const struct audit_op *op)
{
	const struct s4_recon *r = &op->recon;
	char v[96];
	int bad = json_str(o, "perf_opt", op->perf_opt);
	bad |= json_str(o, "contract", audit_contract_name(op->contract));
	bad |= json_num(o, "geomean_speedup", op->geomean);
	bad |= json_num(o, "claimed_geomean", r->claimed_geomean);
	bad |= json_str(o, "evidence", r->evidence[0] ? r->evidence : NULL);
	bad |= json_num(o, "log_claims", (double)r->log_claims);
	bad |= json_str(o, "stop_reason", *audit_stop_text(op) ? audit_stop_text(op) : NULL);
	bad |= !cJSON_AddBoolToObject(o, "reconciled", op->reconciled);
	bad |= json_str(o, "gate_verdict", audit_verdict(v, sizeof(v), op));
	bad |= json_num(o, "gate_errors", (double)op->errors);
	bad |= json_num(o, "gate_warnings", (double)op->warnings);
	if (op->has_sr)
		bad |= json_stage_result(o, op);
	cJSON *rows = cJSON_AddArrayToObject(o, "workloads");
	bad |= !rows;
	for (size_t j = 0; rows && j < r->n && !bad; j++)
		bad |= json_workload(rows, &r->v[j]);
	return bad;
}

/* "totals" of DOC; nonzero when out of memory. */
static int json_totals(cJSON *doc, const struct audit *a)
{
	cJSON *t = cJSON_AddObjectToObject(doc, "totals");
	if (!t)
		return 1;
	int bad = json_num(t, "operators", (double)a->n);
	bad |= json_num(t, "reconciled", (double)a->reconciled);
	bad |= json_num(t, "unreconcilable", (double)a->unreconcilable);
	bad |= json_num(t, "without_claims", (double)a->without_claims);
	bad |= json_num(t, "workloads_with_speedup", (double)a->nspeedups);
	bad |= json_num(t, "geomean_speedup", a->geomean);
	return bad;
}

int report_audit_json(FILE *f, const struct audit *a, const char *version)
{
	(void)version;
	int bad = 0;
	cJSON *doc = cJSON_CreateObject();
	if (doc)
		cJSON_AddStringToObject(doc, "schema", "tlperf/audit/v1");
	cJSON *ops = doc ? cJSON_AddArrayToObject(doc, "operators") : NULL;
	if (!ops) {
		cJSON_Delete(doc);
		return -1;
	}
	for (size_t i = 0; i < a->n && !bad; i++) {
		const struct audit_op *op = &a->v[i];
		cJSON *o = json_new_in(ops);
		if (!o) {
			bad = 1;
			break;
		}
		bad |= json_str(o, "operator", op->name);
		bad |= op->ptune ? json_ptune(o, op) : json_perf_opt(o, op);
	}
	if (!bad)
		bad = json_totals(doc, a);
	char *s = bad ? NULL : cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s)
		return -1;
	fputs(s, f);
	fputc('\n', f);
	free(s);
	return 0;
}

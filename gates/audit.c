/* audit.c: `tlperf audit`'s model and reconciliation (audit.h). */
#include "gates/audit.h"
#include "stats/stats.h"
#include "util/decimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int audit_add_op(struct audit *a, const char *path, int ptune)
{
	if (a->n == a->cap) {
		size_t c = a->cap ? 2 * a->cap : 16;
		struct audit_op *v = realloc(a->v, c * sizeof(*v));
		if (!v)
			return -1;
		a->v = v;
		a->cap = c;
	}
	struct audit_op *op = &a->v[a->n];
	memset(op, 0, sizeof(*op));
	op->ptune = ptune;
	op->sp.mean = op->sp.geomean = op->sp.stated_mean = NAN;
	op->perf_opt = strdup(path);
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	/* operator name: the path without its final "perf_opt" (or
	 * "perf_tuning") component */
	const char *kind = ptune ? "perf_tuning" : "perf_opt";
	size_t kl = strlen(kind);
	size_t cut = len >= kl && strncmp(path + len - kl, kind, kl) == 0 ? len - kl : len;
	while (cut > 1 && path[cut - 1] == '/')
		cut--;
	/* "./ops/x" (a walk from ".") reads better as "ops/x" */
	size_t skip = 0;
	while (cut - skip > 2 && path[skip] == '.' && path[skip + 1] == '/')
		skip += 2;
	op->name = cut == skip ? strdup(".") : strndup(path + skip, cut - skip);
	s4_recon_init(&op->recon);
	s4_stage_claims_init(&op->sr_claims);
	gate_findings_init(&op->sr_fs);
	if (!op->perf_opt || !op->name) {
		free(op->perf_opt);
		free(op->name);
		return -1;
	}
	a->n++;
	return 0;
}

void audit_release(struct audit *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].perf_opt);
		free(a->v[i].name);
		s4_recon_release(&a->v[i].recon);
		ptune_speedups_release(&a->v[i].sp);
		free(a->v[i].sr_file);
		s4_stage_claims_release(&a->v[i].sr_claims);
		gate_findings_release(&a->v[i].sr_fs);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

double audit_row_speedup(const struct s4_recon_row *r)
{
	if (isfinite(r->baseline_us) && r->baseline_us > 0 && isfinite(r->winner_us) &&
	    r->winner_us > 0)
		return r->baseline_us / r->winner_us;
	return NAN;
}

double audit_row_deviation_pct(const struct s4_recon_row *r)
{
	if (isfinite(r->claimed_us) && isfinite(r->winner_us) && r->winner_us > 0)
		return 100.0 * (r->claimed_us - r->winner_us) / r->winner_us;
	return NAN;
}

int audit_settle_rows(struct audit_op *op)
{
	const struct s4_recon *r = &op->recon;
	double *sp = malloc((r->n ? r->n : 1) * sizeof(*sp));
	size_t k = 0;
	if (!sp)
		return -1;
	op->reconciled = r->n > 0;
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].from_log && op->errors)
			op->reconciled = 0; /* the log's other claims fail its own figures */
		double s = audit_row_speedup(&r->v[i]);
		if (isfinite(s))
			sp[k++] = s;
		if (!r->v[i].ok)
			op->reconciled = 0;
	}
	op->geomean = k ? stats_geomean(sp, k) : NAN;
	free(sp);
	return 0;
}

int audit_totals(struct audit *a)
{
	size_t nrows = 0, k = 0;
	for (size_t i = 0; i < a->n; i++)
		nrows += a->v[i].ptune ? 1 : a->v[i].recon.n;
	double *sp = malloc((nrows ? nrows : 1) * sizeof(*sp));
	if (!sp)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct audit_op *op = &a->v[i];
		if (op->ptune) {
			/* gate errors fail the folder; no speedup and no error:
			 * nothing to reconcile */
			if (op->failed_to_read || op->errors)
				a->unreconcilable++;
			else if (op->reconciled)
				a->reconciled++;
			else
				a->without_claims++;
			if (isfinite(op->geomean))
				sp[k++] = op->geomean;
			continue;
		}
		if (op->recon.n && op->recon.v[0].from_log)
			a->log_only++;
		if (op->recon.n == 0 && !op->failed_to_read)
			a->without_claims++;
		else if (op->reconciled)
			a->reconciled++;
		else
			a->unreconcilable++;
		for (size_t j = 0; j < op->recon.n; j++) {
			double s = audit_row_speedup(&op->recon.v[j]);
			if (isfinite(s))
				sp[k++] = s;
		}
	}
	a->nspeedups = k;
	a->geomean = k ? stats_geomean(sp, k) : NAN;
	free(sp);
	return 0;
}

int audit_op_failing(const struct audit_op *op)
{
	if (op->ptune)
		return op->failed_to_read || op->errors;
	return !op->reconciled && (op->recon.n || op->failed_to_read);
}

int audit_any_stage_result(const struct audit *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].has_sr)
			return 1;
	return 0;
}

const char *audit_contract_name(enum records_contract c)
{
	return c == RECORDS_V1 ? "v1" : c == RECORDS_V2 ? "v2" : "?";
}

const char *audit_pt_status(const struct audit_op *op)
{
	if (op->failed_to_read)
		return "unreadable";
	if (op->errors)
		return "GATE ERRORS";
	if (!isfinite(op->geomean))
		return "no speedups";
	return "reconciled";
}

const char *audit_verdict(char *buf, size_t n, const struct audit_op *op)
{
	if (op->failed_to_read)
		snprintf(buf, n, "unreadable");
	else if (op->errors)
		snprintf(buf, n, "fail (%zu error%s%s)", op->errors, op->errors == 1 ? "" : "s",
			 op->warnings ? ", warnings" : "");
	else if (op->warnings)
		snprintf(buf, n, "pass (%zu warning%s)", op->warnings, op->warnings == 1 ? "" : "s");
	else
		snprintf(buf, n, "pass");
	return buf;
}

const char *audit_row_evidence(char *buf, size_t n, const struct s4_recon_row *r)
{
	if (!r->from_log)
		snprintf(buf, n, "%s", isfinite(r->winner_us) ? "records" : "");
	else if (!r->winner_line)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "opt_log.md line %ld%s", r->winner_line, r->self ? " (the claim itself)" : "");
	return buf;
}

const char *audit_row_status(const struct s4_recon_row *r)
{
	if (r->from_log) {
		if (r->ok)
			return r->self ? "stated (log only)" : "reconciled (log)";
		return !isfinite(r->claimed_us) ? "no claim" : !isfinite(r->winner_us) ? "no figure in the log"
										 : "MISMATCH (log)";
	}
	if (r->ok)
		return "reconciled";
	if (!isfinite(r->claimed_us))
		return "no claim";
	if (!isfinite(r->winner_us))
		return "no winner record";
	return "MISMATCH";
}

const char *audit_row_reason(char *buf, size_t n, const struct s4_recon_row *r)
{
	char c[40], w[40], cl[48] = "", wl[56] = "";
	if (r->claim_line)
		snprintf(cl, sizeof(cl), " (opt_log.md line %ld)", r->claim_line);
	if (r->winner_line)
		snprintf(wl, sizeof(wl), " (perf_records.jsonl line %ld)", r->winner_line);
	if (r->ok || n == 0) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	if (r->from_log && isfinite(r->claimed_us))
		snprintf(buf, n, isfinite(r->winner_us) ? "claimed %s us%s is %.2f%% %s the log's own figure %s us (opt_log.md line %ld): more than 1%%"
							: "claimed %s us%s, but the log states no other figure for this workload (and there are no records)",
			 decimal_format_shortest(c, sizeof(c), r->claimed_us), cl,
			 isfinite(r->winner_us) ? 100.0 * fabs(r->claimed_us - r->winner_us) / r->winner_us : 0.0,
			 r->claimed_us < r->winner_us ? "below" : "above",
			 decimal_format_shortest(w, sizeof(w), isfinite(r->winner_us) ? r->winner_us : 0), r->winner_line);
	else if (!isfinite(r->claimed_us))
		snprintf(buf, n, "opt_log.md claims no final latency for this workload");
	else if (!isfinite(r->winner_us))
		snprintf(buf, n, "claimed %s us%s, but the records hold no valid measurement of the "
			 "winner%s%s%s", decimal_format_shortest(c, sizeof(c), r->claimed_us), cl,
			 r->winner ? " '" : "", r->winner ? r->winner : "", r->winner ? "'" : "");
	else
		snprintf(buf, n, "claimed %s us%s is %.2f%% %s the winner's record %s us%s: more than 1%%",
			 decimal_format_shortest(c, sizeof(c), r->claimed_us), cl,
			 100.0 * fabs(r->claimed_us - r->winner_us) / r->winner_us,
			 r->claimed_us < r->winner_us ? "below" : "above",
			 decimal_format_shortest(w, sizeof(w), r->winner_us), wl);
	return buf;
}

const char *audit_stop_text(const struct audit_op *op)
{
	const char *s = op->recon.stop_reason;
	return s && *s ? s : "";
}

const char *audit_claim_status(const struct audit_op *op, long line, char *buf, size_t n)
{
	const struct gate_finding *worst = NULL;
	for (size_t i = 0; i < op->sr_fs.n; i++)
		if (op->sr_fs.v[i].line == line &&
		    (!worst || op->sr_fs.v[i].severity > worst->severity))
			worst = &op->sr_fs.v[i];
	if (!worst)
		return "ok";
	snprintf(buf, n, "%s: [%s] %s", gate_severity_name(worst->severity), worst->rule,
		 worst->message);
	return buf;
}

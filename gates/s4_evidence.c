/* s4_evidence.c: the figures a claim about the final result is checked
 * against (s4.h): the records' baseline and winner per workload, or the
 * log's own figures, so that a log without perf_records.jsonl is still
 * reconciled with itself. */
#include "gates/s4.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void s4_evidence_release(struct s4_evidence *ev)
{
	free(ev->v);
	ev->v = NULL;
	ev->n = 0;
}

static int ev_alloc(struct s4_evidence *ev, size_t n)
{
	ev->n = 0;
	ev->v = malloc((n + 1) * sizeof(*ev->v));
	return ev->v ? 0 : -1;
}

static void ev_add(struct s4_evidence *ev, const char *label, double base, double fin, long line)
{
	if (!(base > 0) || !(fin > 0))
		return;
	struct s4_fig *f = &ev->v[ev->n++];
	f->label = label;
	f->base_us = base;
	f->final_us = fin;
	f->line = line;
}

int s4_evidence_records(const struct s4_recon *rc, struct s4_evidence *ev)
{
	if (ev_alloc(ev, rc->n))
		return -1;
	for (size_t i = 0; i < rc->n; i++)
		ev_add(ev, rc->v[i].workload, rc->v[i].baseline_us, rc->v[i].winner_us, rc->v[i].winner_line);
	snprintf(ev->what, sizeof(ev->what), "the records");
	return 0;
}

/* "lines A-B" (or "line A") of the figures in ev. */
static void line_span(const struct s4_evidence *ev, char *buf, size_t len)
{
	long lo = ev->v[0].line, hi = lo;
	for (size_t i = 1; i < ev->n; i++) {
		lo = ev->v[i].line < lo ? ev->v[i].line : lo;
		hi = ev->v[i].line > hi ? ev->v[i].line : hi;
	}
	if (lo == hi)
		snprintf(buf, len, "line %ld", lo);
	else
		snprintf(buf, len, "lines %ld-%ld", lo, hi);
}

int s4_evidence_log(const struct optlog *lg, struct s4_evidence *ev)
{
	size_t cap = lg->n_final_rows + lg->n_claims + lg->n_figs;
	const char *src;
	if (ev_alloc(ev, cap))
		return -1;
	/* the v2 Final table, else claim lines that state their baseline
	 * (every one of them), else the last table with a baseline and a final
	 * column */
	for (size_t i = 0; i < lg->n_final_rows; i++)
		ev_add(ev, lg->final_rows[i].workload_id, lg->final_rows[i].baseline_us, lg->final_rows[i].final_us,
		       lg->final_rows[i].line);
	src = "its Final Performance Test Data table";
	if (ev->n == 0) {
		size_t with = 0, hard = 0;
		for (size_t i = 0; i < lg->n_claims; i++) {
			const struct optlog_claim *c = &lg->claims[i];
			hard += !c->soft || lg->figs_claims;
			if ((!c->soft || lg->figs_claims) && c->workload && c->baseline_us > 0 && c->final_us > 0)
				with++;
		}
		if (hard > 0 && with == hard)
			for (size_t i = 0; i < lg->n_claims; i++) {
				const struct optlog_claim *c = &lg->claims[i];
				if (!c->soft || lg->figs_claims)
					ev_add(ev, c->workload, c->baseline_us, c->final_us, c->line);
			}
		src = lg->figs_claims ? "its last table of baseline and final figures" : "its own claim lines";
	}
	if (ev->n == 0) {
		for (size_t i = 0; i < lg->n_figs; i++)
			ev_add(ev, lg->figs[i].label, lg->figs[i].base_us, lg->figs[i].final_us, lg->figs[i].line);
		src = "its last table of baseline and final figures";
	}
	if (ev->n == 0) {
		ev->what[0] = '\0';
		return 0;
	}
	char span[64];
	line_span(ev, span, sizeof(span));
	snprintf(ev->what, sizeof(ev->what), "the log's own figures (%s, %s)", src, span);
	return 0;
}

/* S4-FINAL-RESTATED: the final result stated twice. When a later Final
 * Summary or final conclusion supersedes an earlier one, the later is the
 * claim (the latest word wins) and every workload both state must agree.
 * A disagreement is a warning when a new session's H1 heading stands
 * between them (the log moved on: the earlier block is plainly
 * superseded, and says so by its place), an error when nothing between
 * them supersedes the earlier (two final results for one kernel in one
 * session: one of them is false). */
int s4_rule_restated(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK || !lg->prev_summary_line || !lg->n_prev_claims || !lg->n_claims)
		return 0;
	char list[512];
	size_t len = 0, n = 0;
	long first = 0;
	list[0] = '\0';
	for (size_t i = 0; i < lg->n_prev_claims; i++) {
		const struct optlog_claim *p = &lg->prev_claims[i];
		if (!p->workload)
			continue;
		for (size_t k = 0; k < lg->n_claims; k++) {
			const struct optlog_claim *c = &lg->claims[k];
			if (!c->workload || !s4_same_workload(p->workload, c->workload) ||
			    s4_deviation(p->final_us, c->final_us) <= S4_TOLERANCE)
				continue;
			if (!first)
				first = c->line;
			if (n < 4 && len < sizeof(list)) {
				int w = snprintf(list + len, sizeof(list) - len, "%s'%s' %g us (line %ld) then %g us (line %ld)",
						 n ? "; " : "", c->workload, p->final_us, p->line, c->final_us, c->line);
				if (w > 0)
					len += (size_t)w;
			}
			n++;
			break;
		}
	}
	if (!n)
		return 0;
	if (len >= sizeof(list))
		len = sizeof(list) - 1;
	if (lg->session_line)
		return gate_add(fs, "S4-FINAL-RESTATED", GATE_WARNING, in->optlog_file, lg->summary_line,
				"the final result is stated twice and the two disagree for %zu workload%s: %s%s; the summary at line %ld is "
				"superseded by the later session (line %ld), so this one, the latest word, is read as final",
				n, n == 1 ? "" : "s", list, n > 4 ? "; ..." : "", lg->prev_summary_line, lg->session_line) ? -1 : 0;
	return gate_add(fs, "S4-FINAL-RESTATED", GATE_ERROR, in->optlog_file, lg->summary_line,
			"the final result is stated twice and the two disagree for %zu workload%s: %s%s; nothing between the "
			"summary at line %ld and this one supersedes it, so one of them is false",
			n, n == 1 ? "" : "s", list, n > 4 ? "; ..." : "", lg->prev_summary_line) ? -1 : 0;
}

/* The figure of ev for a claim's workload (label): the one whose label
 * names the same workload, else the only figure when the claim names none
 * and ev holds one; NULL. */
static const struct s4_fig *fig_for(const struct s4_evidence *ev, const char *label)
{
	if (!label || !*label)
		return ev->n == 1 ? &ev->v[0] : NULL;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->v[i].label && s4_same_workload(ev->v[i].label, label))
			return &ev->v[i];
	return NULL;
}

/* One row of rc: the claim (final us at line, its baseline or NAN) against
 * its figure in ev. */
static int log_row(struct s4_recon *rc, const struct s4_evidence *ev, const char *dispatch, const char *label,
		   double final_us, double base_us, long line)
{
	struct s4_recon_row *row = s4_recon_row_of(rc, dispatch ? dispatch : "", label ? label : "", RECORDS_UNKNOWN);
	if (!row)
		return -1;
	const struct s4_fig *f = fig_for(ev, label);
	row->from_log = 1;
	row->claimed_us = final_us;
	row->claim_line = line;
	row->baseline_us = base_us > 0 ? base_us : f ? f->base_us : NAN;
	if (f) {
		row->winner_us = f->final_us;
		row->winner_line = f->line;
		row->self = f->line == line;
		row->deviation = s4_deviation(final_us, f->final_us);
		row->ok = row->deviation <= S4_TOLERANCE;
	}
	return 0;
}

/* 1 when claim c is a claim of the log: a hard one, the restated
 * figures taken as claims, or, without records, a row of the Final
 * Summary's table of finals (soft 2: no recorded workload to match it
 * with, so a claim as a claim line is). */
static int log_claim(const struct optlog *lg, const struct optlog_claim *c, int logonly)
{
	return !c->soft || lg->figs_claims || (c->soft == 2 && logonly);
}

int s4_recon_from_log(const struct s4_input *in, struct s4_recon *rc)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK)
		return 0;
	int logonly = in->recs->n == 0;
	rc->log_claims = lg->n_final_rows + lg->n_geomeans + lg->n_ratios;
	for (size_t i = 0; i < lg->n_claims; i++)
		rc->log_claims += log_claim(lg, &lg->claims[i], logonly);
	if (in->recs->n > 0 || rc->n > 0) {
		if (rc->n > 0)
			snprintf(rc->evidence, sizeof(rc->evidence), "the records");
		return 0;
	}
	struct s4_evidence ev;
	int err = 0;
	if (s4_evidence_log(lg, &ev))
		return -1;
	for (size_t i = 0; i < lg->n_final_rows && !err; i++) {
		const struct optlog_final_row *r = &lg->final_rows[i];
		if (r->final_us > 0)
			err = log_row(rc, &ev, r->kernel_id, r->workload_id, r->final_us, r->baseline_us, r->line);
	}
	for (size_t i = 0; !lg->n_final_rows && i < lg->n_claims && !err; i++) {
		const struct optlog_claim *c = &lg->claims[i];
		if (log_claim(lg, c, logonly))
			err = log_row(rc, &ev, NULL, c->workload, c->final_us, c->baseline_us, c->line);
	}
	if (!err && rc->n)
		snprintf(rc->evidence, sizeof(rc->evidence), "%s",
			 ev.n ? ev.what : "nothing: the log states no figures these claims summarise");
	s4_evidence_release(&ev);
	return err ? -1 : 0;
}

/* Without records, a final-latency claim the log's own figures contradict:
 * another line of the log (its last table of baseline and final figures)
 * gives the workload's final more than 1% away. A warning (the records
 * would settle it): which of the log's tables holds the delivered
 * kernel's final is the log's own reading, and a table of an earlier
 * candidate can have that shape. Rule S4-PERF-RECORDS-RECON. */
int s4_rule_log_finals(const struct s4_input *in, struct gate_findings *fs)
{
	if (in->optlog_state != S4_FILE_OK || in->recs->n > 0)
		return 0;
	struct s4_recon rc;
	s4_recon_init(&rc);
	int err = s4_recon_from_log(in, &rc);
	for (size_t i = 0; i < rc.n && !err; i++) {
		const struct s4_recon_row *r = &rc.v[i];
		if (!r->from_log || r->self || r->ok || !isfinite(r->winner_us))
			continue;
		err = gate_add(fs, "S4-PERF-RECORDS-RECON", GATE_WARNING, in->optlog_file, r->claim_line,
			       "final latency %g us claimed for '%s' is not the log's own figure %g us for it (line %ld): %.1f%% off, more than 1%%; without perf_records.jsonl nothing settles which one the delivered kernel holds",
			       r->claimed_us, r->workload, r->winner_us, r->winner_line, r->deviation * 100);
	}
	s4_recon_release(&rc);
	return err ? -1 : 0;
}

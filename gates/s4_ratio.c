/* s4_ratio.c: S4-SPEEDUP for speedups and changes in % claimed in the
 * last Final Summary, per workload or overall (s4.h). Geometric means are
 * checked in s4_claims.c.
 *
 * From the reconciliation rows (baseline record, winner record) each
 * workload has a speedup S = baseline / final, a change in time
 * T = (final - baseline) / baseline and a change in speed V = S - 1. A
 * claim agrees when it is one of the readings a reader could mean, within
 * the figure's own precision (half a unit of its last digit) plus 1%:
 *   - a workload's speedup: S; its % change: |T| or |V| (`-43.1%`,
 *     `+650%` for a time that fell 177.48 -> 23.6, `提升 43%`);
 *   - overall: the geometric mean of S, or one workload's S (|T|, |V| and
 *     their geometric-mean forms for %), or for a range `A ~ B` the
 *     smallest and largest of them.
 * A claim that agrees with none is an error when no reading reaches it
 * (it overstates every workload: mechanically false), else a warning that
 * quotes it and says what the records give. */
#include "gates/s4.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl {
	double s, t, v; /* speedup, |time change| %, |speed change| % */
};

static int close_to(double claim, int dec, double want)
{
	double half = 0.5 * pow(10, -dec);
	return fabs(fabs(claim) - want) <= half + 0.01 * fabs(want) + 1e-12;
}

/* The workloads of the evidence (each with a baseline and a final):
 * malloc'd, *n of them. */
static struct wl *workloads(const struct s4_evidence *ev, size_t *n)
{
	struct wl *w = malloc((ev->n + 1) * sizeof(*w));
	*n = 0;
	if (!w)
		return NULL;
	for (size_t i = 0; i < ev->n; i++) {
		const struct s4_fig *r = &ev->v[i];
		double s = r->base_us / r->final_us;
		w[*n].s = s;
		w[*n].t = fabs(1 / s - 1) * 100;
		w[*n].v = fabs(s - 1) * 100;
		(*n)++;
	}
	return w;
}

/* The readings of a claim of kind k for workload w: 1 or 2 values. */
static int readings(enum optlog_ratio_kind k, const struct wl *w, double out[2])
{
	if (k == OPTLOG_RATIO_SPEEDUP) {
		out[0] = w->s;
		return 1;
	}
	out[0] = w->t;
	out[1] = w->v;
	return 2;
}

static int agrees(const struct optlog_ratio *c, double value, const struct wl *w)
{
	double r[2];
	int n = readings(c->kind, w, r);
	for (int i = 0; i < n; i++)
		if (close_to(value, c->decimals, r[i]))
			return 1;
	return 0;
}

/* The highest reading of any workload (what a claim may not exceed). */
static double highest(enum optlog_ratio_kind k, const struct wl *w, size_t n)
{
	double hi = 0, r[2];
	for (size_t i = 0; i < n; i++) {
		int m = readings(k, &w[i], r);
		for (int j = 0; j < m; j++)
			if (r[j] > hi)
				hi = r[j];
	}
	return hi;
}

static struct wl geo_of(const struct wl *w, size_t n)
{
	double l = 0;
	for (size_t i = 0; i < n; i++)
		l += log(w[i].s);
	struct wl g;
	g.s = exp(l / (double)n);
	g.t = fabs(1 / g.s - 1) * 100;
	g.v = fabs(g.s - 1) * 100;
	return g;
}

static int any_agrees(const struct optlog_ratio *c, double value, const struct wl *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (agrees(c, value, &w[i]))
			return 1;
	return 0;
}

static const char *unit_of(const struct optlog_ratio *c)
{
	return c->kind == OPTLOG_RATIO_SPEEDUP ? "x" : "%";
}

static int report(const struct s4_input *in, struct gate_findings *fs, const struct optlog_ratio *c, double hi,
		  const char *workload, const char *what, const char *records)
{
	int over = fabs(c->value) > hi && !close_to(c->value, c->decimals, hi);
	if (!isnan(c->hi))
		over = over || (fabs(c->hi) > hi && !close_to(c->hi, c->decimals, hi));
	if (c->prose && !over)
		return 0; /* a smaller figure in prose is some other comparison (`smoke 计 1×`) */
	/* a figure read from prose, or beyond a claim line's first, may mean
	 * something else (another reference, a subset): never an error */
	return gate_add(fs, "S4-SPEEDUP", over && !c->prose ? GATE_ERROR : GATE_WARNING, in->optlog_file, c->line,
			"%s %s %g%s%s%s%s%s does not match %s (%s)%s%s: '%s'",
			c->prose ? "a figure read as a claimed" : "claimed",
			c->kind == OPTLOG_RATIO_SPEEDUP ? "speedup" : "change", c->value, unit_of(c),
			isnan(c->hi) ? "" : " and up", workload ? " for '" : "", workload ? workload : "",
			workload ? "'" : "", what, records,
			over ? ", and no workload reaches it" : "; not reconciled",
			c->prose ? "; assumed it compares the winner with the baseline" : "", c->quote);
}

static int check_workload(const struct s4_input *in, const struct s4_evidence *ev, const struct optlog_ratio *c,
			  struct gate_findings *fs)
{
	for (size_t i = 0; i < ev->n; i++) {
		const struct s4_fig *f = &ev->v[i];
		if (!s4_same_workload(c->workload, f->label))
			continue;
		struct { double baseline_us, winner_us; const char *workload; } row = { f->base_us, f->final_us, f->label },
			*r = &row;
		struct wl w = { r->baseline_us / r->winner_us, 0, 0 };
		w.t = fabs(1 / w.s - 1) * 100;
		w.v = fabs(w.s - 1) * 100;
		if (agrees(c, c->value, &w))
			return 0;
		char rec[160];
		if (c->kind == OPTLOG_RATIO_SPEEDUP)
			snprintf(rec, sizeof(rec), "baseline %g us / final %g us = %.3fx", r->baseline_us, r->winner_us, w.s);
		else
			snprintf(rec, sizeof(rec), "%g -> %g us: time -%.2f%%, speed +%.2f%%", r->baseline_us, r->winner_us,
				 w.t, w.v);
		return report(in, fs, c, highest(c->kind, &w, 1), r->workload, ev->what, rec) ? -1 : 0;
	}
	return 0; /* not a recorded workload: RECON says so for the line */
}

static int check_overall(const struct s4_input *in, const struct optlog_ratio *c, const struct wl *w, size_t n,
			 const char *what, struct gate_findings *fs)
{
	struct wl g = geo_of(w, n);
	int ok;
	if (isnan(c->hi))
		ok = agrees(c, c->value, &g) || any_agrees(c, c->value, w, n);
	else
		ok = any_agrees(c, c->value, w, n) && any_agrees(c, c->hi, w, n);
	if (ok)
		return 0;
	char rec[200];
	double lo = w[0].s, hi = w[0].s;
	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, w[i].s);
		hi = fmax(hi, w[i].s);
	}
	if (c->kind == OPTLOG_RATIO_SPEEDUP)
		snprintf(rec, sizeof(rec), "%zu workload%s: %.3fx to %.3fx, geometric mean %.3fx", n, n == 1 ? "" : "s",
			 lo, hi, g.s);
	else
		snprintf(rec, sizeof(rec), "%zu workload%s: time -%.2f%% to -%.2f%%, geometric mean -%.2f%%", n,
			 n == 1 ? "" : "s", fabs(1 / lo - 1) * 100, fabs(1 / hi - 1) * 100, g.t);
	return report(in, fs, c, highest(c->kind, w, n), NULL, what, rec) ? -1 : 0;
}

/* Whether a time figure in prose is supported: within 1% of a baseline or
 * winner measurement of some workload, or not below every winner
 * measurement by more than 1% (a slower figure is some other candidate
 * or run; only one faster than the winner ever measured is a claim the
 * records cannot back, whichever workload it means). */
static int recorded_time(const struct s4_recon *rc, double us)
{
	double least = INFINITY;
	for (size_t i = 0; i < rc->n; i++) {
		const double v[2] = { rc->v[i].baseline_us, rc->v[i].winner_us };
		for (int k = 0; k < 2; k++)
			if (v[k] > 0 && fabs(us - v[k]) <= 0.01 * v[k] + 1e-9)
				return 1;
		if (rc->v[i].winner_us > 0)
			least = fmin(least, rc->v[i].winner_us);
	}
	return !(us < 0.99 * least);
}

/* Time figures next to a claim word in the Final Summary's prose: a
 * warning, quoting the line, for each faster than every winner
 * measurement and equal to no baseline or winner measurement (which
 * workload or candidate the sentence means is prose, so never an error). */
static int check_prose_times(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	for (size_t i = 0; i < lg->n_notes; i++) {
		const struct optlog_note *n = &lg->notes[i];
		if (n->kind != OPTLOG_NOTE_PROSE || rc->n == 0 || recorded_time(rc, n->value_us))
			continue;
		if (gate_add(fs, "S4-CLAIM-READ", GATE_WARNING, in->optlog_file, n->line,
			     "the Final Summary's prose shows %g %s%s next to a claim word, faster than every winner "
			     "measurement in perf_records.jsonl and within 1%% of none (read as a claimed latency): '%s'",
			     n->value, n->unit ? n->unit : "us", "", n->quote))
			return -1;
	}
	return 0;
}

int s4_rule_ratios(const struct s4_input *in, const struct s4_recon *rc, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	if (in->optlog_state != S4_FILE_OK)
		return 0;
	if (check_prose_times(in, rc, fs))
		return -1;
	if (lg->n_ratios == 0)
		return 0;
	/* the log's own figures first, then the records: the first that
	 * contradicts a claim gives its one finding */
	struct s4_evidence ev[2] = { { 0 }, { 0 } };
	struct wl *w[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int err = s4_evidence_log(lg, &ev[0]) || s4_evidence_records(rc, &ev[1]) ? -1 : 0;
	for (int k = 0; k < 2 && !err; k++)
		if (!(w[k] = workloads(&ev[k], &n[k])))
			err = -1;
	for (size_t i = 0; i < lg->n_ratios && !err; i++) {
		const struct optlog_ratio *c = &lg->ratios[i];
		size_t before = fs->n;
		for (int k = 0; k < 2 && !err && fs->n == before; k++) {
			if (c->workload)
				err = check_workload(in, &ev[k], c, fs);
			else if (n[k] > 0)
				err = check_overall(in, c, w[k], n[k], ev[k].what, fs);
		}
	}
	for (int k = 0; k < 2; k++) {
		free(w[k]);
		s4_evidence_release(&ev[k]);
	}
	return err;
}

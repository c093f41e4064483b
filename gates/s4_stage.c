/* s4_stage.c: S4-STAGE-RESULT-*, a Stage Result block reconciled against
 * the records (s4_stage.h). */
#include "gates/s4_stage.h"
#include "stats/stats.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gates/s4_util.h"
#include "stats/plateau.h"
#include "stats/speedup.h"
#include "util/uname.h"

#define R_FORMAT "S4-STAGE-RESULT-FORMAT"
#define R_LITERAL "S4-STAGE-RESULT-LITERAL"
#define R_PATHS "S4-STAGE-RESULT-PATHS"
#define R_LATENCY "S4-STAGE-RESULT-LATENCY"
#define R_IMPROVEMENT "S4-STAGE-RESULT-IMPROVEMENT"
#define R_ITERATIONS "S4-STAGE-RESULT-ITERATIONS"
#define R_STOP "S4-STAGE-RESULT-STOP"
#define R_DESIGN "S4-STAGE-RESULT-DESIGN-LIMIT"

/* One workload to reconcile: RECON's row, completed from the speedups
 * when RECON had no winner for it. */
struct wl {
	const char *dispatch, *workload;
	double base_us, final_us;
	long final_line;
};

struct st {
	const struct s4_input *in;
	const struct s4_stage_ctx *sc;
	struct gate_findings *fs;
	const char *f;
	struct wl *w;
	size_t nw;
	int err;
};

#define ADD(S, RULE, SEV, LINE, ...)                                                   \
	do {                                                                           \
		if (gate_add((S)->fs, RULE, SEV, (S)->f, LINE, __VA_ARGS__))           \
			(S)->err = -1;                                                 \
	} while (0)

void s4_stage_claims_init(struct s4_stage_claims *c)
{
	memset(c, 0, sizeof(*c));
}

void s4_stage_claims_release(struct s4_stage_claims *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].workload);
		free(c->v[i].claimed);
		free(c->v[i].recorded);
	}
	free(c->v);
	s4_stage_claims_init(c);
}

/* Notes what the records say about entry e (printf-formatted). */
static void claim(struct st *s, const struct sr_entry *e, const char *workload, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void claim(struct st *s, const struct sr_entry *e, const char *workload, const char *fmt, ...)
{
	struct s4_stage_claims *c = s->sc->claims;
	if (!c || s->err)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct s4_stage_claim *v = realloc(c->v, cap * sizeof(*v));
		if (!v) {
			s->err = -1;
			return;
		}
		c->v = v;
		c->cap = cap;
	}
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	struct s4_stage_claim *x = &c->v[c->n];
	x->line = e->line;
	x->field = e->field;
	x->workload = workload ? strdup(workload) : NULL;
	x->claimed = strdup(e->value);
	x->recorded = strdup(buf);
	if ((workload && !x->workload) || !x->claimed || !x->recorded) {
		free(x->workload);
		free(x->claimed);
		free(x->recorded);
		s->err = -1;
		return;
	}
	c->n++;
}

static const struct sr_entry *first(const struct st *s, enum sr_field f)
{
	return stage_result_get(s->sc->sr, f, NULL, 1);
}

/* ---------------------------------------------------------------- format */

static int has_placeholder(const char *v)
{
	const char *o = strchr(v, '{');
	return o && strchr(o, '}') != NULL;
}

/* The earlier entry of the same field (and the same workload, or both
 * without one) as entry i, NULL when none. */
static const struct sr_entry *earlier_same(const struct stage_result *sr, size_t i)
{
	const struct sr_entry *e = &sr->v[i];
	for (size_t j = 0; j < i; j++) {
		const struct sr_entry *p = &sr->v[j];
		if (p->field == e->field &&
		    ((!p->workload && !e->workload) ||
		     (p->workload && e->workload && s4_same_workload(p->workload, e->workload))))
			return p;
	}
	return NULL;
}

/* The format of entry i: a known field, given once, labelled only when per
 * workload, with a value that is not the seed's placeholder. */
static void check_entry_format(struct st *s, size_t i)
{
	const struct sr_entry *e = &s->sc->sr->v[i];
	if (e->field == SR_UNKNOWN) {
		ADD(s, R_FORMAT, GATE_WARNING, e->line,
		    "unknown field '%s' in '%s' (not a field of the seed's Stage Result): ignored", e->key, e->raw);
		return;
	}
	const struct sr_entry *p = earlier_same(s->sc->sr, i);
	if (p)
		ADD(s, R_FORMAT, GATE_ERROR, e->line, "field '%s'%s%s%s is given twice (first at line %ld): '%s'",
		    e->key, e->workload ? " for '" : "", e->workload ? e->workload : "", e->workload ? "'" : "",
		    p->line, e->raw);
	if (e->workload && !stage_result_per_workload(e->field))
		ADD(s, R_FORMAT, GATE_WARNING, e->line,
		    "field '%s' has a workload label '%s' but is not per workload: label ignored", e->key,
		    e->workload);
	if (has_placeholder(e->value))
		ADD(s, R_FORMAT, GATE_ERROR, e->line, "field '%s' still holds the seed's template placeholder: '%s'",
		    e->key, e->raw);
	else if (!*e->value)
		ADD(s, R_FORMAT, GATE_ERROR, e->line,
		    "field '%s' has no value (write 'none' when there is nothing): '%s'", e->key, e->raw);
}

static void check_format(struct st *s)
{
	const struct stage_result *sr = s->sc->sr;
	for (size_t i = 0; i < sr->nprobs; i++)
		ADD(s, R_FORMAT, sr->probs[i].error ? GATE_ERROR : GATE_WARNING, sr->probs[i].line,
		    "%s", sr->probs[i].message);
	if (sr->heading_line == 0 && sr->n == 0)
		return;
	if (sr->nblocks > 1)
		ADD(s, R_FORMAT, GATE_ERROR, sr->heading_line,
		    "%ld 'Stage Result' blocks (another at line %ld): a report has one; the last one (line %ld) is checked",
		    sr->nblocks, sr->other_heading, sr->heading_line);
	long at = sr->heading_line;
	for (int f = 0; f < SR_NFIELDS; f++)
		if (stage_result_count(sr, (enum sr_field)f) == 0)
			ADD(s, R_FORMAT, f == SR_ISSUES ? GATE_WARNING : GATE_ERROR, at,
			    "field '%s' is missing from the Stage Result%s", stage_result_fields[f],
			    f == SR_ISSUES ? " (write 'issues: none' when there are none)" : "");
	for (size_t i = 0; i < sr->n; i++)
		check_entry_format(s, i);
}

/* Numbers and units of the numeric fields; 1 when e is usable. */
static int numeric_ok(struct st *s, const struct sr_entry *e)
{
	if (has_placeholder(e->value) || !*e->value)
		return 0;
	if (isnan(e->number)) {
		ADD(s, R_FORMAT, GATE_ERROR, e->line, "field '%s' is not a number: '%s'", e->key,
		    e->raw);
		return 0;
	}
	if (e->extra && (e->field == SR_BASELINE_LATENCY || e->field == SR_FINAL_LATENCY || e->field == SR_IMPROVEMENT))
		ADD(s, R_FORMAT, GATE_WARNING, e->line,
		    "the value shows more figures than the one read (%g%s; after an arrow or a correction, the "
		    "last): '%s'", e->number, e->field == SR_IMPROVEMENT ? "%" : " us", e->raw);
	switch (e->field) {
	case SR_BASELINE_LATENCY:
	case SR_FINAL_LATENCY:
		if (e->unit == SR_UNIT_NONE)
			ADD(s, R_FORMAT, GATE_WARNING, e->line,
			    "value without a unit in '%s': assumed us (the seed writes '{v} us')", e->raw);
		else if (e->unit == SR_UNIT_MS || e->unit == SR_UNIT_NS)
			ADD(s, R_FORMAT, GATE_WARNING, e->line,
			    "'%s' is not in us: read as %g us (the seed writes '{v} us')", e->raw,
			    e->number);
		else if (e->unit != SR_UNIT_US) {
			ADD(s, R_FORMAT, GATE_ERROR, e->line,
			    "'%s' is not a latency (want '{v} us')", e->raw);
			return 0;
		}
		if (e->number <= 0) {
			ADD(s, R_FORMAT, GATE_ERROR, e->line, "latency must be > 0: '%s'", e->raw);
			return 0;
		}
		return 1;
	case SR_IMPROVEMENT:
		if (e->unit == SR_UNIT_NONE)
			ADD(s, R_FORMAT, GATE_WARNING, e->line,
			    "value without a unit in '%s': assumed %% (the seed writes '{x}%%')", e->raw);
		else if (e->unit == SR_UNIT_X)
			ADD(s, R_FORMAT, GATE_WARNING, e->line,
			    "'%s' is a speedup, not a percentage: read as %.1f%% (1 - 1/speedup; the seed writes '{x}%%')",
			    e->raw, e->number > 0 ? 100 * (1 - 1 / e->number) : NAN);
		else if (e->unit != SR_UNIT_PCT) {
			ADD(s, R_FORMAT, GATE_ERROR, e->line, "'%s' is not a percentage (want '{x}%%')",
			    e->raw);
			return 0;
		}
		if (e->unit == SR_UNIT_X && e->number <= 0)
			return 0;
		return 1;
	case SR_ITERATIONS:
		if (e->decimals > 0 || e->number < 0 || e->number != floor(e->number)) {
			ADD(s, R_FORMAT, GATE_ERROR, e->line,
			    "iterations must be a whole number of rounds: '%s'", e->raw);
			return 0;
		}
		return 1;
	default:
		return 1;
	}
}

static double improvement_pct(const struct sr_entry *e)
{
	return e->unit == SR_UNIT_X ? 100 * (1 - 1 / e->number) : e->number;
}

/* ---------------------------------------------------------------- literals */

/* The first word of a value (decoration stripped) into buf. */
static const char *word(const char *v, char *buf, size_t n)
{
	while (*v == ' ' || *v == '`' || *v == '*' || *v == '"')
		v++;
	size_t k = 0;
	while (v[k] && v[k] != ' ' && v[k] != '`' && v[k] != '*' && v[k] != '"' && v[k] != '(' &&
	       v[k] != ',' && k + 1 < n) {
		buf[k] = v[k];
		k++;
	}
	buf[k] = '\0';
	return buf;
}

static void check_literals(struct st *s)
{
	static const enum sr_field lit[] = { SR_STAGE, SR_VERDICT, SR_PRIMARY_METRIC };
	for (size_t i = 0; i < 3; i++) {
		const struct sr_entry *e = first(s, lit[i]);
		char w[256];
		if (!e || has_placeholder(e->value) || !*e->value)
			continue;
		const char *want = stage_result_literal(lit[i]);
		word(e->value, w, sizeof(w));
		if (strcmp(w, want) == 0)
			continue;
		if (strcasecmp(w, want) == 0)
			ADD(s, R_LITERAL, GATE_WARNING, e->line,
			    "field '%s' is '%s'; the seed's literal is '%s' (assumed the same)", e->key, w,
			    want);
		else
			ADD(s, R_LITERAL, GATE_ERROR, e->line, "field '%s' must be '%s', not '%s': '%s'",
			    e->key, want, e->value, e->raw);
	}
	const struct sr_entry *op = first(s, SR_OPERATOR);
	if (op && s->sc->plan_op && !has_placeholder(op->value)) {
		char w[256];
		word(op->value, w, sizeof(w));
		if (strcmp(w, s->sc->plan_op) != 0)
			ADD(s, R_LITERAL, GATE_WARNING, op->line,
			    "operator '%s', but perf_opt/loop.json tunes '%s'", w, s->sc->plan_op);
	}
}

/* ---------------------------------------------------------------- paths */

/* A path's components ("." dropped). */
struct comps {
	char v[64][256];
	size_t n;
};

/* The components of path into c; -1 with why in note when one is "..",
 * when there are too many or one is too long, or when there is none. */
static int split_path(const char *path, struct comps *c, char *note, size_t notelen)
{
	c->n = 0;
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t k = strcspn(p, "/");
		if (c->n == 64 || k >= sizeof(c->v[0])) {
			snprintf(note, notelen, "the path is too long");
			return -1;
		}
		memcpy(c->v[c->n], p, k);
		c->v[c->n][k] = '\0';
		p += k;
		if (strcmp(c->v[c->n], ".") == 0)
			continue;
		if (strcmp(c->v[c->n], "..") == 0) {
			snprintf(note, notelen, "'..' leaves the checked tree");
			return -1;
		}
		c->n++;
	}
	if (c->n == 0) {
		snprintf(note, notelen, "the path is empty");
		return -1;
	}
	return 0;
}

/* The components of directory dir into c: at most 64, each cut to 255 bytes. */
static void split_dir(const char *dir, struct comps *c)
{
	c->n = 0;
	for (const char *p = dir; *p && c->n < 64;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t k = strcspn(p, "/");
		if (k >= sizeof(c->v[0]))
			k = sizeof(c->v[0]) - 1;
		memcpy(c->v[c->n], p, k);
		c->v[c->n][k] = '\0';
		p += strcspn(p, "/");
		c->n++;
	}
}

/* The longest k < p->n whose first k components of p are the last k of
 * d, 0 when none. */
static size_t tail_overlap(const struct comps *p, const struct comps *d)
{
	for (size_t k = (p->n - 1 < d->n ? p->n - 1 : d->n); k >= 1; k--) {
		int eq = 1;
		for (size_t j = 0; j < k && eq; j++)
			eq = strcmp(p->v[j], d->v[d->n - k + j]) == 0;
		if (eq)
			return k;
	}
	return 0;
}

/* Where relative path p starts under op_dir (components d): after a prefix
 * that ends op_dir, at 0 when it starts at op_dir's content (one
 * component, or perf_opt/ first), else assumed at its perf_opt/ component
 * or its last one (*assumed 1, why in note). */
static size_t rel_from(const struct comps *p, const struct comps *d, const char *op_dir, int *assumed,
		       char *note, size_t notelen)
{
	size_t best = tail_overlap(p, d);
	if (best)
		return best;
	if (p->n == 1 || strcmp(p->v[0], "perf_opt") == 0)
		return 0;
	size_t po = 0;
	for (size_t j = 1; j < p->n && !po; j++)
		if (strcmp(p->v[j], "perf_opt") == 0)
			po = j;
	char lead[1024] = "";
	size_t upto = po ? po : p->n - 1;
	for (size_t j = 0; j < upto; j++) {
		size_t l = strlen(lead);
		snprintf(lead + l, sizeof(lead) - l, "%s%s", j ? "/" : "", p->v[j]);
	}
	*assumed = 1;
	snprintf(note, notelen,
		 "its leading '%s' is not the end of the operator directory '%s': assumed a moved or copied tree",
		 lead, op_dir);
	return po ? po : p->n - 1;
}

/* Components from.. of p joined by '/' into rel; -1 with note when it does
 * not fit. */
static int join_from(const struct comps *p, size_t from, char *rel, size_t rellen, char *note,
		     size_t notelen)
{
	size_t at = 0;
	for (size_t j = from; j < p->n; j++) {
		int w = snprintf(rel + at, rellen - at, "%s%s", j > from ? "/" : "", p->v[j]);
		if (w < 0 || (size_t)w >= rellen - at) {
			snprintf(note, notelen, "the path is too long");
			return -1;
		}
		at += (size_t)w;
	}
	return 0;
}

int s4_stage_locate(const char *op_dir, const char *path, char *rel, size_t rellen, char *note,
		    size_t notelen)
{
	struct comps comp, dcomp;
	size_t from = 0;
	int assumed = 0;
	rel[0] = '\0';
	note[0] = '\0';
	if (split_path(path, &comp, note, notelen) != 0)
		return -1;
	split_dir(op_dir, &dcomp);
	if (path[0] == '/') {
		size_t k = 0;
		while (k < dcomp.n && k < comp.n && strcmp(comp.v[k], dcomp.v[k]) == 0)
			k++;
		if (k < dcomp.n || k == comp.n) {
			snprintf(note, notelen, "it is not under the operator directory '%s'", op_dir);
			return -1;
		}
		from = dcomp.n;
	} else {
		from = rel_from(&comp, &dcomp, op_dir, &assumed, note, notelen);
	}
	if (join_from(&comp, from, rel, rellen, note, notelen) != 0)
		return -1;
	return assumed;
}

/* The path token of a value: its first word, backticks stripped. */
static const char *path_of(const char *v, char *buf, size_t n)
{
	while (*v == ' ' || *v == '`' || *v == '*')
		v++;
	size_t k = strcspn(v, " `*\t");
	if (k >= n)
		k = n - 1;
	memcpy(buf, v, k);
	buf[k] = '\0';
	return buf;
}

/* Checks one path field; want is the expected relative path (NULL: any
 * existing file). Returns 1 when the path names an existing file. */
static int check_path(struct st *s, const struct sr_entry *e, const char *want, int may_be_none)
{
	char p[4096], rel[4096], note[1200];
	if (has_placeholder(e->value) || !*e->value)
		return 0;
	if (stage_result_is_none(e->value)) {
		if (!may_be_none)
			ADD(s, R_PATHS, GATE_ERROR, e->line, "field '%s' must name a file, not '%s'",
			    e->key, e->value);
		return 0;
	}
	path_of(e->value, p, sizeof(p));
	int loc = s4_stage_locate(s->sc->op_dir, p, rel, sizeof(rel), note, sizeof(note));
	if (loc < 0) {
		ADD(s, R_PATHS, GATE_ERROR, e->line,
		    "%s '%s' does not lie under the operator directory: %s (not opened)", e->key, p,
		    note);
		return 0;
	}
	if (loc == 1)
		ADD(s, R_PATHS, GATE_WARNING, e->line, "%s '%s': %s; checked as '%s' under it",
		    e->key, p, note, rel);
	int kind = s->sc->op_file ? s->sc->op_file(rel, s->sc->op_ctx) : 0;
	if (kind != 1) {
		ADD(s, R_PATHS, GATE_ERROR, e->line, "%s '%s' %s under the operator directory '%s'",
		    e->key, p, kind < 0 ? "is not a regular file" : "does not exist", s->sc->op_dir);
		return 0;
	}
	if (want && strcmp(rel, want) != 0)
		ADD(s, R_PATHS, GATE_WARNING, e->line, "%s '%s' is '%s' of the operator directory; the seed's is '%s'",
		    e->key, p, rel, want);
	return 1;
}

static void check_paths(struct st *s)
{
	char want[600];
	const struct sr_entry *e = first(s, SR_OUTPUT);
	const struct sr_entry *op = first(s, SR_OPERATOR);
	const char *opname = s->sc->plan_op;
	char w[256];
	if (!opname && op && !has_placeholder(op->value) && !stage_result_is_none(op->value))
		opname = word(op->value, w, sizeof(w));
	if (e) {
		if (opname)
			snprintf(want, sizeof(want), "perf_opt/%s.py", opname);
		check_path(s, e, opname ? want : NULL, 0);
	}
	if ((e = first(s, SR_LOG)))
		check_path(s, e, "perf_opt/opt_log.md", 0);
	if ((e = first(s, SR_SUMMARY_DOC)))
		check_path(s, e, NULL, 1);
}

/* ---------------------------------------------------------------- design limit */

static void check_design(struct st *s)
{
	int exists = s->in->feedback_state != S4_FILE_MISSING;
	const struct sr_entry *sig = first(s, SR_DESIGN_LIMIT_SIGNAL);
	const struct sr_entry *fb = first(s, SR_PERF_FEEDBACK);
	if (sig)
		claim(s, sig, NULL, "perf_feedback.md %s", exists ? "present" : "absent");
	if (sig && !has_placeholder(sig->value) && *sig->value) {
		int none = stage_result_is_none(sig->value);
		int dl = strstr(sig->value, "DESIGN_LIMIT") != NULL;
		if (!none && !dl)
			ADD(s, R_DESIGN, GATE_ERROR, sig->line,
			    "design_limit_signal must be 'none' or '[DESIGN_LIMIT]', not '%s'", sig->value);
		else if (dl && !exists)
			ADD(s, R_DESIGN, GATE_ERROR, sig->line,
			    "design_limit_signal [DESIGN_LIMIT], but there is no %s (the signal comes with that file)",
			    s->in->feedback_file);
		else if (none && exists)
			ADD(s, R_DESIGN, GATE_ERROR, sig->line,
			    "design_limit_signal none, but %s exists: it is produced only with [DESIGN_LIMIT]",
			    s->in->feedback_file);
	}
	if (fb && !has_placeholder(fb->value) && *fb->value) {
		int none = stage_result_is_none(fb->value);
		if (none && exists)
			ADD(s, R_DESIGN, GATE_ERROR, fb->line,
			    "perf_feedback none, but %s exists", s->in->feedback_file);
		else if (!none && !exists)
			ADD(s, R_DESIGN, GATE_ERROR, fb->line,
			    "perf_feedback names '%s', but there is no %s", fb->value,
			    s->in->feedback_file);
		else if (!none)
			check_path(s, fb, "perf_opt/perf_feedback.md", 0);
	}
}

/* ---------------------------------------------------------------- latencies */

/* Workloads from the reconciliation rows (plus the speedups' finals). */
static int build_workloads(struct st *s, const struct s4_recon *rc)
{
	const struct records *rs = s->in->recs;
	struct stats_speedup sp;
	int have_sp = stats_speedup_compute(rs, NULL, &sp) == 0;
	s->w = calloc(rc->n + (have_sp ? sp.nkeys : 0) + 1, sizeof(*s->w));
	if (!s->w) {
		if (have_sp)
			stats_speedup_release(&sp);
		return -1;
	}
	for (size_t i = 0; i < rc->n; i++) {
		const struct s4_recon_row *r = &rc->v[i];
		struct wl *w = &s->w[s->nw++];
		w->dispatch = r->dispatch;
		w->workload = r->workload;
		w->base_us = r->baseline_us;
		w->final_us = r->winner_us;
		w->final_line = r->winner_line;
	}
	/* workloads RECON did not see (no opt_log.md, no claim): the
	 * speedups' baseline and final */
	for (size_t k = 0; have_sp && k < sp.nkeys; k++) {
		const struct stats_speedup_key *key = &sp.keys[k];
		struct wl *hit = NULL;
		for (size_t i = 0; i < s->nw && !hit; i++)
			if (strcmp(s->w[i].dispatch, key->dispatch) == 0 &&
			    strcmp(s->w[i].workload, key->workload) == 0)
				hit = &s->w[i];
		if (!hit) {
			/* strings borrowed from the records, which outlive s */
			hit = &s->w[s->nw++];
			hit->dispatch = key->dispatch;
			hit->workload = key->workload;
			hit->base_us = hit->final_us = NAN;
		}
		if (isnan(hit->base_us) && key->baseline)
			hit->base_us = key->baseline->duration_us;
		if (isnan(hit->final_us) && key->final && key->source != STATS_FINAL_BEST) {
			hit->final_us = key->final_us;
			hit->final_line = key->final->line;
		}
	}
	if (have_sp)
		stats_speedup_release(&sp);
	return 0;
}

static double wl_value(const struct wl *w, enum sr_field f)
{
	return f == SR_BASELINE_LATENCY ? w->base_us : w->final_us;
}

static int wl_matches(const struct wl *w, const char *label)
{
	return s4_same_workload(w->workload, label) || s4_same_workload(w->dispatch, label);
}

/* The workload an entry is about; NULL with a finding when none can be told. */
static const struct wl *entry_workload(struct st *s, const struct sr_entry *e, int *assumed)
{
	*assumed = 0;
	if (e->workload) {
		for (size_t i = 0; i < s->nw; i++)
			if (wl_matches(&s->w[i], e->workload))
				return &s->w[i];
		/* a look-alike of a recorded name: an error, then checked as it */
		for (size_t i = 0; i < s->nw; i++) {
			const char *rec = uname_confusable(e->workload, s->w[i].workload)   ? s->w[i].workload
					  : uname_confusable(e->workload, s->w[i].dispatch) ? s->w[i].dispatch
											      : NULL;
			char why[512];
			if (!rec)
				continue;
			ADD(s, e->field == SR_IMPROVEMENT ? R_IMPROVEMENT : R_LATENCY, GATE_ERROR, e->line,
			    "the label '%s' in '%s' is not the recorded '%s' but looks like it (%s)", e->workload,
			    e->raw, rec, uname_explain(e->workload, rec, why, sizeof(why)));
			return &s->w[i];
		}
		ADD(s, e->field == SR_IMPROVEMENT ? R_IMPROVEMENT : R_LATENCY, GATE_WARNING, e->line,
		    "the label '%s' in '%s' names no recorded workload: checked against every workload",
		    e->workload, e->raw);
	}
	if (s->nw == 1)
		return &s->w[0];
	return NULL;
}

/* No workload to reconcile with: one finding on the first latency line. */
static void latencies_unreconciled(struct st *s)
{
	const struct stage_result *sr = s->sc->sr;
	for (size_t i = 0; i < sr->n; i++)
		if (sr->v[i].field == SR_BASELINE_LATENCY || sr->v[i].field == SR_FINAL_LATENCY) {
			ADD(s, R_LATENCY, s->in->records_state == S4_FILE_OK ? GATE_ERROR : GATE_WARNING,
			    sr->v[i].line, "%s cannot be reconciled: %s holds no valid record", sr->v[i].key,
			    s->in->records_file);
			return;
		}
}

/* One latency that names no workload while there are several: which
 * record it matches, assumed that one, else an error. */
static void check_unlabelled_latency(struct st *s, const struct sr_entry *e, const char *what)
{
	const struct wl *hit = NULL;
	size_t nhit = 0;
	for (size_t k = 0; k < s->nw; k++) {
		double v = wl_value(&s->w[k], e->field);
		if (!isnan(v) && s4_deviation(e->number, v) <= S4_TOLERANCE) {
			hit = &s->w[k];
			nhit++;
		}
	}
	if (nhit) {
		claim(s, e, hit->workload, "%g us", wl_value(hit, e->field));
		ADD(s, R_LATENCY, GATE_WARNING, e->line,
		    "'%s' names no workload, and there are %zu: it matches the %s record of '%s' (assumed that one; write one line per workload)",
		    e->raw, s->nw, what, hit->workload);
		return;
	}
	claim(s, e, NULL, "none of %zu workloads", s->nw);
	ADD(s, R_LATENCY, GATE_ERROR, e->line,
	    "%s %g us matches the %s record of none of the %zu workloads (within 1%%): '%s'", e->key,
	    e->number, what, s->nw, e->raw);
}

/* One baseline_latency or final_latency line against its workload's record. */
static void check_latency(struct st *s, const struct sr_entry *e)
{
	if (!numeric_ok(s, e))
		return;
	int assumed;
	const char *what = e->field == SR_BASELINE_LATENCY ? "baseline" : "final (winner)";
	const struct wl *w = entry_workload(s, e, &assumed);
	if (!w) {
		/* one number for several workloads: which one is it? */
		check_unlabelled_latency(s, e, what);
		return;
	}
	double rec = wl_value(w, e->field);
	if (isnan(rec)) {
		claim(s, e, w->workload, "no %s record", what);
		ADD(s, R_LATENCY, GATE_WARNING, e->line, "no %s record of '%s' to reconcile '%s' with", what,
		    w->workload, e->raw);
		return;
	}
	claim(s, e, w->workload, "%g us", rec);
	double dev = s4_deviation(e->number, rec);
	if (dev <= S4_TOLERANCE)
		return;
	int is_base = e->field == SR_FINAL_LATENCY && !isnan(w->base_us) &&
		      s4_deviation(e->number, w->base_us) <= S4_TOLERANCE;
	char where[64] = "";
	if (e->field == SR_FINAL_LATENCY && w->final_line)
		snprintf(where, sizeof(where), ", perf_records.jsonl line %ld", w->final_line);
	ADD(s, R_LATENCY, GATE_ERROR, e->line,
	    "%s %g us for '%s' does not match the %s record %g us (deviation %.1f%% > 1%%%s)%s", e->key,
	    e->number, w->workload, what, rec, dev * 100, where, is_base ? "; it is the baseline's measurement" : "");
}

/* Several workloads: a baseline_latency and a final_latency line for each
 * (when the block gives the field at all). */
static void check_latency_lines(struct st *s)
{
	static const enum sr_field fl[] = { SR_BASELINE_LATENCY, SR_FINAL_LATENCY };
	const struct stage_result *sr = s->sc->sr;
	for (size_t k = 0; k < 2; k++) {
		if (!stage_result_count(sr, fl[k]))
			continue;
		for (size_t j = 0; j < s->nw; j++) {
			int found = 0;
			for (size_t i = 0; i < sr->n && !found; i++)
				found = sr->v[i].field == fl[k] && sr->v[i].workload &&
					wl_matches(&s->w[j], sr->v[i].workload);
			if (!found)
				ADD(s, R_LATENCY, GATE_WARNING, first(s, fl[k])->line,
				    "%zu workloads are recorded, but there is no '%s' line for '%s' (write '- %s: %s: N us')",
				    s->nw, stage_result_fields[fl[k]], s->w[j].workload, s->w[j].workload,
				    stage_result_fields[fl[k]]);
		}
	}
}

static void check_latencies(struct st *s)
{
	const struct stage_result *sr = s->sc->sr;
	if (s->nw == 0) {
		latencies_unreconciled(s);
		return;
	}
	for (size_t i = 0; i < sr->n; i++)
		if (sr->v[i].field == SR_BASELINE_LATENCY || sr->v[i].field == SR_FINAL_LATENCY)
			check_latency(s, &sr->v[i]);
	if (s->nw > 1)
		check_latency_lines(s);
}

/* ---------------------------------------------------------------- improvement */

/* Range of 100 * (1 - f/b) over the rounding of b and f as written. */
static void imp_range(const struct sr_entry *b, const struct sr_entry *f, double *lo, double *hi)
{
	double hb = 0.5 * pow(10, -b->decimals), hf = 0.5 * pow(10, -f->decimals);
	if (b->unit == SR_UNIT_MS)
		hb *= 1000;
	if (f->unit == SR_UNIT_MS)
		hf *= 1000;
	if (b->unit == SR_UNIT_NS)
		hb /= 1000;
	if (f->unit == SR_UNIT_NS)
		hf /= 1000;
	double bl = b->number - hb, bh = b->number + hb;
	double fl = f->number - hf, fh = f->number + hf;
	if (bl <= 0)
		bl = b->number;
	*lo = 100 * (1 - fh / bl);
	*hi = 100 * (1 - fl / bh);
}

/* The improvement the records give, over the workloads with both a
 * baseline and a final record (NAN when none). */
struct rec_imp {
	double geo;  /* 100 * (1 - geometric mean of final/baseline) */
	double sp;   /* the speedup form: 100 * (geomean of baseline/final - 1) */
	double mean; /* arithmetic mean of the workloads' improvements */
	size_t n;
};

static void records_improvement(const struct st *s, struct rec_imp *ri)
{
	double sum = 0, sum_sp = 0, sum_imp = 0;
	size_t n = 0;
	for (size_t k = 0; k < s->nw; k++) {
		const struct wl *w = &s->w[k];
		if (w->base_us > 0 && w->final_us > 0) {
			sum += log(w->final_us / w->base_us);
			sum_sp += log(w->base_us / w->final_us);
			sum_imp += 100 * (1 - w->final_us / w->base_us);
			n++;
		}
	}
	ri->geo = n ? 100 * (1 - exp(sum / (double)n)) : NAN;
	ri->sp = n ? 100 * (exp(sum_sp / (double)n) - 1) : NAN;
	ri->mean = n ? sum_imp / (double)n : NAN;
	ri->n = n;
}

/* One improvement line against the records: its workload's, else the
 * records' geometric mean; the speedup form and the arithmetic mean are
 * warnings. */
static void check_improvement_entry(struct st *s, const struct sr_entry *e, const struct rec_imp *ri)
{
	double stated = improvement_pct(e);
	int assumed;
	const struct wl *w = e->workload ? entry_workload(s, e, &assumed) : NULL;
	double want = ri->geo, want_sp = ri->sp, want_mean = ri->mean;
	if (w) {
		if (!(w->base_us > 0 && w->final_us > 0)) {
			ADD(s, R_IMPROVEMENT, GATE_WARNING, e->line,
			    "no baseline and final record of '%s' to reconcile '%s' with", w->workload, e->raw);
			return;
		}
		want = want_mean = 100 * (1 - w->final_us / w->base_us);
		want_sp = 100 * (w->base_us / w->final_us - 1);
	}
	if (isnan(want)) {
		if (s->nw)
			ADD(s, R_IMPROVEMENT, GATE_WARNING, e->line,
			    "no workload has both a baseline and a final record to reconcile '%s' with", e->raw);
		return;
	}
	claim(s, e, w ? w->workload : NULL, "%.1f%%", want);
	double tol = S4_STAGE_IMPROVEMENT_POINTS + 1e-9;
	if (fabs(stated - want) <= tol)
		return;
	const char *of = w ? "" : ri->n > 1 ? " (geometric mean over the workloads)" : "";
	if (fabs(stated - want_sp) <= tol)
		ADD(s, R_IMPROVEMENT, GATE_WARNING, e->line,
		    "improvement %.1f%% is the speedup form (baseline/final - 1); the latency reduction the seed means is %.1f%%%s (assumed the speedup form was meant): '%s'",
		    stated, want, of, e->raw);
	else if (!w && ri->n > 1 && fabs(stated - want_mean) <= tol)
		ADD(s, R_IMPROVEMENT, GATE_WARNING, e->line,
		    "improvement %.1f%% is the arithmetic mean of the workloads' improvements; their geometric mean is %.1f%% (assumed the arithmetic mean was meant): '%s'",
		    stated, want, e->raw);
	else
		ADD(s, R_IMPROVEMENT, GATE_ERROR, e->line,
		    "improvement %.1f%% does not match the records' %.1f%%%s (more than %.1f point apart): '%s'",
		    stated, want, of, S4_STAGE_IMPROVEMENT_POINTS, e->raw);
}

/* The block's final_latency with a usable number paired with baseline b:
 * the same label, or both unlabelled; NULL when none. */
static const struct sr_entry *final_for(const struct stage_result *sr, const struct sr_entry *b)
{
	for (size_t j = 0; j < sr->n; j++) {
		const struct sr_entry *c = &sr->v[j];
		if (c->field == SR_FINAL_LATENCY && !isnan(c->number) && c->number > 0 &&
		    ((!b->workload && !c->workload) ||
		     (b->workload && c->workload && s4_same_workload(b->workload, c->workload))))
			return c;
	}
	return NULL;
}

/* The range of improvements the block's own (baseline, final) pairs allow
 * over their rounding, as a geometric mean, into *lo, *hi; *np pairs.
 * 0 when a pair is incomplete or none exists. */
static int own_improvement_range(const struct stage_result *sr, double *lo, double *hi, size_t *np)
{
	double lsum_lo = 0, lsum_hi = 0;
	*np = 0;
	for (size_t i = 0; i < sr->n; i++) {
		const struct sr_entry *b = &sr->v[i];
		if (b->field != SR_BASELINE_LATENCY || isnan(b->number) || b->number <= 0)
			continue;
		const struct sr_entry *f = final_for(sr, b);
		if (!f)
			return 0;
		double plo, phi;
		imp_range(b, f, &plo, &phi);
		if (plo >= 100 || phi >= 100)
			return 0;
		lsum_lo += log(1 - plo / 100);
		lsum_hi += log(1 - phi / 100);
		(*np)++;
	}
	if (*np == 0)
		return 0;
	/* log(1 - imp) decreases with imp: lo bound gives the larger log */
	*hi = 100 * (1 - exp(lsum_hi / (double)*np));
	*lo = 100 * (1 - exp(lsum_lo / (double)*np));
	return 1;
}

/* The unlabelled improvement against the block's own latencies. */
static void check_improvement_own(struct st *s)
{
	const struct stage_result *sr = s->sc->sr;
	const struct sr_entry *imp = NULL;
	for (size_t i = 0; i < sr->n && !imp; i++)
		if (sr->v[i].field == SR_IMPROVEMENT && !sr->v[i].workload)
			imp = &sr->v[i];
	if (!imp || has_placeholder(imp->value) || isnan(imp->number) ||
	    (imp->unit != SR_UNIT_PCT && imp->unit != SR_UNIT_NONE && imp->unit != SR_UNIT_X))
		return;
	double lo, hi;
	size_t np;
	if (!own_improvement_range(sr, &lo, &hi, &np))
		return;
	double stated = improvement_pct(imp);
	double tol = S4_STAGE_IMPROVEMENT_POINTS + 1e-9;
	if (stated < lo - tol || stated > hi + tol)
		ADD(s, R_IMPROVEMENT, GATE_ERROR, imp->line,
		    "improvement %.1f%% does not follow from the block's own baseline_latency and final_latency (%.1f%%%s): '%s'",
		    stated, (lo + hi) / 2, np > 1 ? ", geometric mean" : "", imp->raw);
}

static void check_improvement(struct st *s)
{
	const struct stage_result *sr = s->sc->sr;
	struct rec_imp ri;
	records_improvement(s, &ri);
	for (size_t i = 0; i < sr->n; i++) {
		const struct sr_entry *e = &sr->v[i];
		if (e->field == SR_IMPROVEMENT && numeric_ok(s, e))
			check_improvement_entry(s, e, &ri);
	}
	check_improvement_own(s);
}

/* ---------------------------------------------------------------- iterations */

static long max_round(const struct records *rs, int *final_only)
{
	long maxr = 0;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].round > maxr)
			maxr = rs->v[i].round;
	*final_only = maxr > 0;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].round == maxr && (!rs->v[i].phase || strcmp(rs->v[i].phase, "final")))
			*final_only = 0;
	return maxr;
}

static void check_iterations(struct st *s)
{
	const struct sr_entry *e = first(s, SR_ITERATIONS);
	if (!e || !numeric_ok(s, e))
		return;
	long stated = (long)e->number;
	if (s->sc->loop_finished) {
		long want = s->sc->loop_final_round - 1;
		claim(s, e, NULL, "%ld", want);
		if (stated != want)
			ADD(s, R_ITERATIONS, GATE_ERROR, e->line,
			    "iterations %ld, but the loop ran %ld round%s (its final measurement is round %ld in %s)",
			    stated, want, want == 1 ? "" : "s", s->sc->loop_final_round,
			    s->in->optlog_file);
		return;
	}
	if (s->in->recs->n == 0)
		return;
	int final_only;
	long maxr = max_round(s->in->recs, &final_only);
	long want = final_only ? maxr - 1 : maxr;
	claim(s, e, NULL, "%ld", want);
	if (stated == want)
		return;
	if (!final_only && stated == maxr - 1 && maxr >= 1)
		ADD(s, R_ITERATIONS, GATE_WARNING, e->line,
		    "iterations %ld, but the records run to round %ld (assumed round %ld is the final re-measurement)",
		    stated, maxr, maxr);
	else
		ADD(s, R_ITERATIONS, GATE_ERROR, e->line,
		    "iterations %ld, but the records hold %ld round%s%s", stated, want,
		    want == 1 ? "" : "s", final_only ? " (and the final measurement)" : "");
}

/* ---------------------------------------------------------------- stop reason */

static const char *optlog_stop_text(enum optlog_stop st)
{
	return st == OPTLOG_STOP_OTHER ? NULL : optlog_stop_name(st);
}

/* stop_reason plateau: the rounds run end with STATS_PLATEAU_WINDOW rounds
 * without a gain above the noise threshold. */
static void check_stop_plateau(struct st *s, const struct sr_entry *e, long rounds)
{
	const struct optlog *lg = s->in->log;
	const struct records *rs = s->in->recs;
	double noise = !isnan(s->sc->noise) ? s->sc->noise
		       : !isnan(lg->noise_pct) ? lg->noise_pct / 100 : STAGE_RESULT_NOISE_DEFAULT;
	/* the rounds run: the final re-measurement is no round */
	struct records run;
	records_init(&run);
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].round <= rounds && records_push(&run, &rs->v[i]) != 0) {
			records_release(&run);
			s->err = -1;
			return;
		}
	struct stats_plateau pl;
	int pr = stats_plateau_compute(&run, noise, STATS_PLATEAU_WINDOW, &pl);
	records_release(&run);
	if (pr != 0) {
		s->err = -1;
		return;
	}
	long flat = pl.consecutive_no_improvement;
	stats_plateau_release(&pl);
	if (flat < STATS_PLATEAU_WINDOW)
		ADD(s, R_STOP, GATE_WARNING, e->line,
		    "stop_reason plateau, but the records show %ld round%s without a gain above the noise threshold %.1f%% (plateau needs %d)",
		    flat, flat == 1 ? "" : "s", noise * 100, STATS_PLATEAU_WINDOW);
}

/* stop_reason budget_exhausted: the rounds or the branches reach the
 * budget (the loop's, else the log's, else 10 rounds and 30 branches). */
static void check_stop_budget(struct st *s, const struct sr_entry *e, long rounds)
{
	const struct optlog *lg = s->in->log;
	const struct records *rs = s->in->recs;
	long mr = s->sc->max_rounds >= 0 ? s->sc->max_rounds : lg->max_rounds >= 0 ? lg->max_rounds : 10;
	long me = s->sc->max_experiments >= 0 ? s->sc->max_experiments
		  : lg->max_experiments >= 0 ? lg->max_experiments : 30;
	struct s4_map cands;
	s4_map_init(&cands);
	for (size_t i = 0; i < rs->n; i++)
		if (!s4_is_baseline(&rs->v[i]) && rs->v[i].round <= rounds &&
		    !s4_map_put(&cands, rs->v[i].candidate_id, 0, NULL)) {
			s4_map_release(&cands);
			s->err = -1;
			return;
		}
	long branches = (long)cands.n;
	s4_map_release(&cands);
	if (rounds < mr && branches < me)
		ADD(s, R_STOP, GATE_WARNING, e->line,
		    "stop_reason budget_exhausted, but the records hold %ld of max_rounds %ld rounds and %ld of max_experiments %ld branches",
		    rounds, mr, branches, me);
}

/* stop_reason success: every required target of perf_opt/loop.json is met
 * by its workload's final record. */
static void check_stop_success(struct st *s, const struct sr_entry *e, long rounds)
{
	(void)rounds;
	if (!s->sc->have_plan || s->sc->ntargets == 0) {
		ADD(s, R_STOP, GATE_WARNING, e->line,
		    "stop_reason success, but %s: the target it reached cannot be checked",
		    s->sc->have_plan ? "perf_opt/loop.json sets no target" : "there is no perf_opt/loop.json with targets");
		return;
	}
	for (size_t t = 0; t < s->sc->ntargets; t++) {
		const struct s4_stage_target *tg = &s->sc->targets[t];
		if (!tg->required)
			continue;
		const struct wl *hit = NULL;
		for (size_t k = 0; k < s->nw && !hit; k++)
			if (strcmp(s->w[k].workload, tg->workload) == 0 &&
			    (!tg->dispatch || strcmp(s->w[k].dispatch, tg->dispatch) == 0))
				hit = &s->w[k];
		if (!hit || isnan(hit->final_us))
			ADD(s, R_STOP, GATE_WARNING, e->line,
			    "stop_reason success, but workload '%s' (target %g us) has no final record", tg->workload,
			    tg->target_us);
		else if (hit->final_us > tg->target_us * (1 + 1e-9))
			ADD(s, R_STOP, GATE_ERROR, e->line,
			    "stop_reason success, but '%s' ends at %g us, above its target %g us in perf_opt/loop.json",
			    tg->workload, hit->final_us, tg->target_us);
	}
}

/* stop_reason blocked: the last round has no valid branch. */
static void check_stop_blocked(struct st *s, const struct sr_entry *e, long rounds)
{
	const struct records *rs = s->in->recs;
	const struct record *valid_last = NULL;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].round == rounds && rounds >= 1 && record_valid(&rs->v[i]) && !s4_is_baseline(&rs->v[i]))
			valid_last = &rs->v[i];
	if (valid_last)
		ADD(s, R_STOP, GATE_WARNING, e->line,
		    "stop_reason blocked, but the last round (%ld) has a valid branch '%s' (perf_records.jsonl line %ld)",
		    rounds, valid_last->candidate_id, valid_last->line);
}

/* The stop reasons of the seed, each with what the records must show
 * (NULL: nothing to check). */
static const struct {
	const char *name;
	void (*check)(struct st *s, const struct sr_entry *e, long rounds);
} STOPS[] = {
	{ "success", check_stop_success },
	{ "budget_exhausted", check_stop_budget },
	{ "plateau", check_stop_plateau },
	{ "blocked", check_stop_blocked },
	{ "user_stop", NULL },
};

/* The stated reason w against the loop's final marker and the log's
 * Final Summary; notes what they say. */
static void check_stop_stated(struct st *s, const struct sr_entry *e, const char *w)
{
	const struct optlog *lg = s->in->log;
	const char *loop_stop = s->sc->loop_stop && *s->sc->loop_stop ? s->sc->loop_stop : NULL;
	if (loop_stop && strcmp(loop_stop, w) != 0)
		ADD(s, R_STOP, GATE_ERROR, e->line, "stop_reason %s, but the loop stopped with %s (its final marker in %s)",
		    w, loop_stop, s->in->optlog_file);
	const char *fs_stop = s->in->optlog_state == S4_FILE_OK ? optlog_stop_text(lg->stop) : NULL;
	if (loop_stop)
		claim(s, e, NULL, "%s (loop)", loop_stop);
	else if (fs_stop)
		claim(s, e, NULL, "%s (Final Summary)", fs_stop);
	else
		claim(s, e, NULL, "not stated");
	if (fs_stop && strcmp(fs_stop, w) != 0)
		ADD(s, R_STOP, GATE_ERROR, e->line, "stop_reason %s, but the Final Summary says %s (%s line %ld)", w,
		    fs_stop, s->in->optlog_file, lg->stop_line);
}

static void check_stop(struct st *s)
{
	const struct sr_entry *e = first(s, SR_STOP_REASON);
	char w[64];
	if (!e || has_placeholder(e->value) || !*e->value)
		return;
	word(e->value, w, sizeof(w));
	for (char *p = w; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	size_t k = 0;
	while (k < sizeof(STOPS) / sizeof(STOPS[0]) && strcmp(w, STOPS[k].name) != 0)
		k++;
	if (k == sizeof(STOPS) / sizeof(STOPS[0])) {
		ADD(s, R_STOP, GATE_ERROR, e->line,
		    "stop_reason '%s' is not one of success, budget_exhausted, plateau, blocked, user_stop", w);
		return;
	}
	check_stop_stated(s, e, w);
	const struct records *rs = s->in->recs;
	if (rs->n == 0 || !STOPS[k].check)
		return;
	int final_only;
	long maxr = max_round(rs, &final_only);
	long rounds = final_only ? maxr - 1 : maxr;
	if (s->sc->loop_finished)
		rounds = s->sc->loop_final_round - 1;
	STOPS[k].check(s, e, rounds);
}

int s4_rule_stage_result(const struct s4_input *in, const struct s4_recon *rc,
			 const struct s4_stage_ctx *sc, struct gate_findings *fs)
{
	struct st s = { in, sc, fs, sc->file, NULL, 0, 0 };
	check_format(&s);
	if (sc->sr->heading_line == 0 && sc->sr->n == 0)
		return s.err;
	if (build_workloads(&s, rc) != 0)
		return -1;
	check_literals(&s);
	check_paths(&s);
	check_design(&s);
	check_latencies(&s);
	check_improvement(&s);
	check_iterations(&s);
	check_stop(&s);
	free(s.w);
	return s.err;
}

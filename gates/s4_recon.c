/* s4_recon.c: S4-PERF-RECORDS-RECON, the claimed final result against the
 * winner's recorded measurement (s4.h). */
#include "gates/s4.h"
#include "gates/s4_util.h"
#include "util/uname.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE "S4-PERF-RECORDS-RECON"

static const char *stop_text(enum optlog_stop s)
{
	const char *n = optlog_stop_name(s);
	return n ? n : "";
}

struct s4_recon_row *s4_recon_row_of(struct s4_recon *rc, const char *dispatch, const char *workload,
				     enum records_contract c)
{
	for (size_t i = 0; i < rc->n; i++)
		if (strcmp(rc->v[i].dispatch, dispatch) == 0 && strcmp(rc->v[i].workload, workload) == 0)
			return &rc->v[i];
	if (rc->n == rc->cap) {
		size_t cap = rc->cap ? rc->cap * 2 : 8;
		struct s4_recon_row *v = realloc(rc->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		rc->v = v;
		rc->cap = cap;
	}
	struct s4_recon_row *r = &rc->v[rc->n];
	memset(r, 0, sizeof(*r));
	r->dispatch = strdup(dispatch);
	r->workload = strdup(workload);
	if (!r->dispatch || !r->workload) {
		free(r->dispatch);
		free(r->workload);
		return NULL;
	}
	r->contract = c;
	r->baseline_us = r->claimed_us = r->winner_us = r->deviation = NAN;
	rc->n++;
	return r;
}

static int set_winner(struct s4_recon_row *row, const struct record *r)
{
	free(row->winner);
	row->winner = strdup(r->candidate_id);
	if (!row->winner)
		return -1;
	row->winner_us = r->duration_us;
	row->winner_line = r->line;
	return 0;
}

/* Rows for every key in file order, with the baseline measurement, and
 * each record's row in rowof. The keys of the records are interned: a map
 * by address finds each record's row without scanning the rows. */
static int build_rows(const struct s4_input *in, struct s4_recon *rc, size_t *rowof)
{
	const struct records *rs = in->recs;
	struct s4_idmap at; /* (dispatch, workload) -> row index */
	s4_idmap_init(&at);
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		int created;
		long *k = s4_idmap_put(&at, r->dispatch, r->workload, NULL, 0, 0, &created);
		struct s4_recon_row *row = !k ? NULL : created ? s4_recon_row_of(rc, r->dispatch, r->workload, in->contract)
							       : &rc->v[*k];
		if (!row) {
			s4_idmap_release(&at);
			return -1;
		}
		*k = (long)(row - rc->v);
		rowof[i] = (size_t)*k;
		if (isnan(row->baseline_us) && s4_is_baseline(r) && r->round == 0)
			row->baseline_us = r->duration_us;
	}
	s4_idmap_release(&at);
	return 0;
}

/* ---- names: the best, claim labels and Final rows against the records,
 * in identity form (util/uname.h); a look-alike is an error ---- */

/* name's file stem (perf_opt/mish.py -> mish) into out; "" when name is
 * no file (no '/', no .py). */
static void file_stem(const char *name, char *out, size_t n)
{
	const char *b = strrchr(name, '/');
	size_t len = strlen(b ? b + 1 : name);
	int py = len > 3 && strcmp(name + strlen(name) - 3, ".py") == 0;
	out[0] = '\0';
	if (!b && !py)
		return;
	b = b ? b + 1 : name;
	len -= py ? 3 : 0;
	if (len < n) {
		memcpy(out, b, len);
		out[len] = '\0';
	}
}

/* candidate_id naming name, or name's file stem, in identity form. */
static int names_candidate(const char *cand, const char *name)
{
	char stem[UNAME_MAX];
	if (uname_same(cand, name))
		return 1;
	file_stem(name, stem, sizeof(stem));
	return stem[0] && uname_same(cand, stem);
}

/* s4.h */
int s4_names_candidate(const char *cand, const char *name)
{
	return names_candidate(cand, name);
}

/* 1 when the identity form id (n bytes) starts name before a character
 * other than an ASCII letter or digit ("v2" of "v2_c轴重排"). */
static int cut_prefix(const char *id, size_t n, const char *name)
{
	if (n == 0 || strncmp(id, name, n) != 0 || !name[n])
		return 0;
	unsigned char c = (unsigned char)name[n];
	return !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* The recorded candidate_id the summary's best names: one equal to it or
 * to its file stem in identity form (*how 1), else the longest non-baseline
 * one that starts it or its stem before a character other than a letter
 * or digit, "v2" for "v2_c轴重排" (*how 2, as the speedup statistics
 * resolve it); NULL when none, or no best. */
static const char *best_candidate(const struct s4_input *in, int *how)
{
	const struct records *rs = in->recs;
	const char *best = in->log->best, *cand = NULL, *pre = NULL;
	char id[UNAME_MAX], stem[UNAME_MAX], c[UNAME_MAX];
	size_t prelen = 0;
	*how = 0;
	if (!best)
		return NULL;
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].candidate_id == cand) /* runs of one candidate: one test */
			continue;
		cand = rs->v[i].candidate_id;
		if (names_candidate(cand, best)) {
			*how = 1;
			return cand;
		}
	}
	uname_identity(best, id, sizeof(id));
	file_stem(best, c, sizeof(c));
	uname_identity(c, stem, sizeof(stem));
	cand = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].candidate_id == cand)
			continue;
		cand = rs->v[i].candidate_id;
		size_t n = strlen(uname_identity(cand, c, sizeof(c)));
		if (n > prelen && !s4_is_baseline(&rs->v[i]) && (cut_prefix(c, n, id) || cut_prefix(c, n, stem))) {
			pre = cand;
			prelen = n;
		}
	}
	*how = pre ? 2 : 0;
	return pre;
}

/* 1 when candidate cand is the one the best names (best_candidate gave
 * bc, how). */
static int is_best(const struct s4_input *in, const char *bc, int how, const char *cand)
{
	return how == 1 ? names_candidate(cand, in->log->best) : how == 2 && uname_same(cand, bc);
}

/* The summary's best when no record's candidate_id names it: a look-alike
 * of a recorded candidate (the name, or its file stem) is an error naming
 * both; a bare id (no file) while the records hold candidates is an
 * error, the claims then having no candidate to come from; a file (the
 * delivered kernel, whose candidate cannot be told) or no candidate at all
 * gets, with warn (v1), the warning that any record is used. 0, -1 on
 * allocation failure. */
static int best_unrecorded(const struct s4_input *in, struct gate_findings *fs, int warn)
{
	const struct optlog *lg = in->log;
	const struct records *rs = in->recs;
	const char *lf = in->optlog_file;
	char stem[UNAME_MAX], some[160] = "";
	struct s4_idmap seen; /* candidate ids are interned: each visited once */
	int k = 0;
	size_t len = 0;
	file_stem(lg->best, stem, sizeof(stem));
	s4_idmap_init(&seen);
	for (size_t i = 0; i < rs->n && k == 0; i++) {
		const char *cand = rs->v[i].candidate_id;
		int created;
		if (s4_is_baseline(&rs->v[i]))
			continue;
		if (!s4_idmap_put(&seen, cand, NULL, NULL, 0, 0, &created)) {
			k = -1;
			break;
		}
		if (!created)
			continue;
		if (len < sizeof(some)) {
			int w = snprintf(some + len, sizeof(some) - len, "%s'%s'", seen.n > 1 ? ", " : "", cand);
			len = w < 0 ? sizeof(some) : len + (size_t)w;
		}
		k = s4_lookalike(fs, RULE, lf, lg->best_line, "the Final Summary's best", lg->best, cand);
		if (k == 0 && stem[0])
			k = s4_lookalike(fs, RULE, lf, lg->best_line, "the file stem of the Final Summary's best", stem,
					 cand);
	}
	size_t ncand = seen.n;
	s4_idmap_release(&seen);
	if (k)
		return k < 0 ? -1 : 0;
	if (ncand && !stem[0])
		return gate_add(fs, RULE, GATE_ERROR, lf, lg->best_line,
				"the Final Summary names best '%s', which is not a recorded candidate_id (the records' candidates: %s%s): every claim must come from the best's records",
				lg->best, some, len >= sizeof(some) ? "..." : "");
	if (warn)
		return gate_add(fs, RULE, GATE_WARNING, lf, lg->best_line,
				"the Final Summary names best '%s', which is not a recorded candidate_id: claims are checked against any valid non-baseline record",
				lg->best);
	return 0;
}

/* What every claim of a summary is checked against, worked out once: the
 * records' rows and distinct workloads (ids are interned: one pointer per
 * name), each record's workload by number, what it is (valid, a baseline,
 * by the named best), and the records of each workload. A claim then
 * compares its label with the few names and visits the records of its
 * workload, not every record. */
struct v1_index {
	const char **names;     /* distinct workloads, in first-seen order */
	size_t nnames;
	size_t *row;            /* per record: its row of the reconciliation */
	size_t *wl;             /* per record: index into names */
	unsigned char *flags;   /* per record: V1_VALID, V1_BASE, V1_BEST */
	size_t *first;          /* per name w: its records are byname[first[w] .. first[w + 1]) */
	size_t *byname;         /* record indices by workload, each workload's in file order */
	unsigned char *match;   /* per name: it is the claim's workload (one claim) */
	const char *best;       /* the recorded candidate the best names (best_candidate), NULL none */
	int best_how;           /* how it names it: 1 equal or file stem, 2 by a prefix */
};

enum {
	V1_VALID = 1, /* record_valid */
	V1_BASE = 2,  /* s4_is_baseline */
	V1_BEST = 4   /* its candidate_id names the best (known only) */
};

static void v1_index_release(struct v1_index *ix)
{
	free(ix->names);
	free(ix->row);
	free(ix->wl);
	free(ix->flags);
	free(ix->first);
	free(ix->byname);
	free(ix->match);
	memset(ix, 0, sizeof(*ix));
}

/* s4.h */
const char *s4_best_candidate(const struct s4_input *in, size_t from)
{
	int how;
	const char *bc = best_candidate(in, &how);
	const struct records *rs = in->recs;
	for (size_t i = from; bc && i < rs->n; i++)
		if (!s4_is_baseline(&rs->v[i]) && is_best(in, bc, how, rs->v[i].candidate_id))
			return rs->v[i].candidate_id;
	return NULL;
}

/* Each record's workload by number: per row, its workload looked up once
 * (a row has one workload). Returns 0, -1 on allocation failure. */
static int v1_index_names(const struct s4_input *in, size_t nrows, struct v1_index *ix)
{
	const struct records *rs = in->recs;
	struct s4_idmap at; /* workload -> index into names */
	size_t *row_wl = malloc((nrows + 1) * sizeof(*row_wl));
	int rc = row_wl ? 0 : -1;
	for (size_t k = 0; k < nrows && rc == 0; k++)
		row_wl[k] = (size_t)-1;
	s4_idmap_init(&at);
	for (size_t i = 0; i < rs->n && rc == 0; i++) {
		size_t *w = &row_wl[ix->row[i]];
		if (*w == (size_t)-1) {
			int created;
			long *k = s4_idmap_put(&at, rs->v[i].workload, NULL, NULL, 0, (long)ix->nnames, &created);
			if (!k) {
				rc = -1;
				break;
			}
			if (created)
				ix->names[ix->nnames++] = rs->v[i].workload;
			*w = (size_t)*k;
		}
		ix->wl[i] = *w;
	}
	s4_idmap_release(&at);
	free(row_wl);
	return rc;
}

/* What each record is (flags), and the records grouped by workload. */
static void v1_index_flags(const struct s4_input *in, int known, struct v1_index *ix)
{
	const struct records *rs = in->recs;
	const char *cand = NULL;
	int cand_is = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (known && r->candidate_id != cand) { /* runs of one candidate: one test */
			cand = r->candidate_id;
			cand_is = is_best(in, ix->best, ix->best_how, cand);
		}
		ix->flags[i] = (unsigned char)((record_valid(r) ? V1_VALID : 0) | (s4_is_baseline(r) ? V1_BASE : 0) |
					       (known && cand_is ? V1_BEST : 0));
		ix->first[ix->wl[i] + 2]++;
	}
	for (size_t w = 2; w < ix->nnames + 2; w++)
		ix->first[w] += ix->first[w - 1];
	for (size_t i = 0; i < rs->n; i++) /* first[w + 1] walks from w's start to w + 1's */
		ix->byname[ix->first[ix->wl[i] + 1]++] = i;
}

/* The rows of rc for the records (build_rows) and ix for them (V1_BEST
 * only when the best names a recorded candidate, ix->best). Returns 0, -1
 * on allocation failure (ix released). */
static int v1_index_build(const struct s4_input *in, struct s4_recon *rc, struct v1_index *ix)
{
	size_t n = in->recs->n;
	memset(ix, 0, sizeof(*ix));
	ix->best = best_candidate(in, &ix->best_how);
	ix->names = malloc((n + 1) * sizeof(*ix->names));
	ix->row = malloc((n + 1) * sizeof(*ix->row));
	ix->wl = malloc((n + 1) * sizeof(*ix->wl));
	ix->flags = malloc(n + 1);
	ix->first = calloc(n + 2, sizeof(*ix->first));
	ix->byname = malloc((n + 1) * sizeof(*ix->byname));
	ix->match = calloc(n + 1, 1);
	int err = ix->names && ix->row && ix->wl && ix->flags && ix->first && ix->byname && ix->match ? 0 : -1;
	if (err == 0)
		err = build_rows(in, rc, ix->row);
	if (err == 0)
		err = v1_index_names(in, rc->n, ix);
	if (err == 0)
		v1_index_flags(in, ix->best != NULL, ix);
	else
		v1_index_release(ix);
	return err;
}

/* A claim counts unless it is a `- LABEL: N us` list item whose label
 * names no recorded workload (a note, a copy-only floor, ...) and does
 * not look like one either (v1_match_label reports a look-alike). */
static int claim_counts(const struct v1_index *ix, const struct optlog_claim *cl)
{
	if (!cl->soft)
		return 1;
	for (size_t w = 0; w < ix->nnames; w++)
		if (s4_same_workload(ix->names[w], cl->workload))
			return 1;
	for (size_t w = 0; w < ix->nnames; w++)
		if (uname_confusable(cl->workload, ix->names[w]))
			return 1;
	return 0;
}

/* What the summary says before any claim is checked: a claim at all
 * (an error when valid records exist and none is claimed), and whether
 * the best it names is a recorded candidate. *stop is set when there is
 * nothing more to check. Returns 0, -1 on allocation failure. */
static int v1_summary(const struct s4_input *in, struct gate_findings *fs, int known,
		      const struct v1_index *ix, int *stop)
{
	const struct optlog *lg = in->log;
	const char *lf = in->optlog_file;
	size_t nvalid = 0, nclaims = 0;
	for (size_t i = 0; i < in->recs->n; i++)
		nvalid += ix->flags[i] & V1_VALID;
	for (size_t c = 0; c < lg->n_claims; c++)
		if (claim_counts(ix, &lg->claims[c]))
			nclaims++;
	*stop = 0;
	if (lg->summary_line == 0 || nclaims == 0) {
		*stop = 1;
		if (nvalid == 0)
			return 0;
		return gate_add(fs, RULE, GATE_ERROR, lf, lg->summary_line,
				lg->summary_line
					? "the last Final Summary claims no 'final_latency: N us' although perf_records.jsonl holds %zu valid records"
					: "no 'Final Summary' with a 'final_latency: N us' claim although perf_records.jsonl holds %zu valid records",
				nvalid);
	}
	if (lg->best && !known && !lg->nothing_adopted && best_unrecorded(in, fs, 1))
		return -1;
	if (known && ix->best_how == 2 &&
	    gate_add(fs, RULE, GATE_WARNING, lf, lg->best_line,
		     "the Final Summary names best '%s', which is not a recorded candidate_id: taken as the candidate '%s' it starts with, whose records the claims are checked against",
		     lg->best, ix->best))
		return -1;
	if (!lg->best && gate_add(fs, RULE, GATE_WARNING, lf, lg->summary_line,
				  "the Final Summary names no best candidate: claims are checked against any valid non-baseline record"))
		return -1;
	return 0;
}

/* The records one claim is checked against, and what they gave. */
struct v1_match {
	const struct record *hit;      /* the winner's record nearest the claim */
	const struct record *base_hit; /* a round-0 baseline within 1% of it */
	double hit_dev;                /* deviation of hit */
	int any_workload;              /* some record is of the claim's workload */
	int any_winner;                /* some valid winner record is */
	const struct record *other;    /* known best: another candidate's record within 1% */
};

/* Record i of the claim's workload into *m. */
static void v1_take(const struct s4_input *in, const struct optlog_claim *cl, int known,
		    const struct v1_index *ix, size_t i, struct v1_match *m)
{
	const struct record *r = &in->recs->v[i];
	unsigned f = ix->flags[i];
	m->any_workload = 1;
	if (!(f & V1_VALID))
		return;
	double d = s4_deviation(cl->final_us, r->duration_us);
	if ((f & V1_BASE) && !in->log->nothing_adopted) {
		if (d <= S4_TOLERANCE)
			m->base_hit = r;
		return;
	}
	if (known && !(f & V1_BEST)) {
		if (d <= S4_TOLERANCE && !m->other)
			m->other = r; /* named in the error: claims come from the best only */
		return;
	}
	m->any_winner = 1;
	if (d < m->hit_dev) {
		m->hit_dev = d;
		m->hit = r;
	}
}

/* Scans the records for claim cl in file order, restricted to workload
 * label (NULL: every workload); when the label names one workload, only
 * that workload's records. */
static void v1_match(const struct s4_input *in, const struct optlog_claim *cl, const char *label,
		     int known, struct v1_index *ix, struct v1_match *m)
{
	size_t nmatch = 0, one = 0;
	memset(m, 0, sizeof(*m));
	m->hit_dev = INFINITY;
	for (size_t w = 0; label && w < ix->nnames; w++) {
		ix->match[w] = (unsigned char)s4_same_workload(ix->names[w], cl->workload);
		if (ix->match[w]) {
			nmatch++;
			one = w;
		}
	}
	if (label && nmatch == 1) {
		for (size_t k = ix->first[one]; k < ix->first[one + 1]; k++)
			v1_take(in, cl, known, ix, ix->byname[k], m);
		return;
	}
	for (size_t i = 0; i < in->recs->n; i++)
		if (!label || ix->match[ix->wl[i]])
			v1_take(in, cl, known, ix, i, m);
}

/* The records matching claim cl into *m. A label that looks like a
 * recorded workload without being it is an error (returns 1: the claim
 * is not checked further). A label naming no recorded workload (prose
 * before final_latency, or a misspelt workload) is warned about and
 * dropped: the number is then checked against every workload. *label
 * gets the label kept (NULL when dropped). 0, -1 on allocation failure. */
static int v1_match_label(const struct s4_input *in, struct gate_findings *fs,
			  const struct optlog_claim *cl, int known, struct v1_index *ix,
			  const char **label, struct v1_match *m)
{
	*label = cl->workload;
	v1_match(in, cl, *label, known, ix, m);
	if (!*label || m->any_workload)
		return 0;
	for (size_t w = 0; w < ix->nnames; w++) {
		int k = s4_lookalike(fs, RULE, in->optlog_file, cl->line, "the claim's workload", *label, ix->names[w]);
		if (k)
			return k;
	}
	if (gate_add(fs, RULE, GATE_WARNING, in->optlog_file, cl->line,
		     "the claim's label '%s' names no recorded workload: checked against every workload",
		     *label))
		return -1;
	*label = NULL;
	v1_match(in, cl, NULL, known, ix, m);
	return 0;
}

/* A claimed figure of us microseconds written in a unit of mul us, as
 * findings quote it: "32 us", or "0.032 ms (32 us)" when the claim was
 * converted, so that the reader finds the figure written in the log. */
static const char *claim_text(char *buf, size_t len, double us, double mul)
{
	const char *unit = mul == 1000 ? "ms" : mul == 0.001 ? "ns" : mul == 1e6 ? "s" : NULL;
	if (!unit || !isfinite(us))
		snprintf(buf, len, "%g us", us);
	else
		snprintf(buf, len, "%g %s (%g us)", us / mul, unit, us);
	return buf;
}

/* The claim's stated baseline against row's round-0 record, when both
 * exist. */
static int v1_claim_baseline(const struct s4_input *in, struct gate_findings *fs,
			     const struct optlog_claim *cl, const char *label,
			     const struct s4_recon_row *row)
{
	if (isnan(cl->baseline_us) || isnan(row->baseline_us))
		return 0;
	double bd = s4_deviation(cl->baseline_us, row->baseline_us);
	char fig[96];
	if (bd > S4_TOLERANCE &&
	    gate_add(fs, RULE, GATE_ERROR, in->optlog_file, cl->line,
		     "claimed baseline %s%s%s does not match the round-0 record %g us (deviation %.1f%% > 1%%)",
		     claim_text(fig, sizeof(fig), cl->baseline_us, cl->base_mul), label ? " for " : "",
		     label ? label : "", row->baseline_us, bd * 100))
		return -1;
	return 0;
}

/* "64 us (line 5), 66 us (line 7, other_id), ..." of v[0..n) into buf:
 * a record of another candidate than kernel names it. */
static void list_records(const struct record *const *v, size_t n, const char *kernel, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used + 48 < len; i++) {
		if (i == 12) {
			snprintf(buf + used, len - used, ", and %zu more", n - i);
			return;
		}
		int other = v[i]->candidate_id != kernel;
		used += (size_t)snprintf(buf + used, len - used, "%s%g us (line %ld%s%s)", i ? ", " : "",
					 v[i]->duration_us, v[i]->line, other ? ", " : "", other ? v[i]->candidate_id : "");
	}
}

/* 1 when every run of rp.v but v[at] shows in a table of the log (a cell
 * holding its figure): the claim stands beside the runs it comes from. */
static int shown_beside(const struct optlog *lg, const struct s4_repeats *rp, size_t at)
{
	for (size_t i = 0; i < rp->n; i++) {
		if (i == at)
			continue;
		int seen = 0;
		for (size_t r = 0; !seen && r < lg->n_cell_rows; r++)
			for (int k = 0; !seen && k < lg->cell_rows[r].ncells; k++)
				seen = s4_text_has_figure(lg->cell_rows[r].cells[k], rp->v[i]->duration_us);
		if (!seen)
			return 0;
	}
	return 1;
}

/* Several measurements of the claim's kernel (the candidate of record
 * hit) on its key: the claim (`what` claimed at line of the log)
 * reconciles with their median (s4_repeats), from index from on. Returns
 * 1 when that decided (a finding added when it fails; row updated), 0
 * when there is one measurement (the caller checks the single record),
 * -1 on allocation failure. */
static int judge_repeats(const struct s4_input *in, struct gate_findings *fs, size_t from, const char *what,
			 double claimed, double mul, long line, const char *label, const struct record *hit,
			 struct s4_recon_row *row)
{
	char fig[96];
	claim_text(fig, sizeof(fig), claimed, mul);
	struct s4_repeats rp;
	if (s4_repeats_of(in, from, hit->candidate_id, hit->dispatch, hit->workload, &rp))
		return -1;
	int decided = rp.n + rp.namb > 1, err = 0;
	if (!decided)
		goto out;
	int sure = s4_repeats_accepts(&rp, claimed, 0), all = s4_repeats_accepts(&rp, claimed, 1);
	char recs[1024], amb[640];
	const char *wl = label ? label : hit->workload;
	list_records(rp.v, rp.n, hit->candidate_id, recs, sizeof(recs));
	list_records(rp.amb, rp.namb, hit->candidate_id, amb, sizeof(amb));
	double dev = s4_deviation(claimed, rp.median);
	row->ok = sure || all;
	if (row->ok && s4_deviation(claimed, hit->duration_us) > S4_TOLERANCE) {
		row->winner_us = rp.median; /* the claim is the median, which no single record holds */
		row->deviation = dev;
	}
	if (sure && all)
		goto out;
	const struct record *one = NULL; /* a measurement the claim matches */
	for (size_t i = 0; i < rp.n + rp.namb; i++) {
		const struct record *x = i < rp.n ? rp.v[i] : rp.amb[i - rp.n];
		if (!one && s4_deviation(claimed, x->duration_us) <= S4_TOLERANCE)
			one = x;
	}
	if (!sure && !all && !one) {
		decided = 0; /* it matches no measurement: the caller says so */
		goto out;
	}
	size_t at;
	double noise = s4_noise(in->log);
	if (!sure && !all && s4_repeats_judge(&rp, claimed, 0, noise, &at) == STATS_CLAIM_CONFIRM &&
	    shown_beside(in->log, &rp, at)) {
		char runs[256];
		size_t used = 0;
		runs[0] = '\0';
		for (size_t i = 0; i < rp.n && i < 8 && used + 32 < sizeof(runs); i++)
			used += (size_t)snprintf(runs + used, sizeof(runs) - used, "%s%g", i ? ", " : "",
						 rp.v[i]->duration_us);
		row->ok = 1;
		err = gate_add(fs, RULE, GATE_WARNING, in->optlog_file, line,
			       "%s %s for '%s' is the final confirmation run of '%s' (line %ld), not the median %g us of its %zu runs (%s%s us); within the %g%% noise threshold: report the median",
			       what, fig, wl, hit->candidate_id, rp.v[at]->line, rp.median, rp.n, runs,
			       rp.n > 8 ? ", ..." : "", noise * 100);
		goto out;
	}
	if (!sure && !all)
		err = gate_add(fs, RULE, GATE_ERROR, in->optlog_file, line,
			       "claimed %s %s for '%s' is not the median of the %zu measurements of '%s' on '%s' / '%s' (%s: median %g us; deviation %.1f%% > 1%%%s%s), it matches line %ld only: a repeated measurement is reported by its median, not its best",
			       what, fig, wl, rp.n, hit->candidate_id, hit->dispatch, hit->workload, recs,
			       rp.median, dev * 100, rp.namb ? "; nor with the maybe re-measurements " : "",
			       rp.namb ? amb : "", one->line);
	else if (sure)
		err = gate_add(fs, RULE, GATE_WARNING, in->optlog_file, line,
			       "claimed %s %s for '%s' reconciles with the %s of '%s' on '%s' / '%s' (%s), but not if %s re-measure%s it under another id (same parent, another round; the log does not say which kernel they measure): median %g us with them; assumed they are other candidates",
			       what, fig, wl, rp.n == 1 ? "measurement" : "median of the measurements",
			       hit->candidate_id, hit->dispatch, hit->workload, recs,
			       amb, rp.namb == 1 ? "s" : "", rp.median_all);
	else
		err = gate_add(fs, RULE, GATE_WARNING, in->optlog_file, line,
			       "claimed %s %s for '%s' is the median of the measurements of '%s' on '%s' / '%s' only if %s re-measure%s it under another id (same parent, another round; the log does not say which kernel they measure): median %g us with them, %g us without (%s); assumed they do",
			       what, fig, wl, hit->candidate_id, hit->dispatch, hit->workload, amb,
			       rp.namb == 1 ? "s" : "", rp.median_all, rp.median, recs);
out:
	s4_repeats_release(&rp);
	return err ? -1 : decided;
}

/* judge_repeats for a v1 final_latency claim: over the last run's
 * records, or all of them when the matching record is older. */
static int v1_repeats(const struct s4_input *in, struct gate_findings *fs, const struct optlog_claim *cl,
		      const char *label, const struct record *hit, struct s4_recon_row *row)
{
	size_t from = s4_records_from(in);
	if ((size_t)(hit - in->recs->v) < from)
		from = 0;
	return judge_repeats(in, fs, from, "final_latency", cl->final_us, cl->final_mul, cl->line, label, hit,
			     row);
}

/* One final_latency claim against the winner's records (within 1%), and
 * its baseline against round 0 when it states one. */
static int v1_claim(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc,
		    const struct optlog_claim *cl, int known, struct v1_index *ix)
{
	const char *lf = in->optlog_file, *best = in->log->best;
	const char *label;
	struct v1_match m;
	int k = v1_match_label(in, fs, cl, known, ix, &label, &m);
	if (k)
		return k < 0 ? -1 : 0;
	const char *wl = label ? label : "";
	char other[256] = "", fig[96];
	claim_text(fig, sizeof(fig), cl->final_us, cl->final_mul);
	if (m.other)
		snprintf(other, sizeof(other),
			 "; it matches candidate '%s' (perf_records.jsonl line %ld), which is not the named best",
			 m.other->candidate_id, m.other->line);
	if (!m.any_winner)
		return gate_add(fs, RULE, GATE_ERROR, lf, cl->line,
				"no valid (l0_pass) record of %s%s%s%s%s to reconcile final_latency %s with%s",
				known ? "the winner '" : "a non-baseline candidate", known ? best : "",
				known ? "'" : "", label ? " for workload " : "", wl, fig, other);
	struct s4_recon_row *row = s4_recon_row_of(rc, m.hit->dispatch, m.hit->workload, in->contract);
	if (!row)
		return -1;
	row->claimed_us = cl->final_us;
	row->claim_line = cl->line;
	row->deviation = m.hit_dev;
	row->ok = m.hit_dev <= S4_TOLERANCE;
	if (set_winner(row, m.hit))
		return -1;
	int rep = v1_repeats(in, fs, cl, label, m.hit, row);
	if (rep < 0)
		return -1;
	if (rep > 0)
		return v1_claim_baseline(in, fs, cl, label, row);
	if (m.hit_dev > S4_TOLERANCE &&
	    gate_add(fs, RULE, GATE_ERROR, lf, cl->line,
		     "claimed final_latency %s%s%s does not match the winner's recorded measurement %g us ('%s', perf_records.jsonl line %ld; deviation %.1f%% > 1%%)%s%s",
		     fig, label ? " for " : "", wl, m.hit->duration_us,
		     m.hit->candidate_id, m.hit->line, m.hit_dev * 100,
		     m.base_hit ? "; it matches the round-0 baseline, which is not a result" : "", other))
		return -1;
	return v1_claim_baseline(in, fs, cl, label, row);
}

const char *s4_common_winner(const struct s4_recon *rc)
{
	const char *common = NULL;
	for (size_t k = 0; k < rc->n; k++) {
		const struct s4_recon_row *row = &rc->v[k];
		if (!row->claim_line || !row->winner || !row->ok)
			continue;
		if (!common)
			common = row->winner;
		else if (strcmp(common, row->winner) != 0)
			return NULL;
	}
	return common;
}

/* The last valid non-baseline record of row k's key by the named best
 * (known) or by candidate common; NULL when none. */
static const struct record *last_final(const struct s4_input *in, const struct v1_index *ix, size_t k,
				       int known, const char *common)
{
	const struct records *rs = in->recs;
	const struct record *last = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if ((ix->flags[i] & (V1_VALID | V1_BASE)) != V1_VALID || ix->row[i] != k)
			continue;
		if (known ? !(ix->flags[i] & V1_BEST) : strcmp(r->candidate_id, common) != 0)
			continue;
		if (!last || r->round >= last->round)
			last = r;
	}
	return last;
}

/* The final measurement of workloads without a claim (for the speedup):
 * the named best's record, else the record of the one candidate every
 * claim reconciled with; never just the latest record, which may be a
 * rolled-back candidate's (the speedup rule then tries both readings). */
static int v1_unclaimed(const struct s4_input *in, struct s4_recon *rc, const struct v1_index *ix, int known)
{
	const char *common = s4_common_winner(rc);
	for (size_t k = 0; k < rc->n; k++) {
		struct s4_recon_row *row = &rc->v[k];
		if (row->claim_line || (!known && !common))
			continue;
		const struct record *last = last_final(in, ix, k, known, common);
		if (last && set_winner(row, last))
			return -1;
	}
	return 0;
}

static int recon_v1(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc)
{
	const struct optlog *lg = in->log;
	struct v1_index ix;
	int known, stop, err = -1;
	if (v1_index_build(in, rc, &ix) != 0)
		return -1;
	known = ix.best != NULL;
	rc->best_known = known;
	if (v1_summary(in, fs, known, &ix, &stop) != 0)
		goto out;
	for (size_t c = 0; !stop && c < lg->n_claims; c++)
		if (claim_counts(&ix, &lg->claims[c]) &&
		    v1_claim(in, fs, rc, &lg->claims[c], known, &ix) != 0)
			goto out;
	err = stop ? 0 : v1_unclaimed(in, rc, &ix, known);
out:
	v1_index_release(&ix);
	return err;
}

/* The rows to reconcile under v2: the inventory's tune workloads, else
 * every key of the records. */
static int v2_rows(const struct s4_input *in, struct s4_recon *rc)
{
	const struct records *rs = in->recs;
	const struct inventory_item *items = in->inventory ? in->inventory->v : NULL;
	size_t nitems = in->inventory ? in->inventory->n : 0;
	if (items) {
		for (size_t i = 0; i < nitems; i++)
			if (items[i].kernel_id && items[i].workload_id && items[i].kind &&
			    strcmp(items[i].kind, "tune") == 0 &&
			    !s4_recon_row_of(rc, items[i].kernel_id, items[i].workload_id, RECORDS_V2))
				return -1;
	} else {
		for (size_t i = 0; i < rs->n; i++)
			if (!s4_recon_row_of(rc, rs->v[i].dispatch, rs->v[i].workload, RECORDS_V2))
				return -1;
	}
	return 0;
}

/* A Final row naming no tune workload whose kernel_id and workload_id
 * each are or look like a tune workload's: the errors naming the
 * look-alikes. Returns 1 when reported, 0 when none, -1 on allocation
 * failure. */
static int v2_row_lookalike(const struct s4_input *in, struct gate_findings *fs, const struct s4_recon *rc,
			    const struct optlog_final_row *fr)
{
	const char *lf = in->optlog_file;
	for (size_t j = 0; j < rc->n; j++) {
		const struct s4_recon_row *row = &rc->v[j];
		int ld = uname_confusable(fr->kernel_id, row->dispatch);
		int lw = uname_confusable(fr->workload_id, row->workload);
		if (!(ld || uname_same(fr->kernel_id, row->dispatch)) ||
		    !(lw || uname_same(fr->workload_id, row->workload)) || !(ld || lw))
			continue;
		if ((ld && s4_lookalike(fs, RULE, lf, fr->line, "the Final table's kernel_id", fr->kernel_id,
					row->dispatch) < 0) ||
		    (lw && s4_lookalike(fs, RULE, lf, fr->line, "the Final table's workload_id", fr->workload_id,
					row->workload) < 0))
			return -1;
		return 1;
	}
	return 0;
}

/* The Final Performance Test Data section: present, with its table, each
 * row once, numeric, and for a tune workload. Returns 0, -1 on allocation
 * failure. */
static int v2_final_table(const struct s4_input *in, struct gate_findings *fs,
			  const struct s4_recon *rc)
{
	const struct optlog *lg = in->log;
	const char *lf = in->optlog_file;
	int table = lg->final_table_line != 0;
	if (lg->final_heading_line == 0) {
		if (gate_add(fs, RULE, GATE_ERROR, lf, 0,
			     "no '## Final Performance Test Data' section (H2 or H3) with the final table"))
			return -1;
	} else if (!table) {
		if (gate_add(fs, RULE, GATE_ERROR, lf, lg->final_heading_line,
			     "the Final Performance Test Data section has no table with the columns kernel_id, workload_id, baseline_us, final_us, final_candidate_id"))
			return -1;
	}
	for (size_t j = 0; table && j < lg->n_final_rows; j++) {
		const struct optlog_final_row *fr = &lg->final_rows[j];
		for (size_t k = 0; k < j; k++)
			if (uname_same(lg->final_rows[k].kernel_id, fr->kernel_id) &&
			    uname_same(lg->final_rows[k].workload_id, fr->workload_id) &&
			    gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
				     "the Final table lists '%s' / '%s' twice (first at line %ld)",
				     fr->kernel_id, fr->workload_id, lg->final_rows[k].line))
				return -1;
		if ((isnan(fr->baseline_us) || isnan(fr->final_us)) &&
		    gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
			     "the Final table row for '%s' / '%s' has a baseline_us or final_us that is not a number",
			     fr->kernel_id, fr->workload_id))
			return -1;
		int tune = 0;
		for (size_t k = 0; k < rc->n; k++)
			if (uname_same(rc->v[k].dispatch, fr->kernel_id) && uname_same(rc->v[k].workload, fr->workload_id))
				tune = 1;
		int look = tune ? 0 : v2_row_lookalike(in, fs, rc, fr);
		if (look < 0)
			return -1;
		if (!tune && !look && gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
				      "the Final table lists '%s' / '%s', which is not a tune workload",
				      fr->kernel_id, fr->workload_id))
			return -1;
	}
	return 0;
}

/* What the records of one tune workload give against its Final row. */
struct v2_seen {
	const struct optlog_final_row *fr; /* its row of the Final table, NULL if none */
	const struct record *fin;          /* its last final record */
	size_t nfinal, nbase;              /* final and baseline records */
	int base_ok, fin_ok;               /* some baseline / final record matches fr */
};

/* The first row of the Final table for row's key, NULL when none. */
static const struct optlog_final_row *final_row_of(const struct optlog *lg, const struct s4_recon_row *row)
{
	for (size_t j = 0; j < lg->n_final_rows; j++)
		if (uname_same(lg->final_rows[j].kernel_id, row->dispatch) &&
		    uname_same(lg->final_rows[j].workload_id, row->workload))
			return &lg->final_rows[j];
	return NULL;
}

/* Walks the baseline and final records of row's key into *s; row gets
 * the first baseline's duration. */
static void v2_scan(const struct s4_input *in, struct s4_recon_row *row, struct v2_seen *s)
{
	const struct records *rs = in->recs;
	const struct optlog_final_row *fr = s->fr;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (strcmp(r->dispatch, row->dispatch) || strcmp(r->workload, row->workload) || !r->phase)
			continue;
		if (strcmp(r->phase, "baseline") == 0) {
			s->nbase++;
			if (isnan(row->baseline_us))
				row->baseline_us = r->duration_us;
			if (fr && s4_deviation(fr->baseline_us, r->duration_us) <= S4_TOLERANCE)
				s->base_ok = 1;
		} else if (strcmp(r->phase, "final") == 0) {
			s->nfinal++;
			s->fin = r;
			if (fr && s4_deviation(fr->final_us, r->duration_us) <= S4_TOLERANCE)
				s->fin_ok = 1;
		}
	}
}

/* The final record: row's winner, exactly one, its candidate noted for
 * the kernel in *kernels. */
static int v2_final_record(const struct s4_input *in, struct gate_findings *fs, struct s4_recon_row *row,
			   const struct v2_seen *s, struct s4_map *kernels)
{
	const struct record *fin = s->fin;
	if (!fin)
		return 0;
	if (set_winner(row, fin))
		return -1;
	if (s->nfinal > 1 && gate_add(fs, RULE, GATE_ERROR, in->records_file, fin->line,
				      "'%s' / '%s' has %zu final records; exactly one is allowed",
				      row->dispatch, row->workload, s->nfinal))
		return -1;
	int created;
	char *kk = s4_key3(row->dispatch, fin->candidate_id, NULL);
	if (!kk)
		return -1;
	long *slot = s4_map_put(kernels, kk, fin->line, &created);
	free(kk);
	return slot ? 0 : -1;
}

/* Row's line of the Final table against its records: baseline_us,
 * final_us (within 1%) and final_candidate_id. */
static int v2_final_line(const struct s4_input *in, struct gate_findings *fs, struct s4_recon_row *row,
			 const struct v2_seen *s)
{
	const char *lf = in->optlog_file;
	const struct optlog_final_row *fr = s->fr;
	const struct record *fin = s->fin;
	row->claimed_us = fr->final_us;
	row->claim_line = fr->line;
	if (fin) {
		row->deviation = s4_deviation(fr->final_us, fin->duration_us);
		row->ok = s->fin_ok && s->nfinal == 1;
	}
	if (s->nbase && !isnan(fr->baseline_us) && !s->base_ok &&
	    gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
		     "baseline_us %g for '%s' / '%s' does not match the baseline record %g us within 1%%",
		     fr->baseline_us, row->dispatch, row->workload, row->baseline_us))
		return -1;
	int rep = s->nfinal == 1 && !isnan(fr->final_us)
			  ? judge_repeats(in, fs, 0, "final_us", fr->final_us, 1, fr->line, NULL, fin, row) : 0;
	if (rep < 0)
		return -1;
	if (rep > 0)
		row->ok = row->ok && s->nfinal == 1;
	if (!rep && s->nfinal && !isnan(fr->final_us) && !s->fin_ok &&
	    gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
		     "final_us %g for '%s' / '%s' does not match the final record %g us (perf_records.jsonl line %ld) within 1%%",
		     fr->final_us, row->dispatch, row->workload, fin->duration_us, fin->line))
		return -1;
	if (s->nfinal == 1 && !uname_same(fr->final_candidate_id, fin->candidate_id)) {
		int k = s4_lookalike(fs, RULE, lf, fr->line, "the Final table's final_candidate_id",
				     fr->final_candidate_id, fin->candidate_id);
		if (k)
			return k < 0 ? -1 : 0;
	}
	if (s->nfinal == 1 && !uname_same(fr->final_candidate_id, fin->candidate_id) &&
	    gate_add(fs, RULE, GATE_ERROR, lf, fr->line,
		     "final_candidate_id '%s' for '%s' / '%s' is not the final record's candidate '%s'",
		     fr->final_candidate_id, row->dispatch, row->workload, fin->candidate_id))
		return -1;
	return 0;
}

/* One tune workload: its baseline and final records against its row of
 * the Final table (within 1%), exactly one final record, and the final
 * candidate noted per kernel in *kernels. */
static int v2_row(const struct s4_input *in, struct gate_findings *fs, struct s4_recon_row *row,
		  struct s4_map *kernels)
{
	const struct optlog *lg = in->log;
	struct v2_seen s = { .fr = final_row_of(lg, row) };
	v2_scan(in, row, &s);
	if (v2_final_record(in, fs, row, &s, kernels))
		return -1;
	if (lg->final_table_line == 0)
		return 0;
	if (!s.fr)
		return gate_add(fs, RULE, GATE_ERROR, in->optlog_file, lg->final_table_line,
				"the Final table has no row for tune workload '%s' / '%s'", row->dispatch,
				row->workload);
	return v2_final_line(in, fs, row, &s);
}

/* One final candidate per kernel. */
static int v2_one_final_per_kernel(const struct s4_input *in, struct gate_findings *fs,
				   const struct s4_recon *rc, const struct s4_map *kernels)
{
	const char *rf = in->records_file;
	for (size_t k = 0; k < rc->n; k++) {
		size_t ncand = 0;
		for (size_t i = 0; i < kernels->cap; i++) {
			if (!kernels->keys[i])
				continue;
			size_t dl = strlen(rc->v[k].dispatch);
			if (strncmp(kernels->keys[i], rc->v[k].dispatch, dl) == 0 && kernels->keys[i][dl] == '\x1f')
				ncand++;
		}
		int first = 1;
		for (size_t j = 0; j < k; j++)
			if (strcmp(rc->v[j].dispatch, rc->v[k].dispatch) == 0)
				first = 0;
		if (first && ncand > 1 &&
		    gate_add(fs, RULE, GATE_ERROR, rf, 0,
			     "kernel '%s' has final records of %zu different candidates; one final candidate per kernel",
			     rc->v[k].dispatch, ncand))
			return -1;
	}
	return 0;
}

/* The artifact measured is the one delivered: each final record's
 * artifact still has the sha256 it was measured with. */
static int v2_artifacts(const struct s4_input *in, struct gate_findings *fs)
{
	const struct records *rs = in->recs;
	const char *rf = in->records_file;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		char hex[65];
		const char *why = "cannot be read";
		if (!r->phase || strcmp(r->phase, "final") || !r->artifact_path || !in->artifact_sha256)
			continue;
		if (in->artifact_sha256(r->artifact_path, hex, &why, in->artifact_ctx) != 0) {
			if (gate_add(fs, RULE, GATE_ERROR, rf, r->line,
				     "the final record names artifact '%s', which %s", r->artifact_path, why))
				return -1;
			continue;
		}
		if (!r->artifact_sha256 || strcasecmp(hex, r->artifact_sha256) != 0) {
			if (gate_add(fs, RULE, GATE_ERROR, rf, r->line,
				     "'%s' changed after it was measured: its sha256 is %s, the final record says %s",
				     r->artifact_path, hex, r->artifact_sha256 ? r->artifact_sha256 : "nothing"))
				return -1;
		}
	}
	return 0;
}

/* final_latency claims, when the summary makes them: each matches a final
 * record of its workload within 1%. */
static int v2_claims(const struct s4_input *in, struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	const struct records *rs = in->recs;
	const char *lf = in->optlog_file;
	for (size_t c = 0; c < lg->n_claims; c++) {
		const struct optlog_claim *cl = &lg->claims[c];
		int any = 0, ok = 0;
		double near = NAN;
		for (size_t i = 0; i < rs->n; i++) {
			const struct record *r = &rs->v[i];
			if (!r->phase || strcmp(r->phase, "final") ||
			    (cl->workload && !s4_same_workload(r->workload, cl->workload)))
				continue;
			any = 1;
			near = r->duration_us;
			if (s4_deviation(cl->final_us, r->duration_us) <= S4_TOLERANCE)
				ok = 1;
		}
		char fig[96];
		if (any && !ok &&
		    gate_add(fs, RULE, GATE_ERROR, lf, cl->line,
			     "claimed final_latency %s does not match the final record (%g us) within 1%%",
			     claim_text(fig, sizeof(fig), cl->final_us, cl->final_mul), near))
			return -1;
	}
	return 0;
}

static int recon_v2(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc)
{
	struct s4_map kernels;
	int err = -1;
	s4_map_init(&kernels);
	if (v2_rows(in, rc) != 0)
		goto out;
	if (rc->n == 0 || in->optlog_state != S4_FILE_OK) {
		err = 0;
		goto out;
	}
	if (v2_final_table(in, fs, rc) != 0)
		goto out;
	int how;
	if (in->log->best && !in->log->nothing_adopted && !best_candidate(in, &how) && best_unrecorded(in, fs, 0) != 0)
		goto out;
	for (size_t k = 0; k < rc->n; k++)
		if (v2_row(in, fs, &rc->v[k], &kernels) != 0)
			goto out;
	if (v2_one_final_per_kernel(in, fs, rc, &kernels) != 0 || v2_artifacts(in, fs) != 0 ||
	    v2_claims(in, fs) != 0)
		goto out;
	err = 0;
out:
	s4_map_release(&kernels);
	return err;
}

int s4_rule_recon(const struct s4_input *in, struct gate_findings *fs, struct s4_recon *rc)
{
	struct s4_recon local;
	struct s4_recon *r = rc ? rc : &local;
	int err = 0;
	if (!rc)
		s4_recon_init(&local);
	const struct optlog *lg = in->log;
	r->stop_reason = stop_text(lg->stop);
	r->claimed_geomean = lg->n_geomeans ? lg->geomeans[0].value : NAN;
	if (in->optlog_state == S4_FILE_OK)
		for (size_t i = 0; i < lg->n_superseded && err == 0; i++)
			err = gate_add(fs, RULE, GATE_NOTE, in->optlog_file, lg->superseded[i],
				       "an earlier Final Summary, superseded by the one at line %ld, is not checked",
				       lg->summary_line);
	if (err == 0) {
		if (in->contract == RECORDS_V2)
			err = recon_v2(in, fs, r);
		else if (in->records_state == S4_FILE_OK && in->optlog_state == S4_FILE_OK)
			err = recon_v1(in, fs, r);
	}
	if (!rc)
		s4_recon_release(&local);
	return err;
}

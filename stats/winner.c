/* winner.c: a round's winner under the non-regression and A/B rules
 * (winner.h). */
#include "stats/winner.h"
#include "stats/stats.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keeps exact ties (3.0% at noise 3%) out of "beyond noise". */
#define SLACK 1e-12

const char *stats_winner_decision_name(enum stats_winner_decision d)
{
	switch (d) {
	case STATS_WINNER_ADOPT: return "adopt";
	case STATS_WINNER_ROLLBACK: return "rollback";
	case STATS_WINNER_DEFER: return "defer";
	case STATS_WINNER_NEEDS_AB: return "needs_ab";
	case STATS_WINNER_TIE: return "tie";
	case STATS_WINNER_NONE: break;
	}
	return "none";
}

const char *stats_winner_keystate_name(enum stats_winner_keystate s)
{
	switch (s) {
	case STATS_WK_NO_INCUMBENT: return "no_incumbent";
	case STATS_WK_GAIN: return "gain";
	case STATS_WK_SAME: return "same";
	case STATS_WK_SOFT_REGRESSION: return "soft_regression";
	case STATS_WK_REGRESSION: return "regression";
	case STATS_WK_MISSING: break;
	}
	return "missing";
}

void stats_winner_opts_init(struct stats_winner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->noise = STATS_WINNER_NOISE;
	o->ab_threshold = STATS_WINNER_AB_THRESHOLD;
	o->small_us = STATS_WINNER_SMALL_US;
}

void stats_winner_release(struct stats_winner *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->ncands; i++)
		free(w->cands[i].keys);
	free(w->cands);
	free(w->required);
	free(w->shared_workload);
	free(w->tied);
	stats_keyset_release(&w->ks);
	memset(w, 0, sizeof(*w));
	w->chosen = STATS_NOKEY;
}

static void fail_msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail_msg(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Appends "d/w" names of keys of cand c in state st to buf. */
static void name_keys(const struct stats_winner *w, const struct stats_winner_candidate *c,
		      enum stats_winner_keystate st, char *buf, size_t len)
{
	size_t used = strlen(buf);
	int first = 1;
	for (size_t i = 0; i < w->nrequired && used < len; i++) {
		if (c->keys[i].state != st)
			continue;
		const struct stats_key *k = &w->ks.v[c->keys[i].key];
		int n = snprintf(buf + used, len - used, "%s%s%s%s (%+.1f%%)", first ? "" : ", ",
				 w->shared_workload[i] ? k->dispatch : "",
				 w->shared_workload[i] ? "/" : "", k->workload,
				 100.0 * c->keys[i].change);
		if (n < 0 || (size_t)n >= len - used)
			break; /* the reason is full: the JSON lists every key */
		used += (size_t)n;
		first = 0;
	}
}

struct by_w {
	const char *workload;   /* sort key */
	size_t j;               /* required index */
};

static int by_workload(const void *a, const void *b)
{
	const struct by_w *x = a, *y = b;
	return strcmp(x->workload, y->workload);
}

/* Marks required keys whose workload name another required key shares. */
static int mark_shared(struct stats_winner *w)
{
	size_t n = w->nrequired;
	struct by_w *v = malloc((n ? n : 1) * sizeof(*v));
	w->shared_workload = calloc(n ? n : 1, 1);
	if (!v || !w->shared_workload) {
		free(v);
		return -1;
	}
	for (size_t j = 0; j < n; j++) {
		v[j].workload = w->ks.v[w->required[j]].workload;
		v[j].j = j;
	}
	qsort(v, n, sizeof(*v), by_workload);
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i].workload, v[i - 1].workload) == 0)
			w->shared_workload[v[i].j] = w->shared_workload[v[i - 1].j] = 1;
	free(v);
	return 0;
}

const char *stats_winner_key_label(struct stats_winner *w, size_t kidx)
{
	if (kidx >= w->nrequired)
		return NULL;
	const struct stats_key *k = &w->ks.v[w->required[kidx]];
	if (!w->shared_workload || !w->shared_workload[kidx])
		return k->workload;
	snprintf(w->label, sizeof(w->label), "%s/%s", k->dispatch, k->workload);
	return w->label;
}

/* Resolves the required key texts (or the default set) into w->required. */
static int resolve_required(const struct records *rs, long round, const struct stats_winner_opts *o,
			    const struct record **inc, struct stats_winner *w, char *err,
			    size_t errlen)
{
	size_t nk = w->ks.n;
	char *want = calloc(nk ? nk : 1, 1);
	w->required = malloc((nk ? nk : 1) * sizeof(*w->required));
	if (!want || !w->required) {
		free(want);
		fail_msg(err, errlen, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	if (o->nrequired == 0) {
		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].round == round && inc[w->ks.of[i]])
				want[w->ks.of[i]] = 1;
	}
	for (size_t j = 0; j < o->nrequired; j++) {
		int hit = 0;
		for (size_t k = 0; k < nk; k++)
			if (stats_key_matches(&w->ks.v[k], o->required[j])) {
				want[k] = 1;
				hit = 1;
			}
		if (!hit) {
			free(want);
			fail_msg(err, errlen, "required key '%s' matches no dispatch/workload of the records",
				 o->required[j]);
			errno = EINVAL;
			return -1;
		}
	}
	for (size_t k = 0; k < nk; k++)
		if (want[k])
			w->required[w->nrequired++] = k;
	free(want);
	return 0;
}

static int is_baseline_phase(const struct record *r)
{
	return r->phase && strcmp(r->phase, "baseline") == 0;
}

/* Round-N records grouped by candidate: sorted by (candidate_id, line). */
struct member {
	const struct record *r;
	size_t i;               /* record index in rs */
};

static int by_candidate(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->r->candidate_id, y->r->candidate_id);
	if (c)
		return c;
	return x->i < y->i ? -1 : (x->i > y->i);
}

struct group {
	size_t lo, hi;          /* range in the sorted members */
	size_t first;           /* first record index: file order of candidates */
};

static int by_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return x->first < y->first ? -1 : (x->first > y->first);
}

static void judge_candidate(const struct stats_winner_opts *o, const struct record **inc,
			    const size_t *reqslot, const struct member *m, const struct group *g,
			    const struct stats_winner *w, struct stats_winner_candidate *c)
{
	for (size_t j = 0; j < w->nrequired; j++) {
		c->keys[j].key = w->required[j];
		c->keys[j].incumbent = inc[w->required[j]];
		c->keys[j].change = NAN;
	}
	for (size_t i = g->lo; i < g->hi; i++) {
		size_t j = reqslot[w->ks.of[m[i].i]];
		if (j == STATS_NOKEY || !record_valid(m[i].r))
			continue;
		struct stats_winner_key *e = &c->keys[j];
		if (!e->candidate || m[i].r->duration_us < e->candidate->duration_us)
			e->candidate = m[i].r;
	}
	struct stats_geomean_acc gm;
	stats_geomean_init(&gm);
	c->complete = 1;
	for (size_t j = 0; j < w->nrequired; j++) {
		struct stats_winner_key *e = &c->keys[j];
		if (!e->incumbent) {
			e->state = e->candidate ? STATS_WK_NO_INCUMBENT : STATS_WK_MISSING;
			continue;
		}
		if (!e->candidate) {
			e->state = STATS_WK_MISSING;
			c->complete = 0;
			continue;
		}
		double inc_us = e->incumbent->duration_us, cand_us = e->candidate->duration_us;
		e->change = (cand_us - inc_us) / inc_us;
		int small = inc_us < o->small_us;
		if (e->change < -(o->noise + SLACK))
			e->state = STATS_WK_GAIN;
		else if (e->change <= o->noise + SLACK)
			e->state = STATS_WK_SAME;
		else if (small && e->change < o->ab_threshold)
			e->state = STATS_WK_SOFT_REGRESSION;
		else
			e->state = STATS_WK_REGRESSION;
		c->ngains += e->state == STATS_WK_GAIN;
		c->nsoft += e->state == STATS_WK_SOFT_REGRESSION;
		c->nregressions += e->state == STATS_WK_REGRESSION;
		stats_geomean_add(&gm, inc_us / cand_us);
		c->ncompared++;
	}
	c->gain = stats_geomean_value(&gm) - 1.0;
}

/* Fills M with the round's non-baseline records and G with their groups
 * by candidate, in order of first appearance; returns the group count. */
static size_t group_round(const struct records *rs, long round, struct member *m,
			  struct group *g)
{
	size_t nm = 0, ng = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->round == round && !is_baseline_phase(r)) {
			m[nm].r = r;
			m[nm++].i = i;
		}
	}
	qsort(m, nm, sizeof(*m), by_candidate);
	for (size_t i = 0; i < nm; i++) {
		if (i == 0 || strcmp(m[i].r->candidate_id, m[i - 1].r->candidate_id) != 0) {
			g[ng].lo = i;
			g[ng].first = m[i].i;
			ng++;
		}
		g[ng - 1].hi = i + 1;
	}
	qsort(g, ng, sizeof(*g), by_first);
	return ng;
}

/* Collects and judges the candidates of the round, in order of first
 * appearance. O(m log m) in the round's records m. */
static int collect_candidates(const struct records *rs, long round,
			      const struct stats_winner_opts *o, const struct record **inc,
			      struct stats_winner *w)
{
	struct member *m = malloc((rs->n ? rs->n : 1) * sizeof(*m));
	struct group *g = malloc((rs->n ? rs->n : 1) * sizeof(*g));
	size_t *reqslot = malloc((w->ks.n ? w->ks.n : 1) * sizeof(*reqslot));
	size_t ng = 0;
	int rc = -1;
	if (!m || !g || !reqslot)
		goto out;
	for (size_t k = 0; k < w->ks.n; k++)
		reqslot[k] = STATS_NOKEY;
	for (size_t j = 0; j < w->nrequired; j++)
		reqslot[w->required[j]] = j;
	ng = group_round(rs, round, m, g);
	if (w->nrequired && ng > STATS_WINNER_MAX_CELLS / w->nrequired) {
		errno = E2BIG;
		goto out;
	}
	w->cands = calloc(ng ? ng : 1, sizeof(*w->cands));
	if (!w->cands)
		goto out;
	for (size_t c = 0; c < ng; c++) {
		struct stats_winner_candidate *x = &w->cands[c];
		x->candidate_id = m[g[c].lo].r->candidate_id;
		x->keys = calloc(w->nrequired ? w->nrequired : 1, sizeof(*x->keys));
		if (!x->keys)
			goto out;
		w->ncands++;
		judge_candidate(o, inc, reqslot, m, &g[c], w, x);
	}
	rc = 0;
out:
	free(m);
	free(g);
	free(reqslot);
	return rc;
}

/* Larger gain first; equal gains keep file order. */
static int better(const struct stats_winner_candidate *a, const struct stats_winner_candidate *b)
{
	return a->gain > b->gain;
}

/* Marks the keys W must have arbitrated; returns how many. */
static size_t mark_ab(const struct stats_winner_opts *o, struct stats_winner *w,
		      struct stats_winner_candidate *c)
{
	size_t n = 0;
	for (size_t j = 0; j < w->nrequired; j++) {
		struct stats_winner_key *e = &c->keys[j];
		if (!e->incumbent || !e->candidate)
			continue;
		double g = -e->change;
		if (e->state == STATS_WK_GAIN && g < o->ab_threshold - SLACK)
			e->needs_ab = 1;
		if (e->state == STATS_WK_SOFT_REGRESSION)
			e->needs_ab = 1;
		/* No gain beyond noise anywhere: the whole case for W is
		 * unresolved, arbitrate every key it is faster on. */
		if (c->ngains == 0 && g > 0.0)
			e->needs_ab = 1;
		n += (size_t)e->needs_ab;
	}
	return n;
}

size_t stats_winner_mark_ab(const struct stats_winner_opts *o, struct stats_winner *w, size_t c)
{
	if (c >= w->ncands)
		return 0;
	for (size_t j = 0; j < w->nrequired; j++)
		w->cands[c].keys[j].needs_ab = 0;
	return mark_ab(o, w, &w->cands[c]);
}

/* Checks ROUND and the thresholds of O; -1 with ERR and errno EINVAL
 * when one is out of range. */
static int check_inputs(long round, const struct stats_winner_opts *o, char *err, size_t errlen)
{
	if (round < 1) {
		fail_msg(err, errlen, "round must be >= 1 (round 0 is the baseline), got %ld", round);
		errno = EINVAL;
		return -1;
	}
	if (!isfinite(o->noise) || o->noise < 0 || !isfinite(o->ab_threshold) ||
	    o->ab_threshold < 0 || !isfinite(o->small_us) || o->small_us < 0) {
		fail_msg(err, errlen, "noise, ab threshold and small-us must be finite and >= 0");
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* With --incumbent: -1 with ERR and errno EINVAL when INC holds none of
 * its records; 0 otherwise. */
static int check_incumbent(const struct stats_winner *w, const struct record **inc,
			   const struct stats_winner_opts *o, long round, char *err, size_t errlen)
{
	if (!o->incumbent_id)
		return 0;
	for (size_t k = 0; k < w->ks.n; k++)
		if (inc[k])
			return 0;
	fail_msg(err, errlen, "incumbent '%s' has no valid record before round %ld",
		 o->incumbent_id, round);
	errno = EINVAL;
	return -1;
}

/* Sets *TOP to the complete candidate with the largest gain and *CLEAN
 * to the one without a regression (STATS_NOKEY when none). */
static void pick_top(const struct stats_winner *w, size_t *top, size_t *clean)
{
	*top = STATS_NOKEY;
	*clean = STATS_NOKEY;
	for (size_t c = 0; c < w->ncands; c++) {
		const struct stats_winner_candidate *x = &w->cands[c];
		if (!x->complete || x->ncompared == 0)
			continue;
		if (*top == STATS_NOKEY || better(x, &w->cands[*top]))
			*top = c;
		if (x->nregressions == 0 && (*clean == STATS_NOKEY || better(x, &w->cands[*clean])))
			*clean = c;
	}
}

/* Decides when no candidate can be adopted: TOP is chosen, and the
 * decision is defer or rollback. */
static void decide_without_clean(struct stats_winner *w, size_t top)
{
	struct stats_winner_candidate *t = &w->cands[top];
	w->chosen = top;
	if (t->nregressions > 0 && t->ngains > 0) {
		w->decision = STATS_WINNER_DEFER;
		snprintf(w->reason, sizeof(w->reason), "%s regresses on required keys: ",
			 t->candidate_id);
	} else if (t->nregressions > 0) {
		w->decision = STATS_WINNER_ROLLBACK;
		snprintf(w->reason, sizeof(w->reason), "%s regresses on required keys: ",
			 t->candidate_id);
	} else {
		w->decision = STATS_WINNER_ROLLBACK;
		snprintf(w->reason, sizeof(w->reason),
			 "no candidate is faster than the current best (best gain %+.1f%%)",
			 100.0 * t->gain);
	}
	if (t->nregressions > 0)
		name_keys(w, t, STATS_WK_REGRESSION, w->reason, sizeof(w->reason));
}

/* Lists in w->tied the clean candidates within noise of CLEAN. */
static void collect_ties(const struct stats_winner_opts *o, struct stats_winner *w, size_t clean)
{
	const struct stats_winner_candidate *wc = &w->cands[clean];
	for (size_t c = 0; c < w->ncands; c++) {
		const struct stats_winner_candidate *x = &w->cands[c];
		if (c == clean || !x->complete || x->ncompared == 0 || x->nregressions)
			continue;
		if (fabs((1.0 + wc->gain) / (1.0 + x->gain) - 1.0) <= o->noise + SLACK)
			w->tied[w->ntied++] = c;
	}
}

/* Decides for the clean candidate CLEAN with a gain: needs_ab, tie or
 * adopt; notes TOP when it was faster but regresses. */
static void decide_clean(const struct stats_winner_opts *o, struct stats_winner *w,
			 size_t clean, size_t top)
{
	struct stats_winner_candidate *wc = &w->cands[clean];
	w->chosen = clean;
	collect_ties(o, w, clean);
	size_t nab = mark_ab(o, w, wc);
	if (nab > 0) {
		w->decision = STATS_WINNER_NEEDS_AB;
		snprintf(w->reason, sizeof(w->reason),
			 "%s gains %.1f%% (geomean) but differences under %.0f%% must be "
			 "arbitrated by interleaved A/B runs on %zu key(s)",
			 wc->candidate_id, 100.0 * wc->gain, 100.0 * o->ab_threshold, nab);
	} else if (w->ntied > 0) {
		w->decision = STATS_WINNER_TIE;
		snprintf(w->reason, sizeof(w->reason),
			 "%s and %zu other candidate(s) are within noise (%.1f%%) of each other: "
			 "settle by load balance, resource use and code simplicity "
			 "(the engineer's call, not in the records)",
			 wc->candidate_id, w->ntied, 100.0 * o->noise);
	} else {
		w->decision = STATS_WINNER_ADOPT;
		snprintf(w->reason, sizeof(w->reason),
			 "%s gains %.1f%% (geomean over %zu key(s)) with no regression beyond %.1f%%",
			 wc->candidate_id, 100.0 * wc->gain, wc->ncompared, 100.0 * o->noise);
	}
	if (clean != top) {
		size_t used = strlen(w->reason);
		snprintf(w->reason + used, sizeof(w->reason) - used,
			 "; %s was faster overall but regresses: ", w->cands[top].candidate_id);
		name_keys(w, &w->cands[top], STATS_WK_REGRESSION, w->reason, sizeof(w->reason));
	}
}

/* Fills w->decision and w->reason from the judged candidates. */
static void decide(const struct stats_winner_opts *o, const struct record **inc,
		   struct stats_winner *w, long round)
{
	size_t ncmp = 0, top, clean;
	for (size_t j = 0; j < w->nrequired; j++)
		ncmp += inc[w->required[j]] != NULL;
	pick_top(w, &top, &clean);
	if (w->ncands == 0) {
		w->decision = STATS_WINNER_NONE;
		snprintf(w->reason, sizeof(w->reason), "round %ld has no candidate record", round);
	} else if (ncmp == 0) {
		w->decision = STATS_WINNER_NONE;
		snprintf(w->reason, sizeof(w->reason),
			 "no required key has a current best before round %ld", round);
	} else if (top == STATS_NOKEY) {
		w->decision = STATS_WINNER_NONE;
		snprintf(w->reason, sizeof(w->reason),
			 "no candidate of round %ld has a valid (l0_pass) measurement of every required key",
			 round);
	} else if (clean == STATS_NOKEY || !(w->cands[clean].gain > 0.0)) {
		decide_without_clean(w, top);
	} else {
		decide_clean(o, w, clean, top);
	}
}

int stats_winner_choose(const struct records *rs, long round, const struct stats_winner_opts *o,
			struct stats_winner *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->chosen = STATS_NOKEY;
	w->round = round;
	if (err && errlen)
		err[0] = '\0';
	if (check_inputs(round, o, err, errlen) != 0)
		return -1;
	const struct record **inc = NULL;
	int rc = -1;
	if (stats_keyset_build(rs, &w->ks) != 0)
		goto oom;
	inc = calloc(w->ks.n ? w->ks.n : 1, sizeof(*inc));
	if (!inc)
		goto oom;
	stats_best_before(rs, &w->ks, round, o->incumbent_id, inc);
	if (check_incumbent(w, inc, o, round, err, errlen) != 0)
		goto out;
	if (resolve_required(rs, round, o, inc, w, err, errlen) != 0)
		goto out;
	if (mark_shared(w) != 0)
		goto oom;
	if (collect_candidates(rs, round, o, inc, w) != 0) {
		if (errno == E2BIG) {
			fail_msg(err, errlen,
				 "round %ld has too many candidates x required keys to compare (limit %lu)",
				 round, (unsigned long)STATS_WINNER_MAX_CELLS);
			goto out;
		}
		goto oom;
	}
	w->tied = malloc((w->ncands ? w->ncands : 1) * sizeof(*w->tied));
	if (!w->tied)
		goto oom;
	decide(o, inc, w, round);
	rc = 0;
	goto out;
oom:
	fail_msg(err, errlen, "out of memory");
	errno = ENOMEM;
out:
	free(inc);
	if (rc != 0) {
		int e = errno;
		stats_winner_release(w);
		errno = e;
	}
	return rc;
}

static void sb_slug(struct strbuf *b, const char *p)
{
	for (; *p; p++) {
		char ch = *p;
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
		strbuf_add(b, ok ? &ch : "_", 1);
	}
}

/* The bench command of one side, unquoted. */
static void bench_text(struct strbuf *b, const char *tpl, const struct record *r,
		       const char *impl)
{
	if (!tpl) {
		strbuf_str(b, "<bench command: ");
		strbuf_str(b, impl);
		strbuf_str(b, " on ");
		strbuf_str(b, r->dispatch);
		strbuf_str(b, "/");
		strbuf_str(b, r->workload);
		strbuf_str(b, ">");
		return;
	}
	char num[32];
	snprintf(num, sizeof(num), "%ld", r->round);
	static const struct {
		const char *name;
		int which;
	} ph[] = { { "{impl}", 0 }, { "{candidate}", 0 }, { "{dispatch}", 1 },
		   { "{workload}", 2 }, { "{artifact}", 3 }, { "{round}", 4 } };
	for (const char *p = tpl; *p;) {
		size_t i = 0;
		for (; i < sizeof(ph) / sizeof(ph[0]); i++)
			if (strncmp(p, ph[i].name, strlen(ph[i].name)) == 0)
				break;
		if (i == sizeof(ph) / sizeof(ph[0])) {
			strbuf_add(b, p, 1);
			p++;
			continue;
		}
		const char *v = ph[i].which == 0 ? impl
			      : ph[i].which == 1 ? r->dispatch
			      : ph[i].which == 2 ? r->workload
			      : ph[i].which == 3 ? (r->artifact_path ? r->artifact_path : impl)
						 : num;
		strbuf_str(b, v);
		p += strlen(ph[i].name);
	}
}

char *stats_winner_ab_command(const struct stats_winner *w, size_t c, size_t kidx,
			      const char *bench_template, const char *workdir_suffix)
{
	if (c >= w->ncands || kidx >= w->nrequired)
		return NULL;
	const struct stats_winner_key *e = &w->cands[c].keys[kidx];
	if (!e->incumbent || !e->candidate)
		return NULL;
	struct strbuf b = { 0 }, side = { 0 };
	strbuf_str(&b, "tlab --a-cmd ");
	bench_text(&side, bench_template, e->incumbent, e->incumbent->candidate_id);
	strbuf_shell_quoted(&b, side.s ? side.s : "");
	side.n = 0;
	if (side.s)
		side.s[0] = '\0';
	strbuf_str(&b, " --b-cmd ");
	bench_text(&side, bench_template, e->candidate, w->cands[c].candidate_id);
	strbuf_shell_quoted(&b, side.s ? side.s : "");
	char num[32];
	snprintf(num, sizeof(num), "%ld", w->round);
	strbuf_str(&b, " --workdir perf_opt/ab_r");
	strbuf_str(&b, num);
	strbuf_str(&b, "_");
	sb_slug(&b, w->cands[c].candidate_id);
	if (workdir_suffix) {
		strbuf_str(&b, "/");
		sb_slug(&b, workdir_suffix);
	}
	int oom = b.oom || side.oom;
	free(side.s);
	if (oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

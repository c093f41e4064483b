/* s4_ab.c: S4-AB (s4.h). A winner adopted with a gain under the A/B
 * threshold (5%: the seed's Phase 2 step 10, T-2) on some workload has a
 * B_better verdict of the interleaved A/B protocol: a tlab / ab_test.py
 * JSON summary pasted in its round's section (```json), or the runs.jsonl
 * of an A/B work directory perf_opt/ab_<round>... Where the journal is
 * there, the verdict is recomputed from its runs (stats/abreplay.h) and
 * every summary of it must agree. */
#include "gates/s4.h"
#include "stats/abreplay.h"
#include "stats/ab_refout.h"
#include "stats/stats.h"
#include "stats/winner.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE "S4-AB"

/* What one JSON summary says (pasted in opt_log.md or kept with a journal). */
struct said {
	const char *file;          /* shown file */
	long line;                 /* the fence's line, 0 for a file of its own */
	long round;                /* round section (pasted), -1 */
	char verdict[32];
	int has_protocol;          /* the protocol is stated */
	struct ab_replay_opts opts;
	long pairs;                /* -1 when not stated */
	char workdir[512];         /* "" when not stated */
	struct abjournal_run *runs;/* its own runs (tlab's "runs", else the medians), malloc'd */
	size_t nruns;
};

static void said_release(struct said *s)
{
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
}

static double num_or(const cJSON *o, const char *k, double dflt)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(it) && isfinite(it->valuedouble) ? it->valuedouble : dflt;
}

/* The protocol of summary o: tlab_protocol, else protocol ("seq",
 * "seq-v1", "ref", or ab_test.py's label, the reference rule). tlab has
 * written "alpha" beside "seq" since seq became the rule with a proven
 * bound ("seq-v2" named that rule before); a "seq" without it came from
 * the rule now called seq-v1, and is replayed with it. */
static void said_protocol(const cJSON *o, struct said *s)
{
	const cJSON *tp = cJSON_GetObjectItemCaseSensitive(o, "tlab_protocol");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "protocol");
	const char *v = cJSON_IsString(tp) ? tp->valuestring : cJSON_IsString(p) ? p->valuestring : NULL;
	if (!v)
		return;
	int id = strcmp(v, "seq-v2") == 0 ? AB_REPLAY_SEQ : stats_ab_replay_protocol_parse(v);
	if (id < 0 && (strcmp(v, AB_REF_PROTOCOL_LABEL) == 0 || strstr(v, "interleaved A/B")))
		id = AB_REPLAY_REF;
	if (strcmp(v, "seq") == 0 && !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "alpha")))
		id = AB_REPLAY_SEQ_V1; /* written before seq's rule changed */
	if (id < 0)
		return;
	s->has_protocol = 1;
	s->opts.protocol = (enum ab_replay_protocol)id;
}

/* The summary's own runs: tlab's "runs" array, else a_medians_us /
 * b_medians_us in the reference's order (odd pairs A first). 0, -1 on
 * allocation failure. */
static int said_runs(const cJSON *o, struct said *s)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs");
	const cJSON *am = cJSON_GetObjectItemCaseSensitive(o, "a_medians_us");
	const cJSON *bm = cJSON_GetObjectItemCaseSensitive(o, "b_medians_us");
	size_t n = (size_t)(cJSON_IsArray(runs) ? cJSON_GetArraySize(runs) : 0);
	if (!n && cJSON_IsArray(am) && cJSON_IsArray(bm))
		n = (size_t)(cJSON_GetArraySize(am) + cJSON_GetArraySize(bm));
	if (!n)
		return 0;
	s->runs = calloc(n, sizeof(*s->runs));
	if (!s->runs)
		return -1;
	const cJSON *it;
	if (cJSON_IsArray(runs) && cJSON_GetArraySize(runs) > 0) {
		cJSON_ArrayForEach(it, runs) {
			const cJSON *arm = cJSON_GetObjectItemCaseSensitive(it, "arm");
			struct abjournal_run r = { .pair = (long)num_or(it, "pair", 0), .order = (int)num_or(it, "order", 0),
						   .median_us = num_or(it, "median_us", NAN) };
			if (!cJSON_IsString(arm) || (arm->valuestring[0] != 'A' && arm->valuestring[0] != 'B') ||
			    r.pair < 1 || !(r.median_us > 0))
				continue;
			r.arm = arm->valuestring[0];
			s->runs[s->nruns++] = r;
		}
		return 0;
	}
	for (int arm = 0; arm < 2; arm++) {
		long pair = 0;
		const cJSON *meds = arm ? bm : am;
		cJSON_ArrayForEach(it, meds) {
			pair++;
			if (!cJSON_IsNumber(it) || !(it->valuedouble > 0))
				continue;
			struct abjournal_run r = { .arm = arm ? 'B' : 'A', .pair = pair, .median_us = it->valuedouble };
			r.order = ((pair % 2 == 1) == (arm == 0)) ? 1 : 2;
			s->runs[s->nruns++] = r;
		}
	}
	return 0;
}

/* Parses text as a summary into *s. Returns 1 when it is one (an object
 * with a string verdict), 0 when not, -1 on allocation failure. */
static int said_parse(const char *text, const char *file, long line, long round, struct said *s)
{
	memset(s, 0, sizeof(*s));
	s->file = file;
	s->line = line;
	s->round = round;
	s->pairs = -1;
	stats_ab_replay_opts_init(&s->opts);
	cJSON *o = cJSON_Parse(text);
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, "verdict") : NULL;
	int rc = 0;
	if (cJSON_IsObject(o) && cJSON_IsString(v)) {
		const cJSON *wd = cJSON_GetObjectItemCaseSensitive(o, "workdir");
		snprintf(s->verdict, sizeof(s->verdict), "%s", v->valuestring);
		if (cJSON_IsString(wd))
			snprintf(s->workdir, sizeof(s->workdir), "%s", wd->valuestring);
		said_protocol(o, s);
		s->opts.noise = num_or(o, "noise_threshold", 0.03);
		s->opts.min_pairs = (size_t)num_or(o, "min_pairs", 0);
		s->opts.max_pairs = (size_t)num_or(o, "max_pairs", 0);
		s->opts.min_gain = num_or(o, "min_gain", -1);
		s->pairs = (long)num_or(o, "pairs", -1);
		rc = said_runs(o, s) ? -1 : 1;
	}
	cJSON_Delete(o);
	return rc;
}

/* 1 when path (a summary's workdir) names the work directory rel: it is
 * rel or ends with "/rel". */
static int names_dir(const char *path, const char *rel)
{
	size_t pl = strlen(path), rl = strlen(rel);
	while (pl > 0 && path[pl - 1] == '/')
		pl--;
	if (pl < rl || strncmp(path + pl - rl, rel, rl) != 0)
		return 0;
	return pl == rl || path[pl - rl - 1] == '/';
}

/* The last component of path ("" when none). */
static const char *last_part(const char *path, char *buf, size_t len)
{
	size_t pl = strlen(path);
	while (pl > 0 && path[pl - 1] == '/')
		pl--;
	size_t b = pl;
	while (b > 0 && path[b - 1] != '/')
		b--;
	snprintf(buf, len, "%.*s", (int)(pl - b), path + b);
	return buf;
}

/* The pasted summaries (```json blocks of the checked run that hold a
 * verdict); a block that mentions a verdict but does not parse is a
 * warning. *out malloc'd. 0, -1 on allocation failure. */
static int pasted(const struct s4_input *in, struct gate_findings *fs, struct said **out, size_t *n)
{
	const struct optlog *lg = in->log;
	size_t cap = 0;
	*n = 0;
	*out = NULL;
	for (size_t i = 0; i < lg->n_codes; i++) {
		const struct optlog_code *c = &lg->codes[i];
		if (lg->runs > 1 && c->run != lg->target_run)
			continue;
		if (!strstr(c->text, "\"verdict\"")) {
			if (c->truncated && gate_add(fs, RULE, GATE_WARNING, in->optlog_file, c->line,
						     "this ```json block is longer than the gate reads (256 KiB a block, 4 MiB in all): not read as an A/B summary"))
				return -1;
			continue;
		}
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 4;
			struct said *v = realloc(*out, nc * sizeof(*v));
			if (!v)
				return -1;
			*out = v;
			cap = nc;
		}
		int rc = said_parse(c->text, in->optlog_file, c->line, c->round, &(*out)[*n]);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			(*n)++;
			continue;
		}
		said_release(&(*out)[*n]);
		if (gate_add(fs, RULE, GATE_WARNING, in->optlog_file, c->line,
			     "this ```json block mentions a verdict but is no JSON object with a string \"verdict\"%s: not read as an A/B summary",
			     c->truncated ? " (it is longer than the gate reads: 256 KiB a block, 4 MiB in all)" : ""))
			return -1;
	}
	return 0;
}

/* A journal recomputed: its verdict, or two when the protocol is not
 * known (ref and seq give different ones). */
struct replayed {
	int ok;                     /* a verdict could be recomputed */
	enum ab_verdict verdict;    /* under the known protocol, or ref */
	enum ab_verdict other;      /* seq's, when the protocol is unknown */
	int unknown;                /* no summary states the protocol */
	size_t npairs;
	struct ab_replay_opts opts;
};

/* 1 when pasted summary s is about journal j: its workdir names j, or
 * (ab_test.py prints none) it sits in the section of j's round and j is
 * that round's only journal. */
static int said_of_journal(const struct s4_input *in, const struct said *s, const struct abjournal *j)
{
	if (s->workdir[0])
		return names_dir(s->workdir, j->rel);
	if (s->round < 0 || s->round != j->round)
		return 0;
	size_t same = 0;
	for (size_t k = 0; k < in->ab->n; k++)
		same += in->ab->v[k].round == j->round;
	return same == 1;
}

/* The protocol every run of j names (tlab writes it with each run since
 * seq became the rule with a bound), with the default settings: 1, or 0
 * when a run names none or they differ. */
static int journal_protocol(const struct abjournal *j, struct ab_replay_opts *o)
{
	const char *p = j->n ? j->v[0].protocol : "";
	for (size_t i = 1; i < j->n; i++)
		if (strcmp(j->v[i].protocol, p) != 0)
			return 0;
	int id = stats_ab_replay_protocol_parse(p);
	if (id < 0)
		return 0;
	stats_ab_replay_opts_init(o);
	o->protocol = (enum ab_replay_protocol)id;
	return 1;
}

/* Recomputes j's verdict with the protocol a summary of it states, else
 * the one its runs name. */
static void replay(const struct s4_input *in, const struct abjournal *j, const struct said *own,
		   const struct said *ps, size_t nps, struct replayed *rp)
{
	const struct said *know = own && own->has_protocol ? own : NULL;
	for (size_t i = 0; !know && i < nps; i++)
		if (said_of_journal(in, &ps[i], j) && ps[i].has_protocol)
			know = &ps[i];
	memset(rp, 0, sizeof(*rp));
	stats_ab_replay_opts_init(&rp->opts);
	int named = 0;
	if (know)
		rp->opts = know->opts;
	else
		named = journal_protocol(j, &rp->opts);
	struct ab_replay r;
	if (stats_ab_replay(j->v, j->n, &rp->opts, &r) != 0)
		return;
	rp->ok = 1;
	rp->verdict = rp->other = r.verdict;
	rp->npairs = r.npairs;
	if (know || named)
		return;
	rp->unknown = 1;
	struct ab_replay_opts seq = rp->opts;
	seq.protocol = AB_REPLAY_SEQ;
	if (stats_ab_replay(j->v, j->n, &seq, &r) == 0)
		rp->other = r.verdict;
	else
		rp->other = AB_INCONCLUSIVE;
}

/* One summary s of journal j against the recomputed verdict. */
static int check_said(const struct abjournal *j, const struct said *s, const struct replayed *rp,
		      struct gate_findings *fs)
{
	const char *v = ab_verdict_name(rp->verdict);
	int verdict_off = rp->unknown ? strcmp(s->verdict, v) != 0 && strcmp(s->verdict, ab_verdict_name(rp->other)) != 0
				      : strcmp(s->verdict, v) != 0;
	int pairs_off = s->pairs >= 0 && (size_t)s->pairs != rp->npairs;
	if (!verdict_off && !pairs_off)
		return 0;
	return gate_add(fs, RULE, GATE_ERROR, s->file, s->line,
			"the A/B summary says %s over %ld pair%s, but the runs of %s give %s over %zu pair%s (protocol %s, noise %g%%%s): a verdict is what its runs give",
			s->verdict, s->pairs, s->pairs == 1 ? "" : "s", j->file, v, rp->npairs, rp->npairs == 1 ? "" : "s",
			stats_ab_replay_protocol_name(rp->opts.protocol), 100 * (rp->opts.noise > 0 ? rp->opts.noise : 0.03),
			rp->unknown ? "; no summary states the protocol" : "");
}

/* A pasted summary without a journal: its own runs, when it lists them,
 * must give its verdict. Returns 1 when they do (or it lists none), 0
 * when not (error added), -1 on allocation failure. */
static int self_consistent(const struct said *s, struct gate_findings *fs)
{
	struct ab_replay r;
	if (!s->nruns || !s->has_protocol || stats_ab_replay(s->runs, s->nruns, &s->opts, &r) != 0)
		return 1;
	if (strcmp(ab_verdict_name(r.verdict), s->verdict) == 0)
		return 1;
	return gate_add(fs, RULE, GATE_ERROR, s->file, s->line,
			"the A/B summary says %s, but its own run medians give %s over %zu pair%s (protocol %s)",
			s->verdict, ab_verdict_name(r.verdict), r.npairs, r.npairs == 1 ? "" : "s",
			stats_ab_replay_protocol_name(s->opts.protocol)) ? -1 : 0;
}

/* The journals: each recomputed (rps[k]) and checked against its
 * summaries. 0, -1 on allocation failure. */
static int check_journals(const struct s4_input *in, const struct said *ps, size_t nps, struct replayed *rps,
			  struct gate_findings *fs)
{
	for (size_t k = 0; in->ab && k < in->ab->n; k++) {
		const struct abjournal *j = &in->ab->v[k];
		struct said own;
		int has_own = 0;
		if (j->summary) {
			has_own = said_parse(j->summary, j->summary_file, 0, j->round, &own);
			if (has_own < 0)
				return -1;
		}
		replay(in, j, has_own > 0 ? &own : NULL, ps, nps, &rps[k]);
		int err = 0;
		if (j->bad_line)
			err = gate_add(fs, RULE, GATE_WARNING, j->file, j->bad_line,
				       "not a tlab run (%s): the line is left out of the recomputed verdict", j->bad);
		if (!err && !rps[k].ok)
			err = gate_add(fs, RULE, GATE_WARNING, j->file, 0,
				       "no complete A/B pair (%zu runs): no verdict can be recomputed", j->n);
		if (!err && rps[k].ok && has_own > 0)
			err = check_said(j, &own, &rps[k], fs);
		for (size_t i = 0; !err && rps[k].ok && i < nps; i++)
			if (said_of_journal(in, &ps[i], j))
				err = check_said(j, &ps[i], &rps[k], fs);
		if (has_own > 0)
			said_release(&own);
		if (err)
			return -1;
	}
	return 0;
}

/* The adopted winner and the round it was adopted in (its first round
 * of candidate records in the checked run), NULL when unknown. */
static const char *adopted(const struct s4_input *in, size_t from, long *round)
{
	const struct records *rs = in->recs;
	const char *win = in->contract == RECORDS_V2 ? NULL : s4_best_candidate(in, from);
	*round = -1;
	for (size_t i = from; in->contract == RECORDS_V2 && i < rs->n && !win; i++)
		if (rs->v[i].phase && strcmp(rs->v[i].phase, "final") == 0)
			win = rs->v[i].candidate_id;
	for (size_t i = from; win && i < rs->n; i++) {
		const struct record *r = &rs->v[i];
		if (r->candidate_id != win || s4_is_baseline(r) || r->round < 1 ||
		    (r->phase && strcmp(r->phase, "candidate") != 0 && strcmp(r->phase, "merged") != 0))
			continue;
		if (*round < 0 || r->round < *round)
			*round = r->round;
	}
	long line;
	if (*round < 1 || (in->contract != RECORDS_V2 && s4_confirm_round(in->log, *round, &line)))
		return NULL; /* first seen in a final confirmation: adopted under another id */
	return win;
}

/* The line of round r's section in the checked run, else the summary's. */
static long round_line(const struct optlog *lg, long r)
{
	for (size_t i = 0; i < lg->n_rounds; i++) {
		const struct optlog_round *e = &lg->rounds[i];
		if (e->round == r && !e->run_label && (lg->runs <= 1 || e->run == lg->target_run))
			return e->line;
	}
	return lg->summary_line ? lg->summary_line : lg->final_heading_line;
}

/* The verdict a key needs: B_better where the winner is faster; where it
 * is slower (a small kernel's soft regression) a tie also shows that the
 * slowdown is run-state noise. */
static int settles(enum ab_verdict v, int slower)
{
	return v == AB_B_BETTER || (slower && v == AB_TIE);
}

static int settles_name(const char *v, int slower)
{
	return strcmp(v, "B_better") == 0 || (slower && strcmp(v, "tie") == 0);
}

/* What the evidence says for one key needing A/B. */
struct key_evidence {
	int b_better;      /* the verdict it needs (recomputed where a journal is) */
	int ambiguous;     /* B_better under one protocol reading only */
	char what[512];    /* what was found, for the message */
	int solid;         /* some B_better stands under today's rules */
	/* a B_better that came from seq-v1 alone (the rule tlab replaced):
	 * where it is, and what seq gives over the same runs */
	char v1_where[300];
	enum ab_verdict v1_seq;
	size_t v1_pairs;
};

/* Records in e a verdict that settles the key, found at `where` and
 * reached under `used` over runs[0..n). One an older tlab reached with
 * seq-v1, which has no error bound, is still what its runs gave under the
 * rule they were decided with (no error), but the adoption rests on that
 * rule: the same runs are replayed with seq and, when seq does not settle
 * them too, e names the first such place (warned by check_keys unless
 * other evidence stands on its own). */
static void found_b_better(const struct abjournal_run *runs, size_t n, const struct ab_replay_opts *used,
			   int slower, const char *where, struct key_evidence *e)
{
	struct ab_replay_opts seq;
	struct ab_replay r;
	e->b_better = 1;
	if (e->solid)
		return; /* nothing left to warn about */
	if (used->protocol != AB_REPLAY_SEQ_V1) {
		e->solid = 1;
		return;
	}
	stats_ab_replay_opts_init(&seq);
	seq.protocol = AB_REPLAY_SEQ;
	seq.noise = used->noise;
	if (stats_ab_replay(runs, n, &seq, &r) != 0) {
		r.verdict = AB_INCONCLUSIVE; /* beyond seq's budget, or no pair */
		r.npairs = 0;
	}
	if (settles(r.verdict, slower)) {
		e->solid = 1;
		return;
	}
	if (e->v1_where[0])
		return; /* the first is named */
	snprintf(e->v1_where, sizeof(e->v1_where), "%s", where);
	e->v1_seq = r.verdict;
	e->v1_pairs = r.npairs;
}

static void add_what(struct key_evidence *e, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(e->what);
	snprintf(e->what + used, sizeof(e->what) - used, fmt, used ? "; " : "", a, b);
}

/* 1 when a work directory or summary tail `part` is about workload
 * (a per-workload name), or names no workload (applies to every key). */
static int about(const char *part, const struct stats_key *key, int per_workload)
{
	return !per_workload || s4_same_workload(part, key->workload);
}

static void evidence(const struct s4_input *in, long round, const struct stats_key *key, int slower,
		     const struct said *ps, size_t nps, const struct replayed *rps, struct key_evidence *e)
{
	char buf[256];
	int journal = 0;
	memset(e, 0, sizeof(*e));
	for (size_t k = 0; in->ab && k < in->ab->n; k++) {
		const struct abjournal *j = &in->ab->v[k];
		if (j->round != round || !about(j->workload ? j->workload : "", key, j->workload != NULL) ||
		    !rps[k].ok)
			continue;
		journal = 1;
		int b1 = settles(rps[k].verdict, slower), b2 = settles(rps[k].other, slower);
		if (b1 && b2) {
			found_b_better(j->v, j->n, &rps[k].opts, slower, j->file, e);
		} else if (b1 || b2)
			e->ambiguous = 1;
		add_what(e, "%sthe runs of %s give %s", j->file,
			 rps[k].unknown && b1 != b2 ? "it under one protocol only (none stated)"
						    : ab_verdict_name(rps[k].verdict));
	}
	if (journal)
		return;
	for (size_t i = 0; i < nps; i++) {
		const struct said *s = &ps[i];
		const char *tail = s->workdir[0] ? last_part(s->workdir, buf, sizeof(buf)) : "";
		int per_wl = tail[0] && strncmp(tail, "ab_", 3) != 0;
		if (s->round != round || !about(tail, key, per_wl))
			continue;
		char at[32];
		snprintf(at, sizeof(at), "%ld", s->line);
		if (!s->has_protocol || !s->nruns) {
			/* tlab and ab_test.py print the protocol and every run's median */
			add_what(e, "%sthe block at line %s says %s but is no tlab / ab_test.py summary (no protocol and run medians)",
				 at, s->verdict);
			continue;
		}
		if (settles_name(s->verdict, slower)) {
			char where[300];
			snprintf(where, sizeof(where), "the summary pasted at line %ld", s->line);
			found_b_better(s->runs, s->nruns, &s->opts, slower, where, e);
		}
		add_what(e, "%sthe summary pasted at line %s says %s", at, s->verdict);
	}
}

/* Every key of the winner that needs A/B has its verdict: B_better (a
 * tie will do where the winner measured slower). */
static int check_keys(const struct s4_input *in, struct stats_winner *w, size_t c, long round,
		      const struct said *ps, size_t nps, const struct replayed *rps, double thr,
		      struct gate_findings *fs)
{
	const struct stats_winner_candidate *cd = &w->cands[c];
	long line = round_line(in->log, round);
	for (size_t k = 0; k < w->nrequired; k++) {
		const struct stats_winner_key *kk = &cd->keys[k];
		if (!kk->needs_ab)
			continue;
		const struct stats_key *key = &w->ks.v[kk->key];
		struct key_evidence e;
		double g = -kk->change;
		evidence(in, round, key, g < 0, ps, nps, rps, &e);
		if (!e.solid && e.v1_where[0]) {
			if (gate_add(fs, RULE, GATE_WARNING, in->optlog_file, line,
				     "round %ld adopted '%s' on '%s' / '%s' on the %s of %s, decided by seq-v1, the rule tlab used before 2026-12-03, which has no error bound; seq, the rule that replaced it, gives %s over the same %zu pair%s: re-run the A/B with today's tlab (in another --workdir)",
				     round, cd->candidate_id, key->dispatch, key->workload, g >= 0 ? "B_better" : "verdict",
				     e.v1_where, ab_verdict_name(e.v1_seq), e.v1_pairs, e.v1_pairs == 1 ? "" : "s"))
				return -1;
			continue;
		}
		if (e.b_better)
			continue;
		if (!e.what[0])
			snprintf(e.what, sizeof(e.what),
				 "no ```json tlab / ab_test.py summary in round %ld's section, no perf_opt/ab_<round> runs.jsonl of round %ld",
				 round, round);
		if (gate_add(fs, RULE, e.ambiguous ? GATE_WARNING : GATE_ERROR, in->optlog_file, line,
			     "round %ld adopted '%s' with a %s of %.1f%% against the current best on '%s' / '%s' (under the %g%% A/B threshold: the interleaved A/B protocol decides), without a %s verdict: %s",
			     round, cd->candidate_id, g >= 0 ? "gain" : "slowdown", 100 * fabs(g), key->dispatch,
			     key->workload, 100 * thr, g >= 0 ? "B_better" : "B_better or tie", e.what))
			return -1;
	}
	return 0;
}

/* The winner's keys that need A/B (stats/winner.h, as `tlperf loop`
 * decides), checked against the evidence. */
static int check_winner(const struct s4_input *in, const struct said *ps, size_t nps, const struct replayed *rps,
			struct gate_findings *fs)
{
	const struct optlog *lg = in->log;
	long round;
	size_t from = s4_records_from(in);
	const char *win = adopted(in, from, &round);
	if (!win || lg->nothing_adopted)
		return 0;
	struct records last = *in->recs; /* the checked run's records: a view, nothing owned */
	last.v += from;
	last.n -= from;
	struct stats_winner_opts o;
	struct stats_winner w;
	char err[256];
	stats_winner_opts_init(&o);
	if (!isnan(lg->noise_pct))
		o.noise = lg->noise_pct / 100;
	if (in->ab_threshold > 0)
		o.ab_threshold = in->ab_threshold;
	if (stats_winner_choose(&last, round, &o, &w, err, sizeof(err)) != 0)
		return 0; /* the round cannot be judged: the other rules say why */
	int rc = 0;
	for (size_t c = 0; c < w.ncands; c++)
		if (w.cands[c].candidate_id == win && stats_winner_mark_ab(&o, &w, c) > 0)
			rc = check_keys(in, &w, c, round, ps, nps, rps, o.ab_threshold, fs);
	stats_winner_release(&w);
	return rc;
}

int s4_rule_ab(const struct s4_input *in, struct gate_findings *fs)
{
	if (in->optlog_state != S4_FILE_OK || in->recs->n == 0)
		return 0;
	struct said *ps = NULL;
	size_t nps = 0, nj = in->ab ? in->ab->n : 0;
	struct replayed *rps = calloc(nj + 1, sizeof(*rps));
	int rc = rps ? pasted(in, fs, &ps, &nps) : -1;
	if (rc == 0)
		rc = check_journals(in, ps, nps, rps, fs);
	for (size_t i = 0; rc == 0 && i < nps; i++) {
		int journal = 0;
		for (size_t k = 0; k < nj; k++)
			journal |= said_of_journal(in, &ps[i], &in->ab->v[k]);
		if (!journal && self_consistent(&ps[i], fs) < 0)
			rc = -1;
	}
	if (rc == 0)
		rc = check_winner(in, ps, nps, rps, fs);
	for (size_t i = 0; i < nps; i++)
		said_release(&ps[i]);
	free(ps);
	free(rps);
	return rc;
}

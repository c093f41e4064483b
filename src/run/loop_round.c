/* loop_round.c: `tlperf loop round N`.
 *
 * Order of work in a round: refuse a bad plan before anything runs; then
 * per branch L0 once, per workload one msprof measurement, one record
 * appended per (branch, workload) as soon as it is known; then the winner
 * rule (stats/winner.h), tlab for gains that need arbitration, the round's
 * section in opt_log.md with its marker, and the termination state. A
 * crash at any point leaves records and log lines that are whole; the same
 * command run again skips what is recorded. */
#include "run/loop_steps.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileops.h"
#include "report/table.h"
#include "report/term.h"
#include "run/run.h"
#include "stats/cmptable.h"
#include "stats/plateau.h"
#include "stats/winner.h"
#include "io/cli_msg.h"

static int valid_id(const char *s)
{
	if (!*s || *s == '.' || *s == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* 1 when candidate id has a valid record in a round < before. */
static int measured_before(const struct loop_ctx *c, const char *id, long before)
{
	for (size_t i = 0; i < c->st.rs.n; i++) {
		const struct record *r = &c->st.rs.v[i];
		if (r->round < before && strcmp(r->candidate_id, id) == 0 && record_valid(r))
			return 1;
	}
	return 0;
}

/* Everything about the branches is checked before anything runs. */
static int check_branches(const struct loop_ctx *c, const struct loop_opts *o, long n)
{
	size_t fresh = 0;
	for (size_t i = 0; i < o->nbranches; i++) {
		const struct loop_branch *b = &o->branches[i];
		if (!valid_id(b->id) || strlen(b->id) > 100)
			return cli_usage_error("loop",
					       "--branch '%s': the id must be letters, digits, '.', '_', "
					       "'-' (at most 100)",
					       b->id);
		if (strcmp(b->id, "baseline") == 0)
			return cli_usage_error("loop", "--branch 'baseline': the id is reserved");
		for (size_t j = 0; j < i; j++)
			if (strcmp(o->branches[j].id, b->id) == 0)
				return cli_usage_error("loop", "--branch '%s': given twice", b->id);
		for (size_t k = 0; k < c->st.rs.n; k++) {
			const struct record *r = &c->st.rs.v[k];
			if (strcmp(r->candidate_id, b->id) == 0 && r->round != n)
				return cli_usage_error("loop",
						       "--branch '%s': that id was already used in round "
						       "%ld; give the new branch its own id",
						       b->id, r->round);
		}
		if (!fileops_is_file(b->file))
			return cli_usage_error("loop", "--branch '%s': file '%s' does not exist", b->id,
					       b->file);
		const char *was = loop_candidate_file(c, b->id);
		if (was && strcmp(was, b->file) != 0)
			return cli_usage_error("loop",
					       "--branch '%s': recorded in round %ld with file '%s', not "
					       "'%s'",
					       b->id, n, was, b->file);
		if (b->parent && !measured_before(c, b->parent, n))
			return cli_usage_error("loop",
					       "--branch '%s': parent '%s' was never measured (no valid "
					       "record before round %ld)",
					       b->id, b->parent, n);
		if (!loop_state_has_candidate(&c->st, b->id, n))
			fresh++;
	}
	if (c->st.experiments + (long)fresh > c->plan.max_experiments)
		return cli_usage_error("loop",
				       "budget exhausted: %ld of max_experiments %ld branches used, "
				       "%zu more asked; run 'tlperf loop finish'",
				       c->st.experiments, c->plan.max_experiments, fresh);
	return CLI_OK;
}

/* The "candidate vs current best" table of round n (stats/cmptable.h),
 * with the adopted version as the incumbent. */
static int round_table(const struct loop_ctx *c, long n, const char *incumbent, struct strbuf *b)
{
	struct stats_cmptable t;
	if (stats_cmptable_build(&c->st.rs, n, incumbent, &t) != 0) {
		cli_error("comparison table of round %ld: %s", n, strerror(errno));
		return -1;
	}
	char *md = report_cmptable_markdown(&t);
	stats_cmptable_release(&t);
	if (!md) {
		cli_error("out of memory");
		return -1;
	}
	strbuf_printf(b, "%s\n", md);
	free(md);
	return 0;
}

/* Termination state after round n with best `best`. */
static const char *termination(const struct loop_ctx *c, long n, const char *best, long *flat)
{
	size_t targets = 0, met = 0;
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		if (isnan(w->target_us))
			continue;
		targets++;
		const struct record *r = loop_state_find(&c->st, &c->plan, best, w, n);
		if (r && record_valid(r) && r->duration_us <= w->target_us)
			met++;
	}
	struct stats_plateau pl;
	int plateau = 0, blocked = 0;
	*flat = 0;
	if (stats_plateau_compute(&c->st.rs, c->plan.noise, STATS_PLATEAU_WINDOW, &pl) == 0) {
		plateau = pl.plateau;
		*flat = pl.consecutive_no_improvement;
		for (size_t i = 0; i < pl.nrounds; i++)
			if (pl.rounds[i].round == n)
				blocked = pl.rounds[i].blocked;
	}
	stats_plateau_release(&pl);
	if (targets > 0 && met == targets)
		return "success";
	if (n >= c->plan.max_rounds || c->st.experiments >= c->plan.max_experiments)
		return "budget_exhausted";
	if (plateau)
		return "plateau";
	if (blocked)
		return "blocked";
	return "continue";
}

/* One round's decision in the making (the steps of decide_round share it). */
struct round_dec {
	struct loop_ctx *c;
	const struct loop_opts *o;
	long n;                 /* the round */
	struct stats_winner w;  /* the winner rule's answer */
	struct strbuf b;        /* the round's section of opt_log.md */
	char incumbent[128];    /* the current best before the round */
	char best[128];         /* the current best after it */
	char decision[32];      /* the decision's name */
};

/* The round's heading, its base and one line per branch. */
static void branches_section(const struct round_dec *d, struct strbuf *b)
{
	const struct loop_ctx *c = d->c;
	long n = d->n;
	if (n == 1)
		strbuf_printf(b, "\n## Iteration Log\n");
	strbuf_printf(b, "\n### Round %ld\n\n", n);
	strbuf_printf(b, "Base: current best `%s` (`%s`). Branches:\n\n", d->incumbent,
		      loop_candidate_file(c, d->incumbent) ? loop_candidate_file(c, d->incumbent) : "?");
	for (size_t i = 0; i < c->st.rs.n; i++) {
		const struct record *r = &c->st.rs.v[i];
		if (!loop_first_in_round(c, i, n))
			continue;
		char l0log[512], why[800], blog[1200];
		snprintf(l0log, sizeof(l0log), LOOP_DIR "/logs/round%ld/%s.log", n, r->candidate_id);
		strbuf_printf(b, "- `%s`: `%s` (parent `%s`), L0 %s (log `%s`)%s", r->candidate_id,
			      loop_record_file(c, r) ? loop_record_file(c, r) : "?",
			      r->parent_id ? r->parent_id : "—", r->l0_pass ? "pass" : "FAIL", l0log,
			      r->l0_pass ? "" : ": not measured");
		if (r->l0_pass && loop_branch_failure(n, r->candidate_id, why, sizeof(why), blog,
						      sizeof(blog)))
			strbuf_printf(b, ", measurement FAILED: %s (log `%s`): not compared, not "
					 "adopted", why, blog);
		strbuf_str(b, "\n");
	}
	strbuf_printf(b, "\n");
}

/* The non-regression check, per candidate, on the required keys. */
static void nonregression_section(const struct round_dec *d, struct strbuf *b)
{
	const struct stats_winner *w = &d->w;
	strbuf_printf(b, "Non-regression check on required workloads (noise %.1f%%):\n\n",
		      100 * d->c->plan.noise);
	for (size_t ci = 0; ci < w->ncands; ci++) {
		const struct stats_winner_candidate *cd = &w->cands[ci];
		strbuf_printf(b, "- `%s`: ", cd->candidate_id);
		if (!cd->complete) {
			strbuf_printf(b, "not comparable (L0 or a measurement failed, or a required workload is "
					 "missing)\n");
			continue;
		}
		for (size_t k = 0; k < w->nrequired; k++) {
			const struct stats_winner_key *kk = &cd->keys[k];
			const struct stats_key *key = &w->ks.v[kk->key];
			strbuf_printf(b, "%s%s ", k ? ", " : "", key->workload);
			if (!isnan(kk->change))
				strbuf_printf(b, "%+.1f%% ", 100 * kk->change);
			strbuf_printf(b, "(%s)", stats_winner_keystate_name(kk->state));
		}
		strbuf_printf(b, "; gain %+.1f%%\n", isnan(cd->gain) ? 0.0 : 100 * cd->gain);
	}
}

/* What the A/B runs of one candidate said. */
struct ab_tally {
	int all_b;           /* every verdict was B_better */
	int any_a;           /* one verdict was A_better */
	int ran;             /* how many ran */
	char verdicts[128];  /* the verdicts, comma-separated */
};

/* One A/B verdict in the round's section: its figures (seq: the gain
 * and its interval; ref: the sign test), then tlab's JSON summary (its
 * output without the runs, which stay in the work directory's runs.jsonl)
 * in a ```json block, as the seeds want a decision arbitrated by A/B to
 * carry; the same figures on stdout unless --json. */
static void ab_lines(struct round_dec *d, const char *id, const struct loop_workload *wl,
		     const struct loop_ab *ab)
{
	const struct tlab_result *r = &ab->r;
	char fig[160];
	if (isfinite(r->gain_lo) && isfinite(r->gain_hi))
		snprintf(fig, sizeof(fig), "interval [%+.2f%%, %+.2f%%], %ld pairs", 100 * r->gain_lo,
			 100 * r->gain_hi, r->pairs);
	else
		snprintf(fig, sizeof(fig), "sign test p %.4g, %ld pairs", r->p, r->pairs);
	strbuf_printf(&d->b, "- %s: verdict **%s**, A %.3f us, B %.3f us (B gain %+.2f%%), %s (`%s`)\n",
		      wl->id, r->verdict, r->a_us, r->b_us, 100 * r->gain, fig, ab->json);
	char *sum = tlab_result_summary(ab->json);
	if (sum)
		strbuf_printf(&d->b, "\n```json\n%s\n```\n\n", sum);
	free(sum);
	if (!d->o->json)
		printf("A/B %s on %s: %s (B gain %+.2f%%, %s)\n", id, wl->id, r->verdict,
		       100 * r->gain, fig);
}

/* Runs tlab on every required key of cd that needs A/B: a line each in
 * the section and on stdout, the verdicts into *t. Returns a CLI code. */
static int arbitrate_keys(struct round_dec *d, const struct stats_winner_candidate *cd,
			  struct ab_tally *t)
{
	const struct loop_ctx *c = d->c;
	const char *a_impl = loop_candidate_file(c, d->incumbent);
	const char *b_impl = loop_candidate_file(c, cd->candidate_id);
	for (size_t k = 0; k < d->w.nrequired; k++) {
		if (!cd->keys[k].needs_ab)
			continue;
		const struct stats_key *key = &d->w.ks.v[cd->keys[k].key];
		const struct loop_workload *wl = loop_plan_key(&c->plan, key->dispatch, key->workload);
		if (!wl || !a_impl || !b_impl)
			continue;
		struct loop_ab ab;
		memset(&ab, 0, sizeof(ab));
		int rc = loop_ab_run(c, d->o, d->n, cd->candidate_id, a_impl, b_impl, wl, &ab);
		if (rc != CLI_OK && rc != CLI_FAIL)
			return rc;
		t->ran++;
		if (rc == CLI_FAIL) { /* tlab could not measure: the gain is not confirmed */
			snprintf(ab.r.verdict, sizeof(ab.r.verdict), "failed");
			strbuf_printf(&d->b, "- %s: tlab gave no verdict (log `%s`)\n", wl->id, ab.log);
		} else {
			ab_lines(d, cd->candidate_id, wl, &ab);
		}
		if (strcmp(ab.r.verdict, "B_better") != 0)
			t->all_b = 0;
		if (strcmp(ab.r.verdict, "A_better") == 0)
			t->any_a = 1;
		size_t used = strlen(t->verdicts);
		snprintf(t->verdicts + used, sizeof(t->verdicts) - used, "%s%s", used ? "," : "",
			 ab.r.verdict);
	}
	return CLI_OK;
}

/* The gain of the chosen candidate needs A/B: tlab decides adopt,
 * rollback or keep. Returns a CLI code. */
static int arbitrate(struct round_dec *d)
{
	const struct stats_winner_candidate *cd = &d->w.cands[d->w.chosen];
	struct ab_tally t = { .all_b = 1 };
	strbuf_printf(&d->b,
		      "\nA/B arbitration (tlab --protocol %s, interleaved A/B pairs), `%s` (A) vs "
		      "`%s` (B):\n\n",
		      loop_ab_protocol_name(d->c->plan.tlab_protocol), d->incumbent, cd->candidate_id);
	int rc = arbitrate_keys(d, cd, &t);
	if (rc)
		return rc;
	if (t.ran > 0 && t.all_b) {
		snprintf(d->decision, sizeof(d->decision), "adopt");
		snprintf(d->best, sizeof(d->best), "%s", cd->candidate_id);
		strbuf_printf(&d->b, "\nA/B confirms the gain: `%s` is adopted.\n", cd->candidate_id);
	} else if (t.any_a) {
		snprintf(d->decision, sizeof(d->decision), "rollback");
		strbuf_printf(&d->b, "\nA/B says the current best is faster: rollback, `%s` stays.\n",
			      d->incumbent);
	} else {
		snprintf(d->decision, sizeof(d->decision), "keep");
		strbuf_printf(&d->b,
			      "\nA/B did not confirm the gain (%s): not adopted, `%s` stays (a gain "
			      "under %.0f%% that fails the protocol is never a winner).\n",
			      t.ran ? t.verdicts : "not run", d->incumbent,
			      100 * d->c->plan.ab_threshold);
	}
	return CLI_OK;
}

/* The winner rule's decision in the section (and tlab's, when it asks for
 * A/B). Returns a CLI code. */
static int decision_section(struct round_dec *d)
{
	strbuf_printf(&d->b, "\nWinner rule: **%s** — %s.\n", d->decision, d->w.reason);
	switch (d->w.decision) {
	case STATS_WINNER_ADOPT:
		snprintf(d->best, sizeof(d->best), "%s", d->w.cands[d->w.chosen].candidate_id);
		return CLI_OK;
	case STATS_WINNER_NEEDS_AB:
		return arbitrate(d);
	case STATS_WINNER_TIE:
		strbuf_printf(&d->b,
			      "\nTie within noise: the current best `%s` stays; the seeds settle ties by "
			      "load balance, resource use and simplicity, which the records do not "
			      "hold: the engineer decides (re-run the tied branch in a later round to "
			      "adopt it).\n",
			      d->incumbent);
		return CLI_OK;
	default:
		strbuf_printf(&d->b, "\nThe current best `%s` stays.\n", d->incumbent);
		return CLI_OK;
	}
}

/* The state after the round: its line and marker in the section, the
 * section appended to the log. Returns a CLI code. */
static int close_round(struct round_dec *d)
{
	long flat = 0, n = d->n;
	/* The state counts the round's own records (already loaded). */
	const char *state = termination(d->c, n, d->best, &flat);
	strbuf_printf(&d->b,
		      "\nCurrent best after round %ld: `%s`. Rounds without a gain above noise: %ld. "
		      "State: **%s**.\n",
		      n, d->best, flat, state);
	strbuf_printf(&d->b, "\n" LOOP_MARKER "kind=round round=%ld decision=%s best=%s state=%s -->\n",
		      n, d->decision, d->best, state);
	return loop_log_append(&d->b) != 0 ? CLI_USAGE : CLI_OK;
}

/* What round n ended with, from the files (the same whether it was
 * decided now or before): the decision, the failed branches, the state
 * and the next action on stdout (coloured on a terminal, report/term.h),
 * or the tlperf/loop/v1 object. Returns a CLI code. */
static int round_report(const struct loop_ctx *c, const struct loop_opts *o, long n,
			const char *outcome)
{
	const struct loop_round *lr = NULL;
	for (size_t i = 0; i < c->st.nrounds; i++)
		if (c->st.rounds[i].round == n)
			lr = &c->st.rounds[i];
	if (!lr) {
		cli_error("round %ld has no decision in '%s'", n, LOOP_LOG);
		return CLI_USAGE;
	}
	if (o->json) {
		cJSON *j = loop_json_begin(c, "round", outcome);
		if (j)
			cJSON_AddItemToObject(j, "round", loop_json_round(c, n));
		return loop_json_print(j) ? CLI_USAGE : CLI_OK;
	}
	printf("round %ld: decision %s%s%s; current best %s\n", n,
	       term_sgr(stdout, term_verdict_style(lr->decision)), lr->decision,
	       term_sgr(stdout, TERM_RESET), lr->best);
	for (size_t i = 0; i < c->st.rs.n; i++) {
		char why[800], blog[1200];
		const struct record *r = &c->st.rs.v[i];
		if (loop_first_in_round(c, i, n) && r->l0_pass &&
		    loop_branch_failure(n, r->candidate_id, why, sizeof(why), blog, sizeof(blog)))
			printf("branch %s: measurement failed (%s), see '%s': recorded as failed, not "
			       "adopted\n",
			       r->candidate_id, why, blog);
	}
	printf("state: %s%s%s\n", term_sgr(stdout, term_verdict_style(lr->state)), lr->state,
	       term_sgr(stdout, TERM_RESET));
	loop_print_next(c);
	return CLI_OK;
}

/* Decides round n, runs tlab when asked, writes the section. */
static int decide_round(struct loop_ctx *c, const struct loop_opts *o, long n)
{
	struct round_dec d = { .c = c, .o = o, .n = n };
	snprintf(d.incumbent, sizeof(d.incumbent), "%s", c->st.best);
	snprintf(d.best, sizeof(d.best), "%s", c->st.best);
	if (loop_winner(c, n, d.incumbent, &d.w) != 0)
		return CLI_USAGE;
	int rc = CLI_USAGE;
	snprintf(d.decision, sizeof(d.decision), "%s", stats_winner_decision_name(d.w.decision));
	branches_section(&d, &d.b);
	if (round_table(c, n, d.incumbent, &d.b) != 0)
		goto out;
	nonregression_section(&d, &d.b);
	rc = decision_section(&d);
	if (rc == CLI_OK)
		rc = close_round(&d);
out:
	stats_winner_release(&d.w);
	free(d.b.s);
	return rc;
}

/* Round n < next is decided already: fine when every branch given is one
 * of its own (its outcome printed again, -1), else a usage error. */
static int round_decided(const struct loop_ctx *c, const struct loop_opts *o, long n, long next)
{
	int all = 1;
	for (size_t i = 0; i < o->nbranches; i++)
		all &= loop_state_has_candidate(&c->st, o->branches[i].id, n);
	if (!all)
		return cli_usage_error("loop", "round %ld is decided already; the next round is %ld", n,
				       next);
	cli_note("round %ld was decided already: nothing to do", n);
	int rc = round_report(c, o, n, "already_done");
	return rc ? rc : -1;
}

/* 1 when round n has a record. */
static int round_has_records(const struct loop_ctx *c, long n)
{
	int any = 0;
	for (size_t i = 0; i < c->st.rs.n; i++)
		any |= c->st.rs.v[i].round == n;
	return any;
}

/* Whether round n can run with o's branches: CLI_OK, a CLI error code, or
 * -1 when it was decided already and there is nothing to do. */
static int round_startable(const struct loop_ctx *c, const struct loop_opts *o, long n)
{
	if (c->st.finishing) {
		cli_error("the loop is finished (Final Summary in '%s'); no more rounds", LOOP_LOG);
		return CLI_USAGE;
	}
	if (!loop_baseline_complete(c) || !c->st.baseline_logged) {
		cli_error("no complete baseline yet: run 'tlperf loop baseline' first");
		return CLI_USAGE;
	}
	long next = c->st.last_decided + 1;
	if (n < next)
		return round_decided(c, o, n, next);
	if (n > next)
		return cli_usage_error("loop", "round %ld cannot start: the next round is %ld", n, next);
	if (n > c->plan.max_rounds)
		return cli_usage_error("loop",
				       "budget exhausted: max_rounds is %ld; run 'tlperf loop finish'",
				       c->plan.max_rounds);
	if (o->nbranches == 0 && !round_has_records(c, n))
		return cli_usage_error("loop", "round %ld: give at least one --branch ID=FILE", n);
	return check_branches(c, o, n);
}

int loop_cmd_round(const struct loop_opts *o)
{
	struct loop_ctx c;
	long n = o->round;
	int rc = loop_ctx_load(&c, 1);
	if (rc)
		goto out;
	if ((rc = round_startable(&c, o, n)) != 0) {
		if (rc < 0)
			rc = CLI_OK;
		goto out;
	}
	if (run_signals_install() != 0) {
		cli_error("cannot install signal handlers: %s", strerror(errno));
		rc = CLI_USAGE;
		goto out;
	}
	for (size_t i = 0; i < o->nbranches; i++) {
		const struct loop_branch *b = &o->branches[i];
		const char *parent = b->parent ? b->parent : c.st.best;
		char pbuf[128];
		snprintf(pbuf, sizeof(pbuf), "%s", parent); /* loop_reload frees c.st */
		rc = loop_measure_candidate(&c, n, b->id, pbuf, b->file, "candidate", 1);
		if (rc)
			goto out;
	}
	if ((rc = decide_round(&c, o, n)) == CLI_OK && (rc = loop_reload(&c) ? CLI_USAGE : CLI_OK) == 0)
		rc = round_report(&c, o, n, "done");
out:
	if (rc >= CLI_SIGNAL)
		cli_error("interrupted: what was measured is recorded; run the same command again to "
			  "resume");
	run_signals_restore();
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

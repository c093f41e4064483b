/* loop_out.c: what every loop step says at its end, the same in prose and
 * in JSON (loop_steps.h): the state, the next action, the current best, a
 * round's decision per branch with its A/B verdicts. Everything is derived
 * from the files, so a step run again prints what the first run printed. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stats/plateau.h"
#include "io/cli_msg.h"

const char *loop_state_name(const struct loop_ctx *c)
{
	if (c->st.finished)
		return "finished";
	if (c->st.finishing)
		return "finishing";
	if (!loop_baseline_complete(c) || !c->st.baseline_logged)
		return "no_baseline";
	return c->st.nrounds ? c->st.rounds[c->st.nrounds - 1].state : "continue";
}

/* The highest round with a record but no decision, 0 when none. */
static long pending_round(const struct loop_ctx *c)
{
	long pending = 0;
	for (size_t i = 0; i < c->st.rs.n; i++)
		if (c->st.rs.v[i].round > c->st.last_decided && !c->st.finishing)
			pending = c->st.rs.v[i].round;
	return pending;
}

/* The next round: derive candidates from the current best. */
static void next_round(const struct loop_ctx *c, const char *state, struct loop_next *nx)
{
	const char *file = loop_candidate_file(c, c->st.best);
	nx->action = "round";
	nx->round = c->st.last_decided + 1;
	snprintf(nx->command, sizeof(nx->command), "tlperf loop round %ld --branch ID=FILE ...",
		 nx->round);
	if (strcmp(state, "blocked") == 0)
		snprintf(nx->text, sizeof(nx->text),
			 "blocked (no valid branch in round %ld): derive new candidates from '%s' "
			 "(%s) and run '%s', or stop with 'tlperf loop finish'",
			 c->st.last_decided, c->st.best, file ? file : "?", nx->command);
	else
		snprintf(nx->text, sizeof(nx->text), "derive candidates from '%s' (%s) and run '%s'",
			 c->st.best, file ? file : "?", nx->command);
}

/* The command that resumes interrupted round n: one --branch ID=FILE@PARENT
 * per candidate with a record in it, in the order recorded (the same
 * command again measures only what has no record). */
static void pending_command(const struct loop_ctx *c, long n, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "tlperf loop round %ld", n);
	for (size_t i = 0; i < c->st.rs.n && used < len; i++) {
		const struct record *r = &c->st.rs.v[i];
		if (r->round != n || !loop_first_in_round(c, i, n))
			continue;
		const char *file = loop_record_file(c, r);
		used += (size_t)snprintf(buf + used, len - used, " --branch %s=%s%s%s", r->candidate_id,
					 file ? file : "FILE", r->parent_id ? "@" : "",
					 r->parent_id ? r->parent_id : "");
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void loop_next(const struct loop_ctx *c, struct loop_next *nx)
{
	const char *state = loop_state_name(c);
	long pending = pending_round(c);
	char what[512];
	memset(nx, 0, sizeof(*nx));
	if (c->st.finished) {
		nx->action = "done";
		snprintf(nx->command, sizeof(nx->command), "tlgate %s", LOOP_DIR);
		snprintf(nx->text, sizeof(nx->text), "done: the Final Summary is in %s; run '%s'",
			 LOOP_LOG, nx->command);
	} else if (c->st.finishing && loop_unsettled(c, what, sizeof(what))) {
		nx->action = "finish";
		snprintf(nx->command, sizeof(nx->command), "tlperf loop finish --remeasure");
		snprintf(nx->text, sizeof(nx->text),
			 "the final confirmation disagrees with the round beyond the %.1f%% noise (%s): "
			 "run '%s' for one more run, or 'tlperf loop finish --report-both' to report both "
			 "runs and their median",
			 100 * c->plan.noise, what, nx->command);
	} else if (c->st.finishing) {
		nx->action = "finish";
		nx->resume = 1;
		snprintf(nx->command, sizeof(nx->command), "tlperf loop finish");
		snprintf(nx->text, sizeof(nx->text), "resume the final measurement: %s", nx->command);
	} else if (strcmp(state, "no_baseline") == 0) {
		nx->action = "baseline";
		snprintf(nx->command, sizeof(nx->command), "tlperf loop baseline");
		snprintf(nx->text, sizeof(nx->text), "%s", nx->command);
	} else if (pending) {
		nx->action = "round";
		nx->round = pending;
		nx->resume = 1;
		pending_command(c, pending, nx->command, sizeof(nx->command));
		snprintf(nx->text, sizeof(nx->text),
			 "round %ld was interrupted: run the same command again (its branches with a "
			 "record: '%s'; add any other branch it had)",
			 pending, nx->command);
	} else if (strcmp(state, "continue") == 0 || strcmp(state, "blocked") == 0) {
		next_round(c, state, nx);
	} else {
		nx->action = "finish";
		snprintf(nx->command, sizeof(nx->command), "tlperf loop finish");
		snprintf(nx->text, sizeof(nx->text), "%s: run '%s'", state, nx->command);
	}
}

void loop_print_next(const struct loop_ctx *c)
{
	struct loop_next nx;
	loop_next(c, &nx);
	printf("next: %s\n", nx.text);
}

/* v as a JSON number member, null when it is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* s as a JSON string member, null when NULL. */
static void add_str(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

/* The next action as data. */
static void add_next(cJSON *j, const struct loop_ctx *c)
{
	struct loop_next nx;
	loop_next(c, &nx);
	cJSON *n = cJSON_AddObjectToObject(j, "next");
	if (!n)
		return;
	cJSON_AddStringToObject(n, "action", nx.action);
	if (nx.round)
		cJSON_AddNumberToObject(n, "round", (double)nx.round);
	else
		cJSON_AddNullToObject(n, "round");
	cJSON_AddBoolToObject(n, "resume", nx.resume);
	cJSON_AddStringToObject(n, "command", nx.command);
	cJSON_AddStringToObject(n, "text", nx.text);
}

/* One workload of the current best: its duration, the baseline's, the
 * target. maxr: the last round whose records count. */
static cJSON *best_workload(const struct loop_ctx *c, const struct loop_workload *w, long maxr)
{
	const struct record *r = loop_state_find(&c->st, &c->plan, c->st.best, w, maxr);
	const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
	double d = r ? r->duration_us : NAN, b = b0 ? b0->duration_us : NAN;
	struct loop_final lf;
	if (c->st.finished && loop_final_of(c, c->st.best, w, &lf) == 0)
		d = lf.f.figure; /* the final figure, as the Final Summary has it */
	cJSON *e = cJSON_CreateObject();
	if (!e)
		return NULL;
	cJSON_AddStringToObject(e, "dispatch", w->dispatch);
	cJSON_AddStringToObject(e, "workload", w->id);
	cJSON_AddBoolToObject(e, "required", w->required);
	add_num(e, "duration_us", d);
	add_num(e, "baseline_us", b);
	add_num(e, "change_vs_baseline", (d - b) / b);
	add_num(e, "target_us", w->target_us);
	if (isnan(w->target_us) || isnan(d))
		cJSON_AddNullToObject(e, "target_met");
	else
		cJSON_AddBoolToObject(e, "target_met", d <= w->target_us);
	return e;
}

/* "current_best": the best's id, file and per-workload latencies. */
static void add_best(cJSON *j, const struct loop_ctx *c)
{
	long maxr = c->st.finishing ? c->st.final_round - 1 : c->st.last_decided;
	cJSON *b = cJSON_AddObjectToObject(j, "current_best");
	if (!b)
		return;
	cJSON_AddStringToObject(b, "id", c->st.best);
	add_str(b, "file", loop_candidate_file(c, c->st.best));
	cJSON *ws = cJSON_AddArrayToObject(b, "workloads");
	for (size_t i = 0; ws && i < c->plan.nworkloads; i++)
		cJSON_AddItemToArray(ws, best_workload(c, &c->plan.workloads[i], maxr));
}

long loop_flat_rounds(const struct loop_ctx *c)
{
	struct stats_plateau pl;
	struct records view = c->st.rs; /* borrowed: the rounds before the final one */
	long flat = 0;
	if (c->st.finishing)
		for (view.n = 0; view.n < c->st.rs.n && c->st.rs.v[view.n].round < c->st.final_round;)
			view.n++;
	if (stats_plateau_compute(&view, c->plan.noise, STATS_PLATEAU_WINDOW, &pl) == 0)
		flat = pl.consecutive_no_improvement;
	stats_plateau_release(&pl);
	return flat;
}

/* Whether a loop_json_print printed (the JSON error object is for
 * commands that printed none). */
static int json_printed;

int loop_json_error(const char *step, int rc)
{
	if (json_printed)
		return rc;
	cJSON *j = cJSON_CreateObject();
	if (!j)
		return rc;
	cJSON_AddStringToObject(j, "schema", "tlperf/loop/v1");
	cJSON_AddStringToObject(j, "step", step);
	cJSON_AddStringToObject(j, "outcome", "error");
	cJSON_AddNumberToObject(j, "exit_code", rc);
	const char *e = cli_last_error();
	if (e[0])
		cJSON_AddStringToObject(j, "error", e);
	else if (rc >= CLI_SIGNAL)
		cJSON_AddStringToObject(j, "error", "interrupted by a signal");
	else
		cJSON_AddStringToObject(j, "error", "failed (see standard error)");
	loop_json_print(j);
	return cli_finish_stdout(rc);
}

cJSON *loop_json_begin(const struct loop_ctx *c, const char *step, const char *outcome)
{
	long flat = loop_flat_rounds(c);
	cJSON *j = cJSON_CreateObject();
	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "schema", "tlperf/loop/v1");
	cJSON_AddStringToObject(j, "step", step);
	cJSON_AddStringToObject(j, "outcome", outcome);
	cJSON_AddStringToObject(j, "op", c->plan.op);
	cJSON_AddStringToObject(j, "contract", c->plan.contract == 2 ? "v2" : "v1");
	cJSON_AddStringToObject(j, "state", loop_state_name(c));
	cJSON_AddBoolToObject(j, "baseline", loop_baseline_complete(c) && c->st.baseline_logged);
	cJSON_AddNumberToObject(j, "rounds", (double)c->st.last_decided);
	cJSON_AddNumberToObject(j, "max_rounds", (double)c->plan.max_rounds);
	cJSON_AddNumberToObject(j, "experiments", (double)c->st.experiments);
	cJSON_AddNumberToObject(j, "max_experiments", (double)c->plan.max_experiments);
	cJSON_AddNumberToObject(j, "noise", c->plan.noise);
	cJSON_AddNumberToObject(j, "consecutive_no_improvement", (double)flat);
	add_best(j, c);
	add_next(j, c);
	return j;
}

int loop_json_print(cJSON *j)
{
	char *t = j ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	if (!t) {
		cli_error("out of memory");
		return -1;
	}
	printf("%s\n", t);
	cJSON_free(t);
	json_printed = 1;
	return 0;
}

/* ---------------------------------------------------------------- rounds */

int loop_branch_failure(long n, const char *id, char *why, size_t whylen, char *log,
			size_t loglen)
{
	FILE *f = fopen(LOOP_RECORDS, "r");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		if (!strstr(line, "\"failure\""))
			continue;
		cJSON *o = cJSON_Parse(line);
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "round");
		const cJSON *cid = cJSON_GetObjectItemCaseSensitive(o, "candidate_id");
		const cJSON *fw = cJSON_GetObjectItemCaseSensitive(o, "failure");
		const cJSON *bl = cJSON_GetObjectItemCaseSensitive(o, "bench_log");
		if (cJSON_IsNumber(r) && r->valuedouble == (double)n && cJSON_IsString(cid) &&
		    strcmp(cid->valuestring, id) == 0 && cJSON_IsString(fw)) {
			snprintf(why, whylen, "%s", fw->valuestring);
			snprintf(log, loglen, "%s", cJSON_IsString(bl) ? bl->valuestring : "");
			found = 1;
		}
		cJSON_Delete(o);
	}
	free(line);
	fclose(f);
	return found;
}

const char *loop_incumbent(const struct loop_ctx *c, long n)
{
	const char *inc = "baseline";
	for (size_t i = 0; i < c->st.nrounds; i++)
		if (c->st.rounds[i].round < n)
			inc = c->st.rounds[i].best;
	return inc;
}

/* One A/B verdict of a branch, from its JSON kept under perf_opt/. */
static cJSON *ab_json(const struct tlab_result *r, const struct loop_workload *w,
		      const char *json, const char *workdir)
{
	cJSON *a = cJSON_CreateObject();
	if (!a)
		return NULL;
	cJSON_AddStringToObject(a, "dispatch", w->dispatch);
	cJSON_AddStringToObject(a, "workload", w->id);
	cJSON_AddStringToObject(a, "verdict", r->verdict);
	cJSON_AddStringToObject(a, "protocol", r->protocol);
	add_num(a, "gain", r->gain);
	if (isfinite(r->gain_lo) && isfinite(r->gain_hi)) {
		cJSON *iv = cJSON_AddArrayToObject(a, "gain_interval");
		cJSON_AddItemToArray(iv, cJSON_CreateNumber(r->gain_lo));
		cJSON_AddItemToArray(iv, cJSON_CreateNumber(r->gain_hi));
	} else {
		cJSON_AddNullToObject(a, "gain_interval");
	}
	add_num(a, "sign_test_p", r->p);
	add_num(a, "a_us", r->a_us);
	add_num(a, "b_us", r->b_us);
	cJSON_AddNumberToObject(a, "pairs", (double)r->pairs);
	cJSON_AddStringToObject(a, "json", json);
	cJSON_AddStringToObject(a, "workdir", workdir);
	return a;
}

/* The A/B verdicts of branch id in round n: every workload with a tlab
 * JSON in perf_opt/ab_r<N>_<ID>/. */
static void add_ab(cJSON *b, const struct loop_ctx *c, long n, const char *id)
{
	cJSON *arr = cJSON_AddArrayToObject(b, "ab");
	for (size_t i = 0; arr && i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		char wbuf[256], json[1300], wd[1200];
		struct tlab_result r;
		loop_path_name(w->id, wbuf, sizeof(wbuf));
		snprintf(wd, sizeof(wd), LOOP_DIR "/ab_r%ld_%s/%s", n, id, wbuf);
		snprintf(json, sizeof(json), "%s.json", wd);
		if (tlab_result_read(json, &r, NULL, 0) == 0)
			cJSON_AddItemToArray(arr, ab_json(&r, w, json, wd));
	}
}

/* Per required workload of candidate cd: its duration, change and state. */
static void add_branch_keys(cJSON *b, const struct stats_winner *w,
			    const struct stats_winner_candidate *cd)
{
	cJSON *ks = cJSON_AddArrayToObject(b, "workloads");
	for (size_t k = 0; ks && cd && k < w->nrequired; k++) {
		const struct stats_winner_key *kk = &cd->keys[k];
		const struct stats_key *key = &w->ks.v[kk->key];
		cJSON *e = cJSON_CreateObject();
		if (!e)
			return;
		cJSON_AddItemToArray(ks, e);
		cJSON_AddStringToObject(e, "dispatch", key->dispatch);
		cJSON_AddStringToObject(e, "workload", key->workload);
		add_num(e, "duration_us", kk->candidate ? kk->candidate->duration_us : NAN);
		add_num(e, "incumbent_us", kk->incumbent ? kk->incumbent->duration_us : NAN);
		add_num(e, "change", kk->change);
		cJSON_AddStringToObject(e, "state", stats_winner_keystate_name(kk->state));
	}
}

/* The winner rule's view of candidate id, NULL when it has none. */
static const struct stats_winner_candidate *winner_cand(const struct stats_winner *w,
							  const char *id)
{
	for (size_t i = 0; i < w->ncands; i++)
		if (strcmp(w->cands[i].candidate_id, id) == 0)
			return &w->cands[i];
	return NULL;
}

/* A branch's outcome: failed, l0_failed, adopted or not_adopted. */
static const char *branch_status(const struct record *r, const struct loop_round *lr)
{
	if (!r->l0_pass)
		return "l0_failed";
	if (r->not_measured)
		return "failed";
	if (lr && strcmp(lr->decision, "adopt") == 0 && strcmp(lr->best, r->candidate_id) == 0)
		return "adopted";
	return "not_adopted";
}

/* One branch of round n (r: its first record of the round). */
static cJSON *branch_json(const struct loop_ctx *c, long n, const struct record *r,
			  const struct stats_winner *w, const struct loop_round *lr)
{
	char why[800], blog[1200], l0log[512];
	const struct stats_winner_candidate *cd = w ? winner_cand(w, r->candidate_id) : NULL;
	cJSON *b = cJSON_CreateObject();
	if (!b)
		return NULL;
	snprintf(l0log, sizeof(l0log), LOOP_DIR "/logs/round%ld/%s.log", n, r->candidate_id);
	cJSON_AddStringToObject(b, "id", r->candidate_id);
	add_str(b, "file", loop_record_file(c, r));
	add_str(b, "parent", r->parent_id);
	cJSON_AddStringToObject(b, "status", branch_status(r, lr));
	cJSON_AddStringToObject(b, "l0", r->l0_pass ? "pass" : "fail");
	cJSON_AddStringToObject(b, "l0_log", l0log);
	if (loop_branch_failure(n, r->candidate_id, why, sizeof(why), blog, sizeof(blog))) {
		cJSON *f = cJSON_AddObjectToObject(b, "failure");
		if (f) {
			cJSON_AddStringToObject(f, "reason", why);
			cJSON_AddStringToObject(f, "log", blog);
		}
	} else {
		cJSON_AddNullToObject(b, "failure");
	}
	cJSON_AddBoolToObject(b, "comparable", cd && cd->complete);
	add_num(b, "gain", cd ? cd->gain : NAN);
	add_branch_keys(b, w, cd);
	add_ab(b, c, n, r->candidate_id);
	return b;
}

int loop_first_in_round(const struct loop_ctx *c, size_t i, long n)
{
	const struct record *r = &c->st.rs.v[i];
	if (r->round != n)
		return 0;
	for (size_t j = 0; j < i; j++)
		if (c->st.rs.v[j].round == n &&
		    strcmp(c->st.rs.v[j].candidate_id, r->candidate_id) == 0)
			return 0;
	return 1;
}

cJSON *loop_json_round(const struct loop_ctx *c, long n)
{
	const struct loop_round *lr = NULL;
	const char *inc = loop_incumbent(c, n);
	struct stats_winner w;
	int have_w = 0;
	for (size_t i = 0; i < c->st.nrounds; i++)
		if (c->st.rounds[i].round == n)
			lr = &c->st.rounds[i];
	memset(&w, 0, sizeof(w));
	have_w = loop_winner(c, n, inc, &w) == 0;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		goto out;
	cJSON_AddNumberToObject(o, "number", (double)n);
	cJSON_AddStringToObject(o, "incumbent", inc);
	add_str(o, "decision", lr ? lr->decision : NULL);
	add_str(o, "best", lr ? lr->best : NULL);
	add_str(o, "state", lr ? lr->state : NULL);
	cJSON *wr = cJSON_AddObjectToObject(o, "winner_rule");
	if (wr && have_w) {
		cJSON_AddStringToObject(wr, "decision", stats_winner_decision_name(w.decision));
		cJSON_AddStringToObject(wr, "reason", w.reason);
	}
	cJSON *bs = cJSON_AddArrayToObject(o, "branches");
	for (size_t i = 0; bs && i < c->st.rs.n; i++)
		if (loop_first_in_round(c, i, n))
			cJSON_AddItemToArray(bs, branch_json(c, n, &c->st.rs.v[i], have_w ? &w : NULL,
							     lr));
out:
	if (have_w)
		stats_winner_release(&w);
	return o;
}

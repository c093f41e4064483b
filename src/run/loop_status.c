/* loop_status.c: `tlperf loop status`: where the loop stands, from the
 * files alone, as text or JSON. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/plateau.h"
#include "util/cli_msg.h"

static const char *next_action(const struct loop_ctx *c, const char *state, char *buf, size_t len)
{
	if (c->st.finished)
		snprintf(buf, len, "done: the Final Summary is in %s; run 'tlgate %s'", LOOP_LOG,
			 LOOP_DIR);
	else if (c->st.finishing)
		snprintf(buf, len, "resume the final measurement: tlperf loop finish");
	else if (!loop_baseline_complete(c) || !c->st.baseline_logged)
		snprintf(buf, len, "tlperf loop baseline");
	else {
		long pending = 0;
		for (size_t i = 0; i < c->st.rs.n; i++)
			if (c->st.rs.v[i].round > c->st.last_decided)
				pending = c->st.rs.v[i].round;
		if (pending)
			snprintf(buf, len,
				 "round %ld was interrupted: run the same 'tlperf loop round %ld ...' "
				 "command again",
				 pending, pending);
		else if (strcmp(state, "continue") == 0)
			snprintf(buf, len,
				 "derive candidates from '%s' (%s) and run 'tlperf loop round %ld --branch "
				 "ID=FILE ...'",
				 c->st.best, loop_candidate_file(c, c->st.best) ? loop_candidate_file(c, c->st.best) : "?",
				 c->st.last_decided + 1);
		else
			snprintf(buf, len, "%s: run 'tlperf loop finish'", state);
	}
	return buf;
}

/* What loop status shows, gathered once for its two formats. */
struct status_view {
	const struct loop_ctx *c;
	const char *state;  /* the last round's state ("continue" before any) */
	long flat;          /* rounds without a gain above noise */
	long maxr;          /* the last round whose best counts */
	char next[1024];    /* the next action */
};

/* loop status --json (schema tlperf/loop-status/v1) on stdout. */
static void status_json(const struct status_view *v)
{
	const struct loop_ctx *c = v->c;
	cJSON *j = cJSON_CreateObject(), *best = NULL;
	cJSON_AddStringToObject(j, "schema", "tlperf/loop-status/v1");
	cJSON_AddStringToObject(j, "op", c->plan.op);
	cJSON_AddBoolToObject(j, "baseline", loop_baseline_complete(c) && c->st.baseline_logged);
	cJSON_AddNumberToObject(j, "rounds", (double)c->st.last_decided);
	cJSON_AddNumberToObject(j, "max_rounds", (double)c->plan.max_rounds);
	cJSON_AddNumberToObject(j, "experiments", (double)c->st.experiments);
	cJSON_AddNumberToObject(j, "max_experiments", (double)c->plan.max_experiments);
	cJSON_AddNumberToObject(j, "consecutive_no_improvement", (double)v->flat);
	cJSON_AddStringToObject(j, "current_best", c->st.best);
	best = cJSON_AddArrayToObject(j, "best");
	for (size_t i = 0; best && i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *r = loop_state_find(&c->st, &c->plan, c->st.best, w, v->maxr);
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddItemToArray(best, e);
		cJSON_AddStringToObject(e, "dispatch", w->dispatch);
		cJSON_AddStringToObject(e, "workload", w->id);
		if (r)
			cJSON_AddNumberToObject(e, "duration_us", r->duration_us);
		if (b0)
			cJSON_AddNumberToObject(e, "baseline_us", b0->duration_us);
	}
	cJSON_AddStringToObject(j, "state", c->st.finished ? "finished" : v->state);
	cJSON_AddStringToObject(j, "next", v->next);
	char *t = cJSON_Print(j);
	if (t)
		printf("%s\n", t);
	cJSON_free(t);
	cJSON_Delete(j);
}

/* One workload's line of loop status: the best's duration against the
 * baseline's, the target. */
static void status_workload(const struct status_view *v, const struct loop_workload *w)
{
	const struct loop_ctx *c = v->c;
	const struct record *r = loop_state_find(&c->st, &c->plan, c->st.best, w, v->maxr);
	const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
	printf("  %s %s: ", w->dispatch, w->id);
	if (r && b0)
		printf("%.3f us (baseline %.3f us, %+.1f%%)", r->duration_us, b0->duration_us,
		       100 * (r->duration_us - b0->duration_us) / b0->duration_us);
	else if (r)
		printf("%.3f us", r->duration_us);
	else
		printf("not measured");
	if (!isnan(w->target_us))
		printf(", target %.3f us", w->target_us);
	printf("%s\n", w->required ? "" : " (optional)");
}

/* loop status as text on stdout. */
static void status_text(const struct status_view *v)
{
	const struct loop_ctx *c = v->c;
	printf("operator: %s (plan %s, contract v%d)\n", c->plan.op, LOOP_PLAN, c->plan.contract);
	printf("rounds: %ld of %ld; branches: %ld of %ld\n", c->st.last_decided, c->plan.max_rounds,
	       c->st.experiments, c->plan.max_experiments);
	printf("rounds without a gain above noise (%.1f%%): %ld (plateau at %d)\n",
	       100 * c->plan.noise, v->flat, STATS_PLATEAU_WINDOW);
	printf("current best: %s (%s)\n", c->st.best,
	       loop_candidate_file(c, c->st.best) ? loop_candidate_file(c, c->st.best) : "?");
	for (size_t i = 0; i < c->plan.nworkloads; i++)
		status_workload(v, &c->plan.workloads[i]);
	printf("state: %s\n", c->st.finished ? "finished" : v->state);
	printf("next: %s\n", v->next);
}

int loop_cmd_status(const struct loop_opts *o)
{
	struct loop_ctx c;
	int rc = loop_ctx_load(&c, 0);
	if (rc)
		goto out;
	struct status_view v = { .c = &c };
	v.state = c.st.nrounds ? c.st.rounds[c.st.nrounds - 1].state : "continue";
	struct stats_plateau pl;
	if (stats_plateau_compute(&c.st.rs, c.plan.noise, STATS_PLATEAU_WINDOW, &pl) == 0)
		v.flat = pl.consecutive_no_improvement;
	stats_plateau_release(&pl);
	next_action(&c, v.state, v.next, sizeof(v.next));
	v.maxr = c.st.finishing ? c.st.final_round - 1 : c.st.last_decided;
	if (o->json)
		status_json(&v);
	else
		status_text(&v);
out:
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* loop_status.c: `tlperf loop status`: where the loop stands, from the
 * files alone, as text or JSON; `tlperf loop next`: the state and the next
 * action only. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/plateau.h"
#include "io/cli_msg.h"

/* What loop status shows. */
struct status_view {
	const struct loop_ctx *c;
	long flat;          /* rounds without a gain above noise */
	long maxr;          /* the last round whose best counts */
};

/* One workload's line of loop status: the best's duration against the
 * baseline's, the target. */
static void status_workload(const struct status_view *v, const struct loop_workload *w)
{
	const struct loop_ctx *c = v->c;
	const struct record *r = loop_state_find(&c->st, &c->plan, c->st.best, w, v->maxr);
	const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
	struct loop_final lf;
	double d = r ? r->duration_us : NAN;
	const char *how = "";
	char runs[64];
	if (c->st.finished && loop_final_of(c, c->st.best, w, &lf) == 0) {
		/* the final figure, as the Final Summary and the gate have it */
		d = lf.f.figure;
		snprintf(runs, sizeof(runs), ", final: median of %zu run%s", lf.f.n, lf.f.n == 1 ? "" : "s");
		how = runs;
	}
	printf("  %s %s: ", w->dispatch, w->id);
	if (!isnan(d) && b0)
		printf("%.3f us (baseline %.3f us, %+.1f%%%s)", d, b0->duration_us,
		       100 * (d - b0->duration_us) / b0->duration_us, how);
	else if (!isnan(d))
		printf("%.3f us", d);
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
	printf("%s: %s (%s)\n", c->st.finished ? "final" : "current best", c->st.best,
	       loop_candidate_file(c, c->st.best) ? loop_candidate_file(c, c->st.best) : "?");
	for (size_t i = 0; i < c->plan.nworkloads; i++)
		status_workload(v, &c->plan.workloads[i]);
	printf("state: %s\n", loop_state_name(c));
	loop_print_next(c);
}

/* The steps the next subcommand and status share: the state's
 * prose or JSON (step "status" or "next"). */
static int show(const struct loop_opts *o, const char *step)
{
	struct loop_ctx c;
	int rc = loop_ctx_load(&c, 0);
	if (rc)
		goto out;
	if (o->json) {
		rc = loop_json_print(loop_json_begin(&c, step, "shown")) ? CLI_USAGE : CLI_OK;
		goto out;
	}
	if (strcmp(step, "next") == 0) {
		printf("state: %s\n", loop_state_name(&c));
		loop_print_next(&c);
		goto out;
	}
	struct status_view v = { .c = &c };
	v.flat = loop_flat_rounds(&c);
	v.maxr = c.st.finishing ? c.st.final_round - 1 : c.st.last_decided;
	status_text(&v);
out:
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

int loop_cmd_status(const struct loop_opts *o)
{
	return show(o, "status");
}

int loop_cmd_next(const struct loop_opts *o)
{
	return show(o, "next");
}

int loop_cmd_init_report(const struct loop_opts *o)
{
	struct loop_ctx c;
	int rc = loop_ctx_load(&c, 0);
	if (rc)
		goto out;
	if (o->json) {
		cJSON *j = loop_json_begin(&c, "init", "done");
		cJSON *p = j ? cJSON_AddObjectToObject(j, "plan") : NULL;
		if (p) {
			cJSON_AddStringToObject(p, "file", LOOP_PLAN);
			cJSON_AddStringToObject(p, "log", LOOP_LOG);
			cJSON_AddNumberToObject(p, "workloads", (double)c.plan.nworkloads);
		}
		rc = loop_json_print(j) ? CLI_USAGE : CLI_OK;
		goto out;
	}
	printf("wrote %s (%zu workload%s, contract v%d)\n", LOOP_PLAN, c.plan.nworkloads,
	       c.plan.nworkloads == 1 ? "" : "s", c.plan.contract);
	loop_print_next(&c);
out:
	loop_ctx_release(&c);
	return rc;
}

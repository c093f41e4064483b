/* loop_baseline.c: `tlperf loop baseline`: round 0, the baseline kernel
 * on every workload, and its Performance Test Data section in the log. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileops.h"
#include "report/table.h"
#include "report/term.h"
#include "run/run.h"
#include "io/cli_msg.h"

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, fmt, v);
}

/* The baseline table (Performance Test Data). */
static void baseline_section(const struct loop_ctx *c, struct strbuf *b)
{
	strbuf_printf(b, "\n## Performance Test Data\n\n");
	strbuf_printf(
		b,
		"Baseline `%s` (round 0, candidate `baseline`): msprof op Task Duration, median of "
		"%ld launches after %ld warm-up.\n\n",
		c->plan.baseline, c->plan.launch_count, c->plan.warm_up);
	static const struct table_col cols[] = {
		{ "dispatch", TABLE_LEFT },	      { "workload", TABLE_LEFT },      { "target kernel", TABLE_LEFT },
		{ "Task Duration(us)", TABLE_RIGHT }, { "AICore util", TABLE_RIGHT }, { "memory (GB/s)", TABLE_RIGHT },
		{ "raw profile", TABLE_LEFT },
	};
	struct table t;
	table_init(&t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *r = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		char u[32], m[32];
		if (!r)
			continue;
		fmt_num(u, sizeof(u), r->aicore_util, "%.2f");
		fmt_num(m, sizeof(m), r->mem_bw_gbps, "%.1f");
		table_cell(&t, "%s", w->dispatch);
		table_cell(&t, "%s", w->id);
		table_cell(&t, "%s", c->plan.kernel_name);
		table_cell(&t, "%.3f", r->duration_us);
		table_cell(&t, "%s", u);
		table_cell(&t, "%s", m);
		table_cell(&t, "%s", r->msprof_raw_path ? r->msprof_raw_path : "—");
	}
	loop_put_table(b, &t);
	strbuf_printf(b, "\n" LOOP_MARKER "kind=baseline -->\n");
}

/* The baseline's records: L0 first (unless a record says how it went),
 * then one measurement per workload still missing. Returns a CLI code. */
static int baseline_measure(struct loop_ctx *c)
{
	/* The Stage 3 kernel passed precision, but L0 is cheap and a broken
	 * baseline makes every comparison meaningless. */
	if (!loop_state_has_candidate(&c->st, "baseline", 0)) {
		char log[256];
		fileops_mkdir_p(LOOP_DIR "/logs/round0");
		snprintf(log, sizeof(log), LOOP_DIR "/logs/round0/baseline.log");
		if (term_verbosity() != TERM_QUIET)
			fprintf(stderr, "baseline: L0 ...\n");
		int rc = loop_run_l0(c, c->plan.baseline, log);
		if (rc == 1)
			cli_error("the baseline '%s' fails L0: nothing to tune against (see '%s')",
				  c->plan.baseline, log);
		if (rc)
			return rc;
	}
	return loop_measure_candidate(c, 0, "baseline", NULL, c->plan.baseline, "baseline", 0);
}

/* The baseline's section in the log, once; a CLI code. */
static int baseline_log(const struct loop_ctx *c)
{
	if (c->st.baseline_logged) {
		cli_note("baseline already recorded");
		return CLI_OK;
	}
	struct strbuf b = { 0 };
	baseline_section(c, &b);
	int rc = loop_log_append(&b) ? CLI_USAGE : CLI_OK;
	free(b.s);
	return rc;
}

/* loop baseline --json: the round-0 records of every workload. */
static int baseline_json(const struct loop_ctx *c, int already)
{
	cJSON *j = loop_json_begin(c, "baseline", already ? "already_done" : "done");
	cJSON *b = j ? cJSON_AddObjectToObject(j, "baseline_records") : NULL;
	cJSON *ws = b ? cJSON_AddArrayToObject(b, "workloads") : NULL;
	if (b)
		cJSON_AddStringToObject(b, "file", c->plan.baseline);
	for (size_t i = 0; ws && i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *r = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddItemToArray(ws, e);
		cJSON_AddStringToObject(e, "dispatch", w->dispatch);
		cJSON_AddStringToObject(e, "workload", w->id);
		if (r)
			cJSON_AddNumberToObject(e, "duration_us", r->duration_us);
		else
			cJSON_AddNullToObject(e, "duration_us");
		if (r && r->msprof_raw_path)
			cJSON_AddStringToObject(e, "msprof_raw_path", r->msprof_raw_path);
		else
			cJSON_AddNullToObject(e, "msprof_raw_path");
	}
	return loop_json_print(j) ? CLI_USAGE : CLI_OK;
}

int loop_cmd_baseline(const struct loop_opts *o)
{
	struct loop_ctx c;
	int rc = loop_ctx_load(&c, 1);
	if (rc)
		goto out;
	if (!fileops_is_file(c.plan.baseline)) {
		cli_error("field 'baseline': file '%s' does not exist", c.plan.baseline);
		rc = CLI_USAGE;
		goto out;
	}
	if (run_signals_install() != 0) {
		cli_error("cannot install signal handlers: %s", strerror(errno));
		rc = CLI_USAGE;
		goto out;
	}
	int already = c.st.baseline_logged && loop_baseline_complete(&c);
	if (!loop_baseline_complete(&c) && (rc = baseline_measure(&c)) != 0)
		goto out;
	if ((rc = baseline_log(&c)) != 0 || (rc = loop_reload(&c) ? CLI_USAGE : CLI_OK) != 0)
		goto out;
	rc = o->json ? baseline_json(&c, already) : CLI_OK;
	if (o->json)
		goto out;
	printf("baseline of %s:\n", c.plan.op);
	for (size_t i = 0; i < c.plan.nworkloads; i++) {
		const struct record *r =
			loop_state_find(&c.st, &c.plan, "baseline", &c.plan.workloads[i], 0);
		printf("  %s %s: %.3f us\n", c.plan.workloads[i].dispatch, c.plan.workloads[i].id,
		       r ? r->duration_us : NAN);
	}
	loop_print_next(&c);
out:
	run_signals_restore();
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

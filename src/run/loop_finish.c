/* loop_finish.c: `tlperf loop finish`: the best copied to perf_opt/<op>.py
 * and measured once more, the Final Summary (and, v2, the inventory)
 * written, the gate run, the Stage Result printed. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/fileops.h"
#include "report/table.h"
#include "run/run.h"
#include "stats/speedup.h"
#include "io/cli_msg.h"

#define LOOP_GATE_LOG LOOP_DIR "/logs/gate.log"

/* "8.943 (round 1), 8.645 (final)": the runs of lf, the final round fr. */
static void runs_text(const struct loop_final *lf, long fr, struct strbuf *b)
{
	for (size_t k = 0; k < lf->nshown; k++) {
		const struct record *r = lf->run[k];
		if (k == LOOP_FINAL_SHOWN - 1 && lf->f.n > LOOP_FINAL_SHOWN)
			strbuf_printf(b, ", ... (%zu more)", lf->f.n - LOOP_FINAL_SHOWN);
		if (r->round == fr)
			strbuf_printf(b, "%s%.3f (final)", k ? ", " : "", r->duration_us);
		else
			strbuf_printf(b, "%s%.3f (round %ld)", k ? ", " : "", r->duration_us, r->round);
	}
}

/* The final confirmation section: per workload the best's runs, their
 * median (the final figure) and how far the confirmation lies from the
 * nearest earlier run; a disagreement beyond noise is stated (only written
 * with --report-both). A heading that says final and confirmation: the
 * gate reads the round's records as the final confirmation they are. 0,
 * or -1 when a workload has no run. */
static int confirmation_section(const struct loop_ctx *c, long fr, const char *best,
				const char *final_file, struct strbuf *b)
{
	static const struct table_col cols[] = { { "dispatch", TABLE_LEFT }, { "workload", TABLE_LEFT },
						 { "runs (us)", TABLE_LEFT }, { "final figure (us)", TABLE_RIGHT },
						 { "confirmation vs nearest run", TABLE_RIGHT } };
	struct table t;
	struct strbuf notes = { 0 };
	table_init(&t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	strbuf_printf(b, "\n### Final Confirmation（round %ld）\n\n", fr);
	strbuf_printf(b, "`%s` (= `%s`) re-measured as the final confirmation. Each workload's final figure is the median "
		      "of the kernel's runs (docs/records.md, \"The final figure\"): the figure the Final "
		      "Summary reports and the gate reconciles.\n\n", final_file, best);
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		struct loop_final lf;
		if (loop_final_of(c, best, w, &lf) != 0) {
			cli_error("final record of '%s' missing", w->id);
			table_release(&t);
			free(notes.s);
			return -1;
		}
		struct strbuf rb = { 0 };
		runs_text(&lf, fr, &rb);
		table_cell(&t, "%s", w->dispatch);
		table_cell(&t, "%s", w->id);
		table_cell(&t, "%s", rb.s ? rb.s : "");
		table_cell(&t, "%.3f", lf.f.figure);
		if (lf.f.n > 1)
			table_cell(&t, "%+.1f%%", 100 * lf.f.drift);
		else
			table_cell(&t, "%s", "—");
		free(rb.s);
		if (!lf.f.settled)
			strbuf_printf(&notes, "- %s: the final confirmation (%.3f us) and the nearest earlier run "
				      "(%.3f us) differ by %+.1f%%, beyond the noise threshold %.1f%%: both "
				      "are reported, the final figure is the median of the runs\n",
				      w->id, lf.f.last, lf.f.nearest, 100 * lf.f.drift, 100 * c->plan.noise);
	}
	loop_put_table(b, &t);
	if (notes.s)
		strbuf_printf(b, "\n%s", notes.s);
	free(notes.s);
	return 0;
}

/* The Final Summary's head: the best and one latency block per workload,
 * from the final figure; 0, or -1 when a run or the baseline is missing. */
static int summary_latencies(const struct loop_ctx *c, const char *best, const char *final_file,
			     struct strbuf *b)
{
	strbuf_printf(b, "\n## Final Summary\n\n");
	strbuf_printf(b, "- best: %s (`%s`, copied to `%s`)%s\n", best,
		      loop_candidate_file(c, best) ? loop_candidate_file(c, best) : "?", final_file,
		      strcmp(best, "baseline") == 0 ? " — nothing was adopted, the baseline stays" : "");
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		struct loop_final lf;
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		if (loop_final_of(c, best, w, &lf) != 0 || !b0) {
			cli_error("final record of '%s' missing", w->id);
			return -1;
		}
		strbuf_printf(b, "- %s: final_latency: %.3f us\n", w->id, lf.f.figure);
		strbuf_printf(b, "- %s: baseline_latency: %.3f us\n", w->id, b0->duration_us);
		strbuf_printf(b, "- %s: improvement: %.1f%%\n", w->id,
			      100 * (b0->duration_us - lf.f.figure) / b0->duration_us);
	}
	return 0;
}

/* The multi-dispatch speedup table: one row per key, one geomean row per
 * dispatch and one for all. */
static void summary_speedups(const struct stats_speedup *sp, struct strbuf *b)
{
	static const struct table_col cols[] = { { "dispatch", TABLE_LEFT }, { "workload", TABLE_LEFT },
						 { "baseline_us", TABLE_RIGHT }, { "final_us", TABLE_RIGHT },
						 { "speedup", TABLE_RIGHT } };
	struct table t;
	table_init(&t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	strbuf_printf(b, "\nMulti-dispatch speedups (baseline / final, from perf_records.jsonl):\n\n");
	for (size_t i = 0; i < sp->nkeys; i++) {
		const struct stats_speedup_key *k = &sp->keys[i];
		if (!k->baseline || !k->final)
			continue;
		table_cell(&t, "%s", k->dispatch);
		table_cell(&t, "%s", k->workload);
		table_cell(&t, "%.3f", k->baseline->duration_us);
		table_cell(&t, "%.3f", k->final_us);
		table_cell(&t, "%.3fx%s", k->speedup, k->regression ? " (regression)" : "");
	}
	for (size_t g = 0; g < sp->ngroups; g++) {
		table_cell(&t, "%s", sp->groups[g].dispatch);
		table_cell(&t, "geomean (%zu)", sp->groups[g].nused);
		table_cell(&t, "%s", "");
		table_cell(&t, "%s", "");
		table_cell(&t, "%.3fx", sp->groups[g].geomean_speedup);
	}
	table_cell(&t, "all");
	table_cell(&t, "geomean (%zu)", sp->nused);
	table_cell(&t, "%s", "");
	table_cell(&t, "%s", "");
	table_cell(&t, "%.3fx", sp->geomean_speedup);
	loop_put_table(b, &t);
	strbuf_str(b, "\n");
}

/* v2: the Final Performance Test Data table (baseline and final per key). */
static void summary_final_data(const struct loop_ctx *c, const char *best, struct strbuf *b)
{
	static const struct table_col cols[] = { { "kernel_id", TABLE_LEFT }, { "workload_id", TABLE_LEFT },
						 { "baseline_us", TABLE_RIGHT }, { "final_us", TABLE_RIGHT },
						 { "final_candidate_id", TABLE_LEFT } };
	struct table t;
	table_init(&t, NULL, cols, sizeof(cols) / sizeof(cols[0]));
	strbuf_printf(b, "\n## Final Performance Test Data\n\n");
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		struct loop_final lf;
		loop_final_of(c, best, w, &lf);
		table_cell(&t, "%s", w->dispatch);
		table_cell(&t, "%s", w->id);
		table_cell(&t, "%.3f", b0 ? b0->duration_us : NAN);
		table_cell(&t, "%.3f", lf.f.figure);
		table_cell(&t, "%s", best);
	}
	loop_put_table(b, &t);
}

/* The Final Summary: every number comes from the records just written;
 * speedups and their geometric means from stats/speedup.h. */
static int final_summary(struct loop_ctx *c, long fr, const char *best, const char *final_file,
			 const char *stop, int quiet)
{
	struct strbuf b = { 0 };
	struct stats_speedup sp;
	if (stats_speedup_compute(&c->st.rs, best, &sp) != 0) {
		cli_error("speedups of '%s': %s", best, strerror(errno));
		return -1;
	}
	int rc = confirmation_section(c, fr, best, final_file, &b);
	if (rc || (rc = summary_latencies(c, best, final_file, &b)) != 0)
		goto out;
	summary_speedups(&sp, &b);
	strbuf_printf(&b, "- geomean speedup: %.3fx\n", sp.geomean_speedup);
	strbuf_printf(&b, "- improvement: %.1f%% (geometric mean of the latency change)\n",
		      -100 * sp.geomean_change);
	strbuf_printf(&b, "- stop_reason: %s\n", stop);
	strbuf_printf(&b, "- budgets: max_rounds: %ld, max_experiments: %ld; noise threshold: %.1f%%\n",
		      c->plan.max_rounds, c->plan.max_experiments, 100 * c->plan.noise);
	strbuf_printf(&b, "- iterations: %ld\n", fr - 1);
	if (c->plan.contract == 2)
		summary_final_data(c, best, &b);
	strbuf_printf(&b, "\n" LOOP_MARKER "kind=final round=%ld best=%s stop=%s -->\n", fr, best,
		      stop);
	rc = loop_log_append(&b);
	if (rc == 0 && !quiet) {
		printf("final: best %s, geomean speedup %.3fx, stop_reason %s\n", best,
		       sp.geomean_speedup, stop);
		for (size_t i = 0; i < sp.nkeys; i++)
			printf("  %s %s: %.3fx\n", sp.keys[i].dispatch, sp.keys[i].workload,
			       sp.keys[i].speedup);
	}
out:
	stats_speedup_release(&sp);
	free(b.s);
	return rc;
}

/* v2: perf_opt/workload_inventory.json, when no earlier stage wrote one:
 * every plan workload as a tune item whose tuning_status is the loop's
 * result (winner_merged when the final version beats the baseline by more
 * than noise, else no_gain with the reason). An existing inventory is never
 * touched. */
static int write_inventory(const struct loop_ctx *c, const char *best)
{
	const char *path = LOOP_DIR "/workload_inventory.json";
	if (access(path, F_OK) == 0)
		return 0;
	cJSON *o = cJSON_CreateObject();
	cJSON *ws = o ? cJSON_AddArrayToObject(o, "workloads") : NULL;
	int rc = -1;
	if (!ws)
		goto out;
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		struct loop_final lf;
		int gain = b0 && loop_final_of(c, best, w, &lf) == 0 &&
			   lf.f.figure < b0->duration_us * (1 - c->plan.noise);
		cJSON *it = cJSON_CreateObject();
		if (!it)
			goto out;
		cJSON_AddItemToArray(ws, it);
		cJSON_AddStringToObject(it, "benchmark_source", "tlperf loop plan (perf_opt/loop.json)");
		cJSON_AddStringToObject(it, "kernel_id", w->dispatch);
		cJSON_AddStringToObject(it, "workload_id", w->id);
		cJSON_AddStringToObject(it, "label", w->id);
		cJSON_AddArrayToObject(it, "marks");
		cJSON_AddArrayToObject(it, "shape");
		cJSON_AddStringToObject(it, "dtype", "");
		cJSON_AddObjectToObject(it, "params");
		cJSON_AddStringToObject(it, "kind", "tune");
		cJSON_AddStringToObject(it, "reason",
					gain ? "" : "no gain above the noise threshold over the baseline");
		cJSON_AddStringToObject(it, "tuning_status", gain ? "winner_merged" : "no_gain");
	}
	char *text = cJSON_Print(o);
	if (!text)
		goto out;
	size_t n = strlen(text);
	text[n] = '\0';
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, text, n);
		ssize_t w2 = write(fd, "\n", 1);
		rc = (w == (ssize_t)n && w2 == 1 && fsync(fd) == 0) ? 0 : -1;
		close(fd);
	}
	if (rc)
		cli_error("cannot write '%s': %s", path, strerror(errno));
	else
		cli_note("wrote '%s' from the plan (shape, dtype, params left empty)", path);
	cJSON_free(text);
out:
	cJSON_Delete(o);
	return rc;
}

/* tlgate over perf_opt/, its output in perf_opt/logs/gate.log (and on
 * stdout unless --json). *exit_code: tlgate's exit code (-1: did not run
 * to the end). Returns a CLI code: 0 passed, 1 failed, 128+N. */
static int run_gate(const struct loop_opts *o, int *exit_code)
{
	char err[256];
	const char *log = LOOP_GATE_LOG;
	char *argv[] = { (char *)o->self, "gate", LOOP_DIR, NULL };
	fileops_mkdir_p(LOOP_DIR "/logs");
	int rc = loop_run_one("tlgate", argv, log, NULL, 0, err, sizeof(err));
	*exit_code = rc == 0 ? 0 : rc == 1 ? 1 : -1;
	FILE *f = o->json ? NULL : fopen(log, "r");
	if (f) {
		char line[4096];
		while (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		fclose(f);
	}
	if (rc == 0) {
		if (!o->json)
			printf("gate: passed (tlgate %s)\n", LOOP_DIR);
		return CLI_OK;
	}
	if (rc >= CLI_SIGNAL)
		return rc;
	cli_error("the gate does not pass on '%s' (%s): see '%s'", LOOP_DIR, err, log);
	return CLI_FAIL;
}

/* "final": the final round, the best, its file, the stop reason and the
 * speedups of the final records over the baseline's. */
static void final_json(cJSON *j, const struct loop_ctx *c, const char *final_file)
{
	struct stats_speedup sp;
	cJSON *f = cJSON_AddObjectToObject(j, "final");
	if (!f || stats_speedup_compute(&c->st.rs, c->st.best, &sp) != 0)
		return;
	cJSON_AddNumberToObject(f, "round", (double)c->st.final_round);
	cJSON_AddStringToObject(f, "best", c->st.best);
	cJSON_AddStringToObject(f, "file", final_file);
	cJSON_AddStringToObject(f, "stop_reason", c->st.stop_reason[0] ? c->st.stop_reason
								       : "user_stop");
	cJSON_AddNumberToObject(f, "iterations", (double)(c->st.final_round - 1));
	cJSON_AddNumberToObject(f, "geomean_speedup", sp.geomean_speedup);
	cJSON_AddNumberToObject(f, "improvement_pct", -100 * sp.geomean_change);
	cJSON *ws = cJSON_AddArrayToObject(f, "workloads");
	for (size_t i = 0; ws && i < sp.nkeys; i++) {
		const struct stats_speedup_key *k = &sp.keys[i];
		if (!k->baseline || !k->final)
			continue;
		cJSON *e = cJSON_CreateObject();
		cJSON_AddItemToArray(ws, e);
		cJSON_AddStringToObject(e, "dispatch", k->dispatch);
		cJSON_AddStringToObject(e, "workload", k->workload);
		cJSON_AddNumberToObject(e, "baseline_us", k->baseline->duration_us);
		cJSON_AddNumberToObject(e, "final_us", k->final_us);
		cJSON_AddNumberToObject(e, "final_runs", (double)k->nruns);
		cJSON_AddNumberToObject(e, "speedup", k->speedup);
		cJSON_AddBoolToObject(e, "regression", k->regression);
	}
	stats_speedup_release(&sp);
}

/* "gate": whether it ran, passed, its exit code and log. */
static void gate_json(cJSON *j, int ran, int exit_code)
{
	cJSON *g = cJSON_AddObjectToObject(j, "gate");
	if (!g)
		return;
	cJSON_AddBoolToObject(g, "ran", ran);
	if (ran && exit_code >= 0) {
		cJSON_AddBoolToObject(g, "passed", exit_code == 0);
		cJSON_AddNumberToObject(g, "exit_code", exit_code);
	} else {
		cJSON_AddNullToObject(g, "passed");
		cJSON_AddNullToObject(g, "exit_code");
	}
	if (ran)
		cJSON_AddStringToObject(g, "log", LOOP_GATE_LOG);
	else
		cJSON_AddNullToObject(g, "log");
}

/* The final round fr's starting point: no undecided round left, the
 * current best and the stop reason (stop, 32 bytes) taken, the best's
 * file copied to final_file. Returns a CLI code. */
static int finish_prepare(const struct loop_ctx *c, long fr, char *best, size_t blen, char *stop,
			  const char *final_file)
{
	for (size_t i = 0; !c->st.finishing && i < c->st.rs.n; i++)
		if (c->st.rs.v[i].round >= fr) {
			cli_error("round %ld is measured but not decided: run the same 'tlperf loop "
				  "round %ld ...' again first",
				  c->st.rs.v[i].round, c->st.rs.v[i].round);
			return CLI_USAGE;
		}
	snprintf(best, blen, "%s", c->st.best);
	const char *state = c->st.nrounds ? c->st.rounds[c->st.nrounds - 1].state : "continue";
	snprintf(stop, 32, "%s", strcmp(state, "continue") ? state : "user_stop");
	const char *src = loop_candidate_file(c, best);
	if (!src || !fileops_is_file(src)) {
		cli_error("the current best '%s' has no kernel file ('%s')", best, src ? src : "?");
		return CLI_USAGE;
	}
	if (!fileops_same_content(src, final_file) && fileops_copy(src, final_file) != 0) {
		cli_error("cannot copy '%s' to '%s': %s", src, final_file, strerror(errno));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The finishing marker of round fr in the log (once), the state reloaded;
 * a CLI code. */
static int finish_mark(struct loop_ctx *c, long fr, const char *best)
{
	if (c->st.finishing)
		return CLI_OK;
	struct strbuf b = { 0 };
	strbuf_printf(&b, "\n" LOOP_MARKER "kind=finishing round=%ld best=%s -->\n", fr, best);
	int lr = loop_log_append(&b);
	free(b.s);
	return lr || loop_reload(c) ? CLI_USAGE : CLI_OK;
}

/* The final round: the best copied to final_file and measured once more
 * (o->remeasure: once more where that confirmation disagrees with the
 * round beyond noise), the Final Summary and (v2) the inventory written.
 * A confirmation that still disagrees stops before the summary, unless
 * o->report_both: *unsettled set, CLI_OK. Returns a CLI code. */
static int finish_round(struct loop_ctx *c, const struct loop_opts *o, const char *final_file, int quiet,
			int *unsettled)
{
	char best[128], stop[32];
	long fr = c->st.finishing ? c->st.final_round : c->st.last_decided + 1;
	int rc = finish_prepare(c, fr, best, sizeof(best), stop, final_file);
	if (rc || (rc = finish_mark(c, fr, best)) != 0)
		return rc;
	if (run_signals_install() != 0)
		return CLI_USAGE;
	/* The final record: the tuned file measured once more, as the
	 * candidate it came from. */
	const char *phase = c->plan.contract == 2 ? "final" : "candidate";
	rc = loop_measure_candidate(c, fr, best, best, final_file, phase, 0);
	if (rc)
		return rc;
	char what[512];
	if (o->remeasure && loop_unsettled(c, what, sizeof(what)) == 0)
		cli_note("nothing to re-measure: every final confirmation agrees with the round within noise");
	for (size_t i = 0; o->remeasure && i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		struct loop_final lf;
		if (loop_final_of(c, best, w, &lf) == 0 && !lf.f.settled &&
		    (rc = loop_measure_again(c, fr, best, final_file, phase, w)) != 0)
			return rc;
	}
	if (!o->report_both && loop_unsettled(c, what, sizeof(what))) {
		*unsettled = 1;
		return CLI_OK;
	}
	if (final_summary(c, fr, best, final_file, stop, quiet) != 0)
		return CLI_USAGE;
	if (c->plan.contract == 2 && write_inventory(c, best) != 0)
		return CLI_USAGE;
	cli_note("write the Skill Retrospective section of '%s' yourself", LOOP_LOG);
	return CLI_OK;
}

/* The final confirmation disagrees with the round beyond noise: no
 * Final Summary; what was measured and the two ways on, as prose or JSON
 * (outcome "confirm_disagrees"). Returns a CLI code (0: nothing failed). */
static int finish_unsettled(struct loop_ctx *c, const struct loop_opts *o)
{
	if (o->json) {
		cJSON *j = loop_json_begin(c, "finish", "confirm_disagrees");
		cJSON *f = j ? cJSON_AddArrayToObject(j, "confirmation") : NULL;
		for (size_t i = 0; f && i < c->plan.nworkloads; i++) {
			const struct loop_workload *w = &c->plan.workloads[i];
			struct loop_final lf;
			cJSON *e = cJSON_CreateObject();
			if (!e || loop_final_of(c, c->st.best, w, &lf) != 0) {
				cJSON_Delete(e);
				continue;
			}
			cJSON_AddItemToArray(f, e);
			cJSON_AddStringToObject(e, "dispatch", w->dispatch);
			cJSON_AddStringToObject(e, "workload", w->id);
			cJSON *rv = cJSON_AddArrayToObject(e, "runs_us");
			for (size_t k = 0; rv && k < lf.nshown; k++)
				cJSON_AddItemToArray(rv, cJSON_CreateNumber(lf.run[k]->duration_us));
			cJSON_AddNumberToObject(e, "median_us", lf.f.figure);
			cJSON_AddNumberToObject(e, "drift", lf.f.drift);
			cJSON_AddBoolToObject(e, "settled", lf.f.settled);
		}
		return loop_json_print(j) ? CLI_USAGE : CLI_OK;
	}
	printf("final confirmation of '%s':\n", c->st.best);
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		struct loop_final lf;
		struct strbuf rb = { 0 };
		if (loop_final_of(c, c->st.best, w, &lf) != 0)
			continue;
		runs_text(&lf, c->st.final_round, &rb);
		printf("  %s %s: runs %s us, median %.3f us, confirmation %+.1f%% vs the nearest run%s\n",
		       w->dispatch, w->id, rb.s ? rb.s : "", lf.f.figure, 100 * lf.f.drift,
		       lf.f.settled ? "" : " (beyond noise)");
		free(rb.s);
	}
	printf("state: %s\n", loop_state_name(c));
	loop_print_next(c);
	return CLI_OK;
}

int loop_cmd_finish(const struct loop_opts *o)
{
	struct loop_ctx c;
	char final_file[512];
	int rc = loop_ctx_load(&c, 1);
	if (rc)
		goto out;
	if (!loop_baseline_complete(&c) || !c.st.baseline_logged) {
		cli_error("no complete baseline yet: run 'tlperf loop baseline' first");
		rc = CLI_USAGE;
		goto out;
	}
	snprintf(final_file, sizeof(final_file), LOOP_DIR "/%s.py", c.plan.op);
	int already = c.st.finished, gate_exit = -1, unsettled = 0;
	if (!already) {
		if ((rc = finish_round(&c, o, final_file, o->json, &unsettled)) != 0)
			goto out;
		if (unsettled) {
			rc = finish_unsettled(&c, o);
			goto out;
		}
	} else {
		cli_note("the Final Summary is written already; running the gate only");
	}
	rc = o->no_gate ? CLI_OK : run_gate(o, &gate_exit);
	if ((rc != CLI_OK && rc != CLI_FAIL) || loop_reload(&c) != 0 || !c.st.finished)
		goto out;
	cJSON *j = NULL;
	if (o->json) {
		j = loop_json_begin(&c, "finish", rc == CLI_FAIL ? "gate_failed"
							   : already ? "already_done" : "done");
		if (j) {
			final_json(j, &c, final_file);
			gate_json(j, !o->no_gate, gate_exit);
		}
	} else {
		putchar('\n');
	}
	if (loop_stage_result_emit(&c, j) != 0 && rc == CLI_OK)
		rc = CLI_USAGE;
	if (o->json && loop_json_print(j) != 0 && rc == CLI_OK)
		rc = CLI_USAGE;
out:
	run_signals_restore();
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* loop_report.c: `tlperf loop report`: the Stage Result of a finished
 * loop, built from the plan, the records and the log (model/stage_result.h,
 * report/stage_result.h), and its copy in perf_opt/logs/stage_result.md. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/fileops.h"
#include "model/stage_result.h"
#include "report/stage_result.h"
#include "stats/speedup.h"
#include "io/cli_msg.h"

#define LOOP_STAGE_RESULT LOOP_DIR "/logs/stage_result.md"

/* The operator directory relative to the repository holding it (the
 * nearest ancestor with .git), "" when it is the top or there is none. */
static void repo_relative(char *out, size_t len)
{
	char cwd[4096], up[4096];
	out[0] = '\0';
	if (!getcwd(cwd, sizeof(cwd)))
		return;
	snprintf(up, sizeof(up), "%s", cwd);
	for (;;) {
		char g[4200];
		struct stat st;
		snprintf(g, sizeof(g), "%s/.git", up);
		if (stat(g, &st) == 0) {
			size_t n = strlen(up);
			if (strcmp(up, "/") == 0)
				n = 0;
			if (cwd[n] == '/')
				snprintf(out, len, "%s/", cwd + n + 1);
			return;
		}
		char *sl = strrchr(up, '/');
		if (!sl || sl == up)
			return;
		*sl = '\0';
	}
}

/* The Stage Result in the making: sr_put's target and whether every add
 * succeeded. */
struct sr_fill {
	struct stage_result *sr;
	int ok;  /* 0 once an add ran out of memory */
};

/* Adds field f (of workload w, NULL for none) with the printf-style value
 * to the Stage Result; a failed add clears f->ok. */
static void sr_put(struct sr_fill *f, enum sr_field field, const char *w, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void sr_put(struct sr_fill *f, enum sr_field field, const char *w, const char *fmt, ...)
{
	char buf[4600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	f->ok = f->ok && stage_result_add(f->sr, 0, field, stage_result_fields[field], w, buf, NULL);
}

/* The project's name: the folder holding the operator directory ("none"
 * when there is none), into proj (256 bytes). */
static void project_name(char *proj)
{
	char cwd[4096];
	snprintf(proj, 256, "none");
	if (!getcwd(cwd, sizeof(cwd)))
		return;
	char *sl = strrchr(cwd, '/');
	if (!sl || sl == cwd)
		return;
	*sl = '\0';
	char *p2 = strrchr(cwd, '/');
	const char *nm = p2 ? p2 + 1 : cwd;
	size_t k = strlen(nm) < 255 ? strlen(nm) : 255;
	memcpy(proj, nm, k);
	proj[k] = '\0';
}

/* The Stage Result's fields up to the primary metric; rel is the
 * operator directory from the repository's top. */
static void sr_head(const struct loop_ctx *c, const char *rel, struct sr_fill *f)
{
	char proj[256];
	project_name(proj);
	sr_put(f, SR_STAGE, NULL, "4");
	sr_put(f, SR_PROJECT, NULL, "%s", proj);
	sr_put(f, SR_OPERATOR, NULL, "%s", c->plan.op);
	sr_put(f, SR_OUTPUT, NULL, "%s" LOOP_DIR "/%s.py", rel, c->plan.op);
	sr_put(f, SR_LOG, NULL, "%s" LOOP_LOG, rel);
	if (fileops_is_file("Optimize.md"))
		sr_put(f, SR_SUMMARY_DOC, NULL, "%sOptimize.md", rel);
	else
		sr_put(f, SR_SUMMARY_DOC, NULL, "none");
	sr_put(f, SR_VERDICT, NULL, "TUNING_COMPLETED");
	int dl = fileops_is_file(LOOP_DIR "/perf_feedback.md");
	sr_put(f, SR_DESIGN_LIMIT_SIGNAL, NULL, "%s", dl ? "[DESIGN_LIMIT]" : "none");
	if (dl)
		sr_put(f, SR_PERF_FEEDBACK, NULL, "%s" LOOP_DIR "/perf_feedback.md", rel);
	else
		sr_put(f, SR_PERF_FEEDBACK, NULL, "none");
	sr_put(f, SR_ITERATIONS, NULL, "%ld", c->st.final_round - 1);
	sr_put(f, SR_PRIMARY_METRIC, NULL, "msprof_task_duration");
}

/* The baseline latencies of every workload, then the final figures
 * (stats/final.h: the median of the best's runs, as the Final Summary
 * writes them), named per workload when there are several; 0, or -1 when
 * a record is missing. */
static int sr_latencies(const struct loop_ctx *c, struct sr_fill *f)
{
	size_t nw = c->plan.nworkloads;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nw; i++) {
			const struct loop_workload *w = &c->plan.workloads[i];
			const struct record *r = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
			struct loop_final lf;
			if (pass ? !loop_final_record(c, c->st.final_round, c->st.best, w) ||
					   loop_final_of(c, c->st.best, w, &lf) != 0
				 : !r) {
				cli_error("no %s record of '%s'", pass ? "final" : "baseline", w->id);
				return -1;
			}
			sr_put(f, pass ? SR_FINAL_LATENCY : SR_BASELINE_LATENCY, nw > 1 ? w->id : NULL,
			       "%.3f us", pass ? lf.f.figure : r->duration_us);
		}
	return 0;
}

/* The Stage Result of a finished loop: every field of the seed in its
 * order; what the loop cannot know is an explicit `none` the agent fills. */
static int stage_result_build(const struct loop_ctx *c, struct stage_result *sr)
{
	char rel[4096];
	struct sr_fill f = { sr, 1 };
	struct stats_speedup sp;
	repo_relative(rel, sizeof(rel));
	if (stats_speedup_compute(&c->st.rs, c->st.best, &sp) != 0) {
		cli_error("speedups of '%s': %s", c->st.best, strerror(errno));
		return -1;
	}
	sr_head(c, rel, &f);
	if (sr_latencies(c, &f) != 0) {
		stats_speedup_release(&sp);
		return -1;
	}
	sr_put(&f, SR_IMPROVEMENT, NULL, "%.1f%%", -100 * sp.geomean_change);
	sr_put(&f, SR_STOP_REASON, NULL, "%s", c->st.stop_reason[0] ? c->st.stop_reason : "user_stop");
	static const enum sr_field agent_fills[] = { SR_SKILL_RETROSPECTIVE, SR_VALUE_POINT_PROPOSALS,
						     SR_SKILLS_CONSULTED, SR_SUMMARY, SR_ISSUES };
	for (size_t i = 0; i < sizeof(agent_fills) / sizeof(agent_fills[0]); i++)
		sr_put(&f, agent_fills[i], NULL, "none");
	stats_speedup_release(&sp);
	if (!f.ok)
		cli_error("out of memory");
	return f.ok ? 0 : -1;
}

/* The Stage Result as typed JSON: "none" is null, stage and iterations
 * are numbers, latencies are numbers in us per workload
 * (baseline_latency_us, final_latency_us), improvement a number in percent
 * (improvement_pct); every other field its text. */
static cJSON *stage_result_typed(const struct loop_ctx *c, const struct stage_result *sr)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o && i < sr->n; i++) {
		const struct sr_entry *e = &sr->v[i];
		char key[96];
		if (e->field == SR_BASELINE_LATENCY || e->field == SR_FINAL_LATENCY) {
			snprintf(key, sizeof(key), "%s_us", e->key);
			cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
			if (!m)
				m = cJSON_AddObjectToObject(o, key);
			const char *w = e->workload ? e->workload : c->plan.workloads[0].id;
			if (m)
				cJSON_AddNumberToObject(m, w, e->number);
		} else if (e->field == SR_IMPROVEMENT) {
			cJSON_AddNumberToObject(o, "improvement_pct", e->number);
		} else if ((e->field == SR_STAGE || e->field == SR_ITERATIONS) && !isnan(e->number)) {
			cJSON_AddNumberToObject(o, e->key, e->number);
		} else if (strcmp(e->value, "none") == 0) {
			cJSON_AddNullToObject(o, e->key);
		} else {
			cJSON_AddStringToObject(o, e->key, e->value);
		}
	}
	return o;
}

/* The Markdown copy md in perf_opt/logs/stage_result.md: written when
 * absent, left alone when it holds the same text or was edited since (a
 * note says so). 0, or -1 with the message printed. */
static int keep_copy(const char *md)
{
	if (fileops_mkdir_p(LOOP_DIR "/logs") != 0) {
		cli_error("cannot create '%s': %s", LOOP_DIR "/logs", strerror(errno));
		return -1;
	}
	size_t n = strlen(md);
	int fd = open(LOOP_STAGE_RESULT, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, md, n);
		int bad = w != (ssize_t)n || fsync(fd) != 0;
		if (close(fd) != 0)
			bad = 1;
		if (bad) {
			cli_error("cannot write '%s': %s", LOOP_STAGE_RESULT, strerror(errno));
			unlink(LOOP_STAGE_RESULT);
			return -1;
		}
		cli_note("wrote '%s': fill in the fields set to none there", LOOP_STAGE_RESULT);
	} else if (errno == EEXIST) {
		FILE *f = fopen(LOOP_STAGE_RESULT, "r");
		char *old = NULL;
		size_t cap = 0, len = 0;
		int same = 0;
		if (f) {
			old = malloc(n + 2);
			cap = n + 2;
			len = old ? fread(old, 1, cap, f) : 0;
			same = old && len == n && memcmp(old, md, n) == 0;
			fclose(f);
		}
		free(old);
		if (!same)
			cli_note("'%s' exists and differs (filled in or edited): left as it is",
				 LOOP_STAGE_RESULT);
	} else {
		cli_error("cannot write '%s': %s", LOOP_STAGE_RESULT, strerror(errno));
		return -1;
	}
	return 0;
}

/* Prints the Stage Result as Markdown, or (into not NULL) adds it to into
 * as "stage_result" (typed) and "stage_result_file"; either way keeps a
 * Markdown copy in perf_opt/logs/stage_result.md: written when absent,
 * left alone when it holds the same text or was edited since (the agent
 * fills the `none` placeholders there). */
int loop_stage_result_emit(const struct loop_ctx *c, cJSON *into)
{
	struct stage_result sr;
	char *md = NULL;
	int rc = -1;
	stage_result_init(&sr);
	if (stage_result_build(c, &sr) != 0)
		goto out;
	md = report_stage_result_markdown(&sr);
	if (!md) {
		cli_error("out of memory");
		goto out;
	}
	if (into) {
		cJSON_AddItemToObject(into, "stage_result", stage_result_typed(c, &sr));
		cJSON_AddStringToObject(into, "stage_result_file", LOOP_STAGE_RESULT);
	} else {
		fputs(md, stdout);
	}
	if (keep_copy(md) != 0)
		goto out;
	rc = 0;
out:
	free(md);
	stage_result_release(&sr);
	return rc;
}

int loop_cmd_report(const struct loop_opts *o)
{
	struct loop_ctx c;
	int rc = loop_ctx_load(&c, 0);
	if (rc)
		goto out;
	if (!c.st.finished) {
		cli_error("the loop is not finished (no Final Summary in '%s'): run 'tlperf loop finish' first",
			  LOOP_LOG);
		rc = CLI_USAGE;
		goto out;
	}
	cJSON *j = o->json ? loop_json_begin(&c, "report", "shown") : NULL;
	if (o->json && !j) {
		cli_error("out of memory");
		rc = CLI_USAGE;
		goto out;
	}
	rc = loop_stage_result_emit(&c, j) == 0 ? CLI_OK : CLI_USAGE;
	if (j && rc == CLI_OK)
		rc = loop_json_print(j) ? CLI_USAGE : CLI_OK;
	else
		cJSON_Delete(j);
out:
	loop_ctx_release(&c);
	return cli_finish_stdout(rc);
}

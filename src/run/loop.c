/* loop.c: what every step of the tuning-loop driver shares (loop_steps.h):
 * the plan and state loaded under the loop lock, the log appended whole,
 * a candidate's file, the process runner. The steps are loop_baseline.c,
 * loop_round.c (with loop_measure.c and loop_ab.c), loop_status.c,
 * loop_finish.c and loop_report.c. */
#include "run/loop_steps.h"
#include "report/table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/recwrite.h"
#include "run/run.h"
#include "stats/winner.h"
#include "io/cli_msg.h"
#include "util/strbuf.h"

static int runnable(const char *prog);

/* Appends a block to opt_log.md in one locked write. */
int loop_log_append(const struct strbuf *b)
{
	if (b->oom) {
		cli_error("out of memory");
		return -1;
	}
	if (recwrite_append(LOOP_LOG, b->s ? b->s : "", b->n, 0) != 0) {
		cli_error("cannot append to '%s': %s", LOOP_LOG, strerror(errno));
		return -1;
	}
	return 0;
}

void loop_ctx_release(struct loop_ctx *c)
{
	loop_plan_release(&c->plan);
	loop_state_release(&c->st);
	recwrite_unlock(c->lockfd);
	c->lockfd = -1;
}

/* Loads the plan (and, with lock, takes the loop lock) and the state. */
int loop_ctx_load(struct loop_ctx *c, int lock)
{
	char err[1024];
	loop_plan_init(&c->plan);
	loop_state_init(&c->st);
	c->lockfd = -1;
	if (access(LOOP_PLAN, F_OK) != 0) {
		cli_error("no plan '%s' here: run 'tlperf loop init' first (or pass -C DIR)", LOOP_PLAN);
		return CLI_USAGE;
	}
	if (loop_plan_load(LOOP_PLAN, &c->plan, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		return CLI_USAGE;
	}
	if (lock && !runnable(c->plan.msprof)) {
		cli_error("field 'msprof': '%s' not found%s", c->plan.msprof,
			  strchr(c->plan.msprof, '/') ? "" : " on PATH");
		return CLI_USAGE;
	}
	if (lock) {
		c->lockfd = recwrite_lock(LOOP_PLAN, 0);
		if (c->lockfd < 0 && errno == EWOULDBLOCK) {
			cli_note("another 'tlperf loop' is working in this directory; waiting for it");
			c->lockfd = recwrite_lock(LOOP_PLAN, 1);
		}
		if (c->lockfd < 0) {
			cli_error("cannot lock '%s': %s", LOOP_PLAN, strerror(errno));
			return CLI_USAGE;
		}
	}
	if (loop_state_load(&c->st, LOOP_RECORDS, LOOP_LOG, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		return CLI_USAGE;
	}
	if (c->st.bad_lines)
		cli_warn("'%s' has %zu line(s) that are not valid records; they are ignored "
			 "(run 'tlgate %s' for details)",
			 LOOP_RECORDS, c->st.bad_lines, LOOP_DIR);
	return CLI_OK;
}

/* A record's artifact_path as a path from the operator directory: v1
 * records hold it so, v2 records relative to perf_opt/ (as that contract's
 * fixtures do). Returns a rotating static buffer (4 live at a time). */
const char *loop_record_file(const struct loop_ctx *c, const struct record *r)
{
	static char buf[4][4200];
	static int at;
	if (!r->artifact_path)
		return NULL;
	if (c->plan.contract != 2)
		return r->artifact_path;
	char *b = buf[at++ % 4];
	if (strncmp(r->artifact_path, "../", 3) == 0)
		snprintf(b, sizeof(buf[0]), "%s", r->artifact_path + 3);
	else
		snprintf(b, sizeof(buf[0]), LOOP_DIR "/%s", r->artifact_path);
	return b;
}

/* The file of a candidate: the plan's baseline, else its records'
 * artifact_path. */
const char *loop_candidate_file(const struct loop_ctx *c, const char *id)
{
	if (strcmp(id, "baseline") == 0)
		return c->plan.baseline;
	for (size_t i = 0; i < c->st.rs.n; i++)
		if (strcmp(c->st.rs.v[i].candidate_id, id) == 0 && c->st.rs.v[i].artifact_path)
			return loop_record_file(c, &c->st.rs.v[i]);
	return NULL;
}

/* 1 when every workload has a valid round-0 baseline record. */
int loop_baseline_complete(const struct loop_ctx *c)
{
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct record *r = loop_state_find(&c->st, &c->plan, "baseline",
							 &c->plan.workloads[i], 0);
		if (!r || !record_valid(r))
			return 0;
	}
	return 1;
}

/* Runs one argv (no shell) or shell line; returns the run_result status
 * folded into: 0 ok, 1 failed (message in err), 128+N interrupted. */
int loop_run_one(const char *line, char *const *argv, const char *log, const char *out,
		   double timeout, char *err, size_t errlen)
{
	struct run_spec spec;
	struct run_result res;
	memset(&spec, 0, sizeof(spec));
	spec.command = line;
	spec.argv = argv;
	spec.log_path = log;
	spec.out_path = out;
	spec.timeout_s = timeout;
	run_command(&spec, &res);
	if (res.status == RUN_EXITED && res.exit_code == 0)
		return 0;
	char why[256];
	run_describe(&res, why, sizeof(why));
	snprintf(err, errlen, "%s", why);
	if (res.status == RUN_INTERRUPTED)
		return CLI_SIGNAL + res.signal;
	if (res.status == RUN_SPAWN_FAILED)
		return CLI_USAGE; /* environment: a program or log that is not there */
	return 1;
}

/* 1 when prog can be run: a path that is executable, or a name found on
 * PATH. */
static int runnable(const char *prog)
{
	char buf[4096];
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *e = strchr(path, ':');
		size_t n = e ? (size_t)(e - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".", prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n + (e ? 1 : 0);
	}
	return 0;
}

/* See loop_steps.h. */
int loop_reload(struct loop_ctx *c)
{
	char err[1024];
	loop_state_release(&c->st);
	loop_state_init(&c->st);
	if (loop_state_load(&c->st, LOOP_RECORDS, LOOP_LOG, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		return -1;
	}
	return 0;
}

/* Appends table t, rendered as Markdown (report/table.h: the one
 * renderer, its cell escaping), to b; t is released. */
void loop_put_table(struct strbuf *b, struct table *t)
{
	char *md = report_table_markdown(t);
	table_release(t);
	if (md)
		strbuf_str(b, md);
	else
		b->oom = 1;
	free(md);
}

/* The final record of workload w: the best's record of round fr. */
const struct record *loop_final_record(const struct loop_ctx *c, long fr, const char *best,
					 const struct loop_workload *w)
{
	const struct record *f = NULL;
	for (size_t j = 0; j < c->st.rs.n; j++) {
		const struct record *r = &c->st.rs.v[j];
		if (r->round == fr && strcmp(r->candidate_id, best) == 0 &&
		    strcmp(r->workload, w->id) == 0 && strcmp(r->dispatch, w->dispatch) == 0)
			f = r;
	}
	return f;
}

int loop_final_of(const struct loop_ctx *c, const char *best, const struct loop_workload *w,
		  struct loop_final *lf)
{
	const struct records *rs = &c->st.rs;
	double *d = malloc((rs->n + 1) * sizeof(*d));
	size_t n = 0;
	memset(lf, 0, sizeof(*lf));
	lf->f.figure = NAN;
	if (!d)
		return -1;
	for (size_t j = 0; j < rs->n; j++) {
		const struct record *r = &rs->v[j];
		if (r->round == 0 || !record_valid(r) || strcmp(r->candidate_id, best) != 0 ||
		    strcmp(r->workload, w->id) != 0 || strcmp(r->dispatch, w->dispatch) != 0)
			continue;
		d[n++] = r->duration_us;
		lf->run[lf->nshown < LOOP_FINAL_SHOWN ? lf->nshown++ : LOOP_FINAL_SHOWN - 1] = r;
	}
	int rc = stats_final_figure(d, n, c->plan.noise, &lf->f);
	free(d);
	return rc;
}

/* "round 1's 8.967 us" or "the final confirmation's 8.5 us" for run r of
 * the final round fr, into buf. */
static const char *run_name(const struct record *r, long fr, char *buf, size_t len)
{
	if (r->round == fr)
		snprintf(buf, len, "an earlier confirmation's %.3f us", r->duration_us);
	else
		snprintf(buf, len, "round %ld's %.3f us", r->round, r->duration_us);
	return buf;
}

size_t loop_unsettled(const struct loop_ctx *c, char *what, size_t len)
{
	size_t n = 0;
	if (what && len)
		what[0] = '\0';
	if (!c->st.finishing)
		return 0;
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		if (!loop_final_record(c, c->st.final_round, c->st.best, w))
			return 0; /* the final measurement is not complete */
	}
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		struct loop_final lf;
		if (loop_final_of(c, c->st.best, w, &lf) != 0 || lf.f.settled)
			continue;
		if (n++ == 0 && what && len) {
			const struct record *near = NULL;
			for (size_t k = 0; k + 1 < lf.nshown; k++)
				if (lf.run[k]->duration_us == lf.f.nearest)
					near = lf.run[k];
			char nb[96];
			snprintf(what, len, "%s: final confirmation %.3f us, %.1f%% %s than %s", w->id,
				 lf.f.last, 100 * fabs(lf.f.drift), lf.f.drift < 0 ? "faster" : "slower",
				 near ? run_name(near, c->st.final_round, nb, sizeof(nb)) : "the earlier runs");
		}
	}
	return n;
}

void loop_bench_log(long round, const char *id, const struct loop_workload *w, char *buf,
		    size_t len)
{
	char wbuf[256];
	loop_path_name(w->id, wbuf, sizeof(wbuf));
	snprintf(buf, len, LOOP_DIR "/logs/round%ld/%s.%s.bench.log", round, id, wbuf);
}

const struct loop_workload *loop_plan_key(const struct loop_plan *p, const char *dispatch,
					  const char *workload)
{
	for (size_t i = 0; i < p->nworkloads; i++)
		if (strcmp(p->workloads[i].id, workload) == 0 &&
		    strcmp(p->workloads[i].dispatch, dispatch) == 0)
			return &p->workloads[i];
	return NULL;
}

/* The plan's required workloads as "dispatch/workload" keys for the
 * winner rule. */
struct reqkeys {
	char **buf;       /* owned strings */
	const char **v;   /* the same, as the rule takes them */
	size_t n;         /* entries */
};

/* Fills k from the plan p; 0, or -1 when out of memory (k can still be
 * released). */
static int reqkeys_build(const struct loop_plan *p, struct reqkeys *k)
{
	k->n = 0;
	k->buf = calloc(p->nworkloads + 1, sizeof(*k->buf));
	k->v = calloc(p->nworkloads + 1, sizeof(*k->v));
	if (!k->buf || !k->v)
		return -1;
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct loop_workload *wl = &p->workloads[i];
		if (!wl->required)
			continue;
		size_t len = strlen(wl->dispatch) + strlen(wl->id) + 2;
		if (!(k->buf[k->n] = malloc(len)))
			return -1;
		snprintf(k->buf[k->n], len, "%s/%s", wl->dispatch, wl->id);
		k->v[k->n] = k->buf[k->n];
		k->n++;
	}
	return 0;
}

/* Frees what k holds (also a partly built k). */
static void reqkeys_release(struct reqkeys *k)
{
	for (size_t i = 0; k->buf && i < k->n; i++)
		free(k->buf[i]);
	free(k->buf);
	free(k->v);
}

int loop_winner(const struct loop_ctx *c, long n, const char *incumbent, struct stats_winner *w)
{
	char err[512];
	struct reqkeys req;
	int rc = -1;
	if (reqkeys_build(&c->plan, &req) != 0) {
		cli_error("out of memory");
		goto out;
	}
	struct stats_winner_opts wo;
	stats_winner_opts_init(&wo);
	wo.noise = c->plan.noise;
	wo.ab_threshold = c->plan.ab_threshold;
	wo.small_us = c->plan.small_us;
	wo.required = req.v;
	wo.nrequired = req.n;
	wo.incumbent_id = incumbent;
	if (stats_winner_choose(&c->st.rs, n, &wo, w, err, sizeof(err)) != 0) {
		cli_error("winner of round %ld: %s", n, err);
		goto out;
	}
	rc = 0;
out:
	reqkeys_release(&req);
	return rc;
}

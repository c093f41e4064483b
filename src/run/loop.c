/* loop.c: the tuning-loop driver: baseline, rounds, status, finish.
 *
 * Order of work in a round: refuse a bad plan before anything runs; then
 * per branch L0 once, per workload one msprof measurement, one record
 * appended per (branch, workload) as soon as it is known; then the winner
 * rule (stats/winner.h), tlab for gains that need arbitration, the round's
 * section in opt_log.md with its marker, and the termination state. A
 * crash at any point leaves records and log lines that are whole; the same
 * command run again skips what is recorded. */
#include "run/loop.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/cli_msg.h"
#include "stats/cmptable.h"
#include "io/msprof.h"
#include "stats/plateau.h"
#include "io/recwrite.h"
#include "run/run.h"
#include "io/sha256_file.h"
#include "stats/speedup.h"
#include "stats/stats.h"
#include "util/strbuf.h"
#include "model/stage_result.h"
#include "report/stage_result.h"
#include "report/term.h"
#include "stats/winner.h"
#include "report/table.h"

#define AIC_METRICS                                                                        \
	"BasicInfo,PipeUtilization,ArithmeticUtilization,Memory,MemoryUB,MemoryL0,L2Cache,"   \
	"ResourceConflictRatio"

/* ---------------------------------------------------------------- text */

/* Appends a block to opt_log.md in one locked write. */
static int log_append(const struct strbuf *b)
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

static void now_iso(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double round3(double x)
{
	return round(x * 1000.0) / 1000.0;
}

static int mkdir_p(const char *path)
{
	char buf[4096];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---------------------------------------------------------------- setup */

static int runnable(const char *prog);

struct ctx {
	struct loop_plan plan;
	struct loop_state st;
	int lockfd;
};

static void ctx_release(struct ctx *c)
{
	loop_plan_release(&c->plan);
	loop_state_release(&c->st);
	recwrite_unlock(c->lockfd);
	c->lockfd = -1;
}

/* Loads the plan (and, with lock, takes the loop lock) and the state. */
static int ctx_load(struct ctx *c, int lock)
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
static const char *record_file(const struct ctx *c, const struct record *r)
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
static const char *candidate_file(const struct ctx *c, const char *id)
{
	if (strcmp(id, "baseline") == 0)
		return c->plan.baseline;
	for (size_t i = 0; i < c->st.rs.n; i++)
		if (strcmp(c->st.rs.v[i].candidate_id, id) == 0 && c->st.rs.v[i].artifact_path)
			return record_file(c, &c->st.rs.v[i]);
	return NULL;
}

/* 1 when every workload has a valid round-0 baseline record. */
static int baseline_complete(const struct ctx *c)
{
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct record *r = loop_state_find(&c->st, &c->plan, "baseline",
							 &c->plan.workloads[i], 0);
		if (!r || !record_valid(r))
			return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- running */

/* Runs one argv (no shell) or shell line; returns the run_result status
 * folded into: 0 ok, 1 failed (message in err), 128+N interrupted. */
static int run_one(const char *line, char *const *argv, const char *log, const char *out,
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

/* L0 of one branch. Returns 0 pass, 1 fail, 2 could not start, 128+N. */
static int run_l0(const struct ctx *c, const char *impl, const char *log)
{
	char err[512];
	char *line = loop_plan_expand(c->plan.l0_cmd, impl, NULL, NULL, err, sizeof(err));
	if (!line) {
		cli_error("l0_cmd: %s", err);
		return CLI_USAGE;
	}
	int rc = run_one(line, NULL, log, NULL, (double)c->plan.timeout_s, err, sizeof(err));
	free(line);
	if (rc == 1)
		cli_note("L0 failed (%s): see '%s'", err, log);
	return rc;
}

struct meas {
	double median_us;  /* the record's duration */
	size_t launches;   /* launches behind the median */
	double util;       /* AICore utilisation (busiest pipe ratio), NAN when absent */
	double bw;         /* main-memory read+write GB/s, NAN when absent */
};

/* A leftover profile directory without a record (a crash mid-measurement)
 * is moved aside, not reused: it might hold a partial capture. */
static int set_aside(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	char to[4200];
	for (int k = 1; k < 1000; k++) {
		snprintf(to, sizeof(to), "%s.interrupted-%d", dir, k);
		if (access(to, F_OK) != 0)
			return rename(dir, to);
	}
	errno = EEXIST;
	return -1;
}

/* One msprof measurement of impl on workload w into profdir. Returns 0,
 * 1 on a failed measurement (message printed), 2 environment, 128+N. */
static int measure(const struct ctx *c, const char *impl, const struct loop_workload *w,
		   const char *profdir, const char *log, struct meas *m)
{
	char err[2600], kn[512], outarg[4200], lc[64], wu[64];
	char *line = loop_plan_expand(c->plan.bench_cmd, impl, w->id, w->dispatch, err,
				      sizeof(err));
	if (!line) {
		cli_error("bench_cmd: %s", err);
		return CLI_USAGE;
	}
	if (set_aside(profdir) != 0 || mkdir_p(profdir) != 0) {
		cli_error("cannot prepare '%s': %s", profdir, strerror(errno));
		free(line);
		return CLI_USAGE;
	}
	snprintf(kn, sizeof(kn), "--kernel-name=%s", c->plan.kernel_name);
	snprintf(outarg, sizeof(outarg), "--output=%s", profdir);
	snprintf(lc, sizeof(lc), "--launch-count=%ld", c->plan.launch_count);
	snprintf(wu, sizeof(wu), "--warm-up=%ld", c->plan.warm_up);
	char *argv[] = { c->plan.msprof, "op", kn, outarg, lc, wu, "--dump=off",
			 "--aic-metrics=" AIC_METRICS, "/bin/sh", "-c", line, NULL };
	int rc = run_one(line, argv, log, NULL, (double)c->plan.timeout_s, err, sizeof(err));
	free(line);
	if (rc != 0) {
		if (rc == 1)
			cli_error("measurement of '%s' on '%s' failed (%s): see '%s'", impl, w->id, err,
				  log);
		return rc;
	}
	struct msprof_capture cap;
	struct msprof_summary sum;
	msprof_capture_init(&cap);
	int mr = msprof_read(profdir, c->plan.kernel_name, &cap, err, sizeof(err));
	if (mr == MSPROF_OK && cap.nroots > 1) {
		/* one measurement writes one capture: another process wrote here */
		snprintf(err, sizeof(err), "'%s' holds %zu captures ('%s', '%s'), not pooled", profdir,
			 cap.nroots, cap.roots[0], cap.roots[1]);
		mr = MSPROF_EFORMAT;
	}
	if (mr != MSPROF_OK || msprof_summarize(&cap, &sum) != 0) {
		cli_error("measurement of '%s' on '%s' gave no usable profile: %s (log '%s')", impl,
			  w->id, mr != MSPROF_OK ? err : "no duration", log);
		msprof_capture_release(&cap);
		return 1;
	}
	m->median_us = round3(sum.median_us);
	m->launches = sum.launches;
	m->util = sum.max_ratio;
	m->bw = NAN;
	if (!isnan(sum.main_mem_read_bw_gbs) || !isnan(sum.main_mem_write_bw_gbs))
		m->bw = (isnan(sum.main_mem_read_bw_gbs) ? 0 : sum.main_mem_read_bw_gbs) +
			(isnan(sum.main_mem_write_bw_gbs) ? 0 : sum.main_mem_write_bw_gbs);
	msprof_capture_release(&cap);
	if (!(m->median_us > 0)) {
		cli_error("measurement of '%s' on '%s': median duration %g us is not > 0", impl, w->id,
			  sum.median_us);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- records */

struct rec_in {
	long round;
	const char *id, *parent, *phase, *impl;
	const struct loop_workload *w;
	double duration;
	int l0_pass, measured;
	const struct meas *m;    /* NULL when not measured */
	const char *profdir;     /* NULL when not measured */
	const char *l0_log;      /* NULL when L0 was not run */
};

/* v2 paths are relative to perf_opt/, v1 paths to the operator directory
 * (as the two contracts' own fixtures write them). */
static const char *contract_path(const struct ctx *c, const char *path, char *buf, size_t len)
{
	size_t n = strlen(LOOP_DIR);
	if (c->plan.contract != 2)
		return path;
	if (strncmp(path, LOOP_DIR "/", n + 1) == 0)
		return path + n + 1;
	snprintf(buf, len, "../%s", path);
	return buf;
}

/* The fields that name the kernel, workload and artifact, as contract v1
 * or v2 spells them; 0, or -1 when the artifact cannot be hashed. */
static int add_artifact_fields(const struct ctx *c, const struct rec_in *in, cJSON *o)
{
	char sha[65], abuf[4300];
	if (c->plan.contract != 2) {
		cJSON_AddStringToObject(o, "dispatch_path", in->w->dispatch);
		cJSON_AddStringToObject(o, "workload", in->w->id);
		cJSON_AddStringToObject(o, "artifact_path", in->impl);
		return 0;
	}
	cJSON_AddStringToObject(o, "kernel_id", in->w->dispatch);
	cJSON_AddStringToObject(o, "workload_id", in->w->id);
	cJSON_AddStringToObject(o, "phase", in->phase);
	cJSON_AddStringToObject(o, "artifact_path", contract_path(c, in->impl, abuf, sizeof(abuf)));
	if (sha256_file(in->impl, sha) != 0) {
		cli_error("cannot hash '%s': %s", in->impl, strerror(errno));
		return -1;
	}
	cJSON_AddStringToObject(o, "artifact_sha256", sha);
	return 0;
}

/* The measurement's fields: duration, L0, raw profile, timestamp and
 * what msprof said beside the duration. */
static void add_measure_fields(const struct ctx *c, const struct rec_in *in, cJSON *o)
{
	char ts[32], pbuf[4200], abuf[4300];
	now_iso(ts);
	cJSON_AddNumberToObject(o, "duration_us", in->duration);
	cJSON_AddBoolToObject(o, "l0_pass", in->l0_pass);
	if (in->profdir) {
		snprintf(pbuf, sizeof(pbuf), "%s/", in->profdir);
		cJSON_AddStringToObject(o, "msprof_raw_path", contract_path(c, pbuf, abuf, sizeof(abuf)));
	} else {
		cJSON_AddNullToObject(o, "msprof_raw_path");
	}
	cJSON_AddStringToObject(o, "timestamp", ts);
	if (in->m) {
		cJSON_AddNumberToObject(o, "launches", (double)in->m->launches);
		if (!isnan(in->m->util))
			cJSON_AddNumberToObject(o, "aicore_util", round(in->m->util * 1e4) / 1e4);
		if (!isnan(in->m->bw))
			cJSON_AddNumberToObject(o, "mem_bw_gbps", round(in->m->bw * 100) / 100);
	}
}

/* One record line for in appended to the records file (contract v1 or v2
 * fields); 0, or -1 with the message printed. */
static int append_record(const struct ctx *c, const struct rec_in *in)
{
	int rc = -1;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		goto out;
	cJSON_AddNumberToObject(o, "round", (double)in->round);
	cJSON_AddStringToObject(o, "candidate_id", in->id);
	if (in->parent)
		cJSON_AddStringToObject(o, "parent_id", in->parent);
	else
		cJSON_AddNullToObject(o, "parent_id");
	if (add_artifact_fields(c, in, o) != 0)
		goto out;
	add_measure_fields(c, in, o);
	if (!in->measured)
		cJSON_AddFalseToObject(o, "measured");
	if (in->l0_log)
		cJSON_AddStringToObject(o, "l0_log", in->l0_log);
	char *text = cJSON_PrintUnformatted(o);
	if (!text)
		goto out;
	if (recwrite_append(LOOP_RECORDS, text, strlen(text), RECWRITE_LINE) != 0)
		cli_error("cannot append to '%s': %s", LOOP_RECORDS, strerror(errno));
	else
		rc = 0;
	cJSON_free(text);
out:
	if (rc && !o)
		cli_error("out of memory");
	cJSON_Delete(o);
	return rc;
}

/* Reloads the records after appends (the state is derived, never kept
 * in step by hand). */
static int reload(struct ctx *c)
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

/* The record of candidate id for workload w in round `round`, or NULL. */
static const struct record *recorded(const struct ctx *c, long round, const char *id,
				     const struct loop_workload *w)
{
	for (size_t k = 0; k < c->st.rs.n; k++) {
		const struct record *r = &c->st.rs.v[k];
		if (r->round == round && strcmp(r->candidate_id, id) == 0 &&
		    strcmp(r->workload, w->id) == 0 && strcmp(r->dispatch, w->dispatch) == 0)
			return r;
	}
	return NULL;
}

/* One candidate's measurement in a round (the steps of measure_candidate
 * share it). */
struct cand_meas {
	struct ctx *c;
	long round;
	const char *id, *parent, *impl, *phase;
	int l0;                   /* L0 runs first and its log is recorded */
	char rname[64];           /* round0, round<N>, or final */
	char logdir[256];         /* perf_opt/logs/<rname> */
	char l0log[512];          /* <logdir>/<id>.log */
	struct term_progress pg;  /* one redrawn line on a terminal, plain lines otherwise */
	size_t done;              /* workloads measured so far */
};

/* The round's log folder name, made on disk, and the L0 log path; a CLI
 * code. */
static int cand_paths(struct cand_meas *cm)
{
	if (cm->round == 0)
		snprintf(cm->rname, sizeof(cm->rname), "round0");
	else if (!cm->l0) /* only finish measures a round > 0 without L0 */
		snprintf(cm->rname, sizeof(cm->rname), "final");
	else
		snprintf(cm->rname, sizeof(cm->rname), "round%ld", cm->round);
	snprintf(cm->logdir, sizeof(cm->logdir), LOOP_DIR "/logs/%s", cm->rname);
	snprintf(cm->l0log, sizeof(cm->l0log), "%s/%s.log", cm->logdir, cm->id);
	if (mkdir_p(cm->logdir) != 0) {
		cli_error("cannot create '%s': %s", cm->logdir, strerror(errno));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* What earlier runs of this command already established: how many
 * workloads have no record yet; *l0_known and *l0_ok when one has. */
static size_t cand_missing(const struct cand_meas *cm, int *l0_known, int *l0_ok)
{
	size_t missing = 0;
	for (size_t i = 0; i < cm->c->plan.nworkloads; i++) {
		const struct record *r = recorded(cm->c, cm->round, cm->id, &cm->c->plan.workloads[i]);
		if (r) {
			*l0_known = 1;
			*l0_ok = r->l0_pass;
		}
		missing += !r;
	}
	return missing;
}

/* One msprof measurement of the candidate on w into *in (m and the two
 * path buffers of 1024 bytes back it until the record is written), with
 * its progress lines. Returns a CLI code. */
static int cand_measure(struct cand_meas *cm, const struct loop_workload *w, struct rec_in *in,
			struct meas *m, char *profdir, char *blog)
{
	char wbuf[256], state[300];
	loop_path_name(w->id, wbuf, sizeof(wbuf));
	snprintf(profdir, 1024, LOOP_DIR "/profiles/%s/%s/%s", cm->rname, cm->id, wbuf);
	snprintf(blog, 1024, "%s/%s.%s.bench.log", cm->logdir, cm->id, wbuf);
	if (cm->pg.tty) {
		snprintf(state, sizeof(state), "%s on %s", cm->id, w->id);
		term_progress_step(&cm->pg, cm->done, state);
	} else {
		term_progress_line(&cm->pg, 0, "%s: measuring %s ...", cm->id, w->id);
	}
	double t_run = term_now();
	int rc = measure(cm->c, cm->impl, w, profdir, blog, m);
	term_progress_end(&cm->pg);
	if (rc != 0)
		return rc;
	term_progress_line(&cm->pg, 0, "%s: %s median %.3f us (%zu launches)", cm->id, w->id,
			   m->median_us, m->launches);
	term_progress_line(&cm->pg, 1, "  took %.1f s; log %s; profile %s", term_now() - t_run, blog,
			   profdir);
	cm->done++;
	in->duration = m->median_us;
	in->l0_pass = 1;
	in->measured = 1;
	in->m = m;
	in->profdir = profdir;
	return CLI_OK;
}

/* The record of the candidate on w (measured unless L0 failed), appended
 * and reloaded. Returns a CLI code (128+N when interrupted). */
static int cand_record(struct cand_meas *cm, const struct loop_workload *w, int l0_ok)
{
	char profdir[1024], blog[1024];
	struct rec_in in;
	struct meas m; /* in.m points here until the record is written */
	memset(&in, 0, sizeof(in));
	in.round = cm->round;
	in.id = cm->id;
	in.parent = cm->parent;
	in.phase = cm->phase;
	in.impl = cm->impl;
	in.w = w;
	in.l0_log = cm->l0 ? cm->l0log : NULL;
	if (!l0_ok) {
		/* The contract wants a duration > 0 on every line: the parent's,
		 * marked measured:false; l0_pass false keeps it out of every
		 * comparison. */
		const struct record *pr =
			loop_state_find(&cm->c->st, &cm->c->plan, cm->parent, w, cm->round - 1);
		in.duration = pr ? pr->duration_us : 1.0;
	} else {
		int rc = cand_measure(cm, w, &in, &m, profdir, blog);
		if (rc != 0)
			return rc;
	}
	if (append_record(cm->c, &in) != 0 || reload(cm->c) != 0)
		return CLI_USAGE;
	if (run_interrupted())
		return CLI_SIGNAL + run_interrupted();
	return CLI_OK;
}

/* Measures every workload of one candidate that has no record in `round`
 * yet. l0: run L0 first (when no record of the candidate in the round says
 * how L0 went). Returns a CLI code. */
static int measure_candidate(struct ctx *c, long round, const char *id, const char *parent,
			     const char *impl, const char *phase, int l0)
{
	struct cand_meas cm = { .c = c, .round = round, .id = id, .parent = parent, .impl = impl,
				.phase = phase, .l0 = l0 };
	int rc = cand_paths(&cm);
	if (rc)
		return rc;
	int l0_known = 0, l0_ok = 1;
	size_t missing = cand_missing(&cm, &l0_known, &l0_ok);
	if (missing == 0)
		return CLI_OK;
	term_progress_begin(&cm.pg, "measurement", missing);
	if (l0 && !l0_known) {
		term_progress_line(&cm.pg, 0, "%s: L0 ...", id);
		rc = run_l0(c, impl, cm.l0log);
		if (rc >= CLI_SIGNAL || rc == CLI_USAGE)
			return rc;
		l0_ok = rc == 0;
	}
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		if (recorded(c, round, id, w))
			continue;
		if ((rc = cand_record(&cm, w, l0_ok)) != 0)
			return rc;
	}
	return CLI_OK;
}

/* ---------------------------------------------------------------- tables */

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, fmt, v);
}

/* Starts a Markdown table row with up to three id cells (NULL ends the
 * list), each escaped as the one cell escaper does: "| a | b | c |". */
static void md_cells(struct strbuf *b, const char *a, const char *c2, const char *c3)
{
	const char *cells[] = { a, c2, c3 };
	strbuf_str(b, "|");
	for (size_t i = 0; i < 3 && cells[i]; i++) {
		strbuf_str(b, " ");
		strbuf_md_cell(b, cells[i]);
		strbuf_str(b, " |");
	}
}

/* The baseline table (Performance Test Data). */
static void baseline_section(const struct ctx *c, struct strbuf *b)
{
	strbuf_printf(b, "\n## Performance Test Data\n\n");
	strbuf_printf(
		b,
		"Baseline `%s` (round 0, candidate `baseline`): msprof op Task Duration, median of "
		"%ld launches after %ld warm-up.\n\n",
		c->plan.baseline, c->plan.launch_count, c->plan.warm_up);
	strbuf_printf(b,
			"| dispatch | workload | target kernel | Task Duration(us) | AICore util | "
			"memory (GB/s) | raw profile |\n|---|---|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *r = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		char u[32], m[32];
		if (!r)
			continue;
		fmt_num(u, sizeof(u), r->aicore_util, "%.2f");
		fmt_num(m, sizeof(m), r->mem_bw_gbps, "%.1f");
		md_cells(b, w->dispatch, w->id, c->plan.kernel_name);
		strbuf_printf(b, " %.3f | %s | %s | ", r->duration_us, u, m);
		strbuf_md_cell(b, r->msprof_raw_path ? r->msprof_raw_path : "—");
		strbuf_str(b, " |\n");
	}
	strbuf_printf(b, "\n" LOOP_MARKER "kind=baseline -->\n");
}

/* ---------------------------------------------------------------- commands */

/* The baseline's records: L0 first (unless a record says how it went),
 * then one measurement per workload still missing. Returns a CLI code. */
static int baseline_measure(struct ctx *c)
{
	/* The Stage 3 kernel passed precision, but L0 is cheap and a broken
	 * baseline makes every comparison meaningless. */
	if (!loop_state_has_candidate(&c->st, "baseline", 0)) {
		char log[256];
		mkdir_p(LOOP_DIR "/logs/round0");
		snprintf(log, sizeof(log), LOOP_DIR "/logs/round0/baseline.log");
		if (term_verbosity() != TERM_QUIET)
			fprintf(stderr, "baseline: L0 ...\n");
		int rc = run_l0(c, c->plan.baseline, log);
		if (rc == 1)
			cli_error("the baseline '%s' fails L0: nothing to tune against (see '%s')",
				  c->plan.baseline, log);
		if (rc)
			return rc;
	}
	return measure_candidate(c, 0, "baseline", NULL, c->plan.baseline, "baseline", 0);
}

/* The baseline's section in the log, once; a CLI code. */
static int baseline_log(const struct ctx *c)
{
	if (c->st.baseline_logged) {
		cli_note("baseline already recorded");
		return CLI_OK;
	}
	struct strbuf b = { 0 };
	baseline_section(c, &b);
	int rc = log_append(&b) ? CLI_USAGE : CLI_OK;
	free(b.s);
	return rc;
}

int loop_cmd_baseline(const struct loop_opts *o)
{
	struct ctx c;
	(void)o;
	int rc = ctx_load(&c, 1);
	if (rc)
		goto out;
	if (!is_file(c.plan.baseline)) {
		cli_error("field 'baseline': file '%s' does not exist", c.plan.baseline);
		rc = CLI_USAGE;
		goto out;
	}
	if (run_signals_install() != 0) {
		cli_error("cannot install signal handlers: %s", strerror(errno));
		rc = CLI_USAGE;
		goto out;
	}
	if (!baseline_complete(&c) && (rc = baseline_measure(&c)) != 0)
		goto out;
	if ((rc = baseline_log(&c)) != 0)
		goto out;
	printf("baseline of %s:\n", c.plan.op);
	for (size_t i = 0; i < c.plan.nworkloads; i++) {
		const struct record *r =
			loop_state_find(&c.st, &c.plan, "baseline", &c.plan.workloads[i], 0);
		printf("  %s %s: %.3f us\n", c.plan.workloads[i].dispatch, c.plan.workloads[i].id,
		       r ? r->duration_us : NAN);
	}
	printf("next: write candidates and run 'tlperf loop round 1 --branch ID=FILE ...'\n");
out:
	run_signals_restore();
	ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* ---------------------------------------------------------------- rounds */

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
static int measured_before(const struct ctx *c, const char *id, long before)
{
	for (size_t i = 0; i < c->st.rs.n; i++) {
		const struct record *r = &c->st.rs.v[i];
		if (r->round < before && strcmp(r->candidate_id, id) == 0 && record_valid(r))
			return 1;
	}
	return 0;
}

/* Everything about the branches is checked before anything runs. */
static int check_branches(const struct ctx *c, const struct loop_opts *o, long n)
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
		if (!is_file(b->file))
			return cli_usage_error("loop", "--branch '%s': file '%s' does not exist", b->id,
					       b->file);
		const char *was = candidate_file(c, b->id);
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

struct ab_outcome {
	char verdict[32];   /* B_better, A_better, tie, inconclusive, or "" */
	double gain;        /* B's gain, > 0 when B is faster (tlab's "gain") */
	double p;           /* sign test p, unrounded when tlab gave it */
	double a_us, b_us;  /* merged medians, unrounded when tlab gave them */
	char json[1200];    /* where the JSON is */
};

/* A number of o: exact.<key> (tlab's unrounded copy of a reference field)
 * when present, else the top-level <key>; NAN when neither is a number. */
static double ab_num(const cJSON *o, const char *key)
{
	const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "exact");
	const cJSON *x = cJSON_IsObject(ex) ? cJSON_GetObjectItemCaseSensitive(ex, key) : NULL;
	if (!cJSON_IsNumber(x))
		x = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* Reads a tlab JSON file; returns 0 when it holds a verdict. B's gain is
 * tlab's "gain" (> 0 when B is faster). Without it: a JSON of an older
 * tlab under ref ("protocol": "ref") had b_rel_change as the gain; the
 * reference's b_rel_change (ab_test.py, tlab now) is the opposite. */
static int read_ab(const char *path, struct ab_outcome *ab)
{
	FILE *f = fopen(path, "rb");
	char buf[1 << 16];
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	cJSON *o = cJSON_ParseWithLength(buf, n);
	int rc = -1;
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, "verdict") : NULL;
	if (cJSON_IsString(v)) {
		snprintf(ab->verdict, sizeof(ab->verdict), "%s", v->valuestring);
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(o, "gain");
		const cJSON *proto = cJSON_GetObjectItemCaseSensitive(o, "protocol");
		double rel = ab_num(o, "b_rel_change");
		if (cJSON_IsNumber(g))
			ab->gain = g->valuedouble;
		else if (cJSON_IsString(proto) && strcmp(proto->valuestring, "ref") == 0)
			ab->gain = rel;
		else
			ab->gain = -rel;
		ab->p = ab_num(o, "sign_test_p");
		ab->a_us = ab_num(o, "a_merged_median_us");
		ab->b_us = ab_num(o, "b_merged_median_us");
		rc = 0;
	}
	cJSON_Delete(o);
	return rc;
}

/* tlab's command line for one A/B run and the number strings it points
 * into. */
struct tlab_argv {
	char pairs[32], lc[32], wu[32], noise[32], tmo[32];
	char *argv[32];
};

/* Fills t: `SELF ab` with the A and B bench lines, the workdir wd (resumed
 * when it exists) and the plan's A/B settings. */
static void tlab_argv_build(const struct ctx *c, const struct loop_opts *o, char *a, char *b,
			    char *wd, struct tlab_argv *t)
{
	snprintf(t->pairs, sizeof(t->pairs), "%ld", c->plan.tlab_pairs);
	snprintf(t->lc, sizeof(t->lc), "%ld", c->plan.tlab_launch_count);
	snprintf(t->wu, sizeof(t->wu), "%ld", c->plan.tlab_warm_up);
	snprintf(t->noise, sizeof(t->noise), "%g", c->plan.noise);
	snprintf(t->tmo, sizeof(t->tmo), "%ld", c->plan.timeout_s);
	int resume = access(wd, F_OK) == 0;
	/* seq chooses how many pairs it needs; --pairs is ref's fixed count */
	char *fixed[] = { (char *)o->self, "ab", "--a-cmd", a, "--b-cmd", b, "--workdir", wd,
			  "--launch-count", t->lc, "--warm-up", t->wu, "--kernel-name",
			  c->plan.kernel_name, "--noise", t->noise, "--timeout", t->tmo, "--msprof",
			  c->plan.msprof, "--protocol", c->plan.tlab_ref ? "ref" : "seq" };
	size_t na = 0;
	for (; na < sizeof(fixed) / sizeof(fixed[0]); na++)
		t->argv[na] = fixed[na];
	if (c->plan.tlab_ref) {
		t->argv[na++] = "--pairs";
		t->argv[na++] = t->pairs;
	}
	if (resume)
		t->argv[na++] = "--resume";
	t->argv[na] = NULL;
}

/* Runs tlab (this binary, `ab`, no shell) on one workload: the incumbent's
 * bench line as A, the candidate's as B. The JSON it prints is kept in
 * perf_opt/ab_r<N>_<ID>/<workload>.json, its workdir beside it; a verdict
 * already there is reused, a partial workdir resumed. Returns a CLI code. */
static int run_tlab(const struct ctx *c, const struct loop_opts *o, long n, const char *id,
		    const char *a_impl, const char *b_impl, const struct loop_workload *w,
		    struct ab_outcome *ab)
{
	char dir[512], wd[1024], log[1024], wbuf[256], err[512];
	struct tlab_argv t;
	int rc = CLI_USAGE;
	loop_path_name(w->id, wbuf, sizeof(wbuf));
	snprintf(dir, sizeof(dir), LOOP_DIR "/ab_r%ld_%s", n, id);
	snprintf(wd, sizeof(wd), "%s/%s", dir, wbuf);
	snprintf(ab->json, sizeof(ab->json), "%s/%s.json", dir, wbuf);
	snprintf(log, sizeof(log), "%s/%s.log", dir, wbuf);
	if (read_ab(ab->json, ab) == 0)
		return CLI_OK;
	char *a = loop_plan_expand(c->plan.bench_cmd, a_impl, w->id, w->dispatch, err, sizeof(err));
	char *b = loop_plan_expand(c->plan.bench_cmd, b_impl, w->id, w->dispatch, err, sizeof(err));
	if (!a || !b) {
		cli_error("bench_cmd: %s", err);
		goto out;
	}
	if (mkdir_p(dir) != 0) {
		cli_error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	tlab_argv_build(c, o, a, b, wd, &t);
	if (term_verbosity() != TERM_QUIET)
		fprintf(stderr, "%s: A/B against the current best on %s (tlab --protocol %s) ...\n",
			id, w->id, c->plan.tlab_ref ? "ref" : "seq");
	rc = run_one("tlab", t.argv, log, ab->json, 0, err, sizeof(err));
	if (rc >= CLI_SIGNAL)
		goto out;
	if (read_ab(ab->json, ab) != 0) {
		cli_error("tlab gave no verdict (%s): see '%s' and '%s'", rc ? err : "no JSON", log,
			  ab->json);
		rc = CLI_FAIL;
		goto out;
	}
	rc = CLI_OK;
out:
	free(a);
	free(b);
	return rc;
}

/* The "candidate vs current best" table of round n (stats/cmptable.h),
 * with the adopted version as the incumbent. */
static int round_table(const struct ctx *c, long n, const char *incumbent, struct strbuf *b)
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
static const char *termination(const struct ctx *c, long n, const char *best, long *flat)
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

static const struct loop_workload *plan_key(const struct loop_plan *p, const char *dispatch,
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

/* One round's decision in the making (the steps of decide_round share it). */
struct round_dec {
	struct ctx *c;
	const struct loop_opts *o;
	long n;                 /* the round */
	struct stats_winner w;  /* the winner rule's answer */
	struct strbuf b;        /* the round's section of opt_log.md */
	char incumbent[128];    /* the current best before the round */
	char best[128];         /* the current best after it */
	char decision[32];      /* the decision's name */
};

/* Runs the winner rule on round d->n into d->w; 0, or -1 (message
 * printed). */
static int choose_winner(struct round_dec *d)
{
	char err[512];
	struct reqkeys req;
	int rc = -1;
	if (reqkeys_build(&d->c->plan, &req) != 0) {
		cli_error("out of memory");
		goto out;
	}
	struct stats_winner_opts wo;
	stats_winner_opts_init(&wo);
	wo.noise = d->c->plan.noise;
	wo.ab_threshold = d->c->plan.ab_threshold;
	wo.small_us = d->c->plan.small_us;
	wo.required = req.v;
	wo.nrequired = req.n;
	wo.incumbent_id = d->incumbent;
	if (stats_winner_choose(&d->c->st.rs, d->n, &wo, &d->w, err, sizeof(err)) != 0) {
		cli_error("winner of round %ld: %s", d->n, err);
		goto out;
	}
	rc = 0;
out:
	reqkeys_release(&req);
	return rc;
}

/* 1 when record i is the first of its candidate in round n. */
static int first_of_candidate(const struct ctx *c, size_t i, long n)
{
	const struct record *r = &c->st.rs.v[i];
	for (size_t j = 0; j < i; j++)
		if (c->st.rs.v[j].round == n && strcmp(c->st.rs.v[j].candidate_id, r->candidate_id) == 0)
			return 0;
	return 1;
}

/* The round's heading, its base and one line per branch. */
static void branches_section(const struct round_dec *d, struct strbuf *b)
{
	const struct ctx *c = d->c;
	long n = d->n;
	if (n == 1)
		strbuf_printf(b, "\n## Iteration Log\n");
	strbuf_printf(b, "\n### Round %ld\n\n", n);
	strbuf_printf(b, "Base: current best `%s` (`%s`). Branches:\n\n", d->incumbent,
		      candidate_file(c, d->incumbent) ? candidate_file(c, d->incumbent) : "?");
	for (size_t i = 0; i < c->st.rs.n; i++) {
		const struct record *r = &c->st.rs.v[i];
		if (r->round != n || !first_of_candidate(c, i, n))
			continue;
		char l0log[512];
		snprintf(l0log, sizeof(l0log), LOOP_DIR "/logs/round%ld/%s.log", n, r->candidate_id);
		strbuf_printf(b, "- `%s`: `%s` (parent `%s`), L0 %s (log `%s`)%s\n", r->candidate_id,
			      record_file(c, r) ? record_file(c, r) : "?",
			      r->parent_id ? r->parent_id : "—", r->l0_pass ? "pass" : "FAIL", l0log,
			      r->l0_pass ? "" : ": not measured");
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
			strbuf_printf(b, "not comparable (L0 failed or a required workload is missing)\n");
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

/* Runs tlab on every required key of cd that needs A/B: a line each in
 * the section and on stdout, the verdicts into *t. Returns a CLI code. */
static int arbitrate_keys(struct round_dec *d, const struct stats_winner_candidate *cd,
			  struct ab_tally *t)
{
	const struct ctx *c = d->c;
	const char *a_impl = candidate_file(c, d->incumbent);
	const char *b_impl = candidate_file(c, cd->candidate_id);
	for (size_t k = 0; k < d->w.nrequired; k++) {
		if (!cd->keys[k].needs_ab)
			continue;
		const struct stats_key *key = &d->w.ks.v[cd->keys[k].key];
		const struct loop_workload *wl = plan_key(&c->plan, key->dispatch, key->workload);
		if (!wl || !a_impl || !b_impl)
			continue;
		struct ab_outcome ab;
		memset(&ab, 0, sizeof(ab));
		int rc = run_tlab(c, d->o, d->n, cd->candidate_id, a_impl, b_impl, wl, &ab);
		if (rc)
			return rc;
		t->ran++;
		strbuf_printf(&d->b,
			      "- %s: verdict **%s**, A %.3f us, B %.3f us (B gain %+.2f%%), sign test "
			      "p %.4g (`%s`)\n",
			      wl->id, ab.verdict, ab.a_us, ab.b_us, 100 * ab.gain, ab.p, ab.json);
		if (strcmp(ab.verdict, "B_better") != 0)
			t->all_b = 0;
		if (strcmp(ab.verdict, "A_better") == 0)
			t->any_a = 1;
		size_t used = strlen(t->verdicts);
		snprintf(t->verdicts + used, sizeof(t->verdicts) - used, "%s%s", used ? "," : "",
			 ab.verdict);
		printf("A/B %s on %s: %s (B gain %+.2f%%, sign test p %.4g)\n", cd->candidate_id,
		       wl->id, ab.verdict, 100 * ab.gain, ab.p);
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
		      d->c->plan.tlab_ref ? "ref" : "seq", d->incumbent, cd->candidate_id);
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
 * section appended to the log, the decision and state on stdout (coloured
 * on a terminal, report/term.h). Returns a CLI code. */
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
	if (log_append(&d->b) != 0)
		return CLI_USAGE;
	printf("round %ld: decision %s%s%s; current best %s\n", n,
	       term_sgr(stdout, term_verdict_style(d->decision)), d->decision,
	       term_sgr(stdout, TERM_RESET), d->best);
	printf("state: %s%s%s\n", term_sgr(stdout, term_verdict_style(state)), state,
	       term_sgr(stdout, TERM_RESET));
	return CLI_OK;
}

/* Decides round n, runs tlab when asked, writes the section. */
static int decide_round(struct ctx *c, const struct loop_opts *o, long n)
{
	struct round_dec d = { .c = c, .o = o, .n = n };
	snprintf(d.incumbent, sizeof(d.incumbent), "%s", c->st.best);
	snprintf(d.best, sizeof(d.best), "%s", c->st.best);
	if (choose_winner(&d) != 0)
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
static int round_decided(const struct ctx *c, const struct loop_opts *o, long n, long next)
{
	int all = 1;
	for (size_t i = 0; i < o->nbranches; i++)
		all &= loop_state_has_candidate(&c->st, o->branches[i].id, n);
	if (!all)
		return cli_usage_error("loop", "round %ld is decided already; the next round is %ld", n,
				       next);
	for (size_t i = 0; i < c->st.nrounds; i++)
		if (c->st.rounds[i].round == n)
			printf("round %ld: decision %s; current best %s\nstate: %s\n", n,
			       c->st.rounds[i].decision, c->st.rounds[i].best, c->st.rounds[i].state);
	cli_note("round %ld was decided already: nothing to do", n);
	return -1;
}

/* 1 when round n has a record. */
static int round_has_records(const struct ctx *c, long n)
{
	int any = 0;
	for (size_t i = 0; i < c->st.rs.n; i++)
		any |= c->st.rs.v[i].round == n;
	return any;
}

/* Whether round n can run with o's branches: CLI_OK, a CLI error code, or
 * -1 when it was decided already and there is nothing to do. */
static int round_startable(const struct ctx *c, const struct loop_opts *o, long n)
{
	if (c->st.finishing) {
		cli_error("the loop is finished (Final Summary in '%s'); no more rounds", LOOP_LOG);
		return CLI_USAGE;
	}
	if (!baseline_complete(c) || !c->st.baseline_logged) {
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
	struct ctx c;
	long n = o->round;
	int rc = ctx_load(&c, 1);
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
		snprintf(pbuf, sizeof(pbuf), "%s", parent); /* reload frees c.st */
		rc = measure_candidate(&c, n, b->id, pbuf, b->file, "candidate", 1);
		if (rc)
			goto out;
	}
	rc = decide_round(&c, o, n);
out:
	if (rc >= CLI_SIGNAL)
		cli_error("interrupted: what was measured is recorded; run the same command again to "
			  "resume");
	run_signals_restore();
	ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* ---------------------------------------------------------------- status */

static const char *next_action(const struct ctx *c, const char *state, char *buf, size_t len)
{
	if (c->st.finished)
		snprintf(buf, len, "done: the Final Summary is in %s; run 'tlgate %s'", LOOP_LOG,
			 LOOP_DIR);
	else if (c->st.finishing)
		snprintf(buf, len, "resume the final measurement: tlperf loop finish");
	else if (!baseline_complete(c) || !c->st.baseline_logged)
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
				 c->st.best, candidate_file(c, c->st.best) ? candidate_file(c, c->st.best) : "?",
				 c->st.last_decided + 1);
		else
			snprintf(buf, len, "%s: run 'tlperf loop finish'", state);
	}
	return buf;
}

/* What loop status shows, gathered once for its two formats. */
struct status_view {
	const struct ctx *c;
	const char *state;  /* the last round's state ("continue" before any) */
	long flat;          /* rounds without a gain above noise */
	long maxr;          /* the last round whose best counts */
	char next[1024];    /* the next action */
};

/* loop status --json (schema tlperf/loop-status/v1) on stdout. */
static void status_json(const struct status_view *v)
{
	const struct ctx *c = v->c;
	cJSON *j = cJSON_CreateObject(), *best = NULL;
	cJSON_AddStringToObject(j, "schema", "tlperf/loop-status/v1");
	cJSON_AddStringToObject(j, "op", c->plan.op);
	cJSON_AddBoolToObject(j, "baseline", baseline_complete(c) && c->st.baseline_logged);
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
	const struct ctx *c = v->c;
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
	const struct ctx *c = v->c;
	printf("operator: %s (plan %s, contract v%d)\n", c->plan.op, LOOP_PLAN, c->plan.contract);
	printf("rounds: %ld of %ld; branches: %ld of %ld\n", c->st.last_decided, c->plan.max_rounds,
	       c->st.experiments, c->plan.max_experiments);
	printf("rounds without a gain above noise (%.1f%%): %ld (plateau at %d)\n",
	       100 * c->plan.noise, v->flat, STATS_PLATEAU_WINDOW);
	printf("current best: %s (%s)\n", c->st.best,
	       candidate_file(c, c->st.best) ? candidate_file(c, c->st.best) : "?");
	for (size_t i = 0; i < c->plan.nworkloads; i++)
		status_workload(v, &c->plan.workloads[i]);
	printf("state: %s\n", c->st.finished ? "finished" : v->state);
	printf("next: %s\n", v->next);
}

int loop_cmd_status(const struct loop_opts *o)
{
	struct ctx c;
	int rc = ctx_load(&c, 0);
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
	ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* ---------------------------------------------------------------- finish */

static int copy_file(const char *from, const char *to)
{
	char tmp[4200], buf[65536];
	int rc = -1, in = -1, out = -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", to);
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		goto done;
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto done;
		}
		for (ssize_t at = 0; at < n;) {
			ssize_t w = write(out, buf + at, (size_t)(n - at));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				goto done;
			}
			at += w;
		}
	}
	if (fsync(out) != 0)
		goto done;
	if (close(out) != 0) {
		out = -1;
		goto done;
	}
	out = -1;
	rc = rename(tmp, to);
done:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (rc)
		unlink(tmp);
	return rc;
}

static int same_content(const char *a, const char *b)
{
	char ha[65], hb[65];
	return sha256_file(a, ha) == 0 && sha256_file(b, hb) == 0 && strcmp(ha, hb) == 0;
}

/* The final record of workload w: the best's record of round fr. */
static const struct record *final_record(const struct ctx *c, long fr, const char *best,
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

/* The Final Summary's head: the best and one latency block per workload;
 * 0, or -1 when a final or baseline record is missing. */
static int summary_latencies(const struct ctx *c, long fr, const char *best,
			     const char *final_file, struct strbuf *b)
{
	strbuf_printf(b, "\n## Final Summary\n\n");
	strbuf_printf(b, "- best: %s (`%s`, copied to `%s`)%s\n", best,
		      candidate_file(c, best) ? candidate_file(c, best) : "?", final_file,
		      strcmp(best, "baseline") == 0 ? " — nothing was adopted, the baseline stays" : "");
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *f = final_record(c, fr, best, w);
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		if (!f || !b0) {
			cli_error("final record of '%s' missing", w->id);
			return -1;
		}
		strbuf_printf(b, "- %s: final_latency: %.3f us\n", w->id, f->duration_us);
		strbuf_printf(b, "- %s: baseline_latency: %.3f us\n", w->id, b0->duration_us);
		strbuf_printf(b, "- %s: improvement: %.1f%%\n", w->id,
			      100 * (b0->duration_us - f->duration_us) / b0->duration_us);
	}
	return 0;
}

/* The multi-dispatch speedup table: one row per key, one geomean row per
 * dispatch and one for all. */
static void summary_speedups(const struct stats_speedup *sp, struct strbuf *b)
{
	strbuf_printf(b, "\nMulti-dispatch speedups (baseline / final, from perf_records.jsonl):\n\n");
	strbuf_printf(b, "| dispatch | workload | baseline_us | final_us | speedup |\n"
			 "|---|---|---:|---:|---:|\n");
	for (size_t i = 0; i < sp->nkeys; i++) {
		const struct stats_speedup_key *k = &sp->keys[i];
		if (!k->baseline || !k->final)
			continue;
		md_cells(b, k->dispatch, k->workload, NULL);
		strbuf_printf(b, " %.3f | %.3f | %.3fx%s |\n", k->baseline->duration_us,
			      k->final->duration_us, k->speedup, k->regression ? " (regression)" : "");
	}
	for (size_t g = 0; g < sp->ngroups; g++) {
		md_cells(b, sp->groups[g].dispatch, NULL, NULL);
		strbuf_printf(b, " geomean (%zu) | | | %.3fx |\n", sp->groups[g].nused,
			      sp->groups[g].geomean_speedup);
	}
	strbuf_printf(b, "| all | geomean (%zu) | | | %.3fx |\n\n", sp->nused, sp->geomean_speedup);
}

/* v2: the Final Performance Test Data table (baseline and final per key). */
static void summary_final_data(const struct ctx *c, long fr, const char *best, struct strbuf *b)
{
	strbuf_printf(b, "\n## Final Performance Test Data\n\n");
	strbuf_printf(b, "| kernel_id | workload_id | baseline_us | final_us | final_candidate_id |\n"
			 "|---|---|---:|---:|---|\n");
	for (size_t i = 0; i < c->plan.nworkloads; i++) {
		const struct loop_workload *w = &c->plan.workloads[i];
		const struct record *b0 = loop_state_find(&c->st, &c->plan, "baseline", w, 0);
		const struct record *f = final_record(c, fr, best, w);
		md_cells(b, w->dispatch, w->id, NULL);
		strbuf_printf(b, " %.3f | %.3f | ", b0->duration_us, f->duration_us);
		strbuf_md_cell(b, best);
		strbuf_str(b, " |\n");
	}
}

/* The Final Summary: every number comes from the records just written;
 * speedups and their geometric means from stats/speedup.h. */
static int final_summary(struct ctx *c, long fr, const char *best, const char *final_file,
			 const char *stop)
{
	struct strbuf b = { 0 };
	struct stats_speedup sp;
	if (stats_speedup_compute(&c->st.rs, best, &sp) != 0) {
		cli_error("speedups of '%s': %s", best, strerror(errno));
		return -1;
	}
	int rc = summary_latencies(c, fr, best, final_file, &b);
	if (rc)
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
		summary_final_data(c, fr, best, &b);
	strbuf_printf(&b, "\n" LOOP_MARKER "kind=final round=%ld best=%s stop=%s -->\n", fr, best,
		      stop);
	rc = log_append(&b);
	if (rc == 0) {
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
static int write_inventory(const struct ctx *c, long fr, const char *best)
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
		const struct record *f = final_record(c, fr, best, w);
		int gain = b0 && f && f->duration_us < b0->duration_us * (1 - c->plan.noise);
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

static int run_gate(const struct loop_opts *o)
{
	char err[256];
	const char *log = LOOP_DIR "/logs/gate.log";
	char *argv[] = { (char *)o->self, "gate", LOOP_DIR, NULL };
	mkdir_p(LOOP_DIR "/logs");
	int rc = run_one("tlgate", argv, log, NULL, 0, err, sizeof(err));
	FILE *f = fopen(log, "r");
	if (f) {
		char line[4096];
		while (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		fclose(f);
	}
	if (rc == 0) {
		printf("gate: passed (tlgate %s)\n", LOOP_DIR);
		return CLI_OK;
	}
	if (rc >= CLI_SIGNAL)
		return rc;
	cli_error("the gate does not pass on '%s' (%s): see '%s'", LOOP_DIR, err, log);
	return CLI_FAIL;
}

/* ---------------------------------------------------------------- stage result */

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
static void sr_head(const struct ctx *c, const char *rel, struct sr_fill *f)
{
	char proj[256];
	project_name(proj);
	sr_put(f, SR_STAGE, NULL, "4");
	sr_put(f, SR_PROJECT, NULL, "%s", proj);
	sr_put(f, SR_OPERATOR, NULL, "%s", c->plan.op);
	sr_put(f, SR_OUTPUT, NULL, "%s" LOOP_DIR "/%s.py", rel, c->plan.op);
	sr_put(f, SR_LOG, NULL, "%s" LOOP_LOG, rel);
	if (is_file("Optimize.md"))
		sr_put(f, SR_SUMMARY_DOC, NULL, "%sOptimize.md", rel);
	else
		sr_put(f, SR_SUMMARY_DOC, NULL, "none");
	sr_put(f, SR_VERDICT, NULL, "TUNING_COMPLETED");
	int dl = is_file(LOOP_DIR "/perf_feedback.md");
	sr_put(f, SR_DESIGN_LIMIT_SIGNAL, NULL, "%s", dl ? "[DESIGN_LIMIT]" : "none");
	if (dl)
		sr_put(f, SR_PERF_FEEDBACK, NULL, "%s" LOOP_DIR "/perf_feedback.md", rel);
	else
		sr_put(f, SR_PERF_FEEDBACK, NULL, "none");
	sr_put(f, SR_ITERATIONS, NULL, "%ld", c->st.final_round - 1);
	sr_put(f, SR_PRIMARY_METRIC, NULL, "msprof_task_duration");
}

/* The baseline latencies of every workload, then the final ones (named
 * per workload when there are several); 0, or -1 when a record is
 * missing. */
static int sr_latencies(const struct ctx *c, struct sr_fill *f)
{
	size_t nw = c->plan.nworkloads;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nw; i++) {
			const struct loop_workload *w = &c->plan.workloads[i];
			const struct record *r =
				pass == 0 ? loop_state_find(&c->st, &c->plan, "baseline", w, 0)
					  : final_record(c, c->st.final_round, c->st.best, w);
			if (!r) {
				cli_error("no %s record of '%s'", pass ? "final" : "baseline", w->id);
				return -1;
			}
			sr_put(f, pass ? SR_FINAL_LATENCY : SR_BASELINE_LATENCY, nw > 1 ? w->id : NULL,
			       "%.3f us", r->duration_us);
		}
	return 0;
}

/* The Stage Result of a finished loop: every field of the seed in its
 * order; what the loop cannot know is an explicit `none` the agent fills. */
static int stage_result_build(const struct ctx *c, struct stage_result *sr)
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

/* Prints the Stage Result (Markdown or JSON) and keeps a Markdown copy in
 * perf_opt/logs/stage_result.md: written when absent, left alone when it
 * holds the same text or was edited since (the agent fills the `none`
 * placeholders there). */
static int stage_result_emit(const struct ctx *c, int json)
{
	struct stage_result sr;
	char *md = NULL, *js = NULL;
	int rc = -1;
	stage_result_init(&sr);
	if (stage_result_build(c, &sr) != 0)
		goto out;
	md = report_stage_result_markdown(&sr);
	js = json ? report_stage_result_json(&sr) : NULL;
	if (!md || (json && !js)) {
		cli_error("out of memory");
		goto out;
	}
	fputs(json ? js : md, stdout);
	if (mkdir_p(LOOP_DIR "/logs") != 0) {
		cli_error("cannot create '%s': %s", LOOP_DIR "/logs", strerror(errno));
		goto out;
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
			goto out;
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
		goto out;
	}
	rc = 0;
out:
	free(md);
	free(js);
	stage_result_release(&sr);
	return rc;
}

int loop_cmd_report(const struct loop_opts *o)
{
	struct ctx c;
	int rc = ctx_load(&c, 0);
	if (rc)
		goto out;
	if (!c.st.finished) {
		cli_error("the loop is not finished (no Final Summary in '%s'): run 'tlperf loop finish' first",
			  LOOP_LOG);
		rc = CLI_USAGE;
		goto out;
	}
	rc = stage_result_emit(&c, o->json) == 0 ? CLI_OK : CLI_USAGE;
out:
	ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* The final round fr's starting point: no undecided round left, the
 * current best and the stop reason (stop, 32 bytes) taken, the best's
 * file copied to final_file. Returns a CLI code. */
static int finish_prepare(const struct ctx *c, long fr, char *best, size_t blen, char *stop,
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
	const char *src = candidate_file(c, best);
	if (!src || !is_file(src)) {
		cli_error("the current best '%s' has no kernel file ('%s')", best, src ? src : "?");
		return CLI_USAGE;
	}
	if (!same_content(src, final_file) && copy_file(src, final_file) != 0) {
		cli_error("cannot copy '%s' to '%s': %s", src, final_file, strerror(errno));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The finishing marker of round fr in the log (once), the state reloaded;
 * a CLI code. */
static int finish_mark(struct ctx *c, long fr, const char *best)
{
	if (c->st.finishing)
		return CLI_OK;
	struct strbuf b = { 0 };
	strbuf_printf(&b, "\n" LOOP_MARKER "kind=finishing round=%ld best=%s -->\n", fr, best);
	int lr = log_append(&b);
	free(b.s);
	return lr || reload(c) ? CLI_USAGE : CLI_OK;
}

/* The final round: the best copied to final_file and measured once more,
 * the Final Summary and (v2) the inventory written. Returns a CLI code. */
static int finish_round(struct ctx *c, const char *final_file)
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
	rc = measure_candidate(c, fr, best, best, final_file,
			       c->plan.contract == 2 ? "final" : "candidate", 0);
	if (rc)
		return rc;
	if (final_summary(c, fr, best, final_file, stop) != 0)
		return CLI_USAGE;
	if (c->plan.contract == 2 && write_inventory(c, fr, best) != 0)
		return CLI_USAGE;
	cli_note("write the Skill Retrospective section of '%s' yourself", LOOP_LOG);
	return CLI_OK;
}

int loop_cmd_finish(const struct loop_opts *o)
{
	struct ctx c;
	char final_file[512];
	int rc = ctx_load(&c, 1);
	if (rc)
		goto out;
	if (!baseline_complete(&c) || !c.st.baseline_logged) {
		cli_error("no complete baseline yet: run 'tlperf loop baseline' first");
		rc = CLI_USAGE;
		goto out;
	}
	snprintf(final_file, sizeof(final_file), LOOP_DIR "/%s.py", c.plan.op);
	if (!c.st.finished) {
		if ((rc = finish_round(&c, final_file)) != 0)
			goto out;
	} else {
		cli_note("the Final Summary is written already; running the gate only");
	}
	rc = o->no_gate ? CLI_OK : run_gate(o);
	if (rc == CLI_OK || rc == CLI_FAIL) {
		int rr = reload(&c);
		if (rr == 0 && c.st.finished) {
			putchar('\n');
			if (stage_result_emit(&c, 0) != 0 && rc == CLI_OK)
				rc = CLI_USAGE;
		}
	}
out:
	run_signals_restore();
	ctx_release(&c);
	return cli_finish_stdout(rc);
}

/* loop_measure.c: one candidate measured: L0 once, then per workload one
 * msprof measurement and one record appended as soon as it is known (v1
 * or v2 fields), with progress lines. A crash at any point leaves whole
 * records; the same command run again measures only what has none. */
#include "run/loop_steps.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/fileops.h"
#include "io/msprof.h"
#include "io/recwrite.h"
#include "report/term.h"
#include "run/run.h"
#include "io/cli_msg.h"
#include "io/sha256_file.h"

#define AIC_METRICS                                                                        \
	"BasicInfo,PipeUtilization,ArithmeticUtilization,Memory,MemoryUB,MemoryL0,L2Cache,"   \
	"ResourceConflictRatio"

/* Now in UTC to the millisecond: each record's stamp dates its own
 * measurement, so two measurements never share one (S4-PERF-RECORDS-TIME-DUP
 * compares stamps to the second or finer). */
static void now_iso(char out[32])
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000L);
}

static double round3(double x)
{
	return round(x * 1000.0) / 1000.0;
}

int loop_run_l0(const struct loop_ctx *c, const char *impl, const char *log)
{
	char err[512];
	char *line = loop_plan_expand(c->plan.l0_cmd, impl, NULL, NULL, err, sizeof(err));
	if (!line) {
		cli_error("l0_cmd: %s", err);
		return CLI_USAGE;
	}
	int rc = loop_run_one(line, NULL, log, NULL, (double)c->plan.timeout_s, err, sizeof(err));
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
	char why[600];     /* a failed measurement: what failed (one line) */
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

/* The bench of impl on w run under msprof into profdir. Returns 0, 1 on a
 * failed run (m->why set, message printed), 2 environment, 128+N. */
static int bench_run(const struct loop_ctx *c, const char *impl, const struct loop_workload *w,
		     const char *profdir, const char *log, struct meas *m)
{
	char err[2600], kn[512], outarg[4200], lc[64], wu[64];
	char *line = loop_plan_expand(c->plan.bench_cmd, impl, w->id, w->dispatch, err,
				      sizeof(err));
	if (!line) {
		cli_error("bench_cmd: %s", err);
		return CLI_USAGE;
	}
	if (set_aside(profdir) != 0 || fileops_mkdir_p(profdir) != 0) {
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
	int rc = loop_run_one(line, argv, log, NULL, (double)c->plan.timeout_s, err, sizeof(err));
	free(line);
	if (rc == 1) {
		snprintf(m->why, sizeof(m->why), "the bench failed (%.500s)", err);
		cli_error("measurement of '%s' on '%s' failed (%s): see '%s'", impl, w->id, err, log);
	}
	return rc;
}

/* The capture in profdir summarised into *m. Returns 0, or 1 when it
 * holds no usable duration (m->why set, message printed). */
static int profile_read(const struct loop_ctx *c, const char *impl, const struct loop_workload *w,
			const char *profdir, const char *log, struct meas *m)
{
	char err[2600];
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
		snprintf(m->why, sizeof(m->why), "no usable profile: %.500s",
			 mr != MSPROF_OK ? err : "no duration");
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
		snprintf(m->why, sizeof(m->why), "median duration %g us is not > 0", sum.median_us);
		cli_error("measurement of '%s' on '%s': median duration %g us is not > 0", impl, w->id,
			  sum.median_us);
		return 1;
	}
	return 0;
}

/* One msprof measurement of impl on workload w into profdir. Returns 0,
 * 1 on a failed measurement (m->why set, message printed), 2 environment,
 * 128+N. */
static int measure(const struct loop_ctx *c, const char *impl, const struct loop_workload *w,
		   const char *profdir, const char *log, struct meas *m)
{
	int rc = bench_run(c, impl, w, profdir, log, m);
	return rc ? rc : profile_read(c, impl, w, profdir, log, m);
}

struct rec_in {
	long round;
	const char *id, *parent, *phase, *impl;
	const struct loop_workload *w;
	double duration;
	int l0_pass, measured;
	const struct meas *m;    /* NULL when not measured */
	const char *profdir;     /* NULL when not measured */
	const char *l0_log;      /* NULL when L0 was not run */
	const char *failure;     /* a failed measurement: why (NULL: none) */
	const char *bench_log;   /* ... and the log that says more */
};

/* v2 paths are relative to perf_opt/, v1 paths to the operator directory
 * (as the two contracts' own fixtures write them). */
static const char *contract_path(const struct loop_ctx *c, const char *path, char *buf, size_t len)
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
static int add_artifact_fields(const struct loop_ctx *c, const struct rec_in *in, cJSON *o)
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
static void add_measure_fields(const struct loop_ctx *c, const struct rec_in *in, cJSON *o)
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
static int append_record(const struct loop_ctx *c, const struct rec_in *in)
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
	if (in->failure) {
		cJSON_AddStringToObject(o, "failure", in->failure);
		cJSON_AddStringToObject(o, "bench_log", in->bench_log);
	}
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

/* The record of candidate id for workload w in round `round`, or NULL. */
static const struct record *recorded(const struct loop_ctx *c, long round, const char *id,
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

/* One candidate's measurement in a round (the steps of loop_measure_candidate
 * share it). */
struct cand_meas {
	struct loop_ctx *c;
	long round;
	const char *id, *parent, *impl, *phase;
	int l0;                   /* L0 runs first and its log is recorded */
	char rname[64];           /* round0, round<N>, or final */
	char logdir[256];         /* perf_opt/logs/<rname> */
	char l0log[512];          /* <logdir>/<id>.log */
	struct term_progress pg;  /* one redrawn line on a terminal, plain lines otherwise */
	size_t done;              /* workloads measured so far */
	int failed;               /* a measurement of the branch failed: the rest is not run */
	char why[700];            /* ... what failed */
	char blog[1024];          /* ... and its log */
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
	if (fileops_mkdir_p(cm->logdir) != 0) {
		cli_error("cannot create '%s': %s", cm->logdir, strerror(errno));
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* What earlier runs of this command already established: how many
 * workloads have no record yet; *l0_known and *l0_ok when one has, and
 * cm->failed when a measurement of the branch failed. */
static size_t cand_missing(struct cand_meas *cm, int *l0_known, int *l0_ok)
{
	size_t missing = 0;
	for (size_t i = 0; i < cm->c->plan.nworkloads; i++) {
		const struct loop_workload *w = &cm->c->plan.workloads[i];
		const struct record *r = recorded(cm->c, cm->round, cm->id, w);
		if (r) {
			*l0_known = 1;
			*l0_ok = r->l0_pass;
			if (r->l0_pass && r->not_measured && !cm->failed) {
				cm->failed = 1;
				snprintf(cm->why, sizeof(cm->why),
					 "not measured: the measurement on '%s' failed", w->id);
				loop_bench_log(cm->round, cm->id, w, cm->blog, sizeof(cm->blog));
			}
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
	if (cm->l0)
		loop_bench_log(cm->round, cm->id, w, blog, 1024);
	else
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

/* The record of the candidate on w (measured unless L0 or an earlier
 * measurement of the branch failed), appended and reloaded. A failed
 * measurement of a round's branch is recorded (measured:false, failure,
 * bench_log) and the branch measured no further. Returns a CLI code (128+N
 * when interrupted). */
static int cand_record(struct cand_meas *cm, const struct loop_workload *w, int l0_ok)
{
	char profdir[1024], blog[1024];
	struct rec_in in;
	struct meas m; /* in.m points here until the record is written */
	m.why[0] = '\0';
	memset(&in, 0, sizeof(in));
	in.round = cm->round;
	in.id = cm->id;
	in.parent = cm->parent;
	in.phase = cm->phase;
	in.impl = cm->impl;
	in.w = w;
	in.l0_log = cm->l0 ? cm->l0log : NULL;
	int rc = l0_ok && !cm->failed ? cand_measure(cm, w, &in, &m, profdir, blog) : CLI_OK;
	if (rc == CLI_FAIL && cm->l0) {
		/* a branch of a round: recorded as failed, the round goes on */
		cm->failed = 1;
		snprintf(cm->why, sizeof(cm->why), "%s", m.why);
		snprintf(cm->blog, sizeof(cm->blog), "%s", blog);
		in.failure = m.why;
		in.bench_log = blog;
	} else if (rc != CLI_OK) {
		return rc;
	} else if (cm->failed && l0_ok) {
		in.failure = cm->why;
		in.bench_log = cm->blog;
	}
	if (!in.measured) {
		/* The contract wants a duration > 0 on every line: the parent's,
		 * marked measured:false; l0_pass false (or measured:false with a
		 * failure) keeps it out of every comparison. */
		const struct record *pr =
			loop_state_find(&cm->c->st, &cm->c->plan, cm->parent, w, cm->round - 1);
		in.m = NULL;
		in.profdir = NULL;
		in.l0_pass = l0_ok;
		in.duration = pr ? pr->duration_us : 1.0;
	}
	if (append_record(cm->c, &in) != 0 || loop_reload(cm->c) != 0)
		return CLI_USAGE;
	if (run_interrupted())
		return CLI_SIGNAL + run_interrupted();
	return CLI_OK;
}

/* Measures every workload of one candidate that has no record in `round`
 * yet. l0: run L0 first (when no record of the candidate in the round says
 * how L0 went). Returns a CLI code. */
int loop_measure_candidate(struct loop_ctx *c, long round, const char *id, const char *parent,
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
		rc = loop_run_l0(c, impl, cm.l0log);
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

int loop_measure_again(struct loop_ctx *c, long round, const char *id, const char *impl,
		       const char *phase, const struct loop_workload *w)
{
	struct cand_meas cm = { .c = c, .round = round, .id = id, .parent = id, .impl = impl,
				.phase = phase, .l0 = 0 };
	int k = 1;
	for (size_t i = 0; i < c->st.rs.n; i++) {
		const struct record *r = &c->st.rs.v[i];
		k += r->round == round && strcmp(r->candidate_id, id) == 0 &&
		     strcmp(r->workload, w->id) == 0 && strcmp(r->dispatch, w->dispatch) == 0;
	}
	snprintf(cm.rname, sizeof(cm.rname), "final%d", k);
	snprintf(cm.logdir, sizeof(cm.logdir), LOOP_DIR "/logs/%s", cm.rname);
	snprintf(cm.l0log, sizeof(cm.l0log), "%s/%s.log", cm.logdir, cm.id);
	if (fileops_mkdir_p(cm.logdir) != 0) {
		cli_error("cannot create '%s': %s", cm.logdir, strerror(errno));
		return CLI_USAGE;
	}
	term_progress_begin(&cm.pg, "measurement", 1);
	return cand_record(&cm, w, 1);
}
